"""The soundtrack: narration and quiet cues mixed with pydub, at publishing loudness.

Mixed at 48 kHz stereo. Cues (a soft tick when a weight lands, a pour when a
flask fills) are generated with pydub's generators and kept well under the
voice. Loudness is measured with ffmpeg's ebur128 filter (a BS.1770 meter with
true peak), brought to -14 LUFS integrated by gain with a peak limiter so the
true peak stays at or below -1 dBTP, and measured again afterwards.
"""

from __future__ import annotations

import math
import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from pydub import AudioSegment
from pydub.generators import Sine
from pydub.utils import db_to_float

from production import ffmpeg

SAMPLE_RATE = 48_000
CHANNELS = 2
TARGET_LUFS = -14.0
MAX_TRUE_PEAK = -1.0
LEAD_IN = 0.4  # seconds of picture before a passage starts
TAIL = 0.8  # seconds of picture after a passage ends, before the next beat


class Spoken(Protocol):
    """What the mix reads of a passage (a production.narration.passages.Passage): the
    beat it plays in and its sound file."""

    @property
    def beat(self) -> str: ...

    @property
    def audio(self) -> Path: ...


#: the meter's absolute gate (BS.1770): a sound never louder than this has no integrated
#: loudness (ffmpeg's ebur128 reports the gate itself)
GATE_LUFS = -70.0


@dataclass(frozen=True)
class Loudness:
    integrated: float  # LUFS
    true_peak: float  # dBTP

    def figures(self) -> dict[str, float | None]:
        """As JSON takes it: a figure silence does not have (its true peak is -inf dBTP,
        its loudness under the gate) is None."""
        return {"integrated": self.integrated if self.integrated > GATE_LUFS else None,
                "true_peak": self.true_peak if math.isfinite(self.true_peak) else None}


def silence(seconds: float) -> AudioSegment:
    samples = round(seconds * SAMPLE_RATE)
    raw = bytes(samples * CHANNELS * 2)
    return AudioSegment(raw, sample_width=2, frame_rate=SAMPLE_RATE, channels=CHANNELS)


def _prepare(segment: AudioSegment) -> AudioSegment:
    return segment.set_frame_rate(SAMPLE_RATE).set_channels(CHANNELS).set_sample_width(2)


def tick() -> AudioSegment:
    """A soft wooden tick (80 ms), for a weight or share landing."""
    tone = Sine(880, sample_rate=SAMPLE_RATE).to_audio_segment(duration=80, volume=-30)
    return _prepare(tone.fade_in(4).fade_out(70))


#: the seed of the pour's noise: the same noise in every render (pydub's WhiteNoise draws
#: from the unseeded ``random``, so every render of a scene with a pour sounded different)
POUR_SEED = 1


def pour() -> AudioSegment:
    """A gentle pour (1.2 s of soft, filtered noise), for a flask filling: the same
    samples every time."""
    values = np.random.default_rng(POUR_SEED).uniform(-1.0, 1.0, round(1.2 * SAMPLE_RATE))
    samples = (values * 32767 * db_to_float(-38)).astype("<i2")
    noise = AudioSegment(samples.tobytes(), sample_width=2, frame_rate=SAMPLE_RATE, channels=1)
    return _prepare(noise.low_pass_filter(900).fade_in(250).fade_out(500))


CUES = {"tick": tick, "pour": pour}


def mix_scene(passages: Iterable[Spoken], beat_starts: dict[str, float], seconds: float,
              cues: list[tuple[str, float]] = ()) -> AudioSegment:
    """One scene's sound, exactly ``seconds`` long: each passage :data:`LEAD_IN` after its
    beat's start."""
    track = silence(seconds)
    for p in passages:
        voice = _prepare(AudioSegment.from_file(p.audio))
        track = track.overlay(voice, position=round((beat_starts[p.beat] + LEAD_IN) * 1000))
    for kind, at in cues:
        track = track.overlay(CUES[kind](), position=round(at * 1000))
    return track[: len(track)]  # overlay never lengthens; keep the exact length


METER = "ebur128=peak=true"


def _read_meter(stderr: str) -> Loudness:
    """The summary that ffmpeg's ebur128 filter prints at the end."""
    summary = stderr[stderr.rindex("Summary:"):]
    integrated = float(re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", summary).group(1))
    peak = re.search(r"Peak:\s+(-?[\d.]+|-inf) dBFS", summary)
    return Loudness(integrated, float(peak.group(1)) if peak else float("-inf"))


def start_measure(path: Path, *, concat: bool = False,
                  peak: bool = True) -> Callable[[], Loudness]:
    """Start metering a sound file in the background (ffmpeg's ebur128 meter, integrated
    loudness and, with ``peak``, true peak; else the peak is reported as -inf); call the
    result to wait for the measure. With ``concat``, ``path`` is a concat listing and the
    files it names are metered one after another."""
    joined = ["-f", "concat", "-safe", "0"] if concat else []
    meter = ffmpeg.start(*joined, "-i", str(path), "-af", METER if peak else "ebur128",
                         "-f", "null", "-")

    def result() -> Loudness:
        _, stderr = meter.communicate()
        if meter.returncode != 0:
            raise subprocess.CalledProcessError(meter.returncode, meter.args, stderr=stderr)
        return _read_meter(stderr)

    return result


def measure(path: Path, *, concat: bool = False, peak: bool = True) -> Loudness:
    """Integrated loudness and true peak of a sound file (see :func:`start_measure`)."""
    return start_measure(path, concat=concat, peak=peak)()


def level(source: Path, target: Path, gain_db: float, ceiling_db: float) -> Loudness:
    """Apply ``gain_db`` of gain, then limit peaks to ``ceiling_db`` dBFS (ffmpeg alimiter);
    returns the loudness of the result, metered in the same pass."""
    ceiling = 10 ** (ceiling_db / 20)
    return _read_meter(ffmpeg.run(
        "-i", str(source), "-af",
        f"volume={gain_db:.3f}dB,alimiter=limit={ceiling:.5f}:level=disabled:"
        f"attack=5:release=50:asc=1,{METER}",
        "-ar", str(SAMPLE_RATE), "-ac", str(CHANNELS), "-c:a", "pcm_s16le", str(target)))


def normalize(source: Path, target: Path) -> Loudness:
    """Write ``source`` to ``target`` at -14 LUFS, true peak <= -1 dBTP; returns the measure.

    Measure, set the gain that brings the integrated loudness to the target,
    and limit the peaks a decibel under the true-peak ceiling (the limiter works
    on samples; between samples a peak can rise a little higher). Limiting takes
    a little loudness away, and more the more gain there is, so the next gain
    comes from the line through the last two (gain, loudness) points (a secant
    step), until the measure is within 0.3 LU (at most three passes). The
    length in samples never changes.
    """
    before = measure(source, peak=False).integrated
    points = [(0.0, before)]
    gain = TARGET_LUFS - before
    for _ in range(3):
        after = level(source, target, gain, MAX_TRUE_PEAK - 1.0)
        if abs(after.integrated - TARGET_LUFS) <= 0.3 and after.true_peak <= MAX_TRUE_PEAK:
            break
        (g0, l0), (g1, l1) = points[-1], (gain, after.integrated)
        points.append((g1, l1))
        slope = (l1 - l0) / (g1 - g0) if g1 != g0 and l1 != l0 else 1.0
        gain = g1 + (TARGET_LUFS - l1) / max(slope, 0.1)
    return after
