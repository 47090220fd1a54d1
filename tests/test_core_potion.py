"""Tests for core.potion: the seed's claims (seed 002) and the invariants.

The thresholds come from the seed's wording ("mostly", "little or nothing",
"a pinch", "near zero"), not from a run of the program.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import potion
from core.potion import (
    INGREDIENTS,
    OTHER_LANGUAGES,
    PINCH,
    POTIONS,
    QUERY_FEATURES,
    WORDS,
    PotionResult,
    flasks,
    mix_potions,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def result() -> PotionResult:
    return mix_potions()


def pour_of(result: PotionResult) -> dict[str, float]:
    return dict(zip(result.words, result.pour))


# --- the pour for "lies" ----------------------------------------------------


def test_lies_reads_every_word(result: PotionResult) -> None:
    assert result.asker == "lies"
    assert result.words == WORDS
    assert len(result.pour) == len(WORDS)
    assert all(s > 0 for s in result.pour)


def test_lies_pours_mostly_from_bed_still_and_itself(result: PotionResult) -> None:
    pour = pour_of(result)
    assert pour["bed"] + pour["still"] + pour["lies"] >= 0.8
    for word in ("bed", "still", "lies"):
        assert pour[word] > max(pour[w] for w in ("Sarah", "on", "the", "feeling"))


@pytest.mark.parametrize("word", ["Sarah", "on", "the", "feeling"])
def test_lies_pours_little_or_nothing_from_the_others(result: PotionResult, word: str) -> None:
    assert pour_of(result)[word] <= 0.05


def test_flask_is_always_exactly_full(result: PotionResult) -> None:
    assert math.isclose(sum(result.pour), 1.0, abs_tol=1e-12)
    for row in result.share_grid:
        assert math.isclose(sum(row), 1.0, abs_tol=1e-12)
        assert all(0.0 <= s <= 1.0 for s in row)


def test_pour_is_the_askers_row_of_the_grid(result: PotionResult) -> None:
    assert result.pour == result.share_grid[WORDS.index("lies")]


# --- the mixed potion ------------------------------------------------------


def test_every_potion_is_ingredient_fractions_adding_to_one() -> None:
    for word, potion_ in POTIONS.items():
        assert set(potion_) <= set(INGREDIENTS), word
        assert all(0.0 <= x <= 1.0 for x in potion_.values()), word
        assert math.isclose(sum(potion_.values()), 1.0, abs_tol=1e-12), word


def test_potions_hold_what_the_seed_lists() -> None:
    assert {"tired", "restful", "sleepy", "sick"} <= set(POTIONS["bed"])
    assert {"restful", "silent", "stationary"} <= set(POTIONS["still"])
    # Out of context "lies" is as much "lies down" as "tells lies".
    assert POTIONS["lies"]["tired"] == POTIONS["lies"]["dishonest"] > 0


def test_mixture_is_fractions_of_the_flask(result: PotionResult) -> None:
    assert tuple(result.mixture) == INGREDIENTS
    assert all(0.0 <= x <= 1.0 for x in result.mixture.values())
    assert math.isclose(sum(result.mixture.values()), 1.0, abs_tol=1e-12)


def test_mixture_of_lies_is_mostly_tired(result: PotionResult) -> None:
    mix = result.mixture
    assert max(mix, key=mix.get) == "tired"
    assert mix["tired"] > 2 * mix["dishonest"]


def test_mixture_of_lies_has_a_pinch_of_dishonest(result: PotionResult) -> None:
    low, high = PINCH
    assert (low, high) == (0.02, 0.15)
    assert low <= result.mixture["dishonest"] <= high
    # The context diluted the dishonesty that was half of lies' own potion.
    assert result.mixture["dishonest"] < POTIONS["lies"]["dishonest"] / 2


def test_mixture_matches_a_hand_blend(result: PotionResult) -> None:
    pour = result.pour
    for k, name in enumerate(INGREDIENTS):
        by_hand = sum(s * POTIONS[w].get(name, 0.0) for s, w in zip(pour, WORDS))
        assert math.isclose(result.mixture[name], by_hand, abs_tol=1e-12)
        assert math.isclose(result.mixture[name], sum(
            s * v[k] for s, v in zip(pour, result.values)), abs_tol=1e-12)


# --- sizes -----------------------------------------------------------------


def test_query_and_key_same_size_value_different(result: PotionResult) -> None:
    q_sizes = {len(q) for q in result.queries}
    k_sizes = {len(k) for k in result.keys}
    v_sizes = {len(v) for v in result.values}
    assert q_sizes == k_sizes == {len(QUERY_FEATURES)}
    assert v_sizes == {len(INGREDIENTS)}
    assert len(QUERY_FEATURES) != len(INGREDIENTS)
    assert result.query_features == QUERY_FEATURES
    assert result.value_ingredients == INGREDIENTS


def test_matches_are_recipe_dot_tag(result: PotionResult) -> None:
    q = result.queries[WORDS.index("lies")]
    for m, k in zip(result.matches, result.keys):
        assert math.isclose(m, sum(a * b for a, b in zip(q, k)), abs_tol=1e-12)


# --- no positions: shuffling changes nothing ---------------------------------


def assert_flasks_follow(order: list[int], lookback: bool = False) -> None:
    base = flasks(WORDS, lookback=lookback)
    shuffled = flasks([WORDS[j] for j in order], lookback=lookback)
    for i, j in enumerate(order):
        np.testing.assert_allclose(shuffled[i], base[j], rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "order",
    [
        list(reversed(range(7))),
        [2, 5, 4, 0, 6, 3, 1],  # "still bed the Sarah feeling on lies", the seed's shuffle
        [1, 0, 3, 2, 5, 4, 6],
    ],
)
def test_shuffling_leaves_every_flask_unchanged(order: list[int]) -> None:
    assert_flasks_follow(order)


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(len(WORDS)))))
def test_shuffle_invariance_for_any_order(order: list[int]) -> None:
    assert_flasks_follow(order)


def test_lies_result_same_whatever_the_order() -> None:
    shuffled = ("still", "bed", "the", "Sarah", "feeling", "on", "lies")
    a, b = mix_potions(), mix_potions(shuffled)
    for name in INGREDIENTS:
        assert math.isclose(a.mixture[name], b.mixture[name], abs_tol=1e-12)
    assert pour_of(a) == pytest.approx(pour_of(b), abs=1e-12)


def test_lookback_makes_order_matter() -> None:
    # The check above is not vacuous: under look-back the order does matter.
    with pytest.raises(AssertionError):
        assert_flasks_follow(list(reversed(range(7))), lookback=True)


def test_first_word_under_lookback_holds_only_its_own_potion() -> None:
    first = flasks(WORDS, lookback=True)[0]
    assert first == pytest.approx([POTIONS["Sarah"].get(n, 0.0) for n in INGREDIENTS])


# --- look-back rule --------------------------------------------------------


def test_masked_grid_is_zero_above_the_diagonal(result: PotionResult) -> None:
    grid = result.masked_grid
    n = len(WORDS)
    assert len(grid) == n and all(len(row) == n for row in grid)
    for i, j in itertools.product(range(n), repeat=2):
        if j > i:
            assert grid[i][j] == 0.0
        else:
            assert grid[i][j] > 0.0
    for row in grid:
        assert math.isclose(sum(row), 1.0, abs_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=12),
    st.floats(min_value=0.0, max_value=1e6, allow_nan=False),
)
def test_masked_grid_property(words: list[str], sharpness: float) -> None:
    r = mix_potions(words, asker=words[0], sharpness=sharpness)
    grid = np.array(r.masked_grid)
    assert np.all(np.triu(grid, k=1) == 0.0)
    assert np.all(np.isfinite(grid))
    np.testing.assert_allclose(grid.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(np.array(r.share_grid).sum(axis=1), 1.0, atol=1e-12)
    assert math.isclose(sum(r.probabilities.values()), 1.0, abs_tol=1e-12)


# --- feed-forward and prediction -------------------------------------------


def test_feed_forward_distils_tired_and_drops_dishonest(result: PotionResult) -> None:
    assert result.last_word == "feeling"
    assert result.last_flask["dishonest"] > 0  # it was poured in ...
    assert result.distilled["dishonest"] == 0.0  # ... and the step discarded it
    assert result.distilled["tired"] > result.last_flask["tired"]
    assert max(result.distilled, key=result.distilled.get) == "tired"
    assert all(h >= 0.0 for h in result.hidden.values())


def test_last_flask_is_the_masked_blend(result: PotionResult) -> None:
    row = result.masked_grid[-1]
    for k, name in enumerate(INGREDIENTS):
        expected = sum(s * v[k] for s, v in zip(row, result.values))
        assert math.isclose(result.last_flask[name], expected, abs_tol=1e-12)


def test_prediction_is_tired(result: PotionResult) -> None:
    assert result.predicted == "tired"
    assert result.ranking[0] == "tired"
    assert set(result.ranking[1:3]) == {"sleepy", "exhausted"}


@pytest.mark.parametrize("word", ["sleepy", "exhausted"])
def test_sleepy_and_exhausted_are_high(result: PotionResult, word: str) -> None:
    assert result.probabilities[word] >= 0.1


@pytest.mark.parametrize("word", OTHER_LANGUAGES)
def test_words_of_other_languages_near_zero(result: PotionResult, word: str) -> None:
    assert result.probabilities[word] < 0.01


def test_probabilities_add_to_one(result: PotionResult) -> None:
    probs = result.probabilities
    assert tuple(probs) == result.vocabulary
    assert all(0.0 <= p <= 1.0 for p in probs.values())
    assert math.isclose(sum(probs.values()), 1.0, abs_tol=1e-12)
    assert result.ranking == tuple(sorted(probs, key=probs.get, reverse=True))


# --- plain data, bad input, no manim -----------------------------------------


def test_result_holds_only_plain_data(result: PotionResult) -> None:
    def plain(x: object) -> bool:
        if isinstance(x, (tuple, list)):
            return all(plain(y) for y in x)
        if isinstance(x, dict):
            return all(type(k) is str and plain(v) for k, v in x.items())
        return type(x) in (float, int, str, bool)

    for name, value in vars(result).items():
        assert plain(value), name
    with pytest.raises(AttributeError):
        result.asker = "bed"  # type: ignore[misc]


def test_unknown_word_is_named_with_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match="'dragon'") as err:
        mix_potions(("Sarah", "dragon"), asker="Sarah")
    for w in WORDS:
        assert w in str(err.value)
    with pytest.raises(ValueError, match="'sofa'"):
        flasks(["bed", "sofa"])


@pytest.mark.parametrize("sharpness", [-1.0, float("nan"), float("inf"), -float("inf"), "sharp"])
def test_bad_sharpness_is_refused(sharpness: object) -> None:
    with pytest.raises(ValueError, match="sharpness"):
        mix_potions(sharpness=sharpness)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sharpness"):
        flasks(WORDS, sharpness=sharpness)  # type: ignore[arg-type]


def test_other_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        mix_potions(())
    with pytest.raises(ValueError):
        mix_potions("lies", asker="lies")  # one string, not a list of words
    with pytest.raises(ValueError, match="asker"):
        mix_potions(("Sarah", "bed"), asker="lies")
    with pytest.raises(ValueError):
        potion.feed_forward([0.5, 0.5])


def test_zero_sharpness_pours_evenly() -> None:
    r = mix_potions(sharpness=0.0)
    assert r.pour == pytest.approx([1 / len(WORDS)] * len(WORDS))


def test_core_potion_does_not_import_manim() -> None:
    code = "import sys, core.potion; assert 'manim' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
