"""When each word of a recording is said, found by reading the sound against its text.

A user's recording, or speech whose own timings were lost, comes with its words
but not their times. :func:`align` finds them offline with PocketSphinx's forced
aligner and its US English model (shipped in the wheel, nothing is downloaded).
The sound is read with ``wave`` and brought to 16 kHz mono with numpy.

Each word of the spoken form is cleaned to dictionary form (lower case, no
punctuation or accents); a hyphenated word ("sixty-four") is aligned as its parts
and timed as one; the silent frames at a word's edges (a pause the aligner gave
it) are left out. A word the dictionary lacks ("softmax", "müde") is given a
pronunciation: from a dictionary word it is built on ("exponentials",
"softmax"), or else from its letters by simple English spelling rules. A rough
pronunciation still fixes where the word starts and ends between its neighbours.
A word with nothing to say (a lone dash) shares the gap it falls in.

When the aligner gives up, the voiced part of the sound (first to last loud
sample) is shared among the words in proportion to their length in letters, so a
readable WAV always gets valid timings. Each alignment loads its own decoder (about
0.1 s): a decoder carries a little state from one sound to the next (its fast
scoring starts from the last frame it scored), so a shared one could time the same
sound a frame apart depending on what it read before.
"""

from __future__ import annotations

import re
import unicodedata
import wave
from pathlib import Path
from typing import Any

import numpy as np

from production.timings import Word

RATE = 16000  # samples a second the acoustic model was trained on
FRAME = 0.01  # seconds a decoder frame lasts (100 frames a second)
LOUD = 0.02  # a voiced sample is this loud against the sound's peak ...
FLOOR = 100  # ... and at least this loud (16-bit units, about -50 dBFS)
QUIET = 0.01  # a 10 ms frame is silence when its peak is under this (-40 dB), or FLOOR
MIN_SHARE = 0.05  # seconds a word left out of the alignment needs, a letter, in its gap

# Spelling to sound, for words the dictionary lacks: longest spellings first.
_SPELLINGS = (
    ("tion", "SH AH N"), ("sion", "ZH AH N"), ("ture", "CH ER"),
    ("tch", "CH"), ("sch", "S K"), ("igh", "AY"), ("dge", "JH"),
    ("sh", "SH"), ("ch", "CH"), ("th", "TH"), ("ph", "F"), ("wh", "W"),
    ("ck", "K"), ("ng", "NG"), ("qu", "K W"), ("gh", "G"),
    ("ee", "IY"), ("ea", "IY"), ("oo", "UW"), ("ou", "AW"), ("ow", "OW"),
    ("oi", "OY"), ("oy", "OY"), ("ai", "EY"), ("ay", "EY"), ("au", "AO"),
    ("aw", "AO"), ("ie", "IY"), ("ei", "EY"), ("ey", "EY"), ("ue", "UW"),
    ("ew", "UW"), ("eu", "Y UW"),
    ("er", "ER"), ("ir", "ER"), ("ur", "ER"), ("ar", "AA R"), ("or", "AO R"),
)
_LETTERS = dict(zip("abcdefghijklmnopqrstuvwxyz",
                    "AE B K D EH F G HH IH JH K L M N AA P K R S T AH V W K_S IY Z".split()))
_DIGITS = "zero one two three four five six seven eight nine".split()
_VOWELS = set("aeiouy")
_HISSED = {"S", "Z", "SH", "ZH", "CH", "JH"}  # a plural after these is "IH Z"
_UNVOICED = {"P", "T", "K", "F", "TH"}  # after these "S" and "T", after others "Z" and "D"


def align(sound: Path, said: str) -> list[Word]:
    """One :class:`Word` for each word of ``said`` (split on white space), in order,
    timed in the WAV file ``sound`` (16-bit PCM, any rate, mono or stereo). The
    timings always pass :func:`production.timings.problem`."""
    tokens = said.split()
    samples, seconds = _read(Path(sound))
    if not tokens:
        return []
    voiced = _voiced(samples, seconds)
    if voiced is None:  # nothing said: the words share the sound
        return _shared(tokens, 0.0, seconds)
    pieces = [_pieces(token) for token in tokens]
    times = _aligned(pieces, samples, guess=True)
    if times is None:  # try again with the dictionary's own words only
        times = _aligned(pieces, samples, guess=False)
    if times is None:
        return _shared(tokens, *voiced)
    return _placed(tokens, _trimmed(times, samples), seconds)


def _read(sound: Path) -> tuple[np.ndarray, float]:
    """The sound at 16 kHz mono (int16) and its length in seconds."""
    with wave.open(str(sound), "rb") as w:
        channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
        raw = w.readframes(w.getnframes())
    count = len(raw) // (channels * width)
    raw = raw[:count * channels * width]
    if width == 1:
        data = (np.frombuffer(raw, np.uint8).astype(np.float64) - 128) * 256
    elif width == 3:
        b = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.int32)
        data = ((b[:, 0] << 8 | b[:, 1] << 16 | b[:, 2] << 24) >> 16).astype(np.float64)
    elif width == 4:
        data = np.frombuffer(raw, "<i4").astype(np.float64) / 65536
    else:
        data = np.frombuffer(raw, "<i2").astype(np.float64)
    mono = data.reshape(count, channels).mean(axis=1) if count else np.zeros(0)
    seconds = count / rate if rate else 0.0
    return _resampled(mono, rate), seconds


def _resampled(mono: np.ndarray, rate: int) -> np.ndarray:
    """``mono`` (at ``rate``) at 16 kHz by linear interpolation, low-passed first when
    coming down so nothing above 8 kHz folds back into the speech band."""
    if rate != RATE and mono.size > 1 and rate > 0:
        if rate > RATE:
            cutoff = 0.95 * (RATE / 2) / rate  # cycles a sample
            half = int(np.ceil(4 / cutoff))
            k = np.arange(-half, half + 1)
            taps = 2 * cutoff * np.sinc(2 * cutoff * k) * np.hamming(k.size)
            mono = np.convolve(mono, taps / taps.sum(), mode="same")
        count = int(mono.size * RATE / rate)
        mono = np.interp(np.arange(count) * (rate / RATE), np.arange(mono.size), mono)
    return np.clip(np.round(mono), -32768, 32767).astype(np.int16)


def _voiced(samples: np.ndarray, seconds: float) -> tuple[float, float] | None:
    """From the first loud sample to the last, in seconds, or None if none is loud."""
    if not samples.size:
        return None
    level = np.abs(samples.astype(np.int32))
    loud = np.flatnonzero(level > max(LOUD * int(level.max()), FLOOR))
    if not loud.size:
        return None
    return min(loud[0] / RATE, seconds), min((loud[-1] + 1) / RATE, seconds)


def _pieces(token: str) -> list[str]:
    """The dictionary words a token is said as: "Sixty-four," -> ["sixty", "four"],
    "Müde" -> ["mude"], "don’t" -> ["don't"]; none for a lone dash."""
    plain = unicodedata.normalize("NFKD", token.replace("’", "'").replace("‘", "'"))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    plain = plain.replace("ß", "ss").replace("æ", "ae").replace("œ", "oe").replace("ø", "o")
    words = (w.strip("'") for w in re.split(r"[^a-z0-9']+", plain))
    return [w for w in words if w]


def _decoder() -> Any:
    """A freshly loaded decoder, so the timings depend on nothing but the sound and
    its text."""
    from pocketsphinx import Decoder

    # bestpath off: the segments come straight from the Viterbi path, the same for
    # the same sound and text (the lattice pass can break ties differently)
    return Decoder(lm=None, samprate=RATE, bestpath=False, loglevel="FATAL")


def _aligned(pieces: list[list[str]], samples: np.ndarray,
             guess: bool) -> list[tuple[float, float] | None] | None:
    """Start and end (seconds) of each token from a forced alignment (None for a token
    with nothing aligned), or None when the aligner fails. ``guess``: give words the
    dictionary lacks a pronunciation, or else leave them out."""
    try:
        decoder = _decoder()
        words: list[str] = []
        owners: list[int] = []
        for index, names in enumerate(pieces):
            for name in names:
                if decoder.lookup_word(name) is None:
                    phones = _pronounced(decoder, name) if guess else None
                    if not phones:
                        continue
                    decoder.add_word(name, phones, True)
                words.append(name)
                owners.append(index)
        if not words:
            return None
        decoder.set_align_text(" ".join(words))
        decoder.start_utt()
        try:
            decoder.process_raw(samples.tobytes(), full_utt=True)
        finally:
            decoder.end_utt()
        found = [s for s in decoder.seg() or () if s.word[:1] not in "<[+"]
    except RuntimeError:  # a word it would not take, a sound too short
        return None
    if [re.sub(r"\(\d+\)$", "", s.word) for s in found] != words:
        return None
    times: list[tuple[float, float] | None] = [None] * len(pieces)
    for owner, s in zip(owners, found):
        start, end = s.start_frame * FRAME, (s.end_frame + 1) * FRAME
        had = times[owner]
        times[owner] = (had[0], end) if had else (start, end)
    return times


def _trimmed(times: list[tuple[float, float] | None],
             samples: np.ndarray) -> list[tuple[float, float] | None]:
    """Each word without the silent 10 ms frames at its edges: the aligner often gives a
    word the pause before or after it (the last word, the sound's silent tail)."""
    size = int(RATE * FRAME)
    frames = samples[:samples.size // size * size].astype(np.int32).reshape(-1, size)
    if not frames.size:
        return times
    peaks = np.abs(frames).max(axis=1)
    sounding = peaks >= max(QUIET * int(peaks.max()), FLOOR)
    trimmed: list[tuple[float, float] | None] = []
    for time in times:
        if time is not None:
            first, stop = int(round(time[0] / FRAME)), int(round(time[1] / FRAME))
            inside = np.flatnonzero(sounding[first:stop])
            if inside.size:
                time = (float(first + inside[0]) * FRAME, float(first + inside[-1] + 1) * FRAME)
        trimmed.append(time)
    return trimmed


def _placed(tokens: list[str], times: list[tuple[float, float] | None],
            seconds: float) -> list[Word]:
    """Words from aligned times, kept in order and inside the sound; a run of tokens
    with no time shares the gap between its neighbours or, when that gap is too short
    for them, the neighbours' own time too."""
    spans: list[tuple[float, float] | None] = []
    last = 0.0
    for time in times:
        if time is None:
            spans.append(None)
            continue
        start = min(max(time[0], last), seconds)
        end = min(max(time[1], start), seconds)
        spans.append((start, end))
        last = end
    words: list[Word | None] = [
        Word(token, *span) if span else None for token, span in zip(tokens, spans)]
    i = 0
    while i < len(tokens):
        if words[i] is not None:
            i += 1
            continue
        j = i
        while j < len(tokens) and words[j] is None:
            j += 1
        left = words[i - 1].end if i > 0 else 0.0  # type: ignore[union-attr]
        right = words[j].start if j < len(tokens) else seconds  # type: ignore[union-attr]
        run = tokens[i:j]
        if right - left >= MIN_SHARE * sum(_letters(t) for t in run):
            words[i:j] = _shared(run, left, right)
        else:  # too tight: take in the neighbours and share their time as well
            first, stop = max(i - 1, 0), min(j + 1, len(tokens))
            start = words[first].start if first < i else left  # type: ignore[union-attr]
            end = words[stop - 1].end if stop > j else right  # type: ignore[union-attr]
            words[first:stop] = _shared(tokens[first:stop], start, end)
        i = j + 1
    return [w for w in words if w is not None]


def _shared(tokens: list[str], start: float, end: float) -> list[Word]:
    """``start`` to ``end`` shared among ``tokens`` in proportion to their letters."""
    weights = np.cumsum([_letters(t) for t in tokens], dtype=np.float64)
    edges = [start] + [start + (end - start) * float(w / weights[-1]) for w in weights]
    edges[-1] = end
    return [Word(t, edges[k], max(edges[k + 1], edges[k])) for k, t in enumerate(tokens)]


def _letters(token: str) -> int:
    return max(1, sum(c.isalnum() for c in token))


def _pronounced(decoder: Any, word: str) -> str | None:
    """Phones for a word the dictionary lacks: a dictionary word with an ending
    ("exponentials"), two dictionary words run together ("softmax"), or its letters."""
    built = _built(decoder, word)
    if built:
        return built
    for cut in range(len(word) - 3, 2, -1):  # the longest first part first
        head = decoder.lookup_word(word[:cut])
        tail = decoder.lookup_word(word[cut:]) or _built(decoder, word[cut:])
        if head and tail:
            return f"{head} {tail}"
    return _spelled(decoder, word)


def _built(decoder: Any, word: str) -> str | None:
    """Phones for a dictionary word with a plain ending (s, es, ed, ing, er, ly, ...)."""
    if "'" in word:
        plain = word.replace("'", "")
        if decoder.lookup_word(plain):
            return decoder.lookup_word(plain)
    endings = (("'s", "s"), ("s", "s"), ("es", "s"), ("ed", "d"), ("d", "d"),
               ("ing", "IH NG"), ("er", "ER"), ("ers", "ER Z"), ("ly", "L IY"),
               ("ness", "N AH S"), ("ment", "M AH N T"), ("less", "L AH S"),
               ("ful", "F AH L"))
    for ending, sound in endings:
        if not word.endswith(ending) or len(word) - len(ending) < 3:
            continue
        stem = word[:-len(ending)]
        for root in (stem, stem + "e") if ending in ("ing", "er", "ers", "ed") else (stem,):
            phones = decoder.lookup_word(root)
            if not phones:
                continue
            final = phones.split()[-1]
            if sound == "s":
                sound = "IH Z" if final in _HISSED else "S" if final in _UNVOICED else "Z"
            elif sound == "d":
                sound = "IH D" if final in ("T", "D") else "T" if final in _UNVOICED else "D"
            return f"{phones} {sound}"
    return None


def _spelled(decoder: Any, word: str) -> str | None:
    """Phones from spelling rules: rough, but the right number and kind of sounds."""
    phones: list[str] = []
    i = 0
    while i < len(word):
        rest = word[i:]
        c = rest[0]
        if c.isdigit():
            phones.append(decoder.lookup_word(_DIGITS[int(c)]) or "")
            i += 1
            continue
        if c == "'" or (i > 0 and c == word[i - 1] and c not in _VOWELS):
            i += 1  # an apostrophe, a doubled consonant
            continue
        spelling = next((s for s in _SPELLINGS if rest.startswith(s[0])), None)
        if spelling:
            phones.append(spelling[1])
            i += len(spelling[0])
            continue
        after = rest[1:2]
        if c == "e" and i == len(word) - 1 and i >= 2:
            pass  # a silent final e
        elif c == "c" and after in ("e", "i", "y"):
            phones.append("S")
        elif c == "y" and i == 0:
            phones.append("Y")
        elif c == "a" and i == len(word) - 1 and i > 0:
            phones.append("AH")
        elif c == "h" and i > 0 and word[i - 1] in _VOWELS:
            pass  # "ah", "oh"
        elif c in _LETTERS:
            phones.append(_LETTERS[c].replace("_", " "))
        i += 1
    said = " ".join(p for p in phones if p)
    return said or None
