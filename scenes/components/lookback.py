"""The look-back grid: a row per reader, a column per word, and in each cell the share the
reader pours from that word, for the words it may see (itself and those before it); the
cells of the words after it are empty outlines.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, UP, Rectangle, Text, VGroup

from scenes import style
from scenes.base import align_baselines, baseline, words
from scenes.numbers import percent


def look_cell(cell: Rectangle, share: float, seen: bool, size: int, written: bool = True):
    """A cell of the look-back grid: shaded, with its percent if ``written``, for a word
    the reader sees; an empty outline for a word after it."""
    if seen:
        cell.set_stroke(width=0).set_fill(style.WEIGHT, 0.06 + 0.42 * share)
        if not written:
            return (cell,)
        return cell, words(percent(share, small=True), size).move_to(cell)
    return (cell.set_stroke(style.FAINT, 1.5),)


class LookbackGrid(VGroup):
    """The grid of ``shares`` (a row per reader), its columns centred on ``xs`` and
    ``pitch`` apart, its first row's top at ``top``, rows ``step`` apart; with
    ``reader_right`` (an x), each row's reader named right-aligned there. The shares are
    written in the rows ``numbered`` (indices; by default every row), the other rows show
    them by their shade alone."""

    def __init__(self, shares: Sequence[Sequence[float]], sentence: Sequence[str],
                 xs: Sequence[float], pitch: float, top: float, step: float, *, size: int,
                 reader_right: float | None = None,
                 numbered: Sequence[int] | None = None) -> None:
        super().__init__()
        self.rows, self.readers = VGroup(), VGroup()
        for i, row_shares in enumerate(shares):
            y = top - step * (i + 0.5)
            row = VGroup()
            for j, (x, share) in enumerate(zip(xs, row_shares)):
                cell = Rectangle(width=pitch - 0.08, height=step - 0.07).move_to((x, y, 0))
                row.add(*look_cell(cell, share, j <= i, size,
                                   numbered is None or i in numbered))
            texts = [m for m in row if isinstance(m, Text)]
            if texts:
                align_baselines(texts)
            if reader_right is None:
                reader = VGroup()
            else:
                reader = words(sentence[i], size, style.MUTED)
                reader.move_to((reader_right, 0, 0), aligned_edge=RIGHT)
                reader.shift(UP * (baseline(texts[0]) - baseline(reader)) if texts
                             else UP * (y - reader.get_y()))
            self.rows.add(row)
            self.readers.add(reader)
        self.add(self.rows, self.readers)

    def get_rows(self) -> VGroup:
        return self.rows

    def get_readers(self) -> VGroup:
        """Each row's reader (an empty group when the readers are not named)."""
        return self.readers


__all__ = ["LookbackGrid", "look_cell"]
