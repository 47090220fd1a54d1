"""When each word of a passage is said.

A passage's timings are one :class:`Word` for each word of its spoken form (the
text the voice was given, split on white space: "sixty-four point eight"), in
order, in seconds from the start of its sound. They come from the synthesiser
itself where it can tell (Piper's phoneme alignments, espeak-ng's word events),
and otherwise from a forced aligner (PocketSphinx) that reads the sound
against the text: a user's recording, or speech whose own timings were lost.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from production import files


@dataclass(frozen=True)
class Word:
    """One spoken word: its text and when it is said (seconds from the sound's start)."""

    text: str
    start: float
    end: float


def problem(words: list[Word], said: str, seconds: float) -> str | None:
    """Why ``words`` are not the timings of ``said`` in a sound ``seconds`` long (one per
    word, in order, none overlapping the next, all inside the sound), or None."""
    expected = said.split()
    if [w.text for w in words] != expected:
        return f"{len(words)} timed words for the {len(expected)} words of the text"
    last = 0.0
    for w in words:
        if not last - 1e-6 <= w.start <= w.end <= seconds + 1e-6:
            return (f"the word {w.text!r} at {w.start:.3f}-{w.end:.3f} s is out of order "
                    f"or outside the {seconds:.3f} s sound")
        last = w.end
    return None


# ----------------------------------------------------------------- stored beside the sound


def path_for(sound: Path, said: str) -> Path:
    """Where the timings of ``said`` in ``sound`` are kept: beside the sound, named for it
    and for the text (a recording can be read against a changed text)."""
    text = hashlib.sha256(said.encode()).hexdigest()[:12]
    return sound.with_name(f"{sound.stem}.{text}.words.json")


def save(words: list[Word], sound: Path, said: str, digest: str) -> None:
    """Keep ``words`` beside ``sound`` (whose SHA-256 is ``digest``), sealed to its bytes;
    written under a unique name and renamed into place. A failed write is not an error:
    the timings are found again the next time (by the aligner)."""
    target = path_for(sound, said)
    record = {"sound_sha256": digest, "said": said,
              "words": [[w.text, w.start, w.end] for w in words]}
    try:
        files.write_text(target, json.dumps(record, ensure_ascii=False, allow_nan=False))
    except OSError:
        pass


def load(sound: Path, said: str, digest: str) -> list[Word] | None:
    """The kept timings of ``said`` in ``sound``, or None when there are none, they are
    damaged, or they belong to other bytes (another render's take of the passage)."""
    try:
        record = json.loads(path_for(sound, said).read_text(encoding="utf-8"))
        if record["sound_sha256"] != digest or record["said"] != said:
            return None
        return [Word(str(text), float(start), float(end))
                for text, start, end in record["words"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


# ----------------------------------------------------------------- from phonemes

#: marks in a phoneme string that are not sounds: stress, length, word and clause breaks
_NOT_SOUNDS = set("ˈˌː ^$_.,;:!?-—–\"'()")
_STRESS = set("ˈˌ")


def from_phonemes(tokens: list[str], token_phonemes: list[str],
                  timeline: list[tuple[str, float, float]]) -> list[Word]:
    """Word timings from a synthesiser's phoneme timeline.

    ``timeline`` is every phoneme the voice said, in order, with its start and end in
    seconds; ``token_phonemes`` is each token phonemized on its own. The phonemizer
    joins some words ("of the" is one group, "ʌvðə") and sounds a few differently in
    context ("to" as "tə"), so the tokens' phonemes are matched to the timeline as two
    strings (difflib's longest matching blocks), and a token takes the time from the
    first to the last of its phonemes that matched. A token none of whose phonemes
    matched (punctuation alone, a word said quite differently) gets the moment between
    its neighbours.
    """
    import difflib

    # A stress mark is not a sound, but Piper gives it a moment: the word starts there.
    sounds, stressed = [], None
    for p, start, end in timeline:
        if p in _STRESS:
            stressed = start if stressed is None else stressed
        elif p not in _NOT_SOUNDS:
            sounds.append((p, start if stressed is None else stressed, end))
            stressed = None
        else:
            stressed = None
    heard = "".join(p[0] if len(p) == 1 else "\x00" for p, _, _ in sounds)
    owner: list[int] = []
    written = []
    for index, phonemes in enumerate(token_phonemes):
        kept = [c for c in phonemes if c not in _NOT_SOUNDS]
        written.extend(kept)
        owner.extend([index] * len(kept))
    spans: list[list[float] | None] = [None] * len(tokens)
    matcher = difflib.SequenceMatcher(None, "".join(written), heard, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            token = owner[a + k]
            _, start, end = sounds[b + k]
            span = spans[token]
            spans[token] = [start, end] if span is None else [min(span[0], start),
                                                               max(span[1], end)]
    words: list[Word] = []
    last = 0.0
    for index, token in enumerate(tokens):
        span = spans[index]
        if span is None:  # no sound of its own: the moment the last word ended
            span = [last, last]
        start = max(span[0], last)
        end = max(span[1], start)
        words.append(Word(token, round(start, 4), round(end, 4)))
        last = end
    return words
