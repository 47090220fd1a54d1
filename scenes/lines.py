"""Text set in lines: broken where the lines come out most even, wrapped to a width,
centred one under another. Every scene that sets more than one line uses these.

A piece is what may not be broken: a word, or in Pango markup a tag with what it
encloses (:func:`breakable`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from manim import ORIGIN, Mobject, VGroup

from scenes import style
from scenes.base import markup, measured, stack_lines, words


def breakable(text: str) -> list[str]:
    """The pieces of ``text`` (plain or Pango markup), split at spaces outside its tags:
    a tag and what it encloses stay in one piece, so every piece is markup of its own."""
    pieces: list[str] = []
    for word in text.split(" "):
        if pieces and _open(pieces[-1]):
            pieces[-1] += " " + word
        else:
            pieces.append(word)
    return [p for p in pieces if p]


def _open(piece: str) -> bool:
    """Inside a tag, or between a tag and its end."""
    if piece.count("<") != piece.count(">"):
        return True
    return len(re.findall(r"<[^/][^>]*>", piece)) > len(re.findall(r"</[^>]*>", piece))


@lru_cache(maxsize=4096)
def _width(piece: str, size: int, rich: bool) -> float:
    return markup(piece, size).width if rich else measured(piece, size).width


def text_width(text: str, size: int, *, rich: bool = False) -> float:
    """How wide ``text`` is set at ``size`` (scene units)."""
    return _width(text, size, rich)


def text_height(text: str, size: int) -> float:
    """How tall ``text`` is set at ``size`` (scene units), ascenders to descenders."""
    return measured(text, size).height


def balanced_lines(text: str | list[str], size: int, width: float, *, rich: bool = False,
                   sep: str = " ") -> list[str]:
    """``text`` (or its pieces) on as few lines as fit ``width`` (scene units) at ``size``,
    broken where the longest line comes out shortest, so no word is left alone on the
    last line. A piece wider than ``width`` gets a line of its own."""
    pieces = breakable(text) if isinstance(text, str) else list(text)
    if len(pieces) <= 1:
        return [sep.join(pieces)]
    widths = [_width(p, size, rich) for p in pieces]
    gap = _width(f"x{sep}x", size, rich) - 2 * _width("x", size, rich)

    def longest(bounds: tuple[int, ...]) -> float:
        return max(sum(widths[a:b]) + gap * (b - a - 1) for a, b in zip(bounds, bounds[1:]))

    best = (0, len(pieces))
    for count in range(1, len(pieces) + 1):
        best = min(((0, *inner, len(pieces))
                    for inner in itertools.combinations(range(1, len(pieces)), count - 1)),
                   key=longest)
        if longest(best) <= width:
            break
    return [sep.join(pieces[a:b]) for a, b in zip(best, best[1:])]


def two_lines(text: str) -> list[str]:
    """``text`` broken at the space nearest its middle (a narrow label)."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return [text]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return [text[:cut], text[cut + 1:]]


def centred_lines(lines: list[str] | tuple[str, ...], size: int, color=style.INK, *,
                  rich: bool = False, step: float | None = None) -> VGroup:
    """Lines of text (``rich``: Pango markup), each centred under the one before, their
    baselines ``step`` apart (by default in proportion to ``size``); the first baseline
    is at y = 0 (place the group afterwards)."""
    make = markup if rich else words
    return stack_lines([make(line, size, color) for line in lines],
                       size / 60 if step is None else step, aligned_edge=ORIGIN)


def wrapped(text: str, size: int, width: float, color=style.INK, *, rich: bool = False,
            step: float | None = None) -> VGroup:
    """``text`` set at ``size`` on as many balanced, centred lines as ``width`` needs."""
    return centred_lines(balanced_lines(text, size, width, rich=rich), size, color,
                         rich=rich, step=step)


def largest_that_fits(make: Callable[[int], Mobject], sizes: Iterable[int],
                      room: tuple[float, float]) -> Mobject:
    """``make(size)`` at the first of ``sizes`` (a type scale's, largest first) at which
    it fits ``room`` (width, height); the last size if none does. Text is set at a size
    of the scale, never scaled down to fit."""
    made = None
    for size in sizes:
        made = make(size)
        if made.width <= room[0] + 1e-6 and made.height <= room[1] + 1e-6:
            break
    return made


__all__ = ["balanced_lines", "breakable", "centred_lines", "largest_that_fits", "text_width",
           "two_lines", "wrapped"]
