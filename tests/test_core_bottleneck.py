"""The closed book: a fixed room cannot hold a longer row (seed 000)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.bottleneck import RECOVERED_AT, squeeze


@pytest.fixture(scope="module")
def default():
    return squeeze()


def test_defaults_are_the_chapters_panel(default):
    assert (default.room, default.length) == (40, 60)
    assert default.squeeze == 1.5
    assert len(default.recovery) == 60


def test_last_third_fully_back_front_worst_middle_between(default):
    front, middle, back = default.third_recovered
    assert back == 1.0
    assert front < middle < back
    f, m, b = default.third_recovery
    assert f < m < b


def test_honest_total_is_at_most_about_room_over_length(default):
    # A room of N numbers cannot hold more than about N numbers' worth.
    assert default.recovered_share <= 40 / 60 + 1e-9
    assert default.total_recovery <= 40 * 1.02


def test_recovered_rule_is_the_threshold(default):
    assert default.recovered == tuple(r >= RECOVERED_AT for r in default.recovery)
    assert default.recovered_count == sum(default.recovered)


def test_front_fades_first_and_further_as_the_row_grows():
    fronts = [squeeze(40, n).third_recovery[0] for n in (60, 90)]
    assert fronts[1] < fronts[0]
    long = squeeze(40, 90)
    assert long.recovery[0] < 0.05 and long.recovery[-1] > 0.9


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))))
def test_everything_comes_back_when_the_row_fits(sizes):
    room, length = sizes
    s = squeeze(room, length)
    assert all(s.recovered)
    assert min(s.recovery) >= RECOVERED_AT


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 30), st.integers(1, 70))
def test_recovery_is_a_fraction_and_bounded_by_the_room(room, length):
    s = squeeze(room, length)
    r = np.array(s.recovery)
    assert np.all((0 <= r) & (r <= 1))
    assert s.total_recovery <= room * 1.05 + 0.5


def test_deterministic():
    assert squeeze(10, 15) == squeeze(10, 15)


@pytest.mark.parametrize("room,length", [(0, 5), (5, 0), (-3, 5), (2.5, 5), (5, 10_000)])
def test_bad_sizes(room, length):
    with pytest.raises(ValueError):
        squeeze(room, length)
