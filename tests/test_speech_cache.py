"""The speech cache never serves or keeps a broken WAV: unique temporary names, a check
before the rename and on every read, and a full disk said in one line."""

from __future__ import annotations

import pickle
import shutil
import subprocess
import threading
import wave
from collections import namedtuple
from pathlib import Path

import numpy as np
import pytest

from core import ledger
from production import narration
from production.errors import DiskFullError
from production.narration import NarrationError, Voice, speech
from production.voices import espeak
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER
from tests.fixture.chapter import CHAPTER as FIXTURE

TEXT = "The book stays open, and every word may look back at the words before it."


def write_wav(path: Path, seconds: float, rate: int = 22050) -> None:
    t = np.arange(int(seconds * rate)) / rate
    samples = (0.3 * np.sin(2 * np.pi * 220 * t) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())


def seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


class Speaker:
    """A stand-in voice that speaks at about espeak-ng's pace (0.09 s a character), or
    cut off after ``cut`` seconds as a full disk leaves it; counts its calls."""

    def __init__(self, cut: float | None = None) -> None:
        self.cut, self.calls = cut, 0

    def __call__(self, text: str, voice: Voice, target: Path) -> None:
        self.calls += 1
        full = 0.09 * len(text) * 150 / voice.rate
        write_wav(target, full if self.cut is None else min(full, self.cut))


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# ----------------------------------------------------------------- checked on the way in


def test_a_cut_off_wav_is_not_cached_and_says_so(tmp_path):
    with pytest.raises(NarrationError) as error:
        narration.synthesize(TEXT, Voice(), tmp_path, Speaker(cut=0.3))
    assert "\n" not in str(error.value)
    assert entries(tmp_path) == []  # neither the cut WAV nor a temporary file is left


def test_a_speaker_that_writes_nothing_is_one_line(tmp_path):
    with pytest.raises(NarrationError):
        narration.synthesize(TEXT, Voice(), tmp_path, lambda text, voice, target: None)
    assert entries(tmp_path) == []


def test_a_cut_off_wav_on_a_full_disk_is_a_disk_full_error(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(speech.shutil, "disk_usage", lambda path: usage(10**9, 10**9, 4096))
    with pytest.raises(DiskFullError) as error:
        narration.synthesize(TEXT, Voice(), tmp_path / "voice", Speaker(cut=0.3))
    assert isinstance(error.value, NarrationError)  # prepare's callers catch it as one
    message = str(error.value)
    assert "\n" not in message
    assert str(tmp_path / "voice") in message and "MB" in message
    assert error.value.needed > 4096
    assert entries(tmp_path / "voice") == []
    # It crosses from a worker process to the main one whole.
    again = pickle.loads(pickle.dumps(error.value))
    assert type(again) is type(error.value) and str(again) == message


def test_two_renders_speaking_the_same_passage_at_once_both_succeed(tmp_path):
    both = threading.Barrier(2, timeout=20)
    results, errors = [], []

    def slow(text, voice, target):
        write_wav(target, 0.09 * len(text))
        both.wait()  # both have spoken before either renames

    def render():
        try:
            results.append(narration.synthesize(TEXT, Voice(), tmp_path, slow))
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)

    threads = [threading.Thread(target=render) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert len(results) == 2 and results[0] == results[1]
    assert entries(tmp_path) == [results[0].name]
    assert seconds(results[0]) == pytest.approx(0.09 * len(TEXT), abs=0.01)


def test_the_first_render_to_store_a_passage_keeps_it(tmp_path):
    """Speech differs a little each time it is spoken (Piper samples). When another
    render stores the same passage while this one speaks it, theirs stays and this
    one uses it: both then hash the same sound into their scene keys."""
    target = tmp_path / f"{narration.speech_key(TEXT, Voice())}.wav"

    theirs = None

    def speak(text, voice, partial):
        nonlocal theirs
        write_wav(target, 0.09 * len(text), rate=16000)  # the other render's, stored first
        theirs = target.read_bytes()
        write_wav(partial, 0.09 * len(text))  # ours, a little different

    path = narration.synthesize(TEXT, Voice(), tmp_path, speak)
    assert path == target and path.read_bytes() == theirs
    assert entries(tmp_path) == [target.name]  # and our copy is gone


# ----------------------------------------------------------------- checked on the way out


@pytest.mark.parametrize("damage", ["cut", "garbage", "empty"])
def test_a_damaged_cached_passage_is_spoken_again(tmp_path, damage):
    speak = Speaker()
    path = narration.synthesize(TEXT, Voice(), tmp_path, speak)
    if damage == "cut":  # what an older render left when the disk filled while it spoke
        write_wav(path, 0.4)
    else:
        path.write_bytes(b"RIFF" if damage == "garbage" else b"")
    again = narration.synthesize(TEXT, Voice(), tmp_path, speak)
    assert again == path and speak.calls == 2
    assert seconds(again) == pytest.approx(0.09 * len(TEXT), abs=0.01)
    assert narration.synthesize(TEXT, Voice(), tmp_path, speak) == path
    assert speak.calls == 2  # a good entry is read, not spoken again


# ----------------------------------------------------------------- the bounds


def test_the_fixture_chapters_passages_are_well_inside_the_plausible_lengths():
    """Real espeak-ng, every passage of the fixture chapter and a few odd ones (from the
    session's speech cache): the bounds have at least 1.5x margin. The attention
    chapter's passages: the system tier, below."""
    checked = 0
    for scene in FIXTURE.scenes:
        for text in narration.script_for(FIXTURE, scene, {}).values():
            spoken = seconds(narration.synthesize(text, Voice()))
            low, high = narration.plausible_seconds(text, Voice())
            assert 1.5 * low <= spoken <= high / 1.5, text
            checked += 1
    assert checked == 2
    for text in ("Yes.", "I", "...", "1000000", "--"):
        spoken = seconds(narration.synthesize(text, Voice()))
        low, high = narration.plausible_seconds(text, Voice())
        assert 1.5 * low <= spoken <= high / 1.5, text


@pytest.mark.system  # about 60 passages, each spoken by a process of espeak-ng's when cold
def test_every_real_passage_is_well_inside_the_plausible_lengths():
    """Real espeak-ng, every passage of the chapter (from the session's speech cache once
    spoken): the bounds have at least 1.5x margin. The odd passages: the test above."""
    checked = 0
    for scene in SCENES_IN_ORDER:
        for text in narration.script_for(CHAPTER, scene, ledger.resolve()).values():
            spoken = seconds(narration.synthesize(text, Voice()))
            low, high = narration.plausible_seconds(text, Voice())
            assert 1.5 * low <= spoken <= high / 1.5, text
            checked += 1
    assert checked > 40


def test_the_bounds_follow_the_speed_of_the_voice():
    slow, fast = (narration.plausible_seconds(TEXT, Voice(rate=r)) for r in (100, 300))
    assert slow[0] == pytest.approx(3 * fast[0]) and slow[1] == pytest.approx(3 * fast[1])


def test_the_key_covers_the_engine_version(monkeypatch):
    before = narration.speech_key(TEXT, Voice())
    monkeypatch.setattr(espeak, "engine_version", lambda: "eSpeak NG 9.99")
    assert narration.speech_key(TEXT, Voice()) != before


# ----------------------------------------------------------------- a real full disk


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs (needs root; skipped where it cannot be mounted)."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                          capture_output=True)
    if made.returncode != 0 or shutil.disk_usage(mount).total > 2 * 1024 * 1024:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_real_espeak_on_a_full_disk_is_one_line_and_leaves_nothing(small_disk):
    voice = small_disk / "voice"
    voice.mkdir()
    filler = small_disk / "filler"
    filler.write_bytes(bytes(shutil.disk_usage(small_disk).free - 96 * 1024))
    long_text = " ".join([TEXT] * 4)
    with pytest.raises(DiskFullError) as error:
        narration.synthesize(long_text, Voice(), voice)
    assert str(voice) in str(error.value)
    assert entries(voice) == []
    filler.unlink()
    spoken = narration.synthesize(long_text, Voice(), voice)
    low, _ = narration.plausible_seconds(long_text, Voice())
    assert seconds(spoken) > 1.5 * low
