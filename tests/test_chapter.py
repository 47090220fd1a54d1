"""Joining scenes: the sound is spliced from the scenes' AAC frames only at silent seams."""

from __future__ import annotations

import wave

import numpy as np

from production.outputs.joining import seams_are_silent
from production.scene_output import SceneOutput

RATE = 48_000


def scene(folder, name: str, samples: np.ndarray) -> SceneOutput:
    """A stored scene whose sound (stereo 16-bit) is ``samples``."""
    folder.mkdir(exist_ok=True)
    with wave.open(str(folder / f"{name}.wav"), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.repeat(samples.astype("<i2"), 2).tobytes())
    return SceneOutput(name, folder, len(samples) / RATE, {})


def voiced(seconds: float, lead: float, tail: float) -> np.ndarray:
    """A tone with ``lead`` seconds of silence before it and ``tail`` after."""
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    tone = 8000 * np.sin(2 * np.pi * 220 * t)
    tone[: int(lead * RATE)] = 0
    tone[n - int(tail * RATE):] = 0
    return tone


def test_scenes_that_open_and_close_on_silence_have_silent_seams(tmp_path):
    scenes = [scene(tmp_path, f"S{i}", voiced(2.0, 0.4, 0.8)) for i in range(3)]
    assert seams_are_silent(scenes)


def test_sound_running_up_to_a_seam_is_not_silent(tmp_path):
    first = scene(tmp_path, "A", voiced(2.0, 0.4, 0.0))  # the tone runs to the very end
    second = scene(tmp_path, "B", voiced(2.0, 0.4, 0.8))
    assert not seams_are_silent([first, second])
    early = scene(tmp_path, "C", voiced(2.0, 0.05, 0.8))  # starts 50 ms in: inside the seam
    assert not seams_are_silent([second, early])


def test_a_quiet_hiss_at_a_seam_still_counts_as_silence(tmp_path):
    hiss = voiced(2.0, 0.4, 0.8)
    hiss[-4096:] = 40 * np.sin(np.arange(4096))  # about -58 dBFS
    assert seams_are_silent([scene(tmp_path, "A", hiss), scene(tmp_path, "B", voiced(2, .4, .8))])
