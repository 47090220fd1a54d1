"""The weight grid: a cell per (reader, word) pair, brightness for the weight, and its key.

Used by scenes/attention/weight_grid.py (MatchIsTheWeight). The encoder-decoder heat map
of scenes/closed_book.py and scenes/open_book.py lives in alignment_map.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    CubicBezier,
    FadeIn,
    LaggedStart,
    Rectangle,
    VGroup,
)

from production.language import _
from scenes import style
from scenes.base import align_baselines, words
from scenes.components.readout_panel import make_text_swap_animation, put_in_place_of
from scenes.lines import text_height, text_width

LABEL_BUFF = 0.15  # between the labels and the cells (scene units)


def brightness(weight: float) -> float:
    """A cell's fill opacity: the weight itself, on the fixed scale 0 (dark) to 1 (full)."""
    return min(max(weight, 0.0), 1.0)


def labels_staggered(versions: Sequence[Sequence[str]], cell_width: float,
                     size: int) -> bool:
    """Whether column labels need two alternating lines: a word is wider than a cell."""
    widest = max(text_width(w, size) for version in versions for w in version)
    return widest > cell_width - 0.04


def label_rows_height(versions: Sequence[Sequence[str]], cell_width: float,
                      size: int) -> float:
    """Height of the column labels above the cells, gap included (scene units)."""
    lines = 2 if labels_staggered(versions, cell_width, size) else 1
    return lines * (text_height("Thp", size) + 0.08) + LABEL_BUFF


def rows_staggered(cell_height: float, size: int) -> bool:
    """Whether row labels need two alternating columns: rows too short for a line of text."""
    return cell_height < text_height("Thp", size) + 0.02


def row_labels_width(versions: Sequence[Sequence[str]], cell_height: float,
                     size: int) -> float:
    """Width of the row labels left of the cells, gap included (scene units)."""
    widest = max(text_width(w, size) for version in versions for w in version)
    columns = 2 if rows_staggered(cell_height, size) else 1
    return columns * (widest + LABEL_BUFF)


def weight_cell(width: float, height: float, weight: float) -> Rectangle:
    cell = Rectangle(width=width, height=height)
    cell.set_stroke(style.FAINT, width=1)
    cell.set_fill(style.WEIGHT, opacity=brightness(weight))
    return cell


class WeightGrid(VGroup):
    """Readers down the left, the words they read along the top, a cell for every pair.

    ``weights[i][j]`` is how much of word j goes into word i (each row adds to
    one); it sets the cell's brightness on a fixed scale. Column labels take
    two alternating lines when the widest word (of any version in ``also``) is
    wider than a cell, and row labels two alternating columns when a row is
    shorter than a line of text. The labels are ``label_size``. Without
    ``label_columns`` the columns have no labels of their own: :meth:`link_columns`
    ties each to its word elsewhere (a sentence over the grid, say).
    """

    def __init__(self, items: Sequence[str], weights: Sequence[Sequence[float]],
                 cell_width: float, cell_height: float, *, label_size: int,
                 also: Sequence[Sequence[str]] = (), label_columns: bool = True) -> None:
        super().__init__()
        self.n = n = len(items)
        self.label_size = size = label_size
        self.cells = VGroup()
        for i in range(n):
            for j in range(n):
                cell = weight_cell(cell_width, cell_height, weights[i][j])
                self.cells.add(cell.move_to(RIGHT * cell_width * j + DOWN * cell_height * i))
        self.row_labels = VGroup(*(words(w, size, style.MUTED) for w in items))
        widest = max(text_width(w, size) for version in (items, *also) for w in version)
        half_x_height = text_height("x", size) / 2
        for i, label in enumerate(self.row_labels):
            label.next_to(self.get_cell(i, 0), LEFT, buff=LABEL_BUFF)
            # Centre the lower-case letters on the row, whatever hangs below the line.
            align_baselines([label], self.get_cell(i, 0).get_y() - half_x_height)
            if rows_staggered(cell_height, size) and i % 2:
                label.shift(LEFT * (widest + LABEL_BUFF))
        self.links = VGroup()
        self.column_labels = VGroup(*(words(w, size, style.MUTED) for w in items))
        if not label_columns:
            self.column_labels = VGroup()
        self.staggered = label_columns and labels_staggered([items, *also], cell_width, size)
        lift = self.cells.get_top()[1] + LABEL_BUFF
        for j, label in enumerate(self.column_labels):
            label.set_x(self.get_cell(0, j).get_x())
        align_baselines(self.column_labels, 0.0)
        if label_columns:
            self.column_labels.shift(UP * (lift - self.column_labels.get_bottom()[1]))
        if self.staggered:
            for label in self.column_labels[1::2]:
                label.shift(UP * (self.column_labels[0].height + 0.08))
        self.add(self.cells, self.row_labels, self.column_labels)

    # ------------------------------------------------------------ accessors
    def get_cell(self, i: int, j: int) -> Rectangle:
        return self.cells[i * self.n + j]

    def get_row(self, i: int) -> VGroup:
        return VGroup(*self.cells[i * self.n:(i + 1) * self.n])

    def get_row_label(self, i: int):
        return self.row_labels[i]

    def get_column_label(self, j: int):
        return self.column_labels[j]

    def get_cells(self) -> VGroup:
        return self.cells

    def link_columns(self, starts: Sequence[Sequence[float]]) -> VGroup:
        """Faint curves from each point of ``starts`` (where column j's word stands,
        say) down to the top of column j; they fade in with the labels."""
        top = self.cells.get_top()[1] + 0.04
        for j, (x0, y0, *_rest) in enumerate(starts):
            x1, bend = self.get_cell(0, j).get_x(), (y0 - top) / 2
            link = CubicBezier([x0, y0, 0], [x0, y0 - bend, 0], [x1, top + bend, 0],
                               [x1, top, 0])
            self.links.add(link.set_stroke(style.MUTED, width=2, opacity=0.6))
        self.add(self.links)
        return self.links

    # ----------------------------------------------------------- animations
    def make_fill_animation(self, lag_ratio: float = 0.15) -> LaggedStart:
        """Labels first, then the cells row by row from the top."""
        labels = VGroup(self.row_labels, self.column_labels)
        if len(self.links):
            labels.add(self.links)
        return LaggedStart(
            FadeIn(labels),
            *(FadeIn(self.get_row(i), shift=RIGHT * 0.1) for i in range(self.n)),
            lag_ratio=lag_ratio,
        )

    def make_weights_animation(self, weights: Sequence[Sequence[float]]) -> AnimationGroup:
        """Every cell brightens or dims to its new weight."""
        return AnimationGroup(*(
            self.get_cell(i, j).animate.set_fill(opacity=brightness(weights[i][j]))
            for i in range(self.n) for j in range(self.n)
        ))

    def make_labels_animation(self, items: Sequence[str]) -> AnimationGroup:
        """Every label whose word changed slides out; the new word slides in.

        The grid holds the new labels from now on, so the scene's record of what
        is shown names the new words.
        """
        swaps = []
        for group, edge in ((self.row_labels, RIGHT), (self.column_labels, None)):
            for i, text in enumerate(items[:len(group)]):
                old = group[i]
                if old.original_text == text:
                    continue
                new = put_in_place_of(words(text, self.label_size, old.get_color()), old, edge)
                group.submobjects[i] = new
                swaps.append(make_text_swap_animation(old, new))
        return AnimationGroup(*swaps)


class WeightScale(VGroup):
    """The brightness key: a strip from no weight to all of it, with its two ends labelled,
    under a caption of one or more ``caption`` lines, in ``size`` type. A ``vertical``
    strip runs ``width`` up from 0 at the bottom to 1 at the top (a colour bar beside
    the grid), ``height`` thick."""

    def __init__(self, width: float, height: float, *, size: int, steps: int = 24,
                 caption: Sequence[str] | None = None,
                 vertical: bool = False) -> None:
        super().__init__()
        caption = (_("brightness = weight"),) if caption is None else caption
        step_w, step_h = (height, width / steps) if vertical else (width / steps, height)
        self.strip = VGroup(*(
            Rectangle(width=step_w, height=step_h, stroke_width=0)
            .set_fill(style.WEIGHT, opacity=k / (steps - 1))
            for k in range(steps)
        )).arrange(UP if vertical else RIGHT, buff=0)
        frame_w, frame_h = (height, width) if vertical else (width, height)
        self.frame = Rectangle(width=frame_w, height=frame_h).set_stroke(style.FAINT, width=1)
        self.frame.move_to(self.strip)
        low_side, high_side = (DOWN, UP) if vertical else (LEFT, RIGHT)
        self.low = words("0", size, style.MUTED).next_to(self.strip, low_side, buff=0.15)
        self.high = words("1", size, style.MUTED).next_to(self.strip, high_side, buff=0.15)
        self.caption = VGroup(*(words(line, size, style.MUTED) for line in caption))
        if caption:
            self.caption.arrange(DOWN, buff=0.05)
            self.caption.next_to(VGroup(self.low, self.strip, self.high), UP, buff=0.15)
        self.add(self.strip, self.frame, self.low, self.high, self.caption)

    def get_strip(self) -> VGroup:
        return self.strip
