"""The classic decoder unrolled: a column per French word, a copy of the one context
vector at the bottom (a small lying strip) feeding the cell over it, an arrow from each
cell to the next carrying the decoder's state on, and over each cell the word it wrote,
with the word it should have written above that."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, UP, VGroup

from scenes import style
from scenes.components.encoder_row import arrow, cell_box
from scenes.components.sentence_pair import word_line
from scenes.components.state_strip import StateStrip


class UnrolledDecoder(VGroup):
    """The decoder over ``len(written)`` columns centred on ``xs``; the small strips of
    ``context`` (squares ``mini`` a side) lie with their bottom at y = 0, the cells
    (``box``: width, height) ``reach`` above them, the written words ``reach`` above
    the cells, and the words it should have written (``target``) over those. A written
    word is in the colour of a right word where ``right`` says so, else of a wrong one.
    Scene units; words at ``size``. Index: ``contexts``, ``in_arrows``, ``boxes``,
    ``state_arrows``, ``out_arrows``, ``written``, ``target``."""

    def __init__(self, context: Sequence[float], written: Sequence[str],
                 target: Sequence[str], right: Sequence[bool], xs: Sequence[float], *,
                 size: int, box: tuple[float, float], reach: float, mini: float) -> None:
        super().__init__()
        self.contexts = VGroup(*(StateStrip(context, style.READER, cell=mini)
                                 .move_to([x, 0, 0], aligned_edge=DOWN) for x in xs))
        low = self.contexts.get_top()[1] + reach
        self.boxes = VGroup(*(cell_box(*box, size, style.WRITER, name="")
                              .move_to([x, low + box[1] / 2, 0]) for x in xs))
        self.in_arrows = VGroup(*(arrow(c.get_top(), b.get_bottom(), style.READER)
                                  for c, b in zip(self.contexts, self.boxes)))
        self.state_arrows = VGroup(*(arrow(a.get_right(), b.get_left(), style.WRITER)
                                     for a, b in zip(self.boxes, self.boxes[1:])))
        base = self.boxes.get_top()[1] + reach
        self.written = word_line(written, xs, 0.0, size, style.INK)
        self.written.shift(UP * (base - self.written.get_bottom()[1]))
        for word, ok in zip(self.written, right):
            word.set_color(style.GOOD if ok else style.BAD)
        self.out_arrows = VGroup(*(arrow(b.get_top(), [b.get_x(), base - 0.08, 0], style.WRITER)
                                   for b in self.boxes))
        self.target = word_line(target, xs, 0.0, size, style.MUTED)
        self.target.shift(UP * (self.written.get_top()[1] + 0.3 * self.written.height
                                - self.target.get_bottom()[1]))
        self.add(self.contexts, self.in_arrows, self.boxes, self.state_arrows,
                 self.out_arrows, self.written, self.target)

    def get_step(self, i: int) -> tuple:
        """What step ``i`` draws before it writes: its copy of the context, its arrows (up
        from the copy, in from the step before, none at the first, and up out of it) and
        its cell."""
        arrows = [self.in_arrows[i], self.out_arrows[i]]
        if i > 0:
            arrows.insert(1, self.state_arrows[i - 1])
        return self.contexts[i], arrows, self.boxes[i]

    def get_written(self) -> VGroup:
        return self.written

    def get_target(self) -> VGroup:
        return self.target


__all__ = ["UnrolledDecoder"]
