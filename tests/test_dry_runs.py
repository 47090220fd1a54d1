"""A dry run speaks, draws and encodes nothing, and writes nothing: each command's dry run
on a cold cache, with every voice, the speaking worker, the drawing and ffmpeg made to
fail the test. It can, because a scene's key is known from its passages' text and the
voice (speech is deterministic): the keys a dry run looks up are the ones a render
stores under."""

from __future__ import annotations

import dataclasses
import shutil
import socket
import wave
from pathlib import Path
from typing import Any

import pytest

from production import cache, drawing, ffmpeg, pipeline, speaking
from production.narration import passages, recordings, speech
from production.voices.espeak import Espeak
from production.voices.piper import Piper
from scenes.attention.chapter import CHAPTER, SCENES_BY_NAME, SCENES_IN_ORDER
from tests.cache_seeds import seed_scenes
from tests.conftest import TEST_QUALITY, render_in, run_command
from tests.publish_bundles import snapshot, write_bundle


@pytest.fixture
def mute(monkeypatch, tmp_path) -> Path:
    """A cold cache (an empty EXPLAINER_CACHE) where speaking, converting a recording,
    starting a worker, drawing, running ffmpeg or opening a connection fails the test."""
    def refuse(what: str) -> Any:
        def refused(*args: Any, **kwargs: Any) -> None:
            raise AssertionError(f"a dry run {what}")
        return refused

    for owner, name, what in [
            (Piper, "speak", "spoke (Piper)"), (Espeak, "speak", "spoke (espeak-ng)"),
            (speech, "synthesize", "spoke"), (passages, "synthesize", "spoke"),
            (recordings, "recorded_sound", "converted a recording"),
            (passages, "recorded_sound", "converted a recording"),
            (speaking, "run_workers", "started the speaking worker"),
            (pipeline, "speak_all", "spoke"), (pipeline, "run_workers", "started a worker"),
            (pipeline, "construct_scene", "drew"), (drawing, "construct_scene", "drew"),
            (ffmpeg, "run", "ran ffmpeg"), (ffmpeg, "start", "ran ffmpeg"),
            (socket.socket, "connect", "opened a connection")]:
        monkeypatch.setattr(owner, name, refuse(what))
    cold = tmp_path / "cache"
    monkeypatch.setenv("EXPLAINER_CACHE", str(cold))
    return cold


def written(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) \
        if folder.exists() else []


NAMES = [scene.__name__ for scene in SCENES_IN_ORDER]
MOMENTS = [m.name for m in CHAPTER.demo.moments]


@pytest.mark.parametrize("command, expected", [
    (["render"], [f"render {name} at 854x480, 15 fps -> " for name in NAMES]),
    (["slides"], [f"slides for {name} -> " for name in NAMES]),
    (["shorts"], [f"render {name} tall at " for name in NAMES]),
    (["sweep", "SpotlightBudget", "--set", "spotlight.sharpness=1,8"],
     [f"SpotlightBudget spotlight.sharpness={v}: render at 854x480" for v in (1, 8)]),
    (["demo"], [*(f"{name}: " for name in MOMENTS), "would write "]),
], ids=["render", "slides", "shorts", "sweep", "demo"])
def test_a_dry_run_on_a_cold_cache_speaks_draws_and_writes_nothing(mute, tmp_path, command,
                                                                  expected):
    out = tmp_path / "out"
    done = run_command(*command, "--quality", "preview", "--dry-run", "--out", str(out))
    assert done.code == 0, done.err
    said = done.out.splitlines()
    assert len(said) == len(expected), said
    for line, start in zip(said, expected):
        assert line.startswith(start), (line, start)
    assert written(mute) == [] and not out.exists()


def test_a_course_dry_run_names_every_scene_of_every_chapter(mute, tmp_path):
    out = tmp_path / "course"
    done = run_command("course", "--quality", "preview", "--dry-run", "--out", str(out))
    assert done.code == 0, done.err
    for name in [*NAMES, "DecoderQuestion", "DecoderEndCard"]:
        assert f"render {name} at 854x480" in done.out, name
    for name in MOMENTS:
        assert f"\n{name}: " in done.out, name
    assert done.out.splitlines()[-1] == (f"would write {out / 'course.json'} and "
                                         f"{out / 'index.html'} over 2 chapters")
    assert written(mute) == [] and not out.exists()


@pytest.fixture
def bundle(tmp_path) -> Path:
    return write_bundle(tmp_path / "bundle")


def test_a_publish_dry_run_speaks_and_writes_nothing(bundle, mute):
    before = snapshot(bundle)
    done = run_command("publish", str(bundle), "--dry-run")
    assert done.code == 0, done.err
    assert done.out.splitlines()[-1].startswith("dry run: 3 requests, none sent")
    assert snapshot(bundle) == before
    assert written(mute) == []


# ----------------------------------------------------------------- the keys


@pytest.fixture
def no_speaking(monkeypatch) -> None:
    """Speaking or converting anything fails the test."""
    def refused(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a key was worked out by speaking")

    for owner, name in [(Piper, "speak"), (Espeak, "speak"), (speech, "synthesize"),
                        (passages, "synthesize"), (passages, "recorded_sound"),
                        (recordings, "recorded_sound")]:
        monkeypatch.setattr(owner, name, refused)


def key(chapter: Any, scene: str = "ChemistryAndAssembly", *, narrate: bool = True,
        voice: Any = None) -> str:
    return cache.scene_key(chapter, SCENES_BY_NAME[scene], "preview", {}, narrate,
                           voice or Piper())


def edited(tmp_path: Path, scene: str, old: str, new: str) -> Any:
    """The attention chapter with one passage of ``scene`` edited (in a copy of its
    narration)."""
    narration = tmp_path / "narration"
    if not narration.exists():
        shutil.copytree(CHAPTER.narration, narration)
    path = narration / f"{scene}.txt"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return dataclasses.replace(CHAPTER, narration=narration)


def test_a_scenes_key_is_its_text_and_voice_worked_out_without_speaking(no_speaking,
                                                                         tmp_path):
    first = key(CHAPTER)
    assert key(CHAPTER) == first  # the same source, the same key
    assert key(CHAPTER, voice=Espeak()) != first  # another voice
    assert key(CHAPTER, voice=Piper(pace=140)) != first  # the same voice, paced otherwise
    changed = edited(tmp_path, "ChemistryAndAssembly", "Pouring only mixes.",
                     "Pouring only ever mixes.")
    assert key(changed) != first  # a narration edit draws the scene again
    assert key(changed, "TitleCard") == key(CHAPTER, "TitleCard")  # and no other


def test_moving_a_mark_changes_the_key_of_its_scene_spoken_or_silent(no_speaking, tmp_path):
    """The animation that waits for a mark starts at its word: the same words with the
    mark one word later are another picture (the key had only the words)."""
    moved = edited(tmp_path, "ChemistryAndAssembly", 'word: <predicted>"{predicted}". Sarah',
                   'word: "{predicted}". <predicted>Sarah')
    assert key(moved) != key(CHAPTER)
    assert key(moved, narrate=False) != key(CHAPTER, narrate=False)


def _wav(path: Path, level: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(int(level).to_bytes(2, "little", signed=True) * 48000)
    return path


def test_a_recording_counts_by_its_bytes_read_without_converting_it(no_speaking, tmp_path):
    voice = tmp_path / "voice"
    recorded = dataclasses.replace(CHAPTER, recordings=voice)
    spoken = key(recorded, "TitleCard")
    assert spoken == key(CHAPTER, "TitleCard")  # no recording: the same as spoken
    [beat] = SCENES_BY_NAME["TitleCard"].beat_seconds
    _wav(voice / "TitleCard" / f"{beat}.wav", 100)
    quiet = key(recorded, "TitleCard")
    assert quiet != spoken
    _wav(voice / "TitleCard" / f"{beat}.wav", 200)
    assert key(recorded, "TitleCard") != quiet
    _wav(voice / "TitleCard" / f"{beat}.wav", 100)
    assert key(recorded, "TitleCard") == quiet  # the same bytes, the same key


def test_a_dry_run_finds_what_a_render_stored_with_no_speech_in_the_cache(
        copy_fixture_project, fixture_bundle):
    """The keys a dry run works out from the text are the keys the render stored under,
    having spoken: both scenes are found, and the speech is not needed to find them."""
    cold = copy_fixture_project / ".cache"
    shutil.rmtree(cold / "voice")
    seed_scenes(cold, fixture_bundle)
    done = render_in(copy_fixture_project, "render", "--chapter", "fixture", "--quality",
                     TEST_QUALITY, "--out", "out", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert [line.split(" at ")[0] for line in done.stdout.splitlines()] == \
        ["cached Scores", "cached Weights"]
    assert not (cold / "voice").exists() and not (copy_fixture_project / "out").exists()


def test_a_dry_run_leaves_a_damaged_cache_entry_where_it_is(copy_fixture_project,
                                                             fixture_bundle):
    """A render deletes a damaged entry and draws it again; a dry run, which writes
    nothing, only says it would draw it."""
    cold = copy_fixture_project / ".cache"
    entry = seed_scenes(cold, fixture_bundle)["Scores"]
    video = entry / "Scores.mp4"
    video.write_bytes(video.read_bytes()[:-1] + b"\0")  # one byte changed
    before = snapshot(cold)
    done = render_in(copy_fixture_project, "render", "--chapter", "fixture", "--quality",
                     TEST_QUALITY, "--out", "out", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert [line.split(" at ")[0] for line in done.stdout.splitlines()] == \
        ["render Scores", "cached Weights"]
    assert snapshot(cold) == before
