"""The attention step: invariants that hold for any input (property tests)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.attention import blend, lookback_mask, match, shares, spread_bits
from production.paths import ROOT

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
sharpness = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


def test_core_never_imports_manim():
    code = "import sys, core.attention, core.spotlight, core.grid, core.bottleneck, " \
           "core.seq2seq, core.potion, core.ledger; print('manim' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"


@settings(max_examples=200, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 6), st.integers(1, 9)), elements=finite), sharpness)
def test_every_row_adds_to_one_and_never_overflows(scores, k):
    w = shares(scores, k)
    assert np.all(np.isfinite(w))
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(arrays(float, st.tuples(st.integers(1, 9), st.just(9)), elements=finite), sharpness)
def test_hidden_words_get_exactly_zero(scores, k):
    n = scores.shape[0]
    visible = lookback_mask(9)[:n]
    w = shares(scores, k, visible)
    assert np.all(w[~visible] == 0.0)
    np.testing.assert_allclose(w.sum(axis=-1), 1.0, atol=1e-12)


def test_lookback_mask_is_lower_triangle():
    m = lookback_mask(4)
    assert m[2].tolist() == [True, True, True, False]
    assert m[0].tolist() == [True, False, False, False]


def test_sharpness_zero_is_even_and_huge_sharpness_picks_the_winner():
    np.testing.assert_allclose(shares([1.0, 2.0, 3.0], 0.0), [1 / 3] * 3)
    np.testing.assert_allclose(shares([1.0, 2.0, 3.0], 1e300), [0.0, 0.0, 1.0])


def test_match_is_term_by_term_product_summed():
    assert match([1.5, 0.4], [[0.8, 0.25]]).tolist() == [1.5 * 0.8 + 0.4 * 0.25]


def test_match_refuses_different_sizes():
    try:
        match([1.0, 2.0], [[1.0, 2.0, 3.0]])
    except ValueError as error:
        assert "same size" in str(error)
    else:
        raise AssertionError("mismatched sizes were accepted")


def test_spread_in_bits():
    assert spread_bits([0.25] * 4) == 2.0
    assert spread_bits([1.0, 0.0, 0.0]) == 0.0


def test_blend_mixes_rows_by_shares():
    np.testing.assert_allclose(blend([0.25, 0.75], [[1.0, 0.0], [0.0, 1.0]]), [0.25, 0.75])
