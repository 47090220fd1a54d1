"""The attention decoder, one step at a time: a small, fixed encoder-decoder in numpy.

The second chapter's every number comes from here (its ledger is core/decoder.py). An
RNN encoder reads an English sentence one word at a time, with the same weights at
every step, and keeps its hidden state after each word. Two decoders write the French sentence:

- the classic decoder is given one vector, the encoder's last state (the context
  vector), and unrolls it, step after step;
- the attention decoder, at every step, scores every encoder state against its own
  previous state, turns the scores into weights that add up to one (a softmax),
  takes the weighted average of the states (its context for this step), joins it
  with its previous state into its new state, and reads its output word from that
  state through a feed-forward layer; the new state goes on to the next step.

Nothing is trained. The weights are set from a small phrase book, the way training
would leave them (each a sum of outer products of the vectors it must map):

- every word's embedding is a row of a seeded random orthonormal matrix;
- the recurrences (encoder and decoder) are seeded random matrices scaled so older
  words fade by ``FADE`` a step;
- the query weights know French word order by word class: from the start, look for
  a determiner; after a determiner, the noun; after a noun, an adjective if there is
  one, else the verb; after an adjective, the verb. So English "the black cat" comes
  out "le chat noir": the weights jump back, and the alignment leaves the diagonal;
- the output layer is the dictionary: it maps the English word the state holds to
  its French word.

Weights and probabilities are fractions in [0, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from core.attention import blend, match, shares

Array = NDArray[np.float64]

#: English word -> (its word class, its French word)
PHRASE_BOOK: dict[str, tuple[str, str]] = {
    "the": ("determiner", "le"),
    "cat": ("noun", "chat"),
    "dog": ("noun", "chien"),
    "black": ("adjective", "noir"),
    "white": ("adjective", "blanc"),
    "sleeps": ("verb", "dort"),
    "runs": ("verb", "court"),
}
SOURCE_WORDS: tuple[str, ...] = tuple(PHRASE_BOOK)
TARGET_WORDS: tuple[str, ...] = tuple(french for _, french in PHRASE_BOOK.values())

#: French order, by word class: (after this, look for that, how strongly)
ORDER: tuple[tuple[str, str, float], ...] = (
    ("start", "determiner", 1.0),
    ("determiner", "noun", 1.0),
    ("noun", "adjective", 1.0),
    ("noun", "verb", 0.5),
    ("adjective", "verb", 1.0),
)

#: the chapter's sentence pair: the adjective moves behind the noun
SOURCE: tuple[str, ...] = ("the", "black", "cat", "sleeps")
TARGET: tuple[str, ...] = ("le", "chat", "noir", "dort")

SIZE = 8  # numbers in a hidden state: one per word, and one for the decoder's start
SEED = 4
FADE = 0.5  # what a step of recurrence keeps of the state before it (spectral norm)
DRIVE = 2.0  # how strongly a word (or a context) writes into the new state
SHARPNESS = 4.0  # scores are multiplied by this before the softmax
OUTPUT_GAIN = 4.0  # the feed-forward output layer's scale before its softmax


@dataclass(frozen=True, eq=False)
class Model:
    """The weights (internal: never handed to a scene)."""

    embeddings: Array  # (words, SIZE): English words, one orthonormal row each
    start: Array  # (SIZE,): the decoder's state before its first step
    encoder_recurrence: Array  # (SIZE, SIZE)
    decoder_recurrence: Array  # (SIZE, SIZE)
    query: Array  # (SIZE, SIZE): the decoder's previous state -> what it looks for
    output: Array  # (target words, SIZE): a state -> a score per French word


@dataclass(frozen=True)
class Step:
    """One step of the attention decoder (plain lists, for the ledger)."""

    scores: list[float]  # one per encoder state, sharpened
    weights: list[float]  # the softmax of the scores: they add up to one
    context: list[float]  # the weighted average of the encoder states
    state: list[float]  # the new decoder state, from the context and the state before
    probabilities: list[float]  # the output's distribution over TARGET_WORDS
    word: str  # the most likely French word


@dataclass(frozen=True)
class Translation:
    """What the chapter shows for one sentence pair."""

    source: list[str]
    target: list[str]  # the French the decoder should write
    encoder_states: list[list[float]]  # one hidden state per English word
    steps: list[Step]  # the attention decoder, one step per French word
    alignment: list[list[float]]  # weights: a row per French word, a column per English
    written: list[str]  # what the attention decoder wrote
    classic_written: list[str]  # what the classic decoder wrote from one vector
    kept: list[float]  # how much of each English word the context vector still holds


def _unit_recurrence(rng: np.random.Generator) -> Array:
    matrix = rng.standard_normal((SIZE, SIZE))
    return FADE * matrix / np.linalg.norm(matrix, 2)


def build_model(seed: int = SEED) -> Model:
    """The fixed model: seeded embeddings and recurrences, weights from the phrase book."""
    rng = np.random.default_rng(seed)
    basis, _ = np.linalg.qr(rng.standard_normal((SIZE, SIZE)))
    embeddings, start = basis[:len(SOURCE_WORDS)], basis[len(SOURCE_WORDS)]
    classes = {c for c, _ in PHRASE_BOOK.values()}
    mean = {c: np.mean([embeddings[i] for i, w in enumerate(SOURCE_WORDS)
                        if PHRASE_BOOK[w][0] == c], axis=0) for c in classes}
    mean["start"] = start
    query = sum(strength * np.outer(mean[to] / np.linalg.norm(mean[to]) ** 2,
                                    mean[after] / np.linalg.norm(mean[after]) ** 2)
                for after, to, strength in ORDER)
    return Model(embeddings=embeddings, start=start,
                 encoder_recurrence=_unit_recurrence(rng),
                 decoder_recurrence=_unit_recurrence(rng),
                 query=np.asarray(query), output=embeddings.copy())


def _ids(words: Sequence[str], known: Sequence[str], side: str) -> list[int]:
    unknown = [w for w in words if w not in known]
    if unknown or not words:
        raise ValueError(f"{side} words must be from {', '.join(known)}; got {list(words)}")
    return [list(known).index(w) for w in words]


def encode(source: Sequence[str], model: Model) -> Array:
    """The RNN encoder: h_i = tanh(DRIVE * x_i + R h_(i-1)), the same R every step."""
    states, state = [], np.zeros(SIZE)
    for i in _ids(source, SOURCE_WORDS, "English"):
        state = np.tanh(DRIVE * model.embeddings[i] + model.encoder_recurrence @ state)
        states.append(state)
    return np.array(states)


def next_state(context: Array, previous: Array, model: Model) -> Array:
    """The decoder's new state: the context joined with its previous state."""
    return np.tanh(DRIVE * context + model.decoder_recurrence @ previous)


def output(state: Array, model: Model) -> Array:
    """The feed-forward output layer: a distribution over the French words."""
    return shares(match(state, model.output), OUTPUT_GAIN)


def attend(states: Array, length: int, model: Model, sharpness: float = SHARPNESS
           ) -> list[Step]:
    """The attention decoder, ``length`` steps: score, softmax, average, join, write."""
    steps, previous = [], model.start
    for _ in range(length):
        scores = sharpness * match(model.query @ previous, states)
        weights = shares(scores)
        context = blend(weights, states)
        state = next_state(context, previous, model)
        probabilities = output(state, model)
        steps.append(Step(scores=scores.tolist(), weights=weights.tolist(),
                          context=context.tolist(), state=state.tolist(),
                          probabilities=probabilities.tolist(),
                          word=TARGET_WORDS[int(np.argmax(probabilities))]))
        previous = state
    return steps


def unroll(context: Array, length: int, model: Model) -> list[str]:
    """The classic decoder: the same one context vector at every step."""
    written, previous = [], model.start
    for _ in range(length):
        previous = next_state(context, previous, model)
        written.append(TARGET_WORDS[int(np.argmax(output(previous, model)))])
    return written


def kept(states: Array, source: Sequence[str], model: Model) -> list[float]:
    """How much of each English word the last state still holds: the length of its
    embedding's part of that state, as a fraction of the state's own length."""
    last = states[-1]
    ids = _ids(source, SOURCE_WORDS, "English")
    return [float(abs(model.embeddings[i] @ last) / np.linalg.norm(last)) for i in ids]


def french(source: Sequence[str]) -> list[str]:
    """The reference French for ``source``: word for word from the phrase book, with an
    adjective moved behind the noun it stands before."""
    _ids(source, SOURCE_WORDS, "English")
    words = list(source)
    for i in range(len(words) - 1):
        if PHRASE_BOOK[words[i]][0] == "adjective" and PHRASE_BOOK[words[i + 1]][0] == "noun":
            words[i], words[i + 1] = words[i + 1], words[i]
    return [PHRASE_BOOK[w][1] for w in words]


def order_blind(source: Sequence[str], order: Sequence[int], after: str = "determiner",
                sharpness: float = SHARPNESS, seed: int = SEED) -> list[float]:
    """Attention with the recurrence taken out: each state is its word alone, so the
    weights follow the words wherever they stand. The weights a decoder that has just
    written a word of class ``after`` gives ``source`` read in ``order`` (a permutation
    of its positions), listed by the words' places in ``source``."""
    model = build_model(seed)
    ids = _ids(source, SOURCE_WORDS, "English")
    if sorted(order) != list(range(len(ids))):
        raise ValueError(f"order must be a permutation of 0..{len(ids) - 1}, got {order}")
    states = np.tanh(DRIVE * model.embeddings[[ids[i] for i in order]])
    previous = model.embeddings[[i for i, w in enumerate(SOURCE_WORDS)
                                 if PHRASE_BOOK[w][0] == after][0]]
    weights = shares(sharpness * match(model.query @ previous, states))
    by_place = np.empty(len(ids))
    by_place[list(order)] = weights
    return by_place.tolist()


def translate(source: Sequence[str] = SOURCE, target: Sequence[str] = TARGET, *,
              sharpness: float = SHARPNESS, seed: int = SEED) -> Translation:
    """Encode ``source``; decode it with attention and the classic way."""
    _ids(target, TARGET_WORDS, "French")
    model = build_model(seed)
    states = encode(source, model)
    steps = attend(states, len(target), model, sharpness)
    return Translation(
        source=list(source), target=list(target), encoder_states=states.tolist(),
        steps=steps, alignment=[s.weights for s in steps], written=[s.word for s in steps],
        classic_written=unroll(states[-1], len(target), model),
        kept=kept(states, source, model))


__all__ = ["ORDER", "PHRASE_BOOK", "SOURCE", "SOURCE_WORDS", "TARGET", "TARGET_WORDS",
           "Model", "Step", "Translation", "attend", "build_model", "encode", "french",
           "kept", "next_state", "order_blind", "output", "translate", "unroll"]
