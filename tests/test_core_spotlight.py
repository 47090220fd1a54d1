"""The spotlight's hand trace against the figures of the lesson (seed 001)."""

from __future__ import annotations

import numpy as np
import pytest

from core.spotlight import trace


def test_ate_asks_for_things_with_the_seed_scores():
    t = trace("ate", 4.0)
    assert t.scores == pytest.approx((0.2, 0.9, 0.1, 0.8))


def test_hand_trace_at_sharpness_four():
    t = trace("ate", 4.0)
    assert f"{t.total:.1f}" == "64.8"
    assert t.shares_percent == (3, 56, 2, 38)
    assert t.rounded_total_percent == 99
    assert t.exact_total == pytest.approx(1.0, abs=1e-12)
    assert [f"{s:.2f}" for s in t.shares] == ["0.03", "0.56", "0.02", "0.38"]
    assert t.top_word == "cat"


def test_sharpness_one_is_nearly_even():
    t = trace("ate", 1.0)
    assert max(t.shares) - min(t.shares) < 0.25
    assert max(t.shares) < 0.4


def test_sharper_means_the_best_fit_wins_more():
    cats = [trace("ate", s).shares[1] for s in (1.0, 4.0, 8.0)]
    assert cats[0] < cats[1] < cats[2]


def test_lookback_hides_fish_and_cat_gets_91_percent():
    t = trace("ate", 4.0, lookback=True)
    assert t.shares[3] == 0.0
    assert round(t.shares[1] * 100) == 91


def test_the_under_lookback_gives_itself_everything():
    assert trace("the", 4.0, lookback=True).shares == (1.0, 0.0, 0.0, 0.0)


def test_each_asker_has_its_own_pattern():
    rows = {w: np.array(trace(w).shares) for w in ("the", "cat", "ate", "fish")}
    tops = {w: int(np.argmax(r)) for w, r in rows.items()}
    assert tops["cat"] == 2  # cat asks what it did: "ate"
    for a in rows:
        for b in rows:
            if a < b:
                assert np.abs(rows[a] - rows[b]).max() > 0.05


def test_summary_of_ate_is_mostly_a_thing():
    t = trace("ate", 4.0)
    expected = np.array(t.shares) @ np.array(t.labels)
    np.testing.assert_allclose(t.summary, expected)
    assert t.summary[0] > t.summary[1]


@pytest.mark.parametrize("asker,sharpness", [("dog", 4.0), ("ate", 0.0), ("ate", float("nan"))])
def test_bad_input(asker, sharpness):
    with pytest.raises(ValueError):
        trace(asker, sharpness)
