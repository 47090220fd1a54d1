"""Text set in lines: broken where the lines come out most even, wrapped to a width,
centred one under another. Every scene that sets more than one line uses these.

A piece is what may not be broken: a word, or in Pango markup a tag with what it
encloses (:func:`breakable`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from manim import ORIGIN, Mobject, VGroup

from scenes import style
from scenes.base import building, markup, measured, stack_lines, words


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
    last line (:func:`line_breaks`). When a piece is wider than ``width``, no break fits
    and every piece gets a line of its own; in a scene being built, a piece that would be
    wider than ``width`` even at its frame's smallest size is refused
    (:meth:`scenes.base.ChapterScene.refuse_text`)."""
    pieces = breakable(text) if isinstance(text, str) else list(text)
    if len(pieces) <= 1:
        whole = sep.join(pieces)
        if building() is not None and whole and _width(whole, size, rich) > width:
            _fits_at_smallest(whole, whole, width, rich)
        return [whole]
    widths = [_width(p, size, rich) for p in pieces]
    gap = _width(f"x{sep}x", size, rich) - 2 * _width("x", size, rich)
    bounds = line_breaks(widths, gap, width)
    if bounds is None:
        for piece, piece_width in zip(pieces, widths):
            if piece_width > width:
                _fits_at_smallest(piece, sep.join(pieces), width, rich)
        bounds = list(range(len(pieces) + 1))
    return [sep.join(pieces[a:b]) for a, b in zip(bounds, bounds[1:])]


def line_breaks(widths: list[float], gap: float, width: float) -> list[int] | None:
    """Where to break pieces ``widths`` wide (scene units), set ``gap`` apart, into lines
    no wider than ``width``: the bounds ``[0, ..., len(widths)]`` of the fewest lines that
    fit and, of those, of the lines whose longest is shortest; where several breaks tie,
    the one that breaks earliest. None when a piece alone is wider than ``width``.

    A line from piece ``a`` up to ``b`` is ``sum(widths[a:b]) + gap * (b - a - 1)`` wide,
    summed in order, so ties fall as the search over every combination of breaks found
    them. A dynamic program over break points (as Knuth and Plass break paragraphs): the
    fewest lines from each piece to the end, then the shortest longest line from each
    piece in each number of lines, then, line by line, the earliest break that keeps the
    best longest line;
    O(lines · n · pieces per line) steps rather than one per combination of breaks."""
    count = len(widths)
    growing = gap >= 0 and min(widths, default=0) >= 0  # a longer line is wider
    # every line that fits, as (where it ends, how wide), by where it starts
    fitting: list[list[tuple[int, float]]] = []
    for a in range(count):
        ends, run = [], 0
        for b in range(a + 1, count + 1):
            run += widths[b - 1]
            line = run + gap * (b - a - 1)
            if line <= width:
                ends.append((b, line))
            elif growing:  # and so is every longer one
                break
        fitting.append(ends)
    fewest = [0] * (count + 1)  # lines that fit from piece a to the end (count + 1: none)
    for a in reversed(range(count)):
        fewest[a] = 1 + min((fewest[b] for b, _ in fitting[a]), default=count)
    lines = fewest[0]
    if lines > count:
        return None
    # shortest[j][a]: the shortest longest line of pieces a.. in j lines that fit (inf: none)
    shortest = [[math.inf] * count + [-math.inf]]
    for j in range(1, lines + 1):
        shortest.append([min((max(line, shortest[j - 1][b]) for b, line in fitting[a]),
                             default=math.inf) for a in range(count)] + [math.inf])
    # the earliest break from which the rest can still keep every line within the best
    best, bounds = shortest[lines][0], [0]
    for j in range(lines, 0, -1):
        bounds.append(next(b for b, line in fitting[bounds[-1]]
                           if max(line, shortest[j - 1][b]) <= best))
    return bounds


def _fits_at_smallest(piece: str, text: str, width: float, rich: bool) -> None:
    """Refuse ``piece`` of ``text`` when, in a scene being built, it is wider than
    ``width`` (scene units) even at the smallest size of the scene's frame."""
    scene = building()
    smallest = scene.frame().type.minimum if scene is not None else None
    if smallest is not None and _width(piece, smallest, rich) > width:
        raise scene.refuse_text(piece, text, _width(piece, smallest, rich), width, smallest)


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


__all__ = ["balanced_lines", "breakable", "centred_lines", "largest_that_fits", "line_breaks",
           "text_width", "two_lines", "wrapped"]
