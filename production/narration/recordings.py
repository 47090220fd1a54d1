"""Recordings: a user's WAV file at ``VOICE/SCENE/BEAT.wav`` replaces the synthetic
voice for that passage, and the beat follows the recording's length. Any WAV file
ffmpeg reads is accepted (PCM 16/24/32-bit or float, 8 to 192 kHz, mono or stereo, up to
ten minutes: see :data:`ACCEPTED`); its layout is read and checked first, from the header
alone (:func:`_read_layout`: a plausible rate and length), then it
is converted once to 16-bit PCM at the mix's rate and cached by its bytes
(:func:`recorded_sound`). A recording that cannot be used is a NarrationError naming it.
"""

from __future__ import annotations

import hashlib
import math
import os
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from production import ffmpeg
from production.errors import NarrationError, SpeechDiskFull, is_disk_full
from production.narration.speech import (
    SPACE_MARGIN,
    checked_seconds,
    free_space,
    keep_first,
    last_line,
    speech_dir,
    touch,
    writing,
)
from production.soundtrack import SAMPLE_RATE


def recording_path(scene: str, beat: str, root: Path) -> Path:
    return root / scene / f"{beat}.wav"


#: The sample rates a recording may have, Hz: telephone to studio. A header claiming
#: less (1 Hz) would be converted to the mix's 48 kHz into gigabytes of scratch.
RATES = (8000, 192000)
#: The longest recording, seconds: one beat's passage, ten minutes (about 1600 words at a
#: narrator's pace), which bounds its conversion to about 115 MB (48 kHz stereo 16-bit).
MAX_RECORDING = 600
#: What a recording may be, said in every error about one.
ACCEPTED = (f"a WAV file (PCM 16/24/32-bit or float, {RATES[0]} to {RATES[1]} Hz, mono or "
            f"stereo, at most {MAX_RECORDING} s)")
MIN_RECORDING = 0.1  # seconds
SILENT_DBFS = -60.0  # a recording whose peak is under this is silent (a muted microphone)
CONVERSION_VERSION = "1"  # bumped when the conversion changes


def _refuse(path: Path, problem: str) -> NarrationError:
    return NarrationError(f"{path}: {problem}; a recording must be {ACCEPTED}")


@dataclass(frozen=True)
class _Layout:
    channels: int
    rate: int  # samples per second, as the header says
    byte_rate: int  # bytes of sound per second, as the header says
    frame_bytes: int  # bytes of one sample on every channel, as the header says (0: unsaid)
    data_bytes: int  # bytes of sound the file holds

    @property
    def seconds(self) -> float:
        """How long the sound lasts by the header: by its byte rate, or by its sample rate
        and frame size (what ffmpeg goes by), whichever is longer (they agree in a WAV
        file whose header does not lie)."""
        by_frames = self.data_bytes / (self.rate * self.frame_bytes) if self.frame_bytes \
            else 0.0
        return max(self.data_bytes / self.byte_rate, by_frames)


def _read_layout(path: Path) -> _Layout:
    """The RIFF layout of a recording, checked: a WAV file whose sound is all there."""
    if path.is_dir():
        raise _refuse(path, "is a folder")
    if not path.is_file():
        raise _refuse(path, "is not a file")
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(12)
            if size == 0:
                raise _refuse(path, "is empty (0 bytes)")
            if head[:3] == b"ID3" or (head[:1] == b"\xff" and len(head) > 1
                                      and head[1] & 0xE0 == 0xE0):
                raise _refuse(path, "is MP3 audio, not a WAV file")
            if head[:4] not in (b"RIFF", b"RF64", b"BW64") or head[8:12] != b"WAVE":
                raise _refuse(path, "is not a WAV file")
            fmt = b""
            while len(chunk := f.read(8)) == 8:
                name, length = chunk[:4], int.from_bytes(chunk[4:], "little")
                if name == b"fmt ":
                    fmt = f.read(min(length, 64))
                    f.seek(length - len(fmt) + (length & 1), os.SEEK_CUR)
                elif name == b"data":
                    break
                else:
                    f.seek(length + (length & 1), os.SEEK_CUR)
            else:
                raise _refuse(path, "holds no sound (no data chunk)")
            remaining = size - f.tell()
    except OSError as error:
        raise _refuse(path, f"cannot be read ({error.strerror or error})") from None
    if len(fmt) < 16:
        raise _refuse(path, "has no format chunk")
    channels = int.from_bytes(fmt[2:4], "little")
    rate = int.from_bytes(fmt[4:8], "little")
    byte_rate = int.from_bytes(fmt[8:12], "little")
    frame_bytes = int.from_bytes(fmt[12:14], "little") or \
        channels * -(-int.from_bytes(fmt[14:16], "little") // 8)
    if channels < 1 or byte_rate < 1:
        raise _refuse(path, "has a damaged format chunk")
    if not RATES[0] <= rate <= RATES[1]:
        raise _refuse(path, f"claims a sample rate of {rate} Hz")
    if length not in (0, 0xFFFFFFFF) and length > remaining:  # 0, all ones: size unknown
        raise _refuse(path, f"is cut short: it promises {length} bytes of sound and holds "
                            f"{remaining}")
    layout = _Layout(channels, rate, byte_rate, frame_bytes,
                     remaining if length in (0, 0xFFFFFFFF) else length)
    if layout.seconds > MAX_RECORDING:
        raise _refuse(path, f"claims {math.floor(layout.seconds)} s of sound")
    return layout


def recording_key(path: Path) -> str:
    """What a recording's sound in the mix is made from, without converting it: a hash of
    its bytes and of how it is converted (the name of its conversion in the speech cache).
    Its layout is checked first: a recording that cannot be used is a NarrationError, as
    from :func:`recorded_sound`."""
    _read_layout(path)
    return _digest(path)


def _digest(path: Path) -> str:
    digest = hashlib.sha256(f"recording {CONVERSION_VERSION} {SAMPLE_RATE}\n".encode())
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as error:
        raise _refuse(path, f"cannot be read ({error.strerror or error})") from None
    return digest.hexdigest()[:24]


def recorded_sound(path: Path, cache: Path | None = None) -> Path:
    """A user's recording in the mix's format: 16-bit PCM at the soundtrack's rate, mono
    or stereo as recorded (more channels mixed down to stereo). Converted by ffmpeg once,
    into ``cache`` under a hash of the recording's bytes; checked before it is renamed
    into place and again whenever it is read. A recording that cannot be used is a
    NarrationError naming it and saying what is accepted."""
    cache = cache if cache is not None else speech_dir()
    layout = _read_layout(path)
    channels = min(layout.channels, 2)
    target = cache / f"{_digest(path)}.wav"
    if target.exists():
        try:
            if checked_seconds(target) >= MIN_RECORDING:
                touch(target)
                return target
        except ValueError:
            pass
        target.unlink(missing_ok=True)  # damaged: convert again
    needed = int(layout.seconds * SAMPLE_RATE * 2 * channels) + SPACE_MARGIN
    with writing(cache, target, needed) as partial:
        try:
            ffmpeg.run("-v", "error", "-xerror", "-f", "wav", "-i", str(path), "-map", "0:a:0",
                       "-ar", str(SAMPLE_RATE), "-ac", str(channels), "-c:a", "pcm_s16le",
                       "-f", "wav", str(partial), errors="replace")
        except subprocess.CalledProcessError as failed:
            if is_disk_full(failed):
                raise SpeechDiskFull(cache, needed) from None
            raise _refuse(path, f"cannot be decoded (ffmpeg: {last_line(failed.stderr)})") \
                from None
        try:
            converted = checked_seconds(partial)
        except ValueError as error:
            if free_space(cache) < needed:
                raise SpeechDiskFull(cache, needed) from None
            raise _refuse(path, f"cannot be decoded (its conversion is {error})") from None
        if converted < MIN_RECORDING:
            raise _refuse(path, f"lasts only {converted:.3f} s (at least {MIN_RECORDING} s)")
        keep_first(partial, target)
    return target


def peak_dbfs(path: Path) -> float:
    """The highest sample of a 16-bit WAV file, in dB below full scale (-inf: all zero)."""
    with wave.open(str(path)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    peak = int(np.abs(samples.astype(np.int32)).max(initial=0))
    return 20 * math.log10(peak / 32768) if peak else -math.inf


def check_recordings(scene: str, beats: list[str], voice_dir: Path,
                     cache: Path | None = None, *, convert: bool = True) -> list[str]:
    """Check (and convert, once) every recording of ``scene``; returns warnings, one line
    each, without a prefix: a file in the scene's voice folder that names no beat, and a
    recording that is silent. A recording that cannot be used, or a file where a folder
    of them goes, raises NarrationError. Meant for planning, once per render, before any
    worker starts. Without ``convert`` (a dry run), nothing is converted or written: each
    recording's header is checked, and silence is not looked for."""
    cache = cache if cache is not None else speech_dir()
    folder = voice_dir / scene
    for place in (voice_dir, folder):
        if place.exists() and not place.is_dir():
            raise NarrationError(f"{place}: a file, not a folder; a recording goes in "
                                 f"{voice_dir / 'SCENE' / 'BEAT.wav'}")
    warnings = []
    wanted = {f"{beat}.wav" for beat in beats}
    if folder.is_dir():
        for entry in sorted(folder.iterdir()):
            if entry.name not in wanted and not entry.name.startswith("."):
                warnings.append(f"{entry} matches no beat of {scene}, so it is not used; "
                                f"a recording is named BEAT.wav for one of: {', '.join(beats)}")
    for beat in beats:
        path = recording_path(scene, beat, voice_dir)
        if not os.path.lexists(path):
            continue
        if not convert:
            _read_layout(path)
            continue
        peak = peak_dbfs(recorded_sound(path, cache))
        if peak < SILENT_DBFS:
            level = "no sound at all" if peak == -math.inf else f"peak {peak:.0f} dBFS"
            warnings.append(f"{path} is silent ({level}); it replaces the voice of [{beat}] "
                            "all the same")
    return warnings
