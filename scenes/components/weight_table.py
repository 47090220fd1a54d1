"""A table of attention weights: a row per word written, a column per word read, each
cell as bright as its weight (on the fixed scale 0 to 1), the weight written in it when
the cell is wide enough to hold it.

Unlike alignment_map.AlignmentMap (the attention chapter's heat map, states over its
columns), the written and read words are its only labels, so it can stand small beside
another table, and its diagonal can be drawn over it.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    DashedVMobject,
    FadeIn,
    LaggedStart,
    Rectangle,
    VGroup,
)

from scenes import style
from scenes.base import align_baselines, words
from scenes.lines import text_height, text_width
from scenes.numbers import decimal

LABEL_BUFF = 0.18  # between the labels and the cells (scene units)
NUMBER_PAD = (0.16, 0.2)  # a written weight leaves this much of its cell clear: across, up
DARK_ON = 0.55  # on a cell at least this bright, its weight is written dark


def label_height(size: int) -> float:
    """The height of a line of labels at ``size`` (scene units)."""
    return text_height("Thp", size)


def staggered(columns: Sequence[str], cell_width: float, size: int) -> bool:
    """Whether the column labels take two alternating lines: a word is wider than its
    cell."""
    return max(text_width(w, size) for w in columns) > cell_width - 0.06


def head_height(columns: Sequence[str], cell_width: float, size: int) -> float:
    """How far the column labels reach over the cells, gap included (scene units)."""
    lines = 2 if staggered(columns, cell_width, size) else 1
    return lines * (label_height(size) + 0.08) + LABEL_BUFF


def side_width(rows: Sequence[str], size: int) -> float:
    """How far the row labels reach left of the cells, gap included (scene units)."""
    return max(text_width(w, size) for w in rows) + LABEL_BUFF


class WeightTable(VGroup):
    """``weights[i][j]``: how much written word i (``rows``, down the left) gives read
    word j (``columns``, over the cells). Cells are ``cell_width`` by ``cell_height``
    scene units; labels ``label_size``, in ``row_color`` and ``column_color``; with
    ``number_size``, each weight is written in its cell (two decimals)."""

    def __init__(self, weights: Sequence[Sequence[float]], rows: Sequence[str],
                 columns: Sequence[str], cell_width: float, cell_height: float, *,
                 label_size: int, number_size: int | None = None,
                 row_color=style.WRITER, column_color=style.READER) -> None:
        super().__init__()
        self.weights = [list(row) for row in weights]
        self.cell_width, self.cell_height = cell_width, cell_height
        self.label_size, self.number_size = label_size, number_size
        self.colors = {"row_color": row_color, "column_color": column_color}
        self.cells = VGroup()
        self.numbers = VGroup()
        for i, row in enumerate(self.weights):
            line = VGroup()
            for j, w in enumerate(row):
                cell = Rectangle(width=cell_width, height=cell_height,
                                 stroke_color=style.FAINT, stroke_width=1.5)
                cell.set_fill(style.WEIGHT, opacity=min(max(w, 0.0), 1.0))
                line.add(cell.move_to(RIGHT * j * cell_width + DOWN * i * cell_height))
            self.cells.add(line)
            if number_size is not None:
                self.numbers.add(VGroup(*(
                    words(decimal(w), number_size,
                          style.BACKGROUND if w >= DARK_ON else style.INK).move_to(cell)
                    for w, cell in zip(row, line))))
        half_x = text_height("x", label_size) / 2
        self.row_labels = VGroup()
        for i, text in enumerate(rows):
            label = words(text, label_size, row_color)
            label.next_to(self.cells[i][0], LEFT, buff=LABEL_BUFF)
            # the lower-case letters centred on the row, whatever hangs below the line
            align_baselines([label], self.cells[i][0].get_y() - half_x)
            self.row_labels.add(label)
        self.column_labels = VGroup(*(words(text, label_size, column_color)
                                      .set_x(self.cells[0][j].get_x())
                                      for j, text in enumerate(columns)))
        align_baselines(self.column_labels, 0.0)
        self.column_labels.shift(UP * (self.cells.get_top()[1] + LABEL_BUFF
                                       - self.column_labels.get_bottom()[1]))
        if staggered(columns, cell_width, label_size):
            for label in self.column_labels[1::2]:
                label.shift(UP * (label_height(label_size) + 0.08))
        self.add(self.cells, self.numbers, self.row_labels, self.column_labels)

    @classmethod
    def fit(cls, weights: Sequence[Sequence[float]], rows: Sequence[str],
            columns: Sequence[str], width: float, height: float, *,
            label_sizes: Sequence[int], number_sizes: Sequence[int] = (),
            largest: float = 1.5, **kwargs) -> WeightTable:
        """The table with the largest cells (at most ``largest`` wide, no taller than
        wide nor wider than 1.6 times tall) whose labels and cells fit ``width`` by
        ``height`` scene units: its labels at the first of ``label_sizes`` that sets the
        column labels on one line (else the last), its weights written at the first of
        ``number_sizes`` whose numbers fit the cells, or not at all."""
        for label_size in label_sizes:
            cell_w, cell_h = cls.cell_size(rows, columns, width, height, label_size, largest)
            if not staggered(columns, cell_w, label_size):
                break
        number = next((size for size in number_sizes
                       if text_width("0.00", size) + NUMBER_PAD[0] <= cell_w
                       and label_height(size) + NUMBER_PAD[1] <= cell_h), None)
        return cls(weights, rows, columns, cell_w, cell_h, label_size=label_size,
                   number_size=number, **kwargs)

    @staticmethod
    def cell_size(rows: Sequence[str], columns: Sequence[str], width: float, height: float,
                  label_size: int, largest: float) -> tuple[float, float]:
        """(width, height) of the largest cells :meth:`fit` allows at ``label_size``."""
        def tallest(cell_w: float) -> float:
            return min(cell_w, (height - head_height(columns, cell_w, label_size)) / len(rows))

        cell_w = min(largest, (width - side_width(rows, label_size)) / len(columns))
        cell_w = min(cell_w, 1.6 * tallest(cell_w))
        # narrower cells may stagger the column labels onto two lines: the rows give way
        return cell_w, tallest(cell_w)

    def like(self, weights: Sequence[Sequence[float]], rows: Sequence[str],
             columns: Sequence[str]) -> WeightTable:
        """Another table drawn as this one is (cells, labels, colours, written weights),
        centred where this one's cells are."""
        other = type(self)(weights, rows, columns, self.cell_width, self.cell_height,
                           label_size=self.label_size, number_size=self.number_size,
                           **self.colors)
        return other.shift(self.cells.get_center() - other.cells.get_center())

    # ------------------------------------------------------------ accessors
    def get_cells(self) -> VGroup:
        return self.cells

    def get_cell(self, i: int, j: int) -> Rectangle:
        return self.cells[i][j]

    def get_row(self, i: int) -> VGroup:
        """Row ``i``'s cells and their written weights."""
        return VGroup(self.cells[i], *([self.numbers[i]] if len(self.numbers) else []))

    def get_numbers(self) -> VGroup:
        """The written weights, a group per row (empty when the cells are too small)."""
        return self.numbers

    def get_row_labels(self) -> VGroup:
        return self.row_labels

    def get_column_labels(self) -> VGroup:
        return self.column_labels

    def get_labels(self) -> VGroup:
        return VGroup(self.row_labels, self.column_labels)

    def make_diagonal(self) -> VGroup:
        """Dashed outlines of the cells on the diagonal (row k, column k): where a
        word-for-word translation's bright cells stand."""
        return VGroup(*(DashedVMobject(Rectangle(width=self.cell_width,
                                                 height=self.cell_height,
                                                 color=style.INK, stroke_width=4),
                                       num_dashes=16).move_to(self.cells[k][k])
                        for k in range(min(len(self.cells), len(self.cells[0])))))

    # ----------------------------------------------------------- animations
    def make_fill_animation(self, lag_ratio: float = 0.3) -> LaggedStart:
        """The labels, then the rows one after another from the top."""
        return LaggedStart(FadeIn(self.get_labels()),
                           *(FadeIn(self.get_row(i), shift=RIGHT * 0.1)
                             for i in range(len(self.cells))), lag_ratio=lag_ratio)


__all__ = ["WeightTable", "head_height", "side_width", "staggered"]
