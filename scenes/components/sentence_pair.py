"""A sentence over its translation: the English words on one line, the French words on
the line under it, each word centred in a column of its own, and a link from each French
word up to the English word it reads. A link that leaves its own column (a word read out
of order) is drawn in the weight colour, the others muted.

Also where the pair goes in a frame (:func:`pair_rows`), so a scene that opens with the
English line, where the scene before left it, builds it in the same place
(:func:`word_line`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manim import DOWN, UP, Create, Line, VGroup

from scenes import style
from scenes.base import baseline, words
from scenes.frame import Frame
from scenes.lines import text_width

#: the share of the room's height, from its bottom, that the pair takes (the question
#: takes the rest, above it)
PAIR_SHARE = 0.5
#: the widest a word may be, as a share of its column
WORD_SHARE = 0.9


def columns(left: float, right: float, count: int) -> list[float]:
    """The middles of ``count`` equal columns between ``left`` and ``right`` (scene x)."""
    pitch = (right - left) / count
    return [left + pitch * (i + 0.5) for i in range(count)]


def size_for(items: Sequence[str], width: float, sizes: Sequence[int]) -> int:
    """The first of ``sizes`` (largest first) at which every one of ``items`` is at most
    ``width`` wide (scene units); the last if none is."""
    return next((s for s in sizes if max(text_width(w, s) for w in items) <= width),
                sizes[-1])


@dataclass(frozen=True)
class PairRows:
    """Where the pair's lines go (scene units): the columns' middles, the baselines of the
    English and the French line, and the type size of both."""

    xs: list[float]
    english: float
    french: float
    size: int


def pair_rows(frame: Frame, source: Sequence[str], target: Sequence[str]) -> PairRows:
    """The pair ``source`` over ``target`` (as many words each) in the lower part of
    ``frame``'s room, across its whole width, the lines as far apart as the part allows,
    at the largest of the frame's heading, body and label sizes at which every word fits
    its column."""
    left, right, bottom, top = frame.area()
    kind = frame.type
    column = WORD_SHARE * (right - left) / len(source)
    size = size_for((*source, *target), column, (kind.heading, kind.body, kind.label))
    probe = words("Thd", size)  # the height of a line's ascenders above its baseline
    part_top = bottom + PAIR_SHARE * (top - bottom)
    descent = 0.3 * probe.height
    return PairRows(xs=columns(left, right, len(source)), english=part_top - probe.height,
                    french=bottom + descent, size=size)


def word_line(items: Sequence[str], xs: Sequence[float], y: float, size: int,
              color=style.INK) -> VGroup:
    """Words, each its own text, centred on ``xs``, their baselines on ``y``."""
    line = VGroup()
    for item, x in zip(items, xs):
        word = words(item, size, color)
        word.set_x(x).shift(UP * (y - baseline(word)))
        line.add(word)
    return line


class SentencePair(VGroup):
    """The English line over the French line, laid out by :func:`pair_rows`, with a link
    from each French word to the English word it ``reads`` (its index in ``source``);
    ``crossing`` marks the links that leave their column. Index: ``english``,
    ``french``, ``links``."""

    def __init__(self, source: Sequence[str], target: Sequence[str], reads: Sequence[int],
                 crossing: Sequence[bool], rows: PairRows) -> None:
        super().__init__()
        self.english = word_line(source, rows.xs, rows.english, rows.size, style.INK)
        self.french = word_line(target, rows.xs, rows.french, rows.size, style.WRITER)
        self.links = VGroup()
        clear = 0.15
        for word, read, crosses in zip(self.french, reads, crossing):
            start = word.get_top() + UP * clear
            end = self.english[read].get_bottom() + DOWN * clear
            end[1] = self.english.get_bottom()[1] - clear
            self.links.add(Line(start, end, stroke_width=6 if crosses else 4,
                                color=style.WEIGHT if crosses else style.MUTED))
        self.add(self.english, self.french, self.links)

    def get_english(self) -> VGroup:
        return self.english

    def get_french(self) -> VGroup:
        return self.french

    def get_links(self) -> VGroup:
        return self.links

    def make_links_animation(self) -> list:
        """Each link drawn up from its French word, all at once."""
        return [Create(link) for link in self.links]


__all__ = ["PAIR_SHARE", "WORD_SHARE", "PairRows", "SentencePair", "columns", "pair_rows",
           "size_for", "word_line"]
