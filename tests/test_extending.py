"""The README's "Extending" recipes, each followed once: a scene, a slides format, a voice.

If a recipe stops working as written (a file it names moves, an interface changes),
the test of that recipe fails.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from manim import FadeIn

from core import ledger
from production import cache, captions, chapters, narration, voices
from production.outputs import slides
from production.scene_output import SceneOutput
from scenes.attention.chapter import CHAPTER, SCENES_BY_NAME
from scenes.base import ChapterScene, words
from tests.sounds import write_tone

# ----------------------------------------------------------------- add a voice


class ToneVoice(voices.VoiceEngine):
    """A voice that hums each passage at ``pitch`` Hz, as long as espeak-ng would take."""

    engine = "tone"

    def __init__(self, pitch: float = 220.0) -> None:
        self.pitch = pitch
        self.spoken: list[str] = []

    def key(self) -> str:
        return f"tone:{self.pitch}"

    def speak(self, text: str, target: Path) -> None:
        self.spoken.append(text)
        write_tone(target, 0.09 * len(text) * 150 / self.rate, self.pitch)


class MissingVoice(ToneVoice):
    def check(self) -> str | None:
        return "the tone generator is missing: install it with `apt-get install tones`"


DEMO_TEXT = "[show]\nThe exponentials add up to {total}.\n\n[hold]\nThat is the budget.\n"


def test_a_voice_is_a_class_with_key_check_and_speak(tmp_path):
    (tmp_path / "Demo.txt").write_text(DEMO_TEXT.replace("{total}", "64.8"))
    voice = ToneVoice()
    passages = narration.prepare("Demo", ["show", "hold"], voice, narration_dir=tmp_path,
                                 voice_dir=tmp_path / "voice", cache=tmp_path / "cache")
    # The voice hears the spoken form; the passage (and so the captions) keeps the written.
    assert voice.spoken == ["The exponentials add up to sixty-four point eight.",
                            "That is the budget."]
    assert [p.text for p in passages] == ["The exponentials add up to 64.8.",
                                          "That is the budget."]
    for p, said in zip(passages, voice.spoken):
        assert p.audio == tmp_path / "cache" / f"{narration.speech_key(said, voice)}.wav"
        assert p.audio.stem == narration.passage_key(p.text, voice)  # known before speaking
        assert p.seconds == pytest.approx(0.09 * len(said), abs=0.01)
        assert not p.recorded

    again = ToneVoice()  # the same key: every passage comes from the cache
    assert narration.prepare("Demo", ["show", "hold"], again, narration_dir=tmp_path,
                             voice_dir=tmp_path / "voice", cache=tmp_path / "cache") == passages
    assert again.spoken == []

    other = ToneVoice(330.0)  # another key: spoken again, into other files
    moved = narration.prepare("Demo", ["show", "hold"], other, narration_dir=tmp_path,
                              voice_dir=tmp_path / "voice", cache=tmp_path / "cache")
    assert len(other.spoken) == 2
    assert {p.audio for p in moved}.isdisjoint(p.audio for p in passages)


def test_a_voice_key_is_part_of_the_scene_key():
    scene = SCENES_BY_NAME["TitleCard"]
    keys = {cache.scene_key(CHAPTER, scene, "preview", {}, True, voice=voice)
            for voice in (ToneVoice(), ToneVoice(), ToneVoice(330.0))}
    assert len(keys) == 2


def test_a_voice_that_cannot_run_says_why_and_writes_nothing(tmp_path):
    voice = MissingVoice()
    with pytest.raises(narration.NarrationError) as error:
        narration.synthesize("The book stays open.", voice, tmp_path / "cache")
    assert str(error.value) == voice.check()
    assert voice.spoken == [] and not (tmp_path / "cache").exists()


def test_a_voice_without_key_or_speak_is_refused():
    class Mute(voices.VoiceEngine):
        def key(self) -> str:
            return "mute"

    with pytest.raises(TypeError):
        Mute()  # type: ignore[abstract]


def test_the_default_voice_is_piper_behind_the_same_interface():
    assert isinstance(voices.DEFAULT_VOICE, voices.VoiceEngine)
    assert isinstance(voices.DEFAULT_VOICE, voices.Piper)
    assert voices.DEFAULT_VOICE.engine == "piper"
    assert voices.DEFAULT_VOICE.key() != voices.Piper(pace=140).key()
    assert voices.Espeak().key() != voices.Espeak(rate=120).key()


# ----------------------------------------------------------------- add a scene


class CountTheBudget(ChapterScene):
    """A scene as the recipe makes one: a section, a title, beats, spoken values."""

    section = "demo"
    title = "The budget"
    beat_seconds = {"show": 1.0, "hold": 1.0}

    @classmethod
    def spoken(cls, numbers):
        return {"total": f"{numbers['total']:.1f}"}

    def construct(self) -> None:
        # The viewer sees the total.
        b = self.beat("show")
        total = words(f"total {self.numbers['total']:.1f}")
        self.play(FadeIn(total), run_time=b.part(0.5))

        # The viewer sees it held while the passage ends.
        self.beat("hold")


def test_a_new_scene_passes_the_chapter_checks(tmp_path, monkeypatch, build_scene):
    monkeypatch.setitem(ledger.SECTIONS, "demo", lambda settings: {"total": 64.8})
    texts = tmp_path / "narration"
    shutil.copytree(CHAPTER.narration, texts)
    grown = dataclasses.replace(CHAPTER, scenes=(*CHAPTER.scenes, CountTheBudget),
                                narration=texts)
    missing = chapters.problems(grown)
    assert missing == [f"no narration for CountTheBudget: expected {texts / 'CountTheBudget.txt'}"]

    (texts / "CountTheBudget.txt").write_text(DEMO_TEXT)
    assert chapters.problems(grown) == []
    script = narration.script_for(grown, CountTheBudget, None)
    assert script == {"show": "The exponentials add up to 64.8.", "hold": "That is the budget."}

    passages = narration.prepare("CountTheBudget", list(CountTheBudget.beat_seconds),
                                 ToneVoice(),
                                 values=narration.spoken_values(grown, CountTheBudget, None),
                                 narration_dir=texts, voice_dir=tmp_path / "voice",
                                 cache=tmp_path / "cache")
    lengths = narration.beat_lengths(CountTheBudget.beat_seconds, passages)

    built = build_scene(CountTheBudget, durations=lengths)
    assert [b.name for b in built.beat_log] == ["show", "hold"]
    for record in built.beat_log:
        assert record.end - record.start == pytest.approx(lengths[record.name], abs=0.1)
    assert built.layout_problems == [] and built.timing_problems == []
    assert "total 64.8" in built.shown["show"]
    tall = build_scene(CountTheBudget, durations=lengths, layout="tall")  # its short
    assert tall.layout_problems == [] and tall.shown == built.shown


# ----------------------------------------------------------------- add a slides format


def _ffmpeg(*args: str) -> None:
    subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-v", "error", "-y", *args],
                   check=True, capture_output=True)


@pytest.fixture
def finished_scene(tmp_path) -> tuple[type, SceneOutput, Path]:
    """A two-second scene as the pipeline leaves it (clip, captions, transparent clips),
    made by ffmpeg instead of Manim."""
    folder, alpha = tmp_path / "scene", tmp_path / "alpha"
    folder.mkdir()
    alpha.mkdir()
    _ffmpeg("-f", "lavfi", "-i", "testsrc=size=160x90:rate=15:duration=2",
            "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:v", "libx264",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-movflags", "+faststart",
            str(folder / "Demo.mp4"))
    _ffmpeg("-i", str(folder / "Demo.mp4"), "-c:v", "libvpx-vp9", "-deadline", "realtime",
            "-c:a", "libopus", str(alpha / "Demo-alpha.webm"))
    _ffmpeg("-i", str(folder / "Demo.mp4"), "-c", "copy", "-f", "mov",
            str(alpha / "Demo-alpha.mov"))
    (folder / "Demo.srt").write_text("1\n00:00:00,000 --> 00:00:01,500\nHello there.\n")
    (folder / "Demo.vtt").write_text("WEBVTT\n\n00:00.000 --> 00:01.500\nHello there.\n")
    result = SceneOutput(
        "Demo", folder, 2.0, {"one": 0.0},
        passages=[narration.Passage("Demo", "one", "Hello there.", folder / "x.wav", 1.0,
                                    False)],
        cues=[captions.Cue(0.0, 1.5, ("Hello there.",))])

    class Demo:
        title = "A demo"

    return Demo, result, alpha


#: what `render.py slides` writes per scene and once per set (README "Clips for slides")
SCENE_FILES = ("{}.mp4", "{}-silent.mp4", "{}-alpha.webm", "{}-alpha.mov", "{}.gif", "{}.png",
               "{}.srt", "{}.vtt")
SET_FILES = ("deck.html", "deck.pptx", "index.json")


def test_a_registered_writer_is_run_and_listed(finished_scene, tmp_path, monkeypatch):
    monkeypatch.setattr(slides, "WRITERS", dict(slides.WRITERS))
    monkeypatch.setattr(slides, "DECK_WRITERS", dict(slides.DECK_WRITERS))
    calls = []

    @slides.writer("notes")
    def write_notes(scene_class, result, alpha, out):
        calls.append((scene_class, result, alpha, out))
        target = out / f"{result.name}-notes.txt"
        target.write_text(" ".join(p.text for p in result.passages))
        return [target]

    @slides.deck_writer("outline")
    def write_outline(deck, out, title):
        target = out / "outline.txt"
        target.write_text("".join(f"{s.title}\n" for s in deck))
        return [target]

    with pytest.raises(ValueError):
        slides.writer("notes")(write_notes)

    out = tmp_path / "slides"
    index = slides.assemble([finished_scene], out, "A chapter")
    assert calls == [(*finished_scene, out)]
    assert (out / "Demo-notes.txt").read_text() == "Hello there."
    assert (out / "outline.txt").read_text() == "A demo\n"

    expected = {f.format("Demo") for f in SCENE_FILES}
    assert index["scenes"] == [{"name": "Demo", "seconds": 2.0,
                                "files": sorted(expected | {"Demo-notes.txt"})}]
    listed = {f["name"] for f in index["files"]}
    assert listed == expected | {"Demo-notes.txt", "outline.txt", "deck.html", "deck.pptx"}
    assert json.loads((out / "index.json").read_text()) == index
    assert {p.name for p in out.iterdir()} == listed | {"index.json"}


def test_the_built_in_writers_are_the_slides_formats(finished_scene, tmp_path):
    assert list(slides.WRITERS) == ["mp4", "silent-mp4", "alpha-webm", "alpha-mov", "gif",
                                    "poster", "captions"]
    assert list(slides.DECK_WRITERS) == ["html", "pptx"]
    out = tmp_path / "slides"
    slides.assemble([finished_scene], out, "A chapter")
    assert {p.name for p in out.iterdir()} == \
        {f.format("Demo") for f in SCENE_FILES} | set(SET_FILES)
