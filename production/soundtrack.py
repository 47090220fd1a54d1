"""The soundtrack: narration and quiet cues mixed with pydub, at publishing loudness.

Mixed at 48 kHz stereo. Cues (a soft tick when a weight lands, a pour when a
flask fills) are generated with pydub's generators and kept well under the
voice. Loudness is normalised with ffmpeg's loudnorm (an EBU R128 / BS.1770
meter with a true-peak limiter) to -14 LUFS integrated, true peak at most
-1 dBTP, and measured again afterwards with ffmpeg's ebur128 meter.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from pydub import AudioSegment
from pydub.generators import Sine, WhiteNoise

from production.narration import LEAD_IN, Passage

SAMPLE_RATE = 48_000
CHANNELS = 2
TARGET_LUFS = -14.0
TARGET_TRUE_PEAK = -1.5  # aim a little under the -1 dBTP ceiling
MAX_TRUE_PEAK = -1.0


@dataclass(frozen=True)
class Loudness:
    integrated: float  # LUFS
    true_peak: float  # dBTP


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


def pour() -> AudioSegment:
    """A gentle pour (1.2 s of soft, filtered noise), for a flask filling."""
    noise = WhiteNoise(sample_rate=SAMPLE_RATE).to_audio_segment(duration=1200, volume=-38)
    return _prepare(noise.low_pass_filter(900).fade_in(250).fade_out(500))


CUES = {"tick": tick, "pour": pour}


def mix_scene(passages: list[Passage], beat_starts: dict[str, float], seconds: float,
              cues: list[tuple[str, float]] = ()) -> AudioSegment:
    """One scene's sound, exactly ``seconds`` long: each passage at its beat's start."""
    track = silence(seconds)
    for p in passages:
        voice = _prepare(AudioSegment.from_file(p.audio))
        track = track.overlay(voice, position=round((beat_starts[p.beat] + LEAD_IN) * 1000))
    for kind, at in cues:
        track = track.overlay(CUES[kind](), position=round(at * 1000))
    return track[: len(track)]  # overlay never lengthens; keep the exact length


def measure(path: Path) -> Loudness:
    """Integrated loudness and true peak of a sound file (ffmpeg's ebur128 meter)."""
    out = subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-i", str(path), "-af", "ebur128=peak=true",
         "-f", "null", "-"], capture_output=True, text=True, check=True,
    ).stderr
    summary = out[out.rindex("Summary:"):]
    integrated = float(re.search(r"I:\s+(-?[\d.]+|-inf) LUFS", summary).group(1))
    peak = float(re.search(r"Peak:\s+(-?[\d.]+|-inf) dBFS", summary).group(1))
    return Loudness(integrated, peak)


def normalize(source: Path, target: Path) -> Loudness:
    """Write ``source`` to ``target`` at -14 LUFS, true peak <= -1 dBTP; returns the measure."""
    first = subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-i", str(source), "-af",
         f"loudnorm=I={TARGET_LUFS}:TP={TARGET_TRUE_PEAK}:LRA=11:print_format=json",
         "-f", "null", "-"], capture_output=True, text=True, check=True,
    ).stderr
    stats = json.loads(first[first.rindex("{"):first.rindex("}") + 1])
    loudnorm = (
        f"loudnorm=I={TARGET_LUFS}:TP={TARGET_TRUE_PEAK}:LRA=11"
        f":measured_I={stats['input_i']}:measured_TP={stats['input_tp']}"
        f":measured_LRA={stats['input_lra']}:measured_thresh={stats['input_thresh']}"
        f":offset={stats['target_offset']}"
    )
    frames = len(AudioSegment.from_file(source).get_array_of_samples()) // CHANNELS
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-y", "-i", str(source), "-af",
         f"{loudnorm},aresample={SAMPLE_RATE},apad,atrim=end_sample={frames}",
         "-ar", str(SAMPLE_RATE), "-ac", str(CHANNELS), "-c:a", "pcm_s16le", str(target)],
        capture_output=True, check=True,
    )
    return measure(target)
