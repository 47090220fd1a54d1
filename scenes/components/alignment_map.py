"""An alignment heat map: one row per word written, one column per word read.

A cell's brightness is its weight on a fixed scale: weight 0 is an empty cell,
weight 1 is a fully lit one (fill opacity = weight), so two grids, or two rows,
compare by eye. Labels thin out (every k-th) when the cells get too small for
every word to be read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    LaggedStart,
    Rectangle,
    Square,
    VGroup,
)

from scenes import style
from scenes.base import align_baselines, words
from scenes.lines import text_height


class AlignmentMap(VGroup):
    """Rows of weight cells with the read words across the top and the written words down the left.

    ``weights[i][j]`` is the share of attention written word i gives read word j
    (each row adds to one). ``cell_width`` and ``cell_height`` are scene units.
    A small square above each column stands for that word's encoder state. Labels are
    ``label_size``; with ``stagger`` the read labels take turns on two lines when the
    columns are too narrow for them side by side, so every word can still be shown.
    """

    def __init__(self, weights: Sequence[Sequence[float]], read: Sequence[str],
                 written: Sequence[str], cell_width: float, cell_height: float, *,
                 label_size: int, color=style.WEIGHT, stagger: bool = False) -> None:
        super().__init__()
        self.label_size, self.stagger = label_size, stagger
        self.cells = VGroup()
        for i, row in enumerate(weights):
            line = VGroup()
            for j, w in enumerate(row):
                cell = Rectangle(width=cell_width, height=cell_height, stroke_color=style.FAINT,
                                 stroke_width=1.5, fill_color=color, fill_opacity=w)
                cell.move_to(RIGHT * j * cell_width + DOWN * i * cell_height)
                line.add(cell)
            self.cells.add(line)
        side = min(cell_width * 0.85, max(0.22, min(cell_width, cell_height) * 0.55))
        # (a row's label taller than its row reaches above the first row: the states clear it)
        reach = max(text_height("Xg", label_size) - cell_height, 0) / 2
        self.states = VGroup(*(
            Square(side, color=style.READER, stroke_width=2).set_fill(style.READER, 0.3)
            .next_to(self.cells[0][j], UP, buff=0.15 + reach)
            for j in range(len(read))
        ))
        self.read_labels = self._labels(read, style.READER, columns=True, pitch=cell_width)
        self.written_labels = self._labels(written, style.WRITER, columns=False,
                                           pitch=cell_height)
        self.add(self.cells, self.states, self.read_labels, self.written_labels)

    def _labels(self, texts: Sequence[str], color, *, columns: bool, pitch: float) -> VGroup:
        """Word labels for columns (``columns``) or rows, every k-th one when space is short
        (staggered column labels have two columns' width each)."""
        made = [words(t, self.label_size, color) for t in texts]
        need = (max(m.width for m in made) + 0.05) if columns else (max(m.height for m in made)
                                                                  + 0.06)
        lines = 2 if columns and self.stagger and need > pitch else 1
        every = max(1, math.ceil(need / (pitch * lines)))
        labels = VGroup()
        for k, text in enumerate(made):
            if k % every:
                continue
            if columns:
                text.next_to(self.states[k], UP, buff=0.15)
            else:
                text.next_to(self.cells[k][0], LEFT, buff=0.2)
            labels.add(text)
        if columns:
            align_baselines(labels)
        if lines == 2:
            # Every other label one line up, clear of its neighbours.
            rise = max(m.height for m in made) + 0.1
            for label in labels[1::2]:
                label.shift(UP * rise)
        return labels

    def get_cells(self) -> VGroup:
        return self.cells

    def get_row(self, i: int) -> VGroup:
        return self.cells[i]

    def get_states(self) -> VGroup:
        return self.states

    def get_read_labels(self) -> VGroup:
        return self.read_labels

    def get_written_labels(self) -> VGroup:
        return self.written_labels

    def get_written_label(self, i: int):
        """The label of row ``i``, or None when that row's label was thinned out."""
        for label, k in zip(self.written_labels, self._kept_rows()):
            if k == i:
                return label
        return None

    def _kept_rows(self) -> list[int]:
        every = math.ceil(len(self.cells) / max(1, len(self.written_labels)))
        return list(range(0, len(self.cells), every))

    def make_row_animation(self, i: int) -> LaggedStart:
        """Row ``i`` lights up left to right (and its label appears, if it has one)."""
        anims = [FadeIn(cell) for cell in self.cells[i]]
        label = self.get_written_label(i)
        if label is not None:
            anims.insert(0, FadeIn(label, shift=RIGHT * 0.2))
        return LaggedStart(*anims, lag_ratio=0.08)


class WeightKey(VGroup):
    """The key to the grid's brightness: a strip from no weight to all of it, ``length``
    scene units long, lying (labels under its ends) or, ``upright``, standing (all of it
    over its top, none under its foot, so the key is no wider than its labels)."""

    def __init__(self, low: str, high: str, length: float, *, label_size: int,
                 upright: bool = False, steps: int = 12, color=style.WEIGHT) -> None:
        super().__init__()
        side, thick = length / steps, 0.35
        self.strip = VGroup(*(
            Rectangle(width=thick if upright else side, height=side if upright else thick,
                      stroke_color=style.FAINT, stroke_width=1,
                      fill_color=color, fill_opacity=k / (steps - 1))
            for k in range(steps)
        )).arrange(UP if upright else RIGHT, buff=0)
        self.low = words(low, label_size, style.MUTED)
        self.high = words(high, label_size, style.MUTED)
        if upright:
            self.low.next_to(self.strip, DOWN, buff=0.15, aligned_edge=LEFT)
            self.high.next_to(self.strip, UP, buff=0.15, aligned_edge=LEFT)
        else:
            for label, end in ((self.low, LEFT), (self.high, RIGHT)):
                label.next_to(self.strip, DOWN, buff=0.15).align_to(self.strip, end)
            align_baselines([self.low, self.high])
        self.add(self.strip, self.low, self.high)

    def get_strip(self) -> VGroup:
        return self.strip
