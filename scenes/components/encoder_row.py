"""The RNN encoder unrolled over a sentence: a column per word, the word at the bottom, an
arrow up into the cell (the same cell, with the same weights W, in every column), an arrow
up to the hidden state it leaves (a strip of cells, standing), and an arrow from each cell
to the next carrying that state on.

Also the bars of how much of each word read so far a state holds (:class:`HoldBars`),
and the row of hidden states with their words under them that the encoder leaves
(:class:`StateRow`, placed by :func:`state_row`), which the next scene opens with.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Rectangle,
    RoundedRectangle,
    VGroup,
)

from scenes import style
from scenes.base import words
from scenes.components.sentence_pair import WORD_SHARE, columns, size_for, word_line
from scenes.components.state_strip import StateStrip
from scenes.frame import Frame

#: the cell's name: the same weights in every column
WEIGHTS = "W"


def arrow(start, end, color, width: float = 3) -> Arrow:
    """A thin arrow from ``start`` to ``end`` (scene points), its tip in proportion."""
    return Arrow(start, end, buff=0.0, color=color, stroke_width=width,
                 max_tip_length_to_length_ratio=0.3, max_stroke_width_to_length_ratio=20)


def cell_box(width: float, height: float, size: int, color=style.READER,
             name: str = WEIGHTS) -> VGroup:
    """The recurrent cell: a rounded box (scene units) with its weights' ``name`` in it
    at ``size`` (none if empty)."""
    frame = RoundedRectangle(corner_radius=min(0.15, height / 4), width=width, height=height,
                             color=color, stroke_width=3).set_fill(color, opacity=0.15)
    return VGroup(frame, *([words(name, size, color).move_to(frame)] if name else []))


class EncoderRow(VGroup):
    """The unrolled encoder over ``source``, a column centred on each of ``xs``: the words'
    baselines at ``word_y``; the cells ``box`` (width, height) ``reach`` above the words;
    the hidden states (``states``, one strip of ``cell``-sized squares each) ``reach``
    above the cells. Scene units; words at ``size``, the cells' name at ``label_size``.
    Index: ``words``, ``word_arrows``, ``boxes``, ``start_arrow``, ``state_arrows``
    (from cell i to cell i + 1), ``out_arrows``, ``strips``."""

    def __init__(self, states: Sequence[Sequence[float]], source: Sequence[str],
                 xs: Sequence[float], word_y: float, *, size: int, label_size: int,
                 cell: float, box: tuple[float, float], reach: float) -> None:
        super().__init__()
        self.words = word_line(source, xs, word_y, size, style.INK)
        low = self.words.get_top()[1] + reach
        self.boxes = VGroup(*(cell_box(*box, label_size).move_to([x, low + box[1] / 2, 0])
                              for x in xs))
        self.word_arrows = VGroup(*(
            arrow([x, w.get_top()[1] + 0.08, 0], b.get_bottom(), style.MUTED)
            for x, w, b in zip(xs, self.words, self.boxes)))
        first = self.boxes[0].get_left()
        pitch = xs[1] - xs[0] if len(xs) > 1 else 2 * box[0]
        self.start_arrow = arrow(first + LEFT * 0.45 * (pitch - box[0]), first, style.FAINT)
        self.state_arrows = VGroup(*(arrow(a.get_right(), b.get_left(), style.READER)
                                     for a, b in zip(self.boxes, self.boxes[1:])))
        self.strips = VGroup()
        self.out_arrows = VGroup()
        for values, b in zip(states, self.boxes):
            strip = StateStrip(values, style.READER, cell=cell, down=True)
            strip.move_to(b.get_top() + UP * (reach + strip.height / 2))
            self.strips.add(strip)
            self.out_arrows.add(arrow(b.get_top(), strip.get_bottom(), style.READER))
        self.add(self.words, self.word_arrows, self.boxes, self.start_arrow,
                 self.state_arrows, self.out_arrows, self.strips)

    def get_words(self) -> VGroup:
        return self.words

    def get_boxes(self) -> VGroup:
        return self.boxes

    def get_strips(self) -> VGroup:
        return self.strips

    def get_step(self, i: int) -> VGroup:
        """What step ``i`` adds: the arrow in from the state before, the word's arrow, the
        cell, the arrow out and the state it leaves."""
        before = self.start_arrow if i == 0 else self.state_arrows[i - 1]
        return VGroup(before, self.word_arrows[i], self.boxes[i], self.out_arrows[i],
                      self.strips[i])

    def get_wiring(self) -> VGroup:
        """Everything but the words and the states: the cells and the arrows."""
        return VGroup(self.word_arrows, self.boxes, self.start_arrow, self.state_arrows,
                      self.out_arrows)


class HoldBars(VGroup):
    """How much of each word read so far one state holds (``shares``, fractions of the
    state's length, oldest word first): a bar per word standing on ``base`` (a scene
    point, the bars' bottom middle), ``height`` tall at a share of one; the newest word's
    bar in the encoder's colour and its ``text`` (already formatted) over the bars at
    ``size``, the older words' bars muted. Index: ``bars``, ``text``."""

    def __init__(self, shares: Sequence[float], text: str, base, *, width: float,
                 height: float, size: int) -> None:
        super().__init__()
        gap = 0.25 * width
        self.bars = VGroup()
        for i, share in enumerate(shares):
            newest = i == len(shares) - 1
            bar = Rectangle(width=width, height=max(share * height, 0.02), stroke_width=0)
            bar.set_fill(style.READER if newest else style.MUTED, opacity=0.9)
            self.bars.add(bar)
        self.bars.arrange(RIGHT, buff=gap, aligned_edge=DOWN)
        self.bars.move_to(base, aligned_edge=DOWN)
        self.text = words(text, size, style.READER)
        self.text.next_to(self.bars, UP, buff=0.08)
        self.text.set_y(base[1] + height + 0.08 + self.text.height / 2)
        self.add(self.bars, self.text)

    def get_bars(self) -> VGroup:
        return self.bars

    def get_text(self):
        return self.text


class StateRow(VGroup):
    """The encoder's hidden states side by side, one standing strip of ``cell``-sized
    squares per word, each word under its state at ``size``; centred on ``xs``, the
    strips' bottom at y = 0 (place the row afterwards). Index: ``strips``, ``words``."""

    def __init__(self, states: Sequence[Sequence[float]], source: Sequence[str],
                 xs: Sequence[float], *, cell: float, size: int) -> None:
        super().__init__()
        self.strips = VGroup(*(StateStrip(v, style.READER, cell=cell, down=True)
                               .move_to([x, 0, 0], aligned_edge=DOWN)
                               for v, x in zip(states, xs)))
        self.words = word_line(source, xs, 0.0, size, style.INK)
        self.words.shift(UP * (-style.GAP - self.words.get_top()[1]))
        self.add(self.strips, self.words)

    def get_strips(self) -> VGroup:
        return self.strips

    def get_words(self) -> VGroup:
        return self.words


def state_row(frame: Frame, states: Sequence[Sequence[float]],
              source: Sequence[str]) -> StateRow:
    """The row of hidden states as the encoder leaves it: across the room's width, the
    strips' squares as large as two thirds of its height allow (and at most a third of a
    column), in the middle of the room."""
    left, right, bottom, top = frame.area()
    xs = columns(left, right, len(source))
    pitch = (right - left) / len(source)
    cell = min(0.5, (2 / 3) * (top - bottom) / len(states[0]), pitch / 3)
    size = size_for(source, WORD_SHARE * pitch,
                    (frame.type.heading, frame.type.body, frame.type.label))
    row = StateRow(states, source, xs, cell=cell, size=size)
    return row.shift(UP * (frame.centre()[1] - row.get_y()))


__all__ = ["WEIGHTS", "EncoderRow", "HoldBars", "StateRow", "arrow", "cell_box",
           "state_row"]
