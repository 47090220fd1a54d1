"""Sound files the tests make for themselves."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np


def write_tone(path: Path, seconds: float, pitch: float = 220.0, rate: int = 22050) -> None:
    """A quiet sine tone (16-bit mono WAV), standing in for a voice."""
    t = np.arange(int(seconds * rate)) / rate
    samples = (0.3 * np.sin(2 * np.pi * pitch * t) * 32767).astype("<i2")
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(samples.tobytes())
