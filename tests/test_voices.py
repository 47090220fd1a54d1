"""Voices: the Piper engine (real Piper, the joe voice shipped in its wheel), choosing a
voice by name or by file, its place in the cache keys, `render.py voices`, and a render
spoken by Piper.

Speech comes from the session's cache (tests/conftest.py: Piper speaks a passage the same,
byte for byte, every time), but for the one passage a test speaks to see it spoken and
cached. The default tier checks the fixture chapter's passages; the system tier every
passage of the attention chapter (spoken once, then cached for later runs).
"""

from __future__ import annotations

import shutil
import time
import wave
from pathlib import Path

import pytest

from core import ledger
from production import cache, narration
from production.narration import Espeak, NarrationError, Piper, spoken
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER
from tests.conftest import TEST_QUALITY, render_in
from tests.fixture.chapter import CHAPTER as FIXTURE

SCENES_BY_NAME = {s.__name__: s for s in SCENES_IN_ORDER}
TEXT = "The book stays open, and every word may look back at the words before it."
#: passages no chapter has, at the edges of what the bounds allow
ODD = ("Yes.", "I", "...", "1000000", "--", "[[ h ə l oʊ ]]")


def seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1
        return w.getnframes() / w.getframerate()


@pytest.fixture(scope="module")
def piper() -> Piper:
    """The default voice, its model loaded once for the module's tests."""
    voice = Piper()
    voice.load()
    return voice


def chapter_passages(chapter, settings) -> list[str]:
    """Every passage of ``chapter`` with ``settings``, in scene and beat order."""
    return [text for scene in chapter.scenes
            for text in narration.script_for(chapter, scene, settings).values()]


@pytest.fixture
def model_copy(tmp_path) -> Path:
    """The joe voice's model and config, copied into a folder of the test's own."""
    folder = tmp_path / "voice"
    folder.mkdir()
    joe = narration.joe_model()
    shutil.copy(joe, folder / joe.name)
    shutil.copy(narration.Piper().config, folder / (joe.name + ".json"))
    return folder / joe.name


# ----------------------------------------------------------------- speaking


def test_a_real_passage_spoken_by_piper_is_a_plausible_wav_and_is_cached(tmp_path, piper):
    """Spoken into a cold folder of the test's own: the test is that it is spoken once."""
    voice = narration.voice_named("piper")
    calls = []

    def speak(text: str, engine: narration.VoiceEngine, target: Path) -> object:
        calls.append(text)
        return engine.speak(text, target)

    text = narration.script_for(CHAPTER, SCENES_BY_NAME["TwoJobs"], ledger.resolve())["reader"]
    started = time.monotonic()
    first = narration.synthesize(text, voice, tmp_path, speak)
    took = time.monotonic() - started
    low, high = narration.plausible_seconds(text, voice)
    assert low <= seconds(first) <= high and seconds(first) > 2
    assert narration.speech_problem(first, text, voice) is None
    assert took < 10  # about half a second a passage, the model loaded once (by ``piper``)
    assert narration.synthesize(text, voice, tmp_path, speak) == first
    assert calls == [text]  # the second call read the cache


def test_the_fixture_chapters_passages_spoken_by_piper_are_well_inside_the_bounds(piper):
    """Real Piper, every passage of the fixture chapter and a few odd ones: the bounds have
    at least 1.5x margin; the rate the bounds assume is the voice's real pace (within
    15 %), and each passage is said at 140 to 175 words a minute (words of the spoken
    text over seconds of speech). The attention chapter's passages: the system tier."""
    voice = narration.DEFAULT_VOICE
    assert voice.rate == narration.NATURAL_PACE and 140 <= voice.rate <= 175
    words = spoken_seconds = 0.0
    for text in chapter_passages(FIXTURE, {}):
        length = seconds(narration.synthesize(text, voice))  # the session's speech
        low, high = narration.plausible_seconds(text, voice)
        assert 1.5 * low <= length <= high / 1.5, text
        said = spoken.speakable(text)
        assert 140 <= len(said.split()) / length * 60 <= 175, said
        words += len(text.split())
        spoken_seconds += length
    assert words / spoken_seconds * 60 == pytest.approx(voice.rate, rel=0.15)
    for text in ODD:
        length = seconds(narration.synthesize(text, voice))
        low, high = narration.plausible_seconds(text, voice)
        assert 1.5 * low <= length <= high / 1.5, text


@pytest.mark.system  # every passage of the attention chapter (about 60, spoken when cold)
def test_every_real_passage_spoken_by_piper_is_well_inside_the_plausible_lengths(piper):
    """Real Piper, every passage of the chapter: the bounds have at least 1.5x margin, and
    the rate the bounds assume is the voice's real pace (within 15 %). The passages come
    from the session's speech cache when a test has spoken them: Piper speaks a passage
    the same, byte for byte, every time (tests/test_speech_determinism.py). The odd
    passages: the fixture chapter's test above."""
    voice = Piper()
    words = spoken_seconds = 0.0
    for text in chapter_passages(CHAPTER, ledger.resolve()):
        length = seconds(narration.synthesize(text, voice))
        low, high = narration.plausible_seconds(text, voice)
        assert 1.5 * low <= length <= high / 1.5, text
        words += len(text.split())
        spoken_seconds += length
    assert words / spoken_seconds * 60 == pytest.approx(voice.rate, rel=0.15)


@pytest.mark.system  # the attention chapter's scenes (a dozen passages, spoken when cold)
def test_the_default_voice_speaks_real_passages_at_a_natural_pace(piper):
    """Real Piper at the default pace: a handful of passages (of scenes the joe voice
    speaks fastest and slowest on its own), each 140 to 175 words a minute (words of the
    spoken text over seconds of speech)."""
    voice = narration.DEFAULT_VOICE
    assert voice.rate == narration.NATURAL_PACE and 140 <= voice.rate <= 175
    for name in ("OneAttentionWeight", "TheMisreading", "ChemistryAndAssembly",
                 "SharpnessDial"):
        for text in narration.script_for(CHAPTER, SCENES_BY_NAME[name], ledger.resolve()).values():
            said = spoken.speakable(text)
            length = seconds(narration.synthesize(text, voice))  # the session's speech
            assert 140 <= len(said.split()) / length * 60 <= 175, said


def test_the_pace_is_part_of_the_key_and_slows_the_voice(piper):
    own, paced = Piper(pace=None), Piper()
    assert own.key() != paced.key() != Piper(pace=140).key()
    assert own.rate == narration.JOE_RATE and paced.rate == narration.NATURAL_PACE
    assert seconds(narration.synthesize(TEXT, paced)) > \
        1.1 * seconds(narration.synthesize(TEXT, own))  # the session's speech


# ----------------------------------------------------------------- keys


def test_the_voice_and_the_model_bytes_change_the_scene_key(model_copy, piper):
    """On the fixture chapter's first scene (the chapter is not the point); nothing spoken:
    the key is the passages' text and the voice's key."""
    scene = FIXTURE.scenes[0]
    keys = {name: cache.scene_key(FIXTURE, scene, "preview", {}, True,
                                  narration.voice_named(name))
            for name in ("espeak", "piper")}
    assert keys["espeak"] != keys["piper"]
    assert keys["espeak"] == cache.scene_key(FIXTURE, scene, "preview", {}, True, Espeak())

    # The same bytes elsewhere are the same voice; one byte changed is another voice.
    copied = Piper(model_copy)
    assert copied.key() == Piper().key()
    assert cache.scene_key(FIXTURE, scene, "preview", {}, True, copied) == keys["piper"]
    flipped = model_copy.with_name("flipped.onnx")
    shutil.copy(model_copy, flipped)
    shutil.copy(copied.config, flipped.with_name("flipped.onnx.json"))
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    key = cache.scene_key(FIXTURE, scene, "preview", {}, True, Piper(flipped))
    assert key != keys["piper"]
    assert narration.speech_key(TEXT, Piper(flipped)) != narration.speech_key(TEXT, copied)
    # ... and so does its config
    config = model_copy.with_name(model_copy.name + ".json")
    config.write_text(config.read_text().replace('"noise_scale": 0.667', '"noise_scale": 0.5'))
    assert Piper(model_copy).key() != Piper().key()


# ----------------------------------------------------------------- choosing a voice


def test_the_names_a_voice_takes():
    assert narration.voice_named("piper") == Piper() == narration.DEFAULT_VOICE
    assert narration.DEFAULT_VOICE.engine == "piper"
    assert narration.voice_named("espeak") == Espeak()
    assert Piper().model == narration.joe_model() and Piper().check() is None


def one_line_error(name: str) -> str:
    with pytest.raises(NarrationError) as error:
        narration.voice_named(name)
    message = str(error.value)
    assert "\n" not in message and name in message, message
    return message


def test_an_unknown_voice_name_is_one_line_saying_what_is_allowed():
    message = one_line_error("festival")
    assert "unknown voice" in message and "espeak" in message and "piper" in message


def test_a_missing_model_is_one_line(tmp_path):
    message = one_line_error(str(tmp_path / "nobody.onnx"))
    assert "missing" in message


def test_a_model_without_its_config_is_one_line(model_copy):
    model_copy.with_name(model_copy.name + ".json").unlink()
    message = one_line_error(str(model_copy))
    assert "config" in message and ".onnx.json" in message and "missing" in message


def test_a_corrupt_config_is_one_line(model_copy):
    model_copy.with_name(model_copy.name + ".json").write_text("{not json")
    assert "not a voice's .onnx.json" in one_line_error(str(model_copy))


def test_a_corrupt_model_is_one_line(model_copy):
    model_copy.write_bytes(b"this is not an ONNX model" * 100)
    message = one_line_error(str(model_copy))
    assert "cannot be loaded" in message


def test_a_bad_voice_on_the_command_line_is_one_line_and_exit_status_2(tmp_path, run_command):
    out = run_command("render", "TitleCard", "--voice", "festival",
                      "--out", str(tmp_path / "out"))
    assert out.code == 2 and out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and "festival" in out.err
    assert not (tmp_path / "out").exists()


def test_the_voice_record_names_engine_model_and_licence():
    piper = narration.voice_record(Piper())
    assert piper["engine"] == "piper" and piper["model"] == narration.JOE_MODEL
    assert "voice data: CC0" in piper["licence"] and "GPL-3.0-or-later" in piper["licence"]
    assert piper["pace"] == narration.NATURAL_PACE
    espeak = narration.voice_record(Espeak())
    assert espeak == {"engine": "espeak-ng", "model": "en-us",
                      "licence": "espeak-ng: GPL-3.0-or-later", "pace": 150}


def test_render_voices_lists_both_with_licence_lines(run_command):
    out = run_command("voices")
    assert out.code == 0, out.err
    lines = out.out.splitlines()
    espeak = next(i for i, line in enumerate(lines) if line.startswith("espeak "))
    piper = next(i for i, line in enumerate(lines) if line.startswith("piper "))
    assert "licence:" in lines[espeak + 1] and "GPL-3.0-or-later" in lines[espeak + 1]
    assert "licence:" in lines[piper + 1]
    assert "voice data: CC0" in lines[piper + 1] and "piper-tts 1.8.0" in lines[piper + 1]
    assert "joe" in lines[piper] and "(the default)" in lines[piper]
    assert "(the default for every other language)" in lines[espeak]
    assert "cannot be used" not in out.out
    assert any(line.startswith("piper:PATH") for line in lines)
    spoken = next(line for line in lines if line.startswith("espeak-ng speaks: "))
    assert {"es", "fr-fr", "de", "en-us"} <= set(spoken.removeprefix("espeak-ng speaks: ")
                                               .split(", "))


# ----------------------------------------------------------------- a render


def test_a_scene_rendered_with_piper_has_its_sound(tmp_path, fixture_project, speech_cache):
    """A render with --voice piper, as a process (it draws), in a cache of its own (the
    session's speech in it): the fixture chapter's second scene at the test quality (the
    chapter and the size are not the point)."""
    import av

    out = render_in(fixture_project, "render", "Weights", "--chapter", "fixture",
                    "--quality", TEST_QUALITY, "--voice", "piper", "--out", str(tmp_path / "out"),
                    env={"EXPLAINER_CACHE": str(speech_cache)})
    assert out.returncode == 0, out.stderr
    with av.open(str(tmp_path / "out" / "scenes" / "Weights.mp4")) as video:
        assert video.streams.audio
        audio = video.streams.audio[0]
        assert float(audio.duration * audio.time_base) > 3
        assert video.duration / av.time_base > 3
