"""The attention step itself: match, sharpen, share, blend.

Every other model in core/ is built from these few functions. Shares are
fractions in [0, 1] (never percent); spreads are in bits.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def match(queries: ArrayLike, keys: ArrayLike) -> Array:
    """q . k for every (asker, offerer) pair: rows are queries, columns keys.

    A single query (1-D) gives a 1-D row of matches.
    """
    q = np.asarray(queries, dtype=float)
    k = np.asarray(keys, dtype=float)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(
            f"query and key must have the same size, got {q.shape[-1]} and {k.shape[-1]}"
        )
    return q @ k.T


def lookback_mask(n: int) -> NDArray[np.bool_]:
    """True where word i may look at word j: itself and the words before it."""
    return np.tril(np.ones((n, n), dtype=bool))


def shares(
    scores: ArrayLike, sharpness: float = 1.0, visible: ArrayLike | None = None
) -> Array:
    """Softmax of ``sharpness * scores`` along the last axis, as fractions.

    Never overflows for any finite sharpness: the sharpened scores are shifted
    so the largest visible one is exactly zero *before* the exponential, and the
    shift is applied before multiplying so a huge sharpness cannot make an
    infinity out of a finite score. Hidden words (``visible`` False) get a share
    of exactly 0. Every row with at least one visible word adds up to one.
    """
    s = np.asarray(scores, dtype=float)
    if not np.isfinite(sharpness):
        raise ValueError(f"sharpness must be finite, got {sharpness}")
    if not np.all(np.isfinite(s)):
        raise ValueError("scores must be finite")
    seen = np.ones(s.shape, dtype=bool) if visible is None else np.broadcast_to(
        np.asarray(visible, dtype=bool), s.shape
    )
    if not np.all(seen.any(axis=-1)):
        raise ValueError("every row needs at least one visible word")
    if sharpness == 0:
        weights = seen.astype(float)
        return weights / weights.sum(axis=-1, keepdims=True)
    # Shift by the best visible score in the direction sharpness favours, so
    # every exponent is <= 0 and the winner's exponent is exactly 0.
    masked = np.where(seen, s, -np.inf if sharpness > 0 else np.inf)
    best = masked.max(axis=-1, keepdims=True) if sharpness > 0 else masked.min(
        axis=-1, keepdims=True
    )
    with np.errstate(over="ignore", invalid="ignore"):
        exponent = sharpness * (s - best)
    exponent = np.where(seen, exponent, -np.inf)
    exponent = np.nan_to_num(exponent, nan=-np.inf, posinf=0.0)
    weights = np.exp(exponent)
    return weights / weights.sum(axis=-1, keepdims=True)


def spread_bits(weights: ArrayLike) -> Array | float:
    """Entropy of a row of shares, in bits (0 = all on one word)."""
    w = np.asarray(weights, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log2(w), 0.0)
    total = terms.sum(axis=-1)
    return float(total) if np.ndim(total) == 0 else total


def blend(weights: ArrayLike, values: ArrayLike) -> Array:
    """Shares times values: each row of weights mixes the rows of values."""
    return np.asarray(weights, dtype=float) @ np.asarray(values, dtype=float)
