"""LeaveTheBookOpen draws the ledger's alignment and accuracies, and follows --set."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from scenes.numbers import percent
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("attention")


@pytest.fixture
def build(build_scene):
    """LeaveTheBookOpen built with the given --set items."""
    return functools.partial(build_scene, "LeaveTheBookOpen")


SETS = tiered([(), ("seq2seq.length=1",)], [("seq2seq.length=12",), ("seq2seq.length=32",)])


def test_formats():
    assert percent(0.22390625) == "22%"
    assert percent(1.0) == "100%"
    assert percent(0.125, 1) == "12.5%"
    assert percent(0.5, 1) == "50%"


@pytest.mark.parametrize("sets", SETS)
def test_layout_and_timing(build, sets):
    scene = build(*sets)
    assert_clean(scene)


@pytest.mark.parametrize("sets", SETS)
def test_grid_brightness_is_the_weight_on_a_fixed_scale(build, sets):
    scene = build(*sets)
    weights = scene.numbers["example_alignment"]
    cells = scene.grid.get_cells()
    assert len(cells) == len(weights) == len(scene.numbers["example_attention_output"])
    for row, line in zip(weights, cells):
        assert len(line) == len(row) == len(scene.numbers["example_input"])
        for w, cell in zip(row, line):
            assert cell.get_fill_opacity() == pytest.approx(w, abs=1e-6)


def test_grid_labels_are_the_example_words(build):
    scene = build()
    n = scene.numbers
    assert [t.original_text for t in scene.grid.get_read_labels()] == list(n["example_input"])
    assert [t.original_text for t in scene.grid.get_written_labels()] == \
        list(n["example_attention_output"])
    assert not Counter(n["example_input"]) - Counter(scene.shown["states"])
    assert not Counter(n["example_attention_output"]) - Counter(scene.shown["rows"])


@pytest.mark.system  # a 32-word sentence builds for 25 s; test_grid_brightness thins the default's
def test_long_sentences_thin_their_labels_but_keep_the_order(build):
    scene = build("seq2seq.length=32")
    words = list(scene.numbers["example_input"])
    shown = [t.original_text for t in scene.grid.get_read_labels()]
    assert 1 <= len(shown) < len(words)
    every = -(-len(words) // len(shown))
    assert shown == words[::every][:len(shown)]


@pytest.mark.parametrize("sets", tiered([()], [("seq2seq.length=12",)]))
def test_chart_shows_lengths_and_the_longest_accuracies(build, sets):
    scene = build(*sets)
    n = scene.numbers
    race = Counter(scene.shown["race"])
    for length in n["lengths"]:
        assert race[str(length)] == 2  # under each chart
    chance = [t for t in scene.shown["race"] if t.startswith("chance")]
    assert chance and percent(n["chance_accuracy"], 1) in chance[0]
    assert chance == ["chance\n12.5%"]
    longest = scene.shown["longest"]
    assert percent(n["closed_book_accuracy"][-1]) in longest
    assert percent(n["attention_accuracy"][-1]) in longest


def test_bar_heights_follow_the_accuracies(build):
    scene = build()
    n = scene.numbers
    closed, opened = scene.charts
    for chart, shares in ((closed, n["closed_book_accuracy"]), (opened, n["attention_accuracy"])):
        heights = [bar.height / chart.plot_height for bar in chart.get_bars()]
        assert heights == pytest.approx(shares, abs=0.01)


def test_settings_change_the_example(build):
    default, other = build(), build("seq2seq.length=12")
    assert len(other.grid.get_cells()) == 12
    assert len(default.grid.get_cells()) == len(default.numbers["example_input"])
    assert other.numbers["example_input"] != default.numbers["example_input"]
    assert not Counter(other.numbers["example_input"][::2]) - Counter(other.shown["states"])
