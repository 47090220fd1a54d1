"""espeak-ng's own word timings (production.voices.espeak_words), with the real espeak-ng."""

from __future__ import annotations

import errno
import shutil
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest

from production import timings
from production.voices import espeak_words

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is not installed")

PASSAGE = ("Attention lets every word look at every other word. "
           "Then each word weighs what it finds, and keeps the best parts.")
MIXED = "She was “tired” — müde really — at sixty-four. Then she slept."


def sound(path: Path) -> tuple[np.ndarray, int]:
    with wave.open(str(path)) as w:
        assert (w.getnchannels(), w.getsampwidth()) == (1, 2)
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(float), w.getframerate()


def cli(text: str, target: Path, name: str = "en-us", rate: int = 150, pitch: int = 40) -> None:
    subprocess.run(["espeak-ng", "-v", name, "-s", str(rate), "-p", str(pitch),
                    "-w", str(target), "--", text], check=True, capture_output=True)


def spoken(text: str, tmp_path: Path, **settings) -> tuple[list[timings.Word], np.ndarray, int]:
    target = tmp_path / "library.wav"
    words = espeak_words.speak(text, target, **settings)
    samples, rate = sound(target)
    assert timings.problem(words, text, len(samples) / rate) is None
    return words, samples, rate


def rms(samples: np.ndarray, rate: int, start: float, seconds: float) -> float:
    part = samples[int(start * rate):int((start + seconds) * rate)]
    return float(np.sqrt(np.mean(part ** 2))) if len(part) else 0.0


def pauses(samples: np.ndarray, rate: int, shortest: float = 0.15) -> list[tuple[float, float]]:
    """The silent stretches (10 ms frames below 1 % of full scale) between speech."""
    frame = rate // 100
    loud = [np.abs(samples[i:i + frame]).max() > 328 for i in range(0, len(samples), frame)]
    found, begin = [], None
    for i, voiced in enumerate(loud + [True]):
        if not voiced and begin is None:
            begin = i
        elif voiced and begin is not None:
            if begin > 0 and i < len(loud) and (i - begin) / 100 >= shortest:
                found.append((begin / 100, i / 100))
            begin = None
    return found


def test_one_word_per_token_in_order(tmp_path):
    words, samples, rate = spoken(PASSAGE, tmp_path)
    assert [w.text for w in words] == PASSAGE.split()
    starts = [w.start for w in words]
    assert all(a < b for a, b in zip(starts, starts[1:])), starts
    assert words[0].start == 0.0
    # the last word ends where the voice does, before the silence espeak-ng adds at the end
    assert words[-1].end < len(samples) / rate - 0.1
    assert np.abs(samples[int(words[-1].end * rate):]).max() < espeak_words.SILENT
    assert np.abs(samples[int(words[-1].end * rate) - 50:int(words[-1].end * rate)]).max() \
        >= espeak_words.SILENT


def test_onsets_land_on_speech(tmp_path):
    words, samples, rate = spoken(PASSAGE, tmp_path)
    then = words[PASSAGE.split().index("Then")]
    # the pause between the sentences: the one that ends nearest "Then"
    begin, end = min(pauses(samples, rate), key=lambda p: abs(p[1] - then.start))
    assert end - begin > 0.2
    silence = rms(samples, rate, begin + 0.02, end - begin - 0.04)
    for w in words:
        assert rms(samples, rate, w.start, 0.08) > 10 * silence + 100, w
    # "Then" starts after that pause, not in it
    assert end - 0.06 <= then.start < end + 0.03


@pytest.mark.parametrize("text", ["one. ... ... two", "one, two"])
def test_a_word_after_a_pause_starts_after_it(tmp_path, text):
    words, samples, rate = spoken(text, tmp_path)
    found = pauses(samples, rate)
    assert found, "no pause in the sound"
    begin, end = max(found, key=lambda p: p[1] - p[0])
    assert words[0].start < begin
    assert words[-1].start > begin + 0.6 * (end - begin), (words, found)
    assert words[-1].start < end + 0.05


@pytest.mark.parametrize("text,settings", [
    (PASSAGE, {}),
    (MIXED, {"rate": 200, "pitch": 80}),
    (PASSAGE, {"name": "en", "rate": 120, "pitch": 10}),
])
def test_the_sound_is_the_commands(tmp_path, text, settings):
    # several in a row, other settings in between: nothing carries from one to the next
    spoken("Something else first, to leave the library in another state.", tmp_path,
           rate=300, pitch=0)
    ours = tmp_path / "ours.wav"
    espeak_words.speak(text, ours, **settings)
    theirs = tmp_path / "cli.wav"
    cli(text, theirs, **settings)
    (a, rate_a), (b, rate_b) = sound(ours), sound(theirs)
    assert rate_a == rate_b == 22050
    assert abs(len(a) - len(b)) / rate_a < 0.010
    assert np.array_equal(a, b)


def test_non_ascii_and_punctuation_tokens(tmp_path):
    # espeak-ng's text_position is 1-based and counts characters, not UTF-8 bytes: each
    # word event's position and length pick out that word's letters in the text
    _, events, _ = espeak_words._in_child(MIXED, "en-us", 150, 40)
    named = [MIXED[p - 1:p - 1 + n] for p, n, _ in events if n > 0]
    assert "müde" in named and "really" in named and "Then" in named
    assert all(w.isalpha() for w in named), named

    words, samples, rate = spoken(MIXED, tmp_path)
    texts = [w.text for w in words]
    assert texts == MIXED.split()
    at = dict(zip(texts, words))
    # the words after “tired” and "müde" get their own, later onsets
    for word, after in (("was", "“tired”"), ("müde", "really"), ("at", "sixty-four."),
                        ("sixty-four.", "Then")):
        i = texts.index(word)
        assert texts[i + 1] == after
        assert words[i + 1].start > words[i].start + 0.1, (word, words)
    # a dash is not said: it takes no time; "sixty-four." is one word, said as two
    assert all(w.end == w.start for w in words if w.text == "—")
    assert at["sixty-four."].end - at["sixty-four."].start > 0.5
    # and "Then", after the non-ASCII words, starts where the sentence pause ends
    begin, end = min(pauses(samples, rate), key=lambda p: abs(p[1] - at["Then"].start))
    assert end - begin > 0.2 and end - 0.06 <= at["Then"].start < end + 0.03


def test_a_dictionary_phrase_still_times_its_second_word(tmp_path):
    # espeak-ng says "déjà vu" as one dictionary phrase; its event for "vu" points back at
    # the phrase's second character ("éjà"), yet "vu" gets that event's time
    text = "déjà vu, again"
    _, events, _ = espeak_words._in_child(text, "en-us", 150, 40)
    words, samples, rate = spoken(text, tmp_path)
    assert [w.text for w in words] == ["déjà", "vu,", "again"]
    assert [w.start for w in words] == [ms / 1000 for _, _, ms in events]
    assert 0.1 < words[1].start < words[2].start - 0.1
    assert rms(samples, rate, words[1].start, 0.08) > 300


def test_text_is_only_spoken(tmp_path):
    # U+0001 starts an embedded command for espeak-ng ("20S": 20 words a minute from here)
    text = f'-w {tmp_path / "x.wav"} <break time="4s"/> [[h@l\'oU]] one \x0120S two three four'
    words, samples, rate = spoken(text, tmp_path)
    assert [w.text for w in words] == text.split()
    assert max((e - b for b, e in pauses(samples, rate)), default=0) < 1.0  # no SSML break
    assert not (tmp_path / "x.wav").exists()
    plain = tmp_path / "plain.wav"
    espeak_words.speak(text.replace("\x01", " "), plain)
    assert np.array_equal(sound(plain)[0], samples)  # spoken as a space, at 150 a minute


def test_works_beside_piper_in_one_process(tmp_path):
    from production import narration

    voice = narration.Piper().load()
    before = list(voice.synthesize("hello there"))
    words, _, _ = spoken("hello there, general", tmp_path)
    after = list(voice.synthesize("hello there"))
    assert [c.phonemes for c in before] == [c.phonemes for c in after]
    assert min(len(c.audio_int16_array) for c in before + after) > 0.3 * voice.config.sample_rate
    assert [w.text for w in words] == ["hello", "there,", "general"]
    words_again, _, _ = spoken("hello there, general", tmp_path)
    assert words_again == words


def test_a_full_disk_is_an_oserror(tmp_path):
    with pytest.raises(OSError) as raised:
        espeak_words.speak("hello", Path("/dev/full"))
    assert raised.value.errno == errno.ENOSPC


def test_a_missing_library_says_what_to_install():
    with pytest.raises(OSError, match="apt-get install espeak-ng") as raised:
        espeak_words._in_child("hello", "en-us", 150, 40, library="libespeak-ng-nowhere.so.1")
    assert "\n" not in str(raised.value)


def test_an_unknown_voice_is_a_runtime_error(tmp_path):
    with pytest.raises(RuntimeError, match="no voice") as raised:
        espeak_words.speak("hello", tmp_path / "x.wav", name="zzz")  # as `espeak-ng -v zzz` fails
    assert "\n" not in str(raised.value)
    assert not (tmp_path / "x.wav").exists()


def test_threads_speak_at_once(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    texts = ["one two three", "four five six seven", MIXED, PASSAGE]
    alone = [espeak_words.speak(t, tmp_path / f"alone{i}.wav") for i, t in enumerate(texts)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda it: espeak_words.speak(it[1], tmp_path / f"{it[0]}.wav"),
                                 enumerate(texts)))
    assert together == alone
    for i in range(len(texts)):
        assert (tmp_path / f"{i}.wav").read_bytes() == (tmp_path / f"alone{i}.wav").read_bytes()
