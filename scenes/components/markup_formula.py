"""Formulas without TeX: Pango markup for the symbols, a Line for a fraction bar."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Line, MarkupText, VGroup

from scenes import style
from scenes.base import drawn_characters, markup


def glyphs(formula: MarkupText, fragment: str, occurrence: int = 0) -> VGroup:
    """The glyphs of ``formula`` that draw ``fragment`` (written without spaces or tags).

    A MarkupText has one glyph per drawn character, so the fragment's place in
    the drawn characters is its place among the glyphs.
    """
    drawn = drawn_characters(formula)
    start = -1
    for _ in range(occurrence + 1):
        start = drawn.index(fragment, start + 1)
    return VGroup(*formula.submobjects[start:start + len(fragment)])


def on_line(formula: MarkupText, fragment: str, y: float) -> MarkupText:
    """Shift ``formula`` so the bottom of ``fragment`` (letters that sit on the line) is at y."""
    formula.shift(UP * (y - glyphs(formula, fragment).get_bottom()[1]))
    return formula


class MarkupFraction(VGroup):
    """A numerator over a bar over a denominator, both Pango markup at ``size``; ``gap``
    between each and the bar, ``overhang`` of the bar past the wider (scene units)."""

    def __init__(self, numerator: str, denominator: str, size: int, color=style.INK,
                 gap: float = 0.2, overhang: float = 0.12) -> None:
        super().__init__()
        self.numerator = markup(numerator, size, color)
        self.denominator = markup(denominator, size, color)
        width = max(self.numerator.width, self.denominator.width) + 2 * overhang
        self.bar = Line(LEFT * width / 2, RIGHT * width / 2, color=color, stroke_width=3)
        self.numerator.next_to(self.bar, UP, buff=gap)
        self.denominator.next_to(self.bar, DOWN, buff=gap)
        self.add(self.numerator, self.bar, self.denominator)

    def get_numerator(self) -> MarkupText:
        return self.numerator

    def get_denominator(self) -> MarkupText:
        return self.denominator

    def get_bar(self) -> Line:
        return self.bar


__all__ = ["MarkupFraction", "glyphs", "on_line"]
