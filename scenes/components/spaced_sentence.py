"""A sentence spread across the frame: each word centred on a column of its own, the
columns as wide as each other, all the words on one baseline.

What stands under a word (a state, a bar, a link) stands on its column, and the words
can trade columns (:meth:`SpacedSentence.make_reorder_animation`). Two scenes that set
the same sentence with :meth:`SpacedSentence.along_top` in the same frame set it in the
same place, so one can hand it to the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, UP, AnimationGroup, VGroup

from scenes import style
from scenes.base import align_baselines, words
from scenes.frame import Frame
from scenes.lines import text_width

WIDEST_COLUMN = 3.2  # a column is at most this wide (scene units): the words stay a sentence
CLEAR = 0.3  # the least room left between two neighbouring words (scene units)


def column_centres(middle: float, width: float, count: int) -> list[float]:
    """The x of the centres of ``count`` equal columns ``width`` wide in all, centred on
    ``middle`` (scene units)."""
    pitch = width / count
    return [middle + (k - (count - 1) / 2) * pitch for k in range(count)]


class SpacedSentence(VGroup):
    """``texts`` at ``size`` in ``color``, word k centred on ``xs[k]``, the baseline at
    ``y``. Index the group by word."""

    def __init__(self, texts: Sequence[str], size: int, color, xs: Sequence[float],
                 y: float) -> None:
        super().__init__(*(words(t, size, color).set_x(x) for t, x in zip(texts, xs)))
        self.texts, self.size, self.xs = list(texts), size, list(xs)
        align_baselines(self, y)

    @classmethod
    def along_top(cls, frame: Frame, texts: Sequence[str], color=style.READER,
                  *, drop: float = 0.0) -> SpacedSentence:
        """Across the frame's room, its words' tops ``drop`` under the room's top: the
        columns as wide as the room allows (at most WIDEST_COLUMN), the words at the
        largest of the frame's body, label and minimum sizes that leaves CLEAR between
        neighbours."""
        left, right, _, top = frame.area()
        width = min(right - left, WIDEST_COLUMN * len(texts))
        pitch = width / len(texts)
        kind = frame.type
        size = next((s for s in (kind.body, kind.label, kind.minimum)
                     if max(text_width(t, s) for t in texts) + CLEAR <= pitch), kind.minimum)
        xs = column_centres(frame.centre()[0], width, len(texts))
        made = cls(texts, size, color, xs, 0.0)
        made.shift(UP * (top - drop - made.get_top()[1]))
        return made

    def get_word(self, k: int):
        return self[k]

    def get_column_x(self, k: int) -> float:
        """The x of column ``k``'s centre (where word k stood when set)."""
        return self.xs[k]

    def get_pitch(self) -> float:
        """The width of one column (scene units)."""
        return self.xs[1] - self.xs[0] if len(self.xs) > 1 else WIDEST_COLUMN

    def make_reorder_animation(self, order: Sequence[int], *, along: Sequence = ()
                               ) -> AnimationGroup:
        """Word ``order[k]`` moves to column k (with ``along[order[k]]``, what stands on
        its column); the group keeps its words in their first order."""
        moves = []
        for k, i in enumerate(order):
            shift = self.xs[k] - self[i].get_x()
            moves.append(self[i].animate.shift(shift * RIGHT))
            if along:
                moves.append(along[i].animate.shift(shift * RIGHT))
        return AnimationGroup(*moves)


__all__ = ["CLEAR", "WIDEST_COLUMN", "SpacedSentence", "column_centres"]
