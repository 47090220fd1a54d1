"""The alchemist's potions: "Sarah lies still on the bed, feeling ___".

Every word carries three things (seed 002's analogy):

- a *recipe* (the query): what this word's alchemist looks for, written over
  the named tag features in :data:`QUERY_FEATURES`;
- a *tag* (the key): what a word's bottle says it is, in the same features
  (recipe and tag must speak the same language, so they have the same size);
- a *potion* (the value): what is inside the bottle, over the named
  ingredients in :data:`INGREDIENTS` (a different, larger size).

An alchemist matches his recipe against every tag (recipe . tag), multiplies
the matches by :data:`SHARPNESS`, and the softmax turns them into *pour
shares*: the fraction of his flask poured from each word's bottle. The shares
add to one, so the flask is always exactly full. His flask (the attention
output) is the blend of the potions by those shares.

Units: every potion is written as ingredient *fractions* in [0, 1] that add to
one ("of this bottle, 0.35 is tired"). A blend of such potions with shares that
add to one again adds to one, so the mixed flask reads directly as "what
fraction of the flask is each ingredient". Fractions, never percent.

After the pour, the last word's flask (under the look-back rule: each word sees
only itself and the words before it) goes through a feed-forward step (linear,
ReLU, linear) that distils restful/sleepy/tired into a stronger "tired" and
discards the one-off "dishonest"; a final linear layer and a softmax then give
a probability (a fraction) to each word of a small vocabulary.

Drawn stand-in, not a trained model: every recipe, tag, potion and weight here
is hand-made so that the numbers tell the seed's story. No positions are used,
so without the look-back rule shuffling the words leaves every flask unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from core.attention import blend, lookback_mask, match, shares

WORDS: tuple[str, ...] = ("Sarah", "lies", "still", "on", "the", "bed", "feeling")
DEFAULT_ASKER = "lies"

#: Multiplier on the recipe . tag matches before the softmax (no unit). The
#: higher it is, the pickier the alchemist: he pours from the top few bottles.
SHARPNESS = 4.0

#: The language recipes (queries) and tags (keys) are both written in.
QUERY_FEATURES: tuple[str, ...] = (
    "a flat surface",
    "about honesty",
    "about resting",
    "a person",
    "a link word",
)

#: What a potion (value) can hold. Deliberately not the size of the tags.
INGREDIENTS: tuple[str, ...] = (
    "tired",
    "dishonest",
    "restful",
    "sleepy",
    "sick",
    "silent",
    "stationary",
    "a flat surface",
    "a person",
    "a feeling",
    "a link",
)

# Tables are written sparsely, feature -> amount; a missing feature is 0.

#: Recipes (queries), hand-made. "lies" looks for flat surfaces, dishonesty and
#: resting; "feeling" looks for how the person rests.
RECIPES: dict[str, dict[str, float]] = {
    "Sarah": {"a person": 0.5, "about resting": 0.3},
    "lies": {"a flat surface": 1.0, "about honesty": 1.0, "about resting": 1.0},
    "still": {"about resting": 0.8, "a person": 0.4},
    "on": {"a flat surface": 1.0},
    "the": {"a flat surface": 0.5, "a person": 0.5},
    "bed": {"a flat surface": 0.4, "about resting": 0.6},
    "feeling": {"about resting": 1.0, "a flat surface": 0.3},
}

#: Tags (keys), hand-made. "bed" says "a flat piece of furniture", "still" says
#: "related to resting", "lies" says "a verb related to resting".
TAGS: dict[str, dict[str, float]] = {
    "Sarah": {"a person": 1.0},
    "lies": {"about resting": 0.8, "about honesty": 0.2},
    "still": {"about resting": 1.0},
    "on": {"a link word": 1.0},
    "the": {"a link word": 1.0},
    "bed": {"a flat surface": 1.0, "about resting": 0.4},
    "feeling": {"a person": 0.5},
}

#: Potions (values), hand-made, each a set of ingredient fractions adding to
#: one. "lies" out of context is as much "tired" (lies down) as "dishonest"
#: (tells lies); "bed" holds tired, restful, sleepy, sick; "still" holds
#: restful, silent, stationary.
POTIONS: dict[str, dict[str, float]] = {
    "Sarah": {"a person": 1.0},
    "lies": {"tired": 0.45, "dishonest": 0.45, "stationary": 0.1},
    "still": {"restful": 0.4, "silent": 0.3, "stationary": 0.3},
    "on": {"a link": 0.7, "a flat surface": 0.3},
    "the": {"a link": 1.0},
    "bed": {"tired": 0.35, "restful": 0.25, "sleepy": 0.2, "sick": 0.1, "a flat surface": 0.1},
    "feeling": {"a feeling": 1.0},
}

#: A pinch, as a fraction of the flask: still there (at least the lower bound)
#: but small (at most the upper bound).
PINCH: tuple[float, float] = (0.02, 0.15)

# --- feed-forward step (hand-made): ingredients -> named units -> ingredients

#: The hidden units of the feed-forward step.
HIDDEN_UNITS: tuple[str, ...] = ("worn out", "drowsy", "lying")

#: First linear layer, unit -> {ingredient: weight}, plus a bias per unit.
#: "lying" has a bias of -0.3: dishonesty has to be most of the flask to fire
#: it, so a one-off pinch is cut to zero by the ReLU (it is discarded).
FF_IN: dict[str, dict[str, float]] = {
    "worn out": {"tired": 1.0, "sleepy": 0.6, "restful": 0.6, "stationary": 0.4, "sick": 0.3},
    "drowsy": {"sleepy": 1.0, "restful": 0.5, "tired": 0.3, "silent": 0.3},
    "lying": {"dishonest": 1.0},
}
FF_IN_BIAS: dict[str, float] = {"worn out": -0.1, "drowsy": -0.1, "lying": -0.3}

#: Second linear layer, ingredient -> {unit: weight}: back into ingredients.
FF_OUT: dict[str, dict[str, float]] = {
    "tired": {"worn out": 2.0, "drowsy": 0.5},
    "sleepy": {"drowsy": 1.5, "worn out": 0.3},
    "dishonest": {"lying": 2.0},
}

# --- final linear layer and softmax over a small vocabulary

VOCABULARY: tuple[str, ...] = (
    "tired",
    "sleepy",
    "exhausted",
    "rested",
    "happy",
    "hungry",
    "dishonest",
    "müde",
    "fatigué",
    "cansado",
)

#: The vocabulary words that are not English (the prompt is English).
OTHER_LANGUAGES: tuple[str, ...] = ("müde", "fatigué", "cansado")

#: Final linear layer, vocabulary word -> {ingredient: weight}. The words of
#: other languages mean "tired" too, so they read the same ingredients.
FINAL: dict[str, dict[str, float]] = {
    "tired": {"tired": 4.0, "sleepy": 1.0},
    "sleepy": {"sleepy": 4.0, "tired": 1.0},
    "exhausted": {"tired": 3.2},
    "rested": {"restful": 2.0},
    "happy": {"a feeling": 1.0},
    "hungry": {},
    "dishonest": {"dishonest": 4.0},
    "müde": {"tired": 4.0, "sleepy": 1.0},
    "fatigué": {"tired": 4.0, "sleepy": 1.0},
    "cansado": {"tired": 4.0, "sleepy": 1.0},
}

#: Final bias per vocabulary word (a logit, no unit): what sets the words of
#: other languages near zero is that the text so far is English.
FINAL_BIAS: dict[str, float] = {w: (-7.0 if w in OTHER_LANGUAGES else 0.0) for w in VOCABULARY}


@dataclass(frozen=True)
class PotionResult:
    """Everything a scene shows about the potions. Shares, ingredient amounts
    and probabilities are fractions in [0, 1]; matches and logits have no unit.

    Tables and rows are parallel to ``words`` (a word that appears twice has
    two rows); ``pour`` is the asker's row of ``share_grid``.
    """

    words: tuple[str, ...]
    asker: str
    sharpness: float
    query_features: tuple[str, ...]
    value_ingredients: tuple[str, ...]
    queries: tuple[tuple[float, ...], ...]  # one recipe per word
    keys: tuple[tuple[float, ...], ...]  # one tag per word
    values: tuple[tuple[float, ...], ...]  # one potion per word (adds to one)
    matches: tuple[float, ...]  # the asker's recipe . every tag
    pour: tuple[float, ...]  # the asker's pour shares, add to one
    share_grid: tuple[tuple[float, ...], ...]  # every reader's pour, no mask
    mixture: dict[str, float]  # the asker's flask, ingredient -> fraction
    masked_grid: tuple[tuple[float, ...], ...]  # look-back rule: 0 above diagonal
    last_word: str
    last_flask: dict[str, float]  # the last word's flask under look-back
    hidden: dict[str, float]  # feed-forward hidden units after the ReLU
    distilled: dict[str, float]  # feed-forward output, ingredient -> amount
    vocabulary: tuple[str, ...]
    logits: dict[str, float]
    probabilities: dict[str, float]  # vocabulary word -> probability, add to one
    ranking: tuple[str, ...]  # vocabulary, most probable first
    predicted: str


def _table(rows: dict[str, dict[str, float]], names: Sequence[str]) -> dict[str, np.ndarray]:
    """Expand a sparse table into one dense vector per key, in ``names`` order."""
    out = {}
    for key, row in rows.items():
        unknown = set(row) - set(names)
        if unknown:  # a typo in a hand-made table must not silently become 0
            raise ValueError(f"{key!r} uses unknown names {sorted(unknown)}")
        out[key] = np.array([row.get(n, 0.0) for n in names], dtype=float)
    return out


_Q = _table(RECIPES, QUERY_FEATURES)
_K = _table(TAGS, QUERY_FEATURES)
_V = _table(POTIONS, INGREDIENTS)
_W1 = np.stack([_table(FF_IN, INGREDIENTS)[u] for u in HIDDEN_UNITS])  # (units, ingredients)
_B1 = np.array([FF_IN_BIAS[u] for u in HIDDEN_UNITS])
_W2 = np.stack([_table(FF_OUT, HIDDEN_UNITS).get(i, np.zeros(len(HIDDEN_UNITS)))
                for i in INGREDIENTS])  # (ingredients, units)
_WF = np.stack([_table(FINAL, INGREDIENTS)[w] for w in VOCABULARY])  # (vocab, ingredients)
_BF = np.array([FINAL_BIAS[w] for w in VOCABULARY])


def _check_words(words: Sequence[str]) -> tuple[str, ...]:
    if isinstance(words, str):
        raise ValueError(f"words must be a sequence of words, not one string {words!r}")
    words = tuple(words)
    if not words:
        raise ValueError("words must hold at least one word")
    for w in words:
        if w not in WORDS:
            raise ValueError(f"unknown word {w!r}; allowed words: {', '.join(WORDS)}")
    return words


def _check_sharpness(sharpness: float) -> float:
    try:
        value = float(sharpness)
    except (TypeError, ValueError):
        raise ValueError(f"sharpness must be a number; got {sharpness!r}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"sharpness must be a finite number >= 0; got {sharpness!r}")
    return value


def _grid(words: tuple[str, ...], sharpness: float, lookback: bool) -> np.ndarray:
    """Pour shares, rows = readers, columns = bottles (fractions, rows add to one)."""
    q = np.stack([_Q[w] for w in words])
    k = np.stack([_K[w] for w in words])
    visible = lookback_mask(len(words)) if lookback else None
    return shares(match(q, k), sharpness, visible)


def _values(words: tuple[str, ...]) -> np.ndarray:
    return np.stack([_V[w] for w in words])


def flasks(
    words: Sequence[str] = WORDS, lookback: bool = False, sharpness: float = SHARPNESS
) -> list[list[float]]:
    """Every word's filled flask, in the order of ``words``.

    Each flask is a list of ingredient fractions (in :data:`INGREDIENTS`
    order) adding to one. Without ``lookback`` the model has no positions, so
    shuffling ``words`` only shuffles the flasks; with it, each word pours only
    from itself and the words before it.
    """
    words = _check_words(words)
    sharpness = _check_sharpness(sharpness)
    return blend(_grid(words, sharpness, lookback), _values(words)).tolist()


def feed_forward(flask: Sequence[float]) -> tuple[list[float], list[float]]:
    """The hand-made feed-forward step on one flask: linear, ReLU, linear.

    Takes ingredient fractions (:data:`INGREDIENTS` order); returns the hidden
    unit activations (:data:`HIDDEN_UNITS` order, >= 0) and the distilled
    ingredient amounts (no longer fractions adding to one: the step strengthens
    "tired" and drops what it does not need).
    """
    x = np.asarray(flask, dtype=float)
    if x.shape != (len(INGREDIENTS),):
        raise ValueError(f"a flask has {len(INGREDIENTS)} ingredients; got shape {x.shape}")
    hidden = np.maximum(_W1 @ x + _B1, 0.0)
    return hidden.tolist(), (_W2 @ hidden).tolist()


def predict(distilled: Sequence[float]) -> tuple[list[float], list[float]]:
    """Final linear layer and softmax: (logits, probabilities) over :data:`VOCABULARY`.

    Probabilities are fractions that add to one.
    """
    x = np.asarray(distilled, dtype=float)
    logits = _WF @ x + _BF
    return logits.tolist(), shares(logits).tolist()


def mix_potions(
    words: Sequence[str] = WORDS, asker: str = DEFAULT_ASKER, sharpness: float = SHARPNESS
) -> PotionResult:
    """Pour the asker's flask, then predict the word after the last one.

    ``asker`` must be one of ``words`` (its first appearance is used). The
    prediction reads the last word's flask under the look-back rule.
    """
    words = _check_words(words)
    sharpness = _check_sharpness(sharpness)
    if asker not in words:
        raise ValueError(f"asker {asker!r} is not among the words {', '.join(words)}")
    i = words.index(asker)

    q = np.stack([_Q[w] for w in words])
    k = np.stack([_K[w] for w in words])
    v = _values(words)
    grid = _grid(words, sharpness, lookback=False)
    masked = _grid(words, sharpness, lookback=True)
    mixture = blend(grid[i], v)

    last_flask = blend(masked[-1], v)
    hidden, distilled = feed_forward(last_flask)
    logits, probs = predict(distilled)
    order = sorted(range(len(VOCABULARY)), key=lambda j: -probs[j])

    def rows(a: np.ndarray) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(float(x) for x in r) for r in a)

    return PotionResult(
        words=words,
        asker=asker,
        sharpness=sharpness,
        query_features=QUERY_FEATURES,
        value_ingredients=INGREDIENTS,
        queries=rows(q),
        keys=rows(k),
        values=rows(v),
        matches=tuple(float(x) for x in match(q[i], k)),
        pour=tuple(float(x) for x in grid[i]),
        share_grid=rows(grid),
        mixture={n: float(x) for n, x in zip(INGREDIENTS, mixture)},
        masked_grid=rows(masked),
        last_word=words[-1],
        last_flask={n: float(x) for n, x in zip(INGREDIENTS, last_flask)},
        hidden=dict(zip(HIDDEN_UNITS, hidden)),
        distilled=dict(zip(INGREDIENTS, distilled)),
        vocabulary=VOCABULARY,
        logits=dict(zip(VOCABULARY, logits)),
        probabilities=dict(zip(VOCABULARY, probs)),
        ranking=tuple(VOCABULARY[j] for j in order),
        predicted=VOCABULARY[order[0]],
    )
