"""Narration: the text per beat, the cache, recordings, and beats that follow the voice."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import ledger
from production import narration
from production.narration import NarrationError, Voice
from production.timings import Word
from production.voices import espeak
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER
from tests.fixture.chapter import CHAPTER as FIXTURE
from tests.sounds import write_tone


class CountingVoice:
    """A stand-in synthesiser: writes a tone as long as espeak-ng takes for the text
    (about 0.09 s a character at 150 words a minute), counts calls. Like both real
    voices it gives its own word timings (the words one after another, each for a time
    in proportion to its letters), so no passage of a tone goes to the forced aligner."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, text: str, voice: Voice, target: Path) -> list[Word]:
        self.calls.append(text)
        seconds = 0.09 * len(text) * 150 / voice.rate
        write_tone(target, seconds)
        words = text.split()
        share = 0.9 * seconds / sum(len(w) + 1 for w in words)
        timed, at = [], 0.0
        for w in words:
            timed.append(Word(w, at, at + len(w) * share))
            at += (len(w) + 1) * share
        return timed


def test_parse_reads_passages_in_order():
    text = "# a comment\n[one]\nFirst line\nsecond line.\n\n[two]\nOnly line.\n"
    assert narration.parse(text) == {"one": "First line second line.", "two": "Only line."}


@pytest.mark.parametrize("text", ["stray words\n[one]\nx", "[one]\na\n[one]\nb"])
def test_parse_refuses_bad_scripts(text):
    with pytest.raises(NarrationError):
        narration.parse(text)


@pytest.mark.parametrize("scene", SCENES_IN_ORDER, ids=lambda s: s.__name__)
def test_every_scene_has_a_passage_per_beat_with_every_value_filled(scene, tmp_path):
    numbers = ledger.section(scene.section) if scene.section else {}
    speak = CountingVoice()
    passages = narration.prepare(scene.__name__, list(scene.beat_seconds),
                                 values=scene.spoken(numbers), cache=tmp_path, speak=speak,
                                 narration_dir=CHAPTER.narration)
    assert [p.beat for p in passages] == list(scene.beat_seconds)
    for p in passages:
        assert p.text and "{" not in p.text and "}" not in p.text


def test_spoken_numbers_follow_the_settings(tmp_path):
    scene = next(s for s in SCENES_IN_ORDER if s.__name__ == "SqueezeTheRow")
    numbers = ledger.section("bottleneck", ledger.parse_settings(["bottleneck.length=90"]))
    passages = narration.prepare(scene.__name__, list(scene.beat_seconds),
                                 values=scene.spoken(numbers), cache=tmp_path,
                                 speak=CountingVoice(), narration_dir=CHAPTER.narration)
    assert "90 numbers" in passages[0].text


def test_unchanged_text_is_never_spoken_twice(tmp_path):
    speak = CountingVoice()
    scene = SCENES_IN_ORDER[1]
    for _ in range(2):
        narration.prepare(scene.__name__, list(scene.beat_seconds), cache=tmp_path, speak=speak,
                          narration_dir=CHAPTER.narration)
    assert len(speak.calls) == len(scene.beat_seconds)
    narration.synthesize("A changed passage.", Voice(), tmp_path, speak)
    narration.synthesize("A changed passage.", Voice(), tmp_path, speak)
    narration.synthesize("A changed passage.", Voice(rate=120), tmp_path, speak)
    assert len(speak.calls) == len(scene.beat_seconds) + 2


def test_a_recording_replaces_the_voice_and_the_beat_follows_it(tmp_path):
    scene = SCENES_IN_ORDER[1]
    beats = list(scene.beat_seconds)
    long = scene.beat_seconds[beats[0]] + 3.0
    write_tone(narration.recording_path(scene.__name__, beats[0], tmp_path / "voice"), long)
    speak = CountingVoice()
    passages = narration.prepare(scene.__name__, beats, voice_dir=tmp_path / "voice",
                                 cache=tmp_path / "cache", speak=speak,
                                 narration_dir=CHAPTER.narration)
    first = passages[0]
    assert first.recorded and first.seconds == pytest.approx(long, abs=1e-3)
    assert len(speak.calls) == len(beats) - 1
    lengths = narration.beat_lengths(scene.beat_seconds, passages)
    assert lengths[beats[0]] >= long + narration.LEAD_IN
    for p in passages:
        assert lengths[p.beat] >= p.seconds + narration.LEAD_IN


def test_missing_espeak_says_how_to_install(monkeypatch, tmp_path):
    assert narration.Espeak().check() is None
    monkeypatch.setattr(espeak.shutil, "which", lambda name: None)
    problem = narration.Espeak().check()
    assert problem is not None and "\n" not in problem
    assert "apt-get install espeak-ng" in problem and "./run video" in problem
    assert "--no-narration" in problem
    with pytest.raises(NarrationError) as error:
        narration.synthesize("The book stays open.", Voice(), tmp_path)
    assert str(error.value) == problem
    assert list(tmp_path.iterdir()) == []


def test_real_espeak_speaks_and_is_cached(tmp_path):
    path = narration.synthesize("The book stays open.", Voice(), tmp_path)
    assert 0.5 < narration.wav_seconds(path) < 5.0
    again = narration.synthesize("The book stays open.", Voice(), tmp_path,
                                 speak=lambda *a: pytest.fail("spoke a cached passage"))
    assert again == path


def test_built_scene_beats_last_as_long_as_their_passages(tmp_path, build_scene):
    """On the fixture chapter's first scene (the chapter is not the point)."""
    scene = FIXTURE.scenes[0]
    passages = narration.prepare(scene.__name__, list(scene.beat_seconds), cache=tmp_path,
                                 speak=CountingVoice(), narration_dir=FIXTURE.narration)
    stretched = {p.beat: p for p in passages}
    assert passages and all(p.seconds > scene.beat_seconds[p.beat] for p in passages)
    built = build_scene(scene.__name__, chapter="fixture",
                        durations=narration.beat_lengths(scene.beat_seconds, passages))
    assert [record.name for record in built.beat_log] == list(scene.beat_seconds)
    for record in built.beat_log:
        spoken = stretched[record.name]
        assert record.end - record.start >= narration.LEAD_IN + spoken.seconds - 1e-6
