"""Sequence to sequence: a closed-book decoder against an attention decoder.

The chapter's "before attention" story, measured rather than asserted. An RNN
encoder reads a sentence one word at a time and keeps one hidden state per
word. Two decoders then try to write the sentence back out, word by word, in
the original order (a copy task, which is the translation-like order: the
first word out is the *oldest* word in).

- The closed-book decoder sees only the encoder's last state, the context
  vector, and must unpick every word from that one vector.
- The attention decoder sees every encoder state and, at each output step,
  scores all of them, turns the scores into shares that add up to one, and
  reads from the share-weighted blend.

Nothing here is trained. Both decoders are *derived* from the encoder's own
weights: each knows exactly how the encoder writes a word into its state. So
when the closed book fails on long sentences it is not for want of training;
one vector of ``hidden`` numbers simply cannot hold a long sentence cleanly.

Accuracies are fractions in [0, 1] (never percent), measured by running the
encoder and both decoders on a seeded batch of random sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from core.attention import blend, match, shares

Array = NDArray[np.float64]

#: The tiny vocabulary the worked example is written in (index = word id).
VOCABULARY: tuple[str, ...] = ("the", "cat", "dog", "saw", "a", "red", "big", "hat")

#: Periods, in words, of the two hands of the encoder's clock. The slow hand
#: goes round once in 64 words, so positions 0..63 all read differently; the
#: fast hand tells neighbours apart.
CLOCK_PERIODS: tuple[int, ...] = (64, 8)
CLOCK_SIZE = 2 * len(CLOCK_PERIODS)
MAX_LENGTH = CLOCK_PERIODS[0]
DEFAULT_EXAMPLE_LENGTH = 8

DEFAULT_LENGTHS: tuple[int, ...] = (4, 8, 12, 16, 24, 32)


@dataclass(frozen=True, eq=False)
class Seq2SeqModel:
    """The encoder's weights (numpy arrays: internal, never handed to a scene).

    A hidden state is ``[words part | clock part]``. The words part follows
    ``h_t = recurrence @ h_{t-1} + embeddings[x_t]`` with ``recurrence`` a
    random rotation scaled by ``decay`` (so older words fade); the clock part
    turns by a fixed angle per word so the state knows its position.
    """

    embeddings: Array  # (vocabulary, words part): one unit vector per word
    recurrence: Array  # (words part, words part): decay times a rotation
    clock_turn: Array  # (clock, clock): the clock's turn per word
    clock_start: Array  # (clock,): the clock at position 0, length 1
    decay: float  # per-word fade of the words part, a fraction in (0, 1]

    @property
    def hidden_size(self) -> int:
        """Numbers in one hidden state (words part plus clock part)."""
        return self.words_size + self.clock_turn.shape[0]

    @property
    def words_size(self) -> int:
        """Numbers in the words part of a hidden state."""
        return self.recurrence.shape[0]

    @property
    def vocabulary_size(self) -> int:
        """How many different words there are."""
        return self.embeddings.shape[0]


@dataclass(frozen=True)
class Seq2SeqResult:
    """What the seq2seq scenes show, as plain numbers and words.

    Accuracies are fractions of output words that are correct, in [0, 1],
    one per entry of ``lengths``. ``example_alignment[k][j]`` is the share of
    attention output step ``k`` gives input position ``j``; each row adds up
    to one.
    """

    lengths: tuple[int, ...]
    closed_book_accuracy: tuple[float, ...]
    attention_accuracy: tuple[float, ...]
    chance_accuracy: float  # 1 / vocabulary size: guessing blind
    sequences_per_length: int
    hidden_size: int
    decay: float
    sharpness: float
    vocabulary: tuple[str, ...]
    example_input: tuple[str, ...]
    example_closed_book_output: tuple[str, ...]
    example_attention_output: tuple[str, ...]
    example_alignment: tuple[tuple[float, ...], ...]


def _rotation(angle: float) -> Array:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


def build_model(
    hidden: int = 24,
    seed: int = 0,
    decay: float = 0.9,
    vocabulary_size: int = len(VOCABULARY),
) -> Seq2SeqModel:
    """Seeded random encoder weights with ``hidden`` numbers per state.

    Word embeddings are random directions made mutually perpendicular (so no
    two words start out confusable); the recurrence is a random rotation
    times ``decay``. ``hidden`` must leave room for the clock and one
    direction per word.
    """
    _check_int("hidden", hidden, minimum=CLOCK_SIZE + vocabulary_size)
    _check_int("vocabulary_size", vocabulary_size, minimum=2)
    if not 0.0 < decay <= 1.0:
        raise ValueError(f"decay must be a fraction in (0, 1], got {decay}")
    rng = np.random.default_rng(seed)
    words = hidden - CLOCK_SIZE
    basis, _ = np.linalg.qr(rng.standard_normal((words, words)))
    embeddings = basis[:vocabulary_size].copy()
    rotation, upper = np.linalg.qr(rng.standard_normal((words, words)))
    rotation = rotation * np.sign(np.diag(upper))  # a uniformly random rotation
    turn = np.zeros((CLOCK_SIZE, CLOCK_SIZE))
    for i, period in enumerate(CLOCK_PERIODS):
        turn[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = _rotation(2 * np.pi / period)
    start = np.tile([1.0, 0.0], len(CLOCK_PERIODS)) / np.sqrt(len(CLOCK_PERIODS))
    return Seq2SeqModel(
        embeddings=embeddings,
        recurrence=decay * rotation,
        clock_turn=turn,
        clock_start=start,
        decay=float(decay),
    )


def encode(words: ArrayLike, model: Seq2SeqModel) -> Array:
    """Run the RNN encoder; one hidden state per input word.

    ``words`` holds word ids, shape ``(T,)`` or a batch ``(n, T)``; the result
    has shape ``(..., T, hidden)``. State ``t`` depends only on words 0..t.
    """
    ids = _word_ids(words, model)
    length = ids.shape[-1]
    state = np.zeros(ids.shape[:-1] + (model.words_size,))
    clock = model.clock_start
    states = np.empty(ids.shape + (model.hidden_size,))
    for t in range(length):
        if t > 0:
            clock = model.clock_turn @ clock
        state = state @ model.recurrence.T + model.embeddings[ids[..., t]]
        states[..., t, : model.words_size] = state
        states[..., t, model.words_size :] = clock
    return states


def closed_book_decode(context: ArrayLike, length: int, model: Seq2SeqModel) -> NDArray[np.int_]:
    """Write ``length`` words back out from the context vector alone.

    ``context`` is the encoder's last hidden state, shape ``(hidden,)`` or a
    batch ``(n, hidden)``; no earlier state is ever seen. At output step k
    the decoder knows what word k would have added to the context (it has
    been turned and faded ``length - 1 - k`` times since) and what the newer
    words add on average and how much they scatter. It picks the word whose
    contribution best explains what is left, given that scatter (a Gaussian
    likelihood), then feeds its own answer back by subtracting that
    contribution, so an early mistake carries into later steps. Returns word
    ids, shape ``(..., length)``.
    """
    _check_int("length", length, minimum=1)
    ctx = np.asarray(context, dtype=float)
    if ctx.ndim not in (1, 2) or ctx.shape[-1] != model.hidden_size:
        raise ValueError(
            f"context must be one hidden state of size {model.hidden_size} "
            f"(or a batch of them), got shape {ctx.shape}"
        )
    left = ctx[..., : model.words_size].copy()  # the clock part holds no words
    emb = model.embeddings
    mean_word = emb.mean(axis=0)
    word_scatter = (emb - mean_word).T @ (emb - mean_word) / len(emb)
    # Turn-and-fade powers: what `age` later steps of the encoder do to a word.
    powers = [np.eye(model.words_size)]
    for _ in range(length - 1):
        powers.append(model.recurrence @ powers[-1])
    # A sliver of extra scatter keeps the sums solvable before any word is
    # piled on top; it is tiny next to one word (length 1).
    ridge = 1e-3 * np.eye(model.words_size)
    out = np.empty(ctx.shape[:-1] + (length,), dtype=int)
    for k in range(length):
        age = length - 1 - k
        newer = powers[:age]
        expected = sum((p @ mean_word for p in newer), np.zeros(model.words_size))
        scatter = sum((p @ word_scatter @ p.T for p in newer), ridge)
        candidates = emb @ powers[age].T  # (vocabulary, words part)
        weighed = np.linalg.solve(scatter, candidates.T)  # scatter^-1 per candidate
        scores = (left - expected) @ weighed - 0.5 * np.sum(candidates.T * weighed, axis=0)
        pick = scores.argmax(axis=-1)
        out[..., k] = pick
        left = left - candidates[pick]
    return out


def attention_decode(
    states: ArrayLike, model: Seq2SeqModel, sharpness: float = 20.0
) -> tuple[NDArray[np.int_], Array]:
    """Write the words back out, attending to every encoder state each step.

    ``states`` is ``encode``'s output, shape ``(T, hidden)`` or ``(n, T,
    hidden)``. At output step k the decoder's query is its own clock, turned
    k times; it matches every state's clock part (``sharpness`` times q . k),
    takes shares (they add up to one per step) and blends the states. Its own
    hidden state is the encoder re-run over the words it has already written
    (its output fed back in); taking that from the blend leaves the newest
    word, which is read against the embeddings.

    Returns word ids ``(..., T)`` and the shares ``(..., T, T)``: row k is
    output step k, column j is input position j.
    """
    st = np.asarray(states, dtype=float)
    if st.ndim not in (2, 3) or st.shape[-1] != model.hidden_size:
        raise ValueError(
            f"states must have shape (T, {model.hidden_size}) or (n, T, "
            f"{model.hidden_size}), got {st.shape}"
        )
    length = st.shape[-2]
    keys = st[..., model.words_size :]
    mine = np.zeros(st.shape[:-2] + (model.words_size,))  # re-encoded own output
    query = model.clock_start
    words = np.empty(st.shape[:-1], dtype=int)
    alignment = np.empty(st.shape[:-1] + (length,))
    for k in range(length):
        if k > 0:
            query = model.clock_turn @ query
        step_shares = shares(match(keys, query), sharpness)  # (..., T)
        context = blend(step_shares[..., None, :], st)[..., 0, :]
        newest = context[..., : model.words_size] - mine @ model.recurrence.T
        pick = match(newest, model.embeddings).argmax(axis=-1)
        words[..., k] = pick
        alignment[..., k, :] = step_shares
        mine = mine @ model.recurrence.T + model.embeddings[pick]
    return words, alignment


def run_seq2seq(
    lengths: Sequence[int] = DEFAULT_LENGTHS,
    example_length: int = DEFAULT_EXAMPLE_LENGTH,
    hidden: int = 24,
    seed: int = 0,
    sequences: int = 200,
    sharpness: float = 20.0,
    decay: float = 0.9,
) -> Seq2SeqResult:
    """Measure both decoders on the copy task and draw one worked example.

    For each length, ``sequences`` random sentences (seeded, the same for a
    given ``seed`` and length whatever other lengths are asked for) are
    encoded and decoded both ways; accuracy is the fraction of output words
    equal to the input word at the same position. The worked example is the
    first sentence of the batch for ``example_length`` (one of the measured
    sentences, not a picked one), spelled in ``VOCABULARY``.
    """
    lengths = tuple(lengths)
    if not lengths:
        raise ValueError("lengths must hold at least one sentence length")
    for n in lengths:
        _check_int("each length", n, minimum=1, maximum=MAX_LENGTH)
    _check_int("example_length", example_length, minimum=1, maximum=MAX_LENGTH)
    _check_int("sequences", sequences, minimum=1)
    _check_int("seed", seed, minimum=0)
    if not (np.isfinite(sharpness) and sharpness > 0):
        raise ValueError(f"sharpness must be a positive finite number, got {sharpness}")
    model = build_model(hidden=hidden, seed=seed, decay=decay)
    vocab = model.vocabulary_size

    def batch_of(n: int) -> NDArray[np.int_]:
        return np.random.default_rng((seed, 1, n)).integers(0, vocab, size=(sequences, n))

    closed_book, attention = [], []
    for n in lengths:
        batch = batch_of(n)
        states = encode(batch, model)
        closed_book.append(float(np.mean(closed_book_decode(states[:, -1], n, model) == batch)))
        attention.append(float(np.mean(attention_decode(states, model, sharpness)[0] == batch)))

    sentence = batch_of(example_length)[0]
    states = encode(sentence, model)
    closed_words = closed_book_decode(states[-1], example_length, model)
    attention_words, alignment = attention_decode(states, model, sharpness)

    def spell(ids: ArrayLike) -> tuple[str, ...]:
        return tuple(VOCABULARY[int(i)] for i in np.asarray(ids))

    return Seq2SeqResult(
        lengths=lengths,
        closed_book_accuracy=tuple(closed_book),
        attention_accuracy=tuple(attention),
        chance_accuracy=1.0 / vocab,
        sequences_per_length=sequences,
        hidden_size=model.hidden_size,
        decay=model.decay,
        sharpness=float(sharpness),
        vocabulary=VOCABULARY,
        example_input=spell(sentence),
        example_closed_book_output=spell(closed_words),
        example_attention_output=spell(attention_words),
        example_alignment=tuple(tuple(float(x) for x in row) for row in alignment),
    )


def _word_ids(words: ArrayLike, model: Seq2SeqModel) -> NDArray[np.int_]:
    ids = np.asarray(words)
    if ids.ndim not in (1, 2) or ids.shape[-1] < 1:
        raise ValueError(f"words must be a non-empty sequence (or batch) of ids, got {ids.shape}")
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"word ids must be integers, got {ids.dtype}")
    if ids.min() < 0 or ids.max() >= model.vocabulary_size:
        raise ValueError(f"word ids must lie in 0..{model.vocabulary_size - 1}")
    return ids


def _check_int(name: str, value: object, minimum: int, maximum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        top = "" if maximum is None else f" and at most {maximum}"
        raise ValueError(f"{name} must be at least {minimum}{top}, got {value}")
