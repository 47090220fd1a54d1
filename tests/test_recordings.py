"""Recorded voices: every WAV ffmpeg reads is converted once; anything else is one line.

Every fixture is made here, by ffmpeg from a generated tone (or by hand for the
broken ones), in the formats a user's recorder or editor writes.
"""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from production import ffmpeg, narration, soundtrack
from production.narration import NarrationError, recordings

ACCEPTED = ("a WAV file (PCM 16/24/32-bit or float, 8000 to 192000 Hz, mono or stereo, "
            "at most 600 s)")
BEATS = ["hello", "world"]


def tone(path: Path, seconds: float, *, codec: str = "pcm_s16le", rate: int = 44100,
         channels: int = 1, volume: float = 0.3, fmt: str = "wav") -> Path:
    """A 330 Hz tone peaking at ``volume`` (fraction of full scale) on every channel,
    written by ffmpeg in the given codec, rate and channels."""
    path.parent.mkdir(parents=True, exist_ok=True)
    wave_ = "|".join([f"{volume}*sin(2*PI*330*t)"] * channels)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"aevalsrc={wave_}:s={rate}:d={seconds}", "-c:a", codec,
                    "-f", fmt, str(path)], check=True)
    return path


def read(path: Path) -> tuple[int, int, int, np.ndarray]:
    """(rate, channels, sample width, samples) of a WAV file Python's wave module reads."""
    with wave.open(str(path)) as w:
        frames = w.readframes(w.getnframes())
        return (w.getframerate(), w.getnchannels(), w.getsampwidth(),
                np.frombuffer(frames, "<i2").reshape(-1, w.getnchannels()))


def prepare(tmp_path: Path) -> list[narration.Passage]:
    (tmp_path / "text").mkdir(exist_ok=True)
    (tmp_path / "text" / "Demo.txt").write_text("[hello]\nHello there.\n[world]\nWorld.\n")
    return narration.prepare("Demo", BEATS, narration_dir=tmp_path / "text",
                             voice_dir=tmp_path / "voice", cache=tmp_path / "cache",
                             speak=speak_tone)


def speak_tone(text: str, voice: narration.Voice, target: Path) -> None:
    tone(target, 0.5 * len(text.split()) + 0.5, rate=22050)


def recording(tmp_path: Path, beat: str = "hello") -> Path:
    return narration.recording_path("Demo", beat, tmp_path / "voice")


# ----------------------------------------------------------------- accepted formats


@pytest.mark.parametrize("codec,rate,channels", [
    ("pcm_s16le", 44100, 1),
    ("pcm_s24le", 48000, 1),
    ("pcm_s24le", 96000, 2),
    ("pcm_s32le", 22050, 2),
    ("pcm_f32le", 44100, 1),
    ("pcm_f32le", 8000, 2),
    ("pcm_u8", 11025, 1),
])
def test_any_wav_ffmpeg_reads_is_converted_to_the_project_format(tmp_path, codec, rate, channels):
    tone(recording(tmp_path), 1.5, codec=codec, rate=rate, channels=channels)
    first = prepare(tmp_path)[0]
    assert first.recorded
    assert first.audio.parent == tmp_path / "cache"
    got_rate, got_channels, width, samples = read(first.audio)
    assert (got_rate, got_channels, width) == (soundtrack.SAMPLE_RATE, channels, 2)
    assert first.seconds == pytest.approx(1.5, abs=0.01)
    # The tone survives: its level is the recording's, not silence or clipping.
    peak = np.abs(samples.astype(np.int32)).max() / 32768
    assert peak == pytest.approx(0.3, abs=0.03)
    # And the mix takes it as it takes any passage.
    mixed = soundtrack.mix_scene([first], {"hello": 0.0, "world": 3.0}, 6.0)
    assert len(mixed) == 6000


def test_more_than_two_channels_are_mixed_down_to_stereo(tmp_path):
    tone(recording(tmp_path), 1.0, channels=6)
    rate, channels, _, _ = read(prepare(tmp_path)[0].audio)
    assert (rate, channels) == (soundtrack.SAMPLE_RATE, 2)


def test_a_recording_is_converted_once_and_again_when_it_changes(tmp_path, monkeypatch):
    runs = []

    def run(*args, **options):
        runs.append(args)
        return ffmpeg.run(*args, **options)

    monkeypatch.setattr(recordings, "ffmpeg", SimpleNamespace(run=run))
    tone(recording(tmp_path), 1.0, codec="pcm_s24le")
    first = prepare(tmp_path)[0].audio
    assert len(runs) == 1
    assert prepare(tmp_path)[0].audio == first
    assert len(runs) == 1
    tone(recording(tmp_path), 2.0, codec="pcm_s24le")
    changed = prepare(tmp_path)[0]
    assert changed.audio != first and changed.seconds == pytest.approx(2.0, abs=0.01)
    assert len(runs) == 2


def test_a_damaged_conversion_in_the_cache_is_made_again(tmp_path):
    tone(recording(tmp_path), 1.0, codec="pcm_f32le")
    converted = prepare(tmp_path)[0].audio
    converted.write_bytes(converted.read_bytes()[:100])
    again = prepare(tmp_path)[0]
    assert again.seconds == pytest.approx(1.0, abs=0.01)
    assert read(again.audio)[3].shape[0] == soundtrack.SAMPLE_RATE


# ----------------------------------------------------------------- refused


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _truncated(path: Path) -> None:
    tone(path, 2.0)
    path.write_bytes(path.read_bytes()[:30000])


def _truncated_on_a_sample(path: Path) -> None:
    tone(path, 2.0, codec="pcm_s24le")
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2 // 6 * 6])


def _garbage(path: Path) -> None:
    path.write_bytes(b"RIFF\x24\x08\x00\x00WAVEfmt " + bytes(range(256)) * 8)


def _mp3(path: Path) -> None:
    tone(path, 1.0, codec="libmp3lame", fmt="mp3")


def _directory(path: Path) -> None:
    path.mkdir(parents=True)
    (path / "take1.wav").write_bytes(b"")


def _too_short(path: Path) -> None:
    tone(path, 0.05)


def _header_only(path: Path) -> None:
    # A WAV with a header and no samples (ffmpeg's sine source with duration 0 never ends).
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(44100)


@pytest.mark.parametrize("make", [_empty, _truncated, _truncated_on_a_sample, _garbage, _mp3,
                                  _directory, _too_short, _header_only],
                         ids=lambda f: f.__name__.strip("_"))
def test_a_recording_that_cannot_be_used_is_one_line_saying_what_is_accepted(tmp_path, make):
    path = recording(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    make(path)
    with pytest.raises(NarrationError) as error:
        prepare(tmp_path)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert ACCEPTED in message
    # Nothing half-made is left in the cache.
    cache = tmp_path / "cache"
    assert not cache.exists() or not [p for p in cache.iterdir() if p.name.startswith(".")]


def header(path: Path, *, rate: int, channels: int = 1, bits: int = 16, frames: int,
           declared: int | None = None) -> Path:
    """A hand-made PCM WAV file: its header says ``rate`` Hz, and it holds ``frames``
    frames of silence (its data chunk declares ``declared`` bytes, by default those)."""
    align = channels * bits // 8
    data = bytes(frames * align)
    fmt = (b"fmt " + (16).to_bytes(4, "little") + (1).to_bytes(2, "little")
           + channels.to_bytes(2, "little") + rate.to_bytes(4, "little")
           + (rate * align).to_bytes(4, "little") + align.to_bytes(2, "little")
           + bits.to_bytes(2, "little"))
    chunk = b"data" + (len(data) if declared is None else declared).to_bytes(4, "little")
    body = b"WAVE" + fmt + chunk + data
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"RIFF" + len(body).to_bytes(4, "little") + body)
    return path


@pytest.mark.parametrize("rate, frames, claims", [
    (1, 2000, "a sample rate of 1 Hz"),            # 2000 s at 1 Hz: gigabytes at 48 kHz
    (400_000, 2000, "a sample rate of 400000 Hz"),
    (8000, 8000 * 601, "601 s of sound"),           # one second over the limit
])
def test_a_header_claiming_an_implausible_rate_or_length_is_refused_before_converting(
        tmp_path, monkeypatch, rate, frames, claims):
    """Read from the header alone: ffmpeg never runs, nothing lands in the cache."""
    def run(*args, **options):
        raise AssertionError(f"converted: {args}")

    monkeypatch.setattr(recordings, "ffmpeg", SimpleNamespace(run=run))
    path = header(recording(tmp_path), rate=rate, bits=8 if rate == 8000 else 16,
                  frames=frames)
    with pytest.raises(NarrationError) as error:
        prepare(tmp_path)
    message = str(error.value)
    assert "\n" not in message and message.startswith(str(path))
    assert claims in message and ACCEPTED in message
    assert "8000 to 192000 Hz" in message and "at most 600 s" in message
    cache = tmp_path / "cache"
    assert not cache.exists() or not [p for p in cache.iterdir() if p.suffix == ".wav"]


@pytest.mark.parametrize("rate, bits, seconds", [
    # ten minutes of sound: converted, then its words aligned (seconds of work), so it is
    # the system tier's; the default tier refuses 601 s from the header alone
    pytest.param(8000, 16, 600, marks=pytest.mark.system),
    (192000, 24, 1),
])
def test_a_recording_at_the_edges_of_what_is_allowed_is_converted(tmp_path, rate, bits,
                                                                   seconds):
    """8000 Hz and 192000 Hz are taken, and so is a recording of exactly 600 s."""
    header(recording(tmp_path), rate=rate, bits=bits, frames=rate * seconds)
    first = prepare(tmp_path)[0]
    assert first.recorded and first.seconds == pytest.approx(seconds, abs=0.01)


def test_a_header_whose_byte_rate_lies_is_measured_by_its_frames(tmp_path, monkeypatch):
    """A byte rate a hundred times too high makes 700 s look like 7 s; the sample rate
    and frame size say what ffmpeg would decode."""
    monkeypatch.setattr(recordings, "ffmpeg", None)  # never reached
    path = header(recording(tmp_path), rate=8000, frames=8000 * 700)
    data = bytearray(path.read_bytes())
    data[28:32] = (8000 * 2 * 100).to_bytes(4, "little")  # fmt's byte rate
    path.write_bytes(bytes(data))
    with pytest.raises(NarrationError, match="claims 700 s of sound"):
        prepare(tmp_path)


def test_the_planning_check_refuses_the_same_recordings(tmp_path):
    _mp3(recording(tmp_path, "world"))
    with pytest.raises(NarrationError) as error:
        narration.check_recordings("Demo", BEATS, tmp_path / "voice", tmp_path / "cache")
    assert str(error.value).startswith(str(recording(tmp_path, "world")))


def test_errors_survive_the_trip_from_a_worker_process():
    import pickle

    error = NarrationError("x.wav: not a WAV file")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


# ----------------------------------------------------------------- warnings


def test_a_recording_named_for_no_beat_is_a_warning_listing_the_beats(tmp_path):
    tone(recording(tmp_path, "hello"), 1.0)
    stray = tone(tmp_path / "voice" / "Demo" / "helo.wav", 1.0)
    warnings = narration.check_recordings("Demo", BEATS, tmp_path / "voice", tmp_path / "cache")
    assert len(warnings) == 1
    assert "\n" not in warnings[0]
    assert str(stray) in warnings[0] and "hello, world" in warnings[0]


def test_a_silent_recording_is_a_warning_and_still_used(tmp_path):
    tone(recording(tmp_path, "world"), 1.0, volume=0.0)
    tone(recording(tmp_path, "hello"), 1.0, volume=0.0005)  # -66 dBFS: a muted microphone
    warnings = narration.check_recordings("Demo", BEATS, tmp_path / "voice", tmp_path / "cache")
    assert len(warnings) == 2
    assert all("silent" in w for w in warnings)
    assert str(recording(tmp_path, "hello")) in warnings[0]
    assert str(recording(tmp_path, "world")) in warnings[1]
    assert all(p.recorded for p in prepare(tmp_path))


def test_recordings_that_are_fine_give_no_warning(tmp_path):
    tone(recording(tmp_path, "hello"), 1.0, volume=0.01)  # -40 dBFS: quiet, not silent
    assert narration.check_recordings("Demo", BEATS, tmp_path / "voice",
                                      tmp_path / "cache") == []
    assert narration.check_recordings("Other", BEATS, tmp_path / "voice",
                                      tmp_path / "cache") == []
