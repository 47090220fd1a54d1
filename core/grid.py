"""The weight grid for "the cat sat on the mat it slept".

Every word asks (its query) and offers (its key) over a few named features.
The match of reader i with word j is q_i . k_j; the sharpness multiplies the
matches; a softmax along each row turns them into weights (fractions that add
to one per row). Nothing in the grid is typed in: change one word and the
whole grid is recomputed from the vocabulary below.

Hand-made vectors, not a trained model. Each feature is signed: +1 means "very
much so", -1 "very much not" (a mat is very much not something that acts).
They were fitted by hand so that at the default sharpness of 1.0 the row of
"it" gives its most weight to "cat": q.k = 1.30, weight 0.74, row total 1.000,
spread 1.55 bits, as in the source chapter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.attention import match, shares, spread_bits

FEATURES: tuple[str, ...] = ("something that acts", "something being done", "a place to be")


@dataclass(frozen=True)
class Word:
    """One vocabulary entry: the tag the model was given, what it asks and offers."""

    tag: str
    query: tuple[float, float, float]
    key: tuple[float, float, float]


#: The documented vocabulary: any sentence of these words can be gridded.
VOCABULARY: dict[str, Word] = {
    "the": Word("the", query=(0.3, -0.2, 0.5), key=(-1.05, -0.30, 0.0)),
    "a": Word("the", query=(0.3, -0.2, 0.5), key=(-1.00, -0.25, 0.0)),
    "cat": Word("animal", query=(0.0, 1.0, 0.2), key=(0.80, 0.25, 0.0)),
    "dog": Word("animal", query=(0.0, 1.0, 0.2), key=(0.55, 0.30, 0.0)),
    "bird": Word("animal", query=(0.0, 1.0, 0.3), key=(0.70, 0.10, 0.0)),
    "sat": Word("action", query=(1.0, 0.0, 0.6), key=(-1.50, 0.95, 0.0)),
    "lay": Word("action", query=(1.0, 0.0, 0.6), key=(-1.45, 0.90, 0.0)),
    "slept": Word("action", query=(1.2, 0.0, 0.3), key=(-1.25, 0.55, 0.0)),
    "purred": Word("action", query=(1.3, 0.0, 0.0), key=(-1.30, 0.80, 0.0)),
    "on": Word("place word", query=(0.0, 0.3, 1.0), key=(-1.15, -0.10, 0.6)),
    "under": Word("place word", query=(0.0, 0.3, 1.0), key=(-1.15, -0.10, 0.7)),
    "mat": Word("surface", query=(0.0, 0.3, 0.5), key=(-1.20, -0.35, 1.0)),
    "rug": Word("surface", query=(0.0, 0.3, 0.5), key=(-1.20, -0.30, 0.9)),
    "sofa": Word("surface", query=(0.0, 0.3, 0.5), key=(-1.10, -0.35, 1.1)),
    "it": Word("pronoun", query=(1.5, 0.4, 0.0), key=(-0.80, -0.35, 0.0)),
    "she": Word("pronoun", query=(1.5, 0.4, 0.0), key=(-0.60, -0.35, 0.0)),
}

SENTENCE: tuple[str, ...] = ("the", "cat", "sat", "on", "the", "mat", "it", "slept")
DEFAULT_READER = "it"
DEFAULT_SHARPNESS = 1.0
MAX_WORDS = 12


@dataclass(frozen=True)
class WeightGrid:
    """The grid and the panel for one reader. Weights are fractions; spread in bits."""

    words: tuple[str, ...]
    tags: tuple[str, ...]
    features: tuple[str, ...]
    sharpness: float
    queries: tuple[tuple[float, ...], ...]
    keys: tuple[tuple[float, ...], ...]
    matches: tuple[tuple[float, ...], ...]  # q_i . k_j, before sharpening
    weights: tuple[tuple[float, ...], ...]  # each row adds to one
    reader: str
    reader_index: int
    top_word: str  # where the reader puts its most weight
    top_index: int
    top_match: float  # q . k for the reader and its top word
    top_weight: float
    row_total: float
    spread_bits: float
    products: tuple[float, ...]  # q and k of reader and top word, term by term
    row_weights: tuple[float, ...]  # the reader's row


def _check(words: tuple[str, ...], reader: str, sharpness: float) -> None:
    unknown = [w for w in words if w not in VOCABULARY]
    if unknown:
        raise ValueError(
            f"word {unknown[0]!r} is not in the vocabulary; allowed: {', '.join(VOCABULARY)}"
        )
    if not 2 <= len(words) <= MAX_WORDS:
        raise ValueError(f"a sentence needs 2 to {MAX_WORDS} words; got {len(words)}")
    if reader not in words:
        sentence = " ".join(words)
        raise ValueError(f"reader must be a word of the sentence ({sentence}); got {reader!r}")
    if not np.isfinite(sharpness) or sharpness <= 0:
        raise ValueError(f"sharpness must be a finite number above 0; got {sharpness}")


def weight_grid(
    words: tuple[str, ...] | list[str] = SENTENCE,
    reader: str = DEFAULT_READER,
    sharpness: float = DEFAULT_SHARPNESS,
) -> WeightGrid:
    """Compute every weight of the sentence and the panel for ``reader``.

    Every row looks along the whole sentence (a reader, not a writer: no
    look-back rule here).
    """
    words = tuple(words)
    _check(words, reader, sharpness)
    q = np.array([VOCABULARY[w].query for w in words])
    k = np.array([VOCABULARY[w].key for w in words])
    m = match(q, k)
    w = shares(m, sharpness)
    i = words.index(reader)
    j = int(np.argmax(w[i]))

    def rows(a: np.ndarray) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(x) for x in r) for r in a)

    return WeightGrid(
        words=words,
        tags=tuple(VOCABULARY[x].tag for x in words),
        features=FEATURES,
        sharpness=float(sharpness),
        queries=rows(q),
        keys=rows(k),
        matches=rows(m),
        weights=rows(w),
        reader=reader,
        reader_index=i,
        top_word=words[j],
        top_index=j,
        top_match=float(m[i, j]),
        top_weight=float(w[i, j]),
        row_total=float(w[i].sum()),
        spread_bits=float(spread_bits(w[i])),
        products=tuple(float(x) for x in q[i] * k[j]),
        row_weights=tuple(float(x) for x in w[i]),
    )
