"""The mix: exact length, cues under the voice, loudness at -14 LUFS and true peak <= -1 dBTP."""

from __future__ import annotations

import numpy as np
import pytest
from pydub import AudioSegment

from production import soundtrack
from production.narration import Passage
from tests.sounds import write_tone


def tone_file(tmp_path, name, seconds, db_peak, channels=2, freq=997.0):
    rate = soundtrack.SAMPLE_RATE
    t = np.arange(int(seconds * rate)) / rate
    wave = (10 ** (db_peak / 20) * np.sin(2 * np.pi * freq * t) * 32767).astype("<i2")
    frames = np.repeat(wave[:, None], channels, axis=1)
    path = tmp_path / name
    AudioSegment(frames.tobytes(), frame_rate=rate, sample_width=2,
                 channels=channels).export(path, format="wav")
    return path


def test_the_meter_reads_a_known_tone(tmp_path):
    # A 997 Hz sine at -20 dBFS in both channels reads -20 LUFS on a BS.1770 meter.
    reading = soundtrack.measure(tone_file(tmp_path, "tone.wav", 10.0, -20.0))
    assert reading.integrated == pytest.approx(-20.0, abs=0.3)
    assert reading.true_peak == pytest.approx(-20.0, abs=0.3)


def test_mix_is_exactly_as_long_as_the_video(tmp_path):
    voice = tmp_path / "voice.wav"
    write_tone(voice, 2.0)
    p = Passage("S", "b", "text", voice, 2.0, False)
    mix = soundtrack.mix_scene([p], {"b": 0.5}, 7.25, [("tick", 1.0), ("pour", 5.0)])
    assert mix.frame_count() == pytest.approx(7.25 * soundtrack.SAMPLE_RATE, abs=1)
    assert (mix.frame_rate, mix.channels) == (48000, 2)


def test_cues_are_quieter_than_the_voice():
    for make in soundtrack.CUES.values():
        cue = make()
        assert cue.max_dBFS < -20  # a voice peaks within a few dB of full scale


def test_generated_mix_is_normalised_to_publishing_loudness(tmp_path):
    # Speech-like material: bursts of tones with pauses, plus cues.
    rate = soundtrack.SAMPLE_RATE
    rng = np.random.default_rng(3)
    pieces = []
    for _ in range(12):
        n = int(rng.uniform(0.3, 0.9) * rate)
        t = np.arange(n) / rate
        burst = np.sin(2 * np.pi * rng.uniform(120, 300) * t) * np.hanning(n)
        pieces += [burst * rng.uniform(0.1, 0.5), np.zeros(int(0.25 * rate))]
    mono = (np.concatenate(pieces) * 32767).astype("<i2")
    voice = tmp_path / "voice.wav"
    AudioSegment(mono.tobytes(), frame_rate=rate, sample_width=2, channels=1).export(
        voice, format="wav")
    seconds = len(mono) / rate + 1.0
    p = Passage("S", "b", "text", voice, len(mono) / rate, False)
    mix = soundtrack.mix_scene([p], {"b": 0.0}, seconds, [("tick", 2.0), ("pour", 4.0)])
    raw, done = tmp_path / "raw.wav", tmp_path / "done.wav"
    mix.export(raw, format="wav")
    reading = soundtrack.normalize(raw, done)
    assert reading.integrated == pytest.approx(-14.0, abs=1.0)
    assert reading.true_peak <= -1.0
    again = soundtrack.measure(done)
    assert again == reading
    assert AudioSegment.from_file(done).frame_count() == mix.frame_count()


def test_every_cue_sounds_the_same_in_every_render():
    # a render of the same source gives the same bytes: a cue made of noise must not draw
    # from an unseeded generator (each render of PotionMixing once sounded different)
    for kind, make in soundtrack.CUES.items():
        assert make().raw_data == make().raw_data, kind
    heard = np.frombuffer(soundtrack.pour().raw_data, "<i2")
    assert heard.std() > 0  # noise, not silence
