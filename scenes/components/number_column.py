"""A short line of numbers in boxes: what one word asks for, or what it offers."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, FadeIn, LaggedStart, Rectangle, VGroup

from scenes.base import words


class NumberColumn(VGroup):
    """Boxes in a line, each holding one already formatted number at ``size``.

    The boxes (``box_width`` by ``box_height``, their centres ``row_step`` apart, all
    in scene units) run top to bottom (a column) unless ``direction`` says otherwise
    (``RIGHT`` lays them out as a row). The scene formats the numbers (it never
    computes them) and picks their size from its frame's type scale; the column only
    draws them, in one role colour (style.QUERY for asks, style.KEY for offers).
    """

    def __init__(self, texts: Sequence[str], color, size: int, box_width: float,
                 box_height: float, row_step: float, fill_opacity: float = 0.12,
                 direction=DOWN) -> None:
        super().__init__()
        self.boxes = VGroup()
        self.numbers = VGroup()
        for i, text in enumerate(texts):
            box = Rectangle(width=box_width, height=box_height, color=color,
                            stroke_width=2).set_fill(color, opacity=fill_opacity)
            box.shift(direction * row_step * i)
            number = words(text, size, color).move_to(box)
            self.boxes.add(box)
            self.numbers.add(number)
        self.add(self.boxes, self.numbers)

    def get_boxes(self) -> VGroup:
        return self.boxes

    def get_numbers(self) -> VGroup:
        return self.numbers

    def get_row(self, i: int) -> VGroup:
        """The box and the number of row ``i``."""
        return VGroup(self.boxes[i], self.numbers[i])

    def make_fill_animation(self, lag_ratio: float = 0.25) -> LaggedStart:
        """Boxes and numbers appear one after another, in order."""
        return LaggedStart(*(FadeIn(self.get_row(i), shift=DOWN * 0.1)
                             for i in range(len(self.boxes))), lag_ratio=lag_ratio)

