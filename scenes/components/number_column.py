"""A short line of numbers in boxes: what one word asks for, or what it offers."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, FadeIn, LaggedStart, Rectangle, VGroup

from scenes import style
from scenes.base import words

#: a box's width and height, so "-0.25" fits at BODY size (scene units)
BOX_WIDTH = 1.4
BOX_HEIGHT = style.CELL + 0.2
#: from the centre of one box to the next (scene units)
ROW_STEP = 0.9


class NumberColumn(VGroup):
    """Boxes in a line, each holding one already formatted number.

    The boxes run top to bottom (a column) unless ``direction`` says otherwise
    (``RIGHT`` lays them out as a row). The scene formats the numbers (it never
    computes them); the column only draws them, in one role colour (style.QUERY
    for asks, style.KEY for offers). Sizes are in scene units.
    """

    def __init__(self, texts: Sequence[str], color=style.INK, size: int = style.BODY,
                 box_width: float = BOX_WIDTH, row_step: float = ROW_STEP,
                 fill_opacity: float = 0.12, direction=DOWN,
                 box_height: float = BOX_HEIGHT) -> None:
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
