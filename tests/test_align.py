"""The forced aligner, on real speech from the Piper voice: words said apart with known
silences between them (so their true onsets are known), a connected sentence, the
same sound at another rate in stereo, silence, and several threads at once."""

from __future__ import annotations

import threading
import wave
from pathlib import Path

import numpy as np
import pytest

from production import narration, timings
from production.narration import align as aligner

SLOW = 1.35  # Piper's length scale: a little slower than its own pace
ONSET = 0.1  # seconds an aligned onset may be off
# An end may be off a little more: a word ends in its quietest sound (a fading vowel,
# a released stop), where the aligner's 10 ms frames and the truth's loudness threshold
# disagree most, and an aligner may give a word some of the silence after it.
END = 0.15


@pytest.fixture(scope="module")
def voice():
    return narration.Piper().load()


def said(voice, text: str, length_scale: float = SLOW, *, sampled: bool = True) -> np.ndarray:
    """Piper's samples (16-bit mono, at the voice's rate) for ``text``; with ``sampled``
    False, Piper's noise is off, so the same text gives the same samples every time."""
    from piper import SynthesisConfig

    noise = {} if sampled else {"noise_scale": 0.0, "noise_w_scale": 0.0}
    chunks = voice.synthesize(text, syn_config=SynthesisConfig(length_scale=length_scale,
                                                               **noise))
    return np.concatenate([c.audio_int16_array for c in chunks])


def voiced(samples: np.ndarray) -> np.ndarray:
    """Indices of the samples louder than 2 % of the peak."""
    level = np.abs(samples.astype(np.int32))
    return np.flatnonzero(level > 0.02 * level.max())


def write(path: Path, samples: np.ndarray, rate: int) -> Path:
    """A 16-bit WAV; ``samples`` is (n,) for mono or (n, channels)."""
    frames = samples.reshape(-1, 1) if samples.ndim == 1 else samples
    with wave.open(str(path), "wb") as w:
        w.setnchannels(frames.shape[1])
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames.astype("<i2").tobytes())
    return path


def test_words_said_apart_are_found_where_they_start(voice, tmp_path):
    rate = voice.config.sample_rate
    words = "seven bright flasks hold softmax weights near the quiet river".split()
    gaps = (0.3, 0.45, 0.25, 0.4, 0.35, 0.5, 0.3, 0.4, 0.25)
    parts = [np.zeros(int(0.4 * rate), np.int16)]
    truth = []
    at = parts[0].size
    for k, word in enumerate(words):
        sound = said(voice, word)
        loud = voiced(sound)
        sound = sound[loud[0]:loud[-1] + 1]
        truth.append((at / rate, (at + sound.size) / rate))
        parts.append(sound)
        at += sound.size
        gap = np.zeros(int(round((gaps[k] if k < len(gaps) else 0.3) * rate)), np.int16)
        parts.append(gap)
        at += gap.size
    samples = np.concatenate(parts)
    text = " ".join(words)

    got = aligner.align(write(tmp_path / "apart.wav", samples, rate), text)

    assert timings.problem(got, text, samples.size / rate) is None
    onsets = np.array([w.start - t[0] for w, t in zip(got, truth)])
    ends = np.array([w.end - t[1] for w, t in zip(got, truth)])
    print(f"onset error max {np.abs(onsets).max():.3f} s, mean {np.abs(onsets).mean():.3f} s; "
          f"end error max {np.abs(ends).max():.3f} s")
    assert np.abs(onsets).max() < ONSET, list(zip(words, onsets.round(3)))
    assert np.abs(ends).max() < END, list(zip(words, ends.round(3)))


def test_a_connected_sentence_gets_valid_timings(voice, tmp_path):
    rate = voice.config.sample_rate
    text = ("The exponentials add up to sixty-four point eight. Sharpness decides, "
            "one and a half times; “tired” is müde, says softmax.")
    samples = said(voice, text)
    seconds = samples.size / rate
    loud = voiced(samples)

    got = aligner.align(write(tmp_path / "sentence.wav", samples, rate), text)

    assert timings.problem(got, text, seconds) is None
    starts = [w.start for w in got]
    assert all(a < b for a, b in zip(starts, starts[1:])), starts
    assert abs(got[0].start - loud[0] / rate) < ONSET
    assert abs(got[-1].end - (loud[-1] + 1) / rate) < END
    by_text = {w.text: w for w in got}
    # "sixty-four" is four syllables, "up" one: the hyphenated word is timed as a whole
    assert by_text["sixty-four"].end - by_text["sixty-four"].start > 2 * (
        by_text["up"].end - by_text["up"].start)
    # out of the dictionary, yet each still holds its own stretch of speech
    for word in ("exponentials", "müde,", "softmax."):
        assert by_text[word].end - by_text[word].start > 0.2, by_text[word]


def test_stereo_48k_times_like_its_mono_source(voice, tmp_path):
    rate = voice.config.sample_rate
    text = "Sharpness decides, one and a half times."
    # The same samples every run: the two readings differ only by the resampling (a
    # sampled take now and then puts a word edge between two 10 ms frames).
    mono = said(voice, text, sampled=False)
    high = np.interp(np.arange(int(mono.size * 48000 / rate)) * (rate / 48000),
                     np.arange(mono.size), mono.astype(np.float64))
    stereo = np.stack([high, high * 0.8], axis=1).round()

    first = aligner.align(write(tmp_path / "mono.wav", mono, rate), text)
    second = aligner.align(write(tmp_path / "stereo.wav", stereo, 48000), text)

    assert timings.problem(second, text, stereo.shape[0] / 48000) is None
    for a, b in zip(first, second):
        assert abs(a.start - b.start) < 0.03 and abs(a.end - b.end) < 0.03, (a, b)


def test_silence_still_gets_valid_timings(tmp_path):
    text = "one two three"
    silent = write(tmp_path / "silence.wav", np.zeros(44100, np.int16), 22050)
    got = aligner.align(silent, text)
    assert timings.problem(got, text, 2.0) is None
    # nothing voiced: the words share the whole sound, by their letters
    assert got[0].start == 0.0 and got[-1].end == pytest.approx(2.0)
    assert got[2].end - got[2].start > got[0].end - got[0].start

    empty = write(tmp_path / "empty.wav", np.zeros(0, np.int16), 22050)
    assert timings.problem(aligner.align(empty, text), text, 0.0) is None
    assert aligner.align(silent, "") == []


def test_threads_align_at_once_and_read_what_one_reads_alone(voice, tmp_path):
    rate = voice.config.sample_rate
    texts = ("Sharpness decides.", "The exponentials add up to sixty-four point eight.")
    paths = [write(tmp_path / f"{k}.wav", said(voice, t, 1.0), rate)
             for k, t in enumerate(texts)]
    alone = [aligner.align(p, t) for p, t in zip(paths, texts)]
    results: dict[int, list] = {}

    def work(k: int) -> None:
        results[k] = [aligner.align(paths[k % 2], texts[k % 2]) for _ in range(3)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert results[k] == [alone[k % 2]] * 3
