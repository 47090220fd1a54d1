"""The hand trace's columns: how wide they stand across the area, what names its rows
take, and where a row's figures stand in them (:class:`TraceTable`).

Where the room is wider than tall the rows are named in a column at the left (with short
names when the long ones leave the columns too narrow); where it is taller than wide
each name stands on a line of its own above its values. A row of figures too wide for
its columns (a sharpness far past the lesson's) takes two lines: every other figure on
the second, then also a power of ten's mantissa over its power (:data:`WAYS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from production.language import _
from scenes.components.spotlight import stacked_halves
from scenes.components.spotlight_shot import (
    APART,
    GAP,
    HIDDEN,
    MAX_COLUMN,
    SpotlightShot,
    split_power,
    tenths,
    widest,
)
from scenes.core_words import spotlight_features as features
from scenes.lines import text_width
from scenes.numbers import setting, short, whole_percent

#: how a row of the hand trace may stand, in the order tried: on one line; on two, each
#: power of ten's mantissa over its power; on two, every other figure on the second
#: (either half first). See :class:`Fit`.
WAYS = (("line", 0), ("split", 0), ("stagger", 0), ("stagger", 1))


def spread(centres: Sequence[float], widths: Sequence[float], low: float,
           high: float) -> tuple[list[float], bool]:
    """Where texts ``widths`` wide, wanted in this order at ``centres``, stand on one line:
    each as near its centre as its neighbours let it, :data:`APART` from them, all
    between ``low`` and ``high`` (scene units); and whether they can (if not, they
    stand from ``low`` on, past ``high``).

    The nearest such places (least squares) are the nearest non-decreasing sequence to
    the centres less the room the texts before each take, held within the bounds."""
    if not widths:
        return [], True
    room = [0.0]
    for a, b in zip(widths, widths[1:]):
        room.append(room[-1] + (a + b) / 2 + APART)
    least, most = low + widths[0] / 2, high - widths[-1] / 2 - room[-1]
    if least > most + 1e-9:
        return [least + before for before in room], False
    blocks: list[list[float]] = []  # [sum, count] of pooled neighbours
    for centre, before in zip(centres, room):
        blocks.append([centre - before, 1])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] > blocks[-1][0] * blocks[-2][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    pooled = [min(max(total / count, least), most) for total, count in blocks
              for _ in range(int(count))]
    return [q + before for q, before in zip(pooled, room)], True


@dataclass(frozen=True)
class Table:
    """How the hand trace stands across the area (scene units): its ``count`` word
    columns from ``start``, each ``column`` wide, then the totals' column; its figures
    at ``size``; the rows' ``names`` (score, sharpened, exponential, share, blend) in a
    column at the left when ``beside``, else each on a line over its values; the labels
    and the legend on one line or ``stacked`` as column vectors."""

    start: float
    column: float
    totals: float
    beside: bool
    names: tuple[str, ...]
    labels_stacked: bool
    legend_stacked: bool
    count: int
    size: int

    def x(self, slot: int) -> float:
        """The middle of word column ``slot``, or of the totals' column (slot ``count``)."""
        if slot < self.count:
            return self.start + (slot + 0.5) * self.column
        return self.start + self.count * self.column + self.totals / 2


@dataclass(frozen=True)
class Fit:
    """How a row of the hand trace stands (one of :data:`WAYS`): on one ``line``; with
    a power of ten ``split``, its mantissa over its power; or ``stagger``ed, the figures
    whose column's parity is ``first`` on the first line with the row's name and the
    others on a second. Each line's figures stand as near their columns as they can."""

    way: str = "line"
    first: int = 0
    lines: int = 1


@dataclass(frozen=True)
class Cell:
    """Where one text of a row stands: its column (``slot``), its middle ``x``, the line
    it starts on (0 or 1) and its ``parts`` (a line each) at ``size``."""

    slot: int
    x: float
    line: int
    parts: tuple[str, ...]
    size: int


class TraceTable(SpotlightShot):
    """A spotlight shot that measures the hand trace's columns and fits its rows to them."""

    def table(self, labels: Sequence[str], size: int) -> Table:
        """The hand trace's columns across the area, measured with its figures at
        ``size`` and its names at the frame's label size.

        Across a room wider than tall the rows are named in a column at the left: the
        long names if the word columns then still hold every value and label (on one
        line, or stacked), else the short ones. In a room taller than wide each name
        stands over its row, and the columns take the whole width. The totals' column
        holds the exponentials' total on one line if the columns still hold every value;
        else only as wide as its mantissa or power.
        """
        n, s = self.numbers, self.sizes
        left, right = self.area()[:2]
        count = len(labels)
        times = f"× {setting(n['sharpness'])}"
        long = (_("score"), _("sharpen {times}").format(times=times), _("exponential"),
                _("share"), _("blend"))
        brief = (_("score"), times, "e\u02e3", _("share"), _("blend"))
        values = [*(short(x) for x in n["scores"]), *(short(x) for x in n["sharpened"]),
                  *(tenths(x) for x in n["exponentials"]),
                  *(whole_percent(p) for p in n["shares_percent"])]
        cell = widest(values, size) + APART
        total, rounded = tenths(n["total"]), whole_percent(n["rounded_total_percent"])

        def totals(split: bool) -> float:
            figures = [*(split_power(total) if split else [total]), rounded]
            return max(widest(figures, size), text_width(_("total"), s.label)) + APART

        one, two = widest(labels, size), widest(
            [t for label in labels for t in stacked_halves(label)], size)
        legend_one = text_width("[" + ", ".join(features()) + "]", s.label)
        legend_two = widest(features(), s.label)
        if not self.frame().across:  # names over their rows; the legend in the totals' column
            for split in (False, True):
                column_total = max(totals(split), legend_two + GAP)
                column = (right - left - column_total) / count
                if cell <= column:
                    break
            return Table(left, column, column_total, False, long, one + APART > column, True,
                         count, size)
        choices = [(names, legend_stacked, labels_stacked)
                   for names in (long, brief) for legend_stacked in (False, True)
                   for labels_stacked in (False, True)]
        for split in (False, True):
            column_total = totals(split)
            for names, legend_stacked, labels_stacked in choices:
                side = max(widest(names, s.label), legend_two if legend_stacked else legend_one)
                start = left + side + APART
                column = min((right - start - column_total) / count, MAX_COLUMN)
                if max(cell, (two if labels_stacked else one) + APART) <= column:
                    return Table(start, column, column_total, True, names, labels_stacked,
                                 legend_stacked, count, size)
        # no columns hold every value in its own: the narrowest names, and the rows'
        # figures stand as near their columns as they can
        return Table(start, column, column_total, True, names, labels_stacked,
                     legend_stacked, count, size)

    def place(self, table: Table, texts: Sequence[str | None],
              fit: Fit) -> tuple[list[Cell], bool]:
        """Where a row's texts stand, as ``fit`` says: on each line, each as near its
        column as its neighbours let it, inside the area (and right of the names'
        column, on the line a name stands on); and whether they can."""
        left, right = self.area()[:2]
        cells = []
        for slot, text in enumerate(texts):
            if text is None:
                continue
            parts = split_power(text) if fit.way == "split" else [text]
            line = 1 if fit.way == "stagger" and slot % 2 != fit.first else 0
            size = self.sizes.minimum if text == _(HIDDEN) else table.size
            cells.append(Cell(slot, table.x(slot), line, tuple(parts), size))
        clear = True
        for line in (0, 1):
            on = [c for c in cells if c.line == line]
            low = table.start if table.beside and line == 0 else left
            xs, fits = spread([c.x for c in on], [widest(c.parts, c.size) for c in on],
                              low, right)
            clear = clear and fits
            for cell, x in zip(on, xs):
                cells[cells.index(cell)] = Cell(cell.slot, x, cell.line, cell.parts, cell.size)
        return cells, clear

    def fit_row(self, table: Table, texts: Sequence[str | None]) -> Fit | None:
        """The first of :data:`WAYS` the row's texts stand clear in, and on how many lines
        (None if in none)."""
        for way, first in WAYS:
            cells, clear = self.place(table, texts, Fit(way, first))
            if clear:
                return Fit(way, first, max(c.line + len(c.parts) for c in cells))
        return None
