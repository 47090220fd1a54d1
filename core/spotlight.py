"""The spotlight with a budget: "the cat ate fish", worked by hand.

Each word wears a label of two numbers, [thing, action], and asks a question
written in the same two numbers. The asker's score for a word is question .
label; the sharpness multiplies the scores; the exponentials divided by their
total are the shares of the light (fractions that add to one). The asker then
blends the labels by those shares into a new summary of itself.

Drawn stand-in, not a trained model: the labels and questions are hand-made so
that "ate" scores 0.2, 0.9, 0.1, 0.8, the figures the hand trace is built on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from core.attention import Array, blend, lookback_mask, match, shares

WORDS: tuple[str, ...] = ("the", "cat", "ate", "fish")
FEATURES: tuple[str, ...] = ("thing", "action")

#: What each word is, as [thing, action]. Hand-made.
LABELS: dict[str, tuple[float, float]] = {
    "the": (0.2, 0.1),
    "cat": (0.9, 0.2),
    "ate": (0.1, 0.9),
    "fish": (0.8, 0.1),
}

#: What each word is looking for, as [thing, action]. Hand-made: "ate" asks
#: who or what is involved (things); "cat" asks what it did (an action).
QUESTIONS: dict[str, tuple[float, float]] = {
    "the": (0.6, 0.3),
    "cat": (0.0, 1.0),
    "ate": (1.0, 0.0),
    "fish": (0.2, 0.8),
}

DEFAULT_SHARPNESS = 4.0
#: the lesson's demo slider: sharpness 1.0 to 8.0, in tenths
DEMO_SHARPNESS: tuple[float, ...] = tuple(round(1 + tenth / 10, 1) for tenth in range(71))
DEFAULT_ASKER = "ate"
BUDGET_POINTS = 100


@dataclass(frozen=True)
class SpotlightTrace:
    """One asker's hand trace. Shares are fractions; ``*_percent`` are whole percent."""

    words: tuple[str, ...]
    asker: str
    sharpness: float
    lookback: bool
    question: tuple[float, ...]
    labels: tuple[tuple[float, ...], ...]
    visible: tuple[bool, ...]
    scores: tuple[float, ...]
    sharpened: tuple[float, ...]
    exponentials: tuple[float, ...]  # 0.0 for a hidden word
    total: float  # sum of the exponentials
    shares: tuple[float, ...]
    shares_percent: tuple[int, ...]  # each share rounded to a whole percent
    rounded_total_percent: int  # what the rounded shares add up to
    exact_total: float  # what the exact shares add up to (1.0)
    top_word: str
    summary: tuple[float, ...]  # the blend of the labels, [thing, action]
    all_shares: tuple[tuple[float, ...], ...]  # every asker's row, in word order


def _check(asker: str, sharpness: float) -> None:
    if asker not in WORDS:
        raise ValueError(f"asker must be one of {', '.join(WORDS)}; got {asker!r}")
    if not np.isfinite(sharpness) or sharpness <= 0:
        raise ValueError(f"sharpness must be a finite number above 0; got {sharpness}")


def trace(
    asker: str = DEFAULT_ASKER, sharpness: float = DEFAULT_SHARPNESS, lookback: bool = False
) -> SpotlightTrace:
    """Work the four steps for one asker: score, sharpen, share, blend."""
    _check(asker, sharpness)
    i = WORDS.index(asker)
    labels = np.array([LABELS[w] for w in WORDS])
    questions = np.array([QUESTIONS[w] for w in WORDS])
    visible_grid = lookback_mask(len(WORDS)) if lookback else np.ones((4, 4), dtype=bool)
    visible = visible_grid[i]

    scores = labels @ questions[i]
    sharpened = sharpness * scores
    row = shares(scores, sharpness, visible)
    # The table's exponential column, as a person would compute it: exp of the
    # sharpened score. Only shown for the small hand-trace sharpnesses, where it
    # cannot overflow; a huge sharpness shows inf rather than crashing.
    with np.errstate(over="ignore"):
        exps = np.where(visible, np.exp(sharpened), 0.0)
    percent = np.rint(row * 100).astype(int)
    grid, _summaries = attention(labels, questions, sharpness, lookback)
    return SpotlightTrace(
        words=WORDS,
        asker=asker,
        sharpness=float(sharpness),
        lookback=bool(lookback),
        question=tuple(float(x) for x in questions[i]),
        labels=tuple(tuple(float(x) for x in r) for r in labels),
        visible=tuple(bool(v) for v in visible),
        scores=tuple(float(x) for x in scores),
        sharpened=tuple(float(x) for x in sharpened),
        exponentials=tuple(float(x) for x in exps),
        total=float(exps.sum()),
        shares=tuple(float(x) for x in row),
        shares_percent=tuple(int(p) for p in percent),
        rounded_total_percent=int(percent.sum()),
        exact_total=float(row.sum()),
        top_word=WORDS[int(np.argmax(row))],
        summary=tuple(float(x) for x in blend(row, labels)),
        all_shares=tuple(tuple(float(x) for x in r) for r in grid),
    )


def attention(labels: ArrayLike, questions: ArrayLike, sharpness: float = DEFAULT_SHARPNESS,
              lookback: bool = False) -> tuple[Array, Array]:
    """The four steps for every word at once: a row of shares per asking word, and
    each word's new summary (its row of shares blending the labels)."""
    scores = match(questions, labels)  # 1. each question against each label
    visible = lookback_mask(len(labels)) if lookback else None
    weights = shares(scores, sharpness, visible)  # 2-3. sharpen, then share out
    return weights, blend(weights, labels)  # 4. blend the labels by the shares


def printed(sharpness: float = DEFAULT_SHARPNESS, lookback: bool = False,
            asker: str = DEFAULT_ASKER) -> str:
    """What running :func:`attention` on the four words prints: its table of shares
    (a row per asking word, two decimals) and the asker's new summary."""
    _check(asker, sharpness)
    labels = np.array([LABELS[w] for w in WORDS])
    questions = np.array([QUESTIONS[w] for w in WORDS])
    weights, summaries = attention(labels, questions, sharpness, lookback)
    width = max(len(w) for w in WORDS) + 2
    lines = [" " * width + "".join(f"{w:>6}" for w in WORDS)]
    lines += [f"{w:<{width}}" + "".join(f"{x:6.2f}" for x in row)
              for w, row in zip(WORDS, weights)]
    summary = ", ".join(f"{x:.2f}" for x in summaries[WORDS.index(asker)])
    lines.append(f'new summary of "{asker}": [{summary}]')
    return "\n".join(lines)
