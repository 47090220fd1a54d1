"""Formulas without TeX: Pango markup for the symbols, a Line for a fraction bar."""

from __future__ import annotations

import re

from manim import DOWN, LEFT, RIGHT, UP, Line, MarkupText, VGroup

from scenes import style
from scenes.base import baseline as text_baseline
from scenes.base import markup

_TAG = re.compile(r"<[^>]+>")
#: characters whose bottom is not on the baseline (they hang below it, or float above it)


def plain(text: str) -> str:
    """The characters a markup string draws, in order: tags and spaces left out."""
    return "".join(_TAG.sub("", text).split())


def glyphs(formula: MarkupText, fragment: str, occurrence: int = 0) -> VGroup:
    """The glyphs of ``formula`` that draw ``fragment`` (written without spaces or tags).

    A MarkupText has one glyph per drawn character, so the fragment's place in
    the plain text is its place among the glyphs.
    """
    drawn = plain(formula.original_text)
    start = -1
    for _ in range(occurrence + 1):
        start = drawn.index(fragment, start + 1)
    return VGroup(*formula.submobjects[start:start + len(fragment)])


def decimal_markup(x: float, places: int = 2, low: float = 0.01, high: float = 1e4) -> str:
    """``x`` as markup with ``places`` decimals ("3.67", never "-0.00").

    A number too large or too small to read that way (``abs(x)`` at least ``high``,
    or above zero and below ``low``) is written "2.87 × 10<sup>56</sup>" instead.
    Formatting only: the digits are the number's own.
    """
    if x == 0 or low <= abs(x) < high:
        text = f"{x:.{places}f}"
        return text.lstrip("-") if float(text) == 0 else text
    mantissa, exponent = f"{x:.{places}e}".split("e")
    return f"{mantissa} × 10<sup>{int(exponent)}</sup>".replace("-", "−")


def on_line(formula: MarkupText, fragment: str, y: float) -> MarkupText:
    """Shift ``formula`` so the bottom of ``fragment`` (letters that sit on the line) is at y."""
    formula.shift(UP * (y - glyphs(formula, fragment).get_bottom()[1]))
    return formula


class MarkupFraction(VGroup):
    """A numerator over a bar over a denominator, both Pango markup."""

    def __init__(self, numerator: str, denominator: str, size: int = style.HEADING,
                 color=style.INK, gap: float = 0.2, overhang: float = 0.12) -> None:
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


__all__ = ["MarkupFraction", "decimal_markup", "glyphs", "on_line", "plain", "text_baseline"]
