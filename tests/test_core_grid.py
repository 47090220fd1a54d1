"""The weight grid against the chapter's panel for "it" (seed 000)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.grid import SENTENCE, VOCABULARY, weight_grid


def test_panel_for_it_matches_the_chapter():
    g = weight_grid()
    assert g.reader == "it"
    assert g.top_word == "cat"
    assert f"{g.top_match:.2f}" == "1.30"
    assert f"{g.top_weight:.2f}" == "0.74"
    assert f"{g.row_total:.3f}" == "1.000"
    assert f"{g.spread_bits:.2f}" == "1.55"


def test_match_is_the_sum_of_the_products_shown():
    g = weight_grid()
    assert sum(g.products) == pytest.approx(g.top_match)
    q = np.array(g.queries[g.reader_index])
    k = np.array(g.keys[g.top_index])
    np.testing.assert_allclose(q * k, g.products)


def test_it_asks_for_something_that_acts_and_cat_offers_it():
    g = weight_grid()
    acts = g.features.index("something that acts")
    assert np.argmax(g.queries[g.reader_index]) == acts
    assert np.argmax(g.keys[g.top_index]) == acts


def test_the_offers_little():
    g = weight_grid()
    row = np.array(g.weights[g.reader_index])
    assert row[SENTENCE.index("the")] < 0.1


def test_changing_one_word_moves_every_row():
    before = np.array(weight_grid().weights)
    words = list(SENTENCE)
    words[1] = "dog"
    after = np.array(weight_grid(words).weights)
    assert np.all(np.abs(after - before).max(axis=1) > 1e-3)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(sorted(VOCABULARY)), min_size=2, max_size=12),
       st.floats(min_value=1e-3, max_value=1e6))
def test_every_row_adds_to_one(words, sharpness):
    g = weight_grid(words, words[0], sharpness)
    np.testing.assert_allclose(np.sum(g.weights, axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("words,reader,sharpness", [
    (("the", "cow"), "the", 1.0),
    (("the", "cat"), "dog", 1.0),
    (("the", "cat"), "cat", -1.0),
    (("the",), "the", 1.0),
])
def test_bad_input(words, reader, sharpness):
    with pytest.raises(ValueError):
        weight_grid(words, reader, sharpness)
