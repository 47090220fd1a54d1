"""The layout check itself catches what it is meant to catch."""

from __future__ import annotations

import pytest
from manim import DOWN, LEFT, RIGHT

from scenes import style
from scenes.base import (
    align_baselines,
    baseline,
    layout_problems,
    row_label,
    stack_lines,
    word_row,
    words,
)
from scenes.frame import WIDE


def test_text_off_the_frame_is_caught():
    t = words("far away").move_to(RIGHT * 9)
    assert any("leaves the frame" in p for p in layout_problems([t], "here"))


def test_overlapping_texts_are_caught():
    a = words("first")
    b = words("second").move_to(a.get_center() + RIGHT * 0.3)
    assert any("overlaps" in p for p in layout_problems([a, b], "here"))


def test_neighbours_that_do_not_touch_pass():
    a = words("first")
    b = words("second").next_to(a, DOWN)
    assert layout_problems([a, b], "here") == []


def test_too_small_text_is_caught():
    t = words("tiny", WIDE.type.label).scale(0.5)
    assert any("too small" in p for p in layout_problems([t], "here"))


def test_invisible_text_is_ignored():
    t = words("gone").move_to(LEFT * 20).set_opacity(0)
    assert layout_problems([t], "here") == []


def test_word_row_shares_one_baseline():
    row = word_row(("feeling", "tired", "a", "lot"))
    lines = {round(baseline(w), 3) for w in row}
    assert len(lines) == 1


def test_align_baselines_moves_descenders_down():
    a, b = words("bed"), words("gap")
    align_baselines([a, b])
    assert b.get_bottom()[1] < a.get_bottom()[1]


def test_stacked_lines_space_their_baselines_evenly():
    lines = stack_lines([words("gap"), words("top"), words("jumpy")], 0.5)
    assert [round(baseline(t), 6) for t in lines] == [0.0, -0.5, -1.0]
    assert {round(t.get_left()[0], 6) for t in lines} == {0.0}
    right = stack_lines([words("a"), words("longer")], 0.4, aligned_edge=RIGHT)
    assert {round(t.get_right()[0], 6) for t in right} == {0.0}


def test_a_row_label_sits_left_of_its_row_on_the_baseline_beside_it():
    from manim import Square, config

    cells = Square(1).shift(RIGHT * 2)
    beside = words("gap").move_to(cells)
    label = row_label("reader", left_of=cells, beside=beside)
    assert label.get_right()[0] == pytest.approx(cells.get_left()[0] - 0.25)
    assert baseline(label) == pytest.approx(baseline(beside))
    edge = row_label("pour", style.WEIGHT, WIDE.type.minimum)
    assert edge.get_left()[0] == pytest.approx(-config.frame_width / 2 + style.EDGE)
    assert layout_problems([cells, beside, label, edge], "here") == []
