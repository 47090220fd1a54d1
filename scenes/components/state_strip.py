"""A hidden state drawn as a strip: one square cell per number, filled brighter the
further the number is from zero (in ``color`` above zero, grey below), with the numbers
themselves under the cells when they are to be read."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, RIGHT, Square, VGroup, interpolate_color

from scenes import style
from scenes.base import words
from scenes.numbers import decimal


def cell_fill(value: float, color) -> object:
    """The fill of a cell holding ``value`` (in [-1, 1]: a tanh)."""
    strength = min(abs(value), 1.0)
    return interpolate_color(style.BACKGROUND, color if value >= 0 else style.MUTED,
                             0.15 + 0.85 * strength)


class StateStrip(VGroup):
    """Cells in a row (or a column with ``down``), ``cell`` scene units a side; with
    ``number_size`` each value is written under (beside) its cell. Index: ``cells``,
    ``numbers`` (empty without ``number_size``)."""

    def __init__(self, values: Sequence[float], color, *, cell: float = style.CELL,
                 number_size: int | None = None, down: bool = False) -> None:
        super().__init__()
        self.values = list(values)
        self.cells = VGroup(*(Square(cell, stroke_color=style.FAINT, stroke_width=2)
                              .set_fill(cell_fill(v, color), opacity=1.0)
                              for v in self.values))
        self.cells.arrange(DOWN if down else RIGHT, buff=0)
        self.numbers = VGroup()
        if number_size is not None:
            for v, square in zip(self.values, self.cells):
                text = words(decimal(v), number_size, style.MUTED)
                if down:
                    text.next_to(square, RIGHT, buff=0.12)
                else:
                    text.next_to(square, DOWN, buff=0.12)
                self.numbers.add(text)
        self.add(self.cells, self.numbers)

    def get_cells(self) -> VGroup:
        return self.cells

    def get_numbers(self) -> VGroup:
        return self.numbers


__all__ = ["StateStrip", "cell_fill"]
