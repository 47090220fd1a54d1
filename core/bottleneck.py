"""The closed book: a long row written into a fixed room, then read back.

The model, in one paragraph. A row of L numbers (each drawn evenly from -1 to
1) is written one number at a time into a room of N numbers. Each write turns
the room a little (a fixed random rotation), shrinks what is already there (a
decay of 0.88 a step for a room of 40, gentler for a bigger room), adds the new
number along its position's own direction, and then rounds every cell of the
room to a limited precision (steps of 2^-12, about three and a half decimal
digits). So each new number lands on top of
everything written before it, and the oldest numbers have been shrunk and
rounded the most. The reader (decoder) sees only the final room and recovers
the row with the best linear read-out: a least-squares fit from room to row
over 4,000 training rows. Recovery of a position is the share of that
position's variance the read-out explains on 2,000 fresh rows (1 = every value
comes back, 0 = no better than guessing the average). The first N write
directions are at right angles, so a row that fits the room (L <= N) comes
back whole; beyond that every position must share N numbers' worth of room,
and no linear read-out can recover more than N positions' worth in total.

Fractions, not percent, throughout; seeded and deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEFAULT_ROOM = 40
DEFAULT_LENGTH = 60
DECAY = 0.88
PRECISION = 2.0**-12
RECOVERED_AT = 0.9
RECOVERED_RULE = (
    "a position counts as recovered when the read-out explains at least 90 % of its "
    "variance over 2,000 fresh rows (recovery >= 0.9)"
)
TRAIN_ROWS = 4000
TEST_ROWS = 2000
SEED = 0
MAX_SIZE = 200


@dataclass(frozen=True)
class Squeeze:
    """Everything the squeeze panel shows. Recovery values are fractions in [0, 1]."""

    room: int  # N, numbers kept
    length: int  # L, numbers that went in
    squeeze: float  # L / N
    recovery: tuple[float, ...]  # per position, front of the row first
    recovered: tuple[bool, ...]  # recovery >= RECOVERED_AT
    recovered_count: int
    recovered_share: float  # recovered_count / L
    total_recovery: float  # sum of recovery, in positions' worth (at most about N)
    third_recovery: tuple[float, float, float]  # mean recovery: front, middle, back third
    third_recovered: tuple[float, float, float]  # share of positions recovered per third
    third_counts: tuple[tuple[int, int], ...]  # (recovered, positions) per third
    example_in: tuple[float, ...]  # one row as it went in
    example_out: tuple[float, ...]  # the same row as the reader wrote it back
    rule: str


def _check(room: int, length: int) -> None:
    for name, value in (("room", room), ("length", length)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(f"bottleneck.{name} must be a whole number; got {value!r}")
        if not 1 <= value <= MAX_SIZE:
            raise ValueError(f"bottleneck.{name} must be from 1 to {MAX_SIZE}; got {value}")


def _write_directions(
    rng: np.random.Generator, turn: np.ndarray, length: int
) -> np.ndarray:
    """One unit direction per position (positions x room).

    The first ``room`` directions are pre-turned by as many turns as came
    before them, so that after all the turns they sit at right angles to each
    other in the final room; the rest are random.
    """
    room = turn.shape[0]
    basis, _ = np.linalg.qr(rng.standard_normal((room, room)))
    directions = rng.standard_normal((length, room))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    turned = np.eye(room)
    for t in range(min(room, length)):
        directions[t] = turned @ basis[:, t]
        turned = turn @ turned
    return directions


def decay_for(room: int) -> float:
    """The shrink per write: 0.88 for the default room of 40, scaled so that what a
    full room's oldest number keeps (decay ** room) is the same for every room size."""
    return DECAY ** (DEFAULT_ROOM / room)


def encode(rows: np.ndarray, turn: np.ndarray, directions: np.ndarray) -> np.ndarray:
    """Write each row into the room, one number at a time (rows x positions -> rows x room)."""
    room = np.zeros((rows.shape[0], turn.shape[0]))
    decay = decay_for(turn.shape[0])
    for t in range(rows.shape[1]):
        written = decay * room @ turn.T + np.outer(rows[:, t], directions[t])
        room = np.round(written / PRECISION) * PRECISION
    return room


def squeeze(room: int = DEFAULT_ROOM, length: int = DEFAULT_LENGTH, seed: int = SEED) -> Squeeze:
    """Write rows of ``length`` numbers into ``room`` numbers and measure what comes back."""
    _check(room, length)
    rng = np.random.default_rng(seed)
    turn, _ = np.linalg.qr(rng.standard_normal((room, room)))
    directions = _write_directions(rng, turn, length)
    train = rng.uniform(-1, 1, (TRAIN_ROWS, length))
    test = rng.uniform(-1, 1, (TEST_ROWS, length))
    readout, *_ = np.linalg.lstsq(encode(train, turn, directions), train, rcond=None)
    guess = encode(test, turn, directions) @ readout
    error = ((guess - test) ** 2).mean(axis=0)
    recovery = np.clip(1.0 - error / test.var(axis=0), 0.0, 1.0)
    recovered = recovery >= RECOVERED_AT
    thirds = np.array_split(np.arange(length), 3)
    return Squeeze(
        room=room,
        length=length,
        squeeze=length / room,
        recovery=tuple(float(x) for x in recovery),
        recovered=tuple(bool(x) for x in recovered),
        recovered_count=int(recovered.sum()),
        recovered_share=float(recovered.mean()),
        total_recovery=float(recovery.sum()),
        third_recovery=tuple(float(recovery[i].mean()) if len(i) else 1.0 for i in thirds),
        third_recovered=tuple(float(recovered[i].mean()) if len(i) else 1.0 for i in thirds),
        third_counts=tuple((int(recovered[i].sum()), len(i)) for i in thirds),
        example_in=tuple(float(x) for x in test[0]),
        example_out=tuple(float(x) for x in guess[0]),
        rule=RECOVERED_RULE,
    )
