"""A shelf of bottles, one per word: each with its name, its tag, and a slot for a number
(how well its tag matches, then how much is poured from it).

It stands in columns when a column per word fits the width given (a number over a bottle
over its name over its tag, the names of the rows at the left), otherwise in rows (a
number, a bottle, its name and its tag on one line, the names of the columns above).
Sizes come from the room and the type sizes given; nothing here knows the frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Mobject, Text, VGroup

from production.language import _
from scenes import style
from scenes.base import align_baselines, baseline, words
from scenes.components.bottle import Bottle, Tag
from scenes.components.spacing import closest
from scenes.lines import text_height, text_width, two_lines
from scenes.numbers import percent

#: a bottle's own proportions (scene units before scaling): as wide as it is tall, less
BOTTLE_WIDTH, BOTTLE_HEIGHT = 0.8, 1.06
#: gaps round a column's parts, and between the parts of a row (scene units)
PAD = 0.15


#: a close-up's bottle may be this share of a column's width (a working shelf's, 0.75)
CLOSE_SHARE = 0.85
#: the tallest a close-up's row may be (scene units)
CLOSE_STEP = 1.1


def shelf_bottle(height: float) -> Bottle:
    """A bottle of the shelf, ``height`` scene units tall, full of its potion."""
    return Bottle(height=0.82, neck_height=0.24).scale(height / BOTTLE_HEIGHT)


class Shelf(VGroup):
    """Bottles with names and tags for ``sentence``, in ``room`` (left, right, bottom,
    top; the shelf stands at its top).

    ``leading`` are the tags' texts; ``numbers`` every text the number slots will hold
    and ``number_names`` the names of that slot (so both fit); ``label``, ``number`` and
    ``small`` are type sizes (names and tags, numbers, the smallest allowed).
    ``bottle_room`` is how tall a bottle standing in a column may be.
    """

    def __init__(self, sentence: Sequence[str], leading: Sequence[str],
                 numbers: Sequence[str], number_names: Sequence[str],
                 room: tuple[float, float, float, float], *, label: int, number: int,
                 small: int, bottle_room: float) -> None:
        super().__init__()
        self.left, self.right, self.bottom_edge, self.top = room
        self.count = len(sentence)
        heads = (*two_lines(_("potion (value)")), *two_lines(_("tag (key)")), *number_names)
        header = max(text_width(h, label) for h in heads) + 0.25
        self.pitch = (self.right - self.left - header) / self.count
        wanted = max(max(text_width(w, label) for w in sentence),
                     max(text_width(t, number) for t in numbers),
                     max(text_width(line, small) for t in leading for line in two_lines(t)))
        self.columns = wanted + PAD <= self.pitch
        if self.columns:
            self._in_columns(sentence, leading, label, number, small, header, bottle_room)
        else:
            self._in_rows(sentence, leading, numbers, number_names, label, number, small)
        self.add(self.bottles, self.names, self.tags, self.potion_name, self.tag_name)

    # ------------------------------------------------------------- columns
    def _in_columns(self, sentence, leading, label, number, small, header, bottle_room):
        tag_size = small if any(text_width(line, label) + 0.25 > self.pitch
                                for t in leading for line in two_lines(t)) else label
        self.size = label
        self.number_size = number
        first = self.left + header
        self.xs = [first + self.pitch * (i + 0.5) for i in range(self.count)]
        self.number_y = self.top - text_height(percent(0.0), number)  # the numbers' baseline
        height = min(bottle_room, 0.75 * self.pitch * BOTTLE_HEIGHT / BOTTLE_WIDTH)
        self.bottles = VGroup(*(shelf_bottle(height).move_to((x, 0, 0)) for x in self.xs))
        self.bottles.set_y(self.number_y - 0.2, UP)
        self.names = VGroup(*(words(w, label) for w in sentence))
        for name, bottle in zip(self.names, self.bottles):
            name.next_to(bottle, DOWN, buff=PAD)
        align_baselines(self.names)
        self.tags = VGroup(*(Tag(two_lines(t), size=tag_size, width=self.pitch - 0.15)
                             .set_x(x) for t, x in zip(leading, self.xs)))
        self.tags.next_to(self.names, DOWN, buff=PAD).set_x(self.bottles.get_x())
        self.potion_name = self._row_name(two_lines(_("potion (value)")), style.VALUE, label)
        self.potion_name.set_y(self.bottles.get_y())
        self.tag_name = self._row_name(two_lines(_("tag (key)")), style.KEY, label)
        self.tag_name.set_y(self.tags.get_y())

    def _row_name(self, lines, color, size) -> VGroup:
        return VGroup(*(words(line, size, color) for line in lines)).arrange(
            DOWN, buff=0.08, aligned_edge=LEFT).set_x(self.left, LEFT)

    # ------------------------------------------------------------- rows
    def _in_rows(self, sentence, leading, numbers, number_names, label, number, small):
        for size, figure in ((label, number), (small, small)):
            names = [words(w, size) for w in sentence]
            number_w = max(text_width(t, figure) for t in (*numbers, *number_names))
            tag_w = max(text_width(t, size) for t in leading) + 0.3
            name_w = max(n.width for n in names)
            bottle_h = text_height("Hg", size) * 1.1
            bottle_w = bottle_h * BOTTLE_WIDTH / BOTTLE_HEIGHT
            total = number_w + bottle_w + name_w + tag_w + 3 * PAD
            if total <= self.right - self.left:
                break
        self.size, self.number_size = size, figure
        self.number_right = self.left + number_w  # the rows start at the room's left
        bottle_x = self.number_right + PAD + bottle_w / 2
        self.name_left = bottle_x + bottle_w / 2 + PAD
        self.name_right = self.name_left + name_w
        tag_left = self.name_right + PAD
        tag_h = text_height("Hg", size) + 0.06
        # the names of the columns share one line over the rows
        self.potion_name = words(_("potion (value)"), size, style.VALUE)
        self.potion_name.set_y(self.top, UP).set_x(bottle_x - bottle_w / 2, LEFT)
        self.tag_name = words(_("tag (key)"), size, style.KEY)
        self.tag_name.set_x(max(tag_left, self.potion_name.get_right()[0] + 0.3), LEFT)
        align_baselines([self.potion_name, self.tag_name])
        # a bottle and a tag's card are centred on the middle of the lower-case letters
        self.middle = text_height("x", size) / 2
        self.step = max(closest(names), tag_h + 0.04)
        first = self.potion_name.get_bottom()[1] - PAD - tag_h / 2 - self.middle
        self.ys = [first - self.step * i for i in range(self.count)]
        self.bottles = VGroup(*(shelf_bottle(bottle_h).move_to((bottle_x, y + self.middle, 0))
                                for y in self.ys))
        self.names = VGroup(*names)
        self.tags = VGroup()
        for y, name, text in zip(self.ys, self.names, leading):
            name.move_to((self.name_left, 0, 0), aligned_edge=LEFT)
            name.shift(UP * (y - baseline(name)))
            tag = Tag([text], size=size, width=tag_w, height=tag_h)
            label_ = tag.get_label()  # on the row's baseline, whatever hangs below it
            label_.shift(UP * (tag.get_card().get_y() - self.middle - baseline(label_[0])))
            self.tags.add(tag.move_to((tag_left, y + self.middle, 0), aligned_edge=LEFT))

    # ------------------------------------------------------------- slots
    def number(self, text: Text, i: int) -> Text:
        """``text`` (a number) in the slot of word ``i``: over its bottle, or left of it."""
        if self.columns:
            text.move_to((self.xs[i], 0, 0))
            return text.shift(UP * (self.number_y - baseline(text)))
        text.move_to((self.number_right, 0, 0), aligned_edge=RIGHT)
        return text.shift(UP * (self.ys[i] - baseline(text)))

    def number_name(self, text: Text) -> Text:
        """``text`` names the number slots: at the left of their row, or over their column."""
        if self.columns:
            text.set_x(self.left, LEFT)
            return text.shift(UP * (self.number_y - baseline(text)))
        text.set_x(max(self.left, self.number_right - text.width), LEFT)
        align_baselines([self.potion_name, text])
        return text

    def moved(self, parts: Sequence[Mobject], i: int, j: int) -> list[np.ndarray]:
        """The centres of ``parts`` (word ``i``'s bottle, name, ...) moved to word ``j``'s
        place on the shelf."""
        if self.columns:
            return [m.get_center() + RIGHT * (self.xs[j] - self.xs[i]) for m in parts]
        return [m.get_center() + UP * (self.ys[j] - self.ys[i]) for m in parts]

    def parts(self) -> list[Mobject]:
        """Every part a viewer sees before the numbers come: each bottle, each name, each
        tag, then the names of the rows (or columns)."""
        return [*self.bottles, *self.names, *self.tags, self.potion_name, self.tag_name]

    def close_up(self, room: tuple[float, float, float, float]) -> list[Mobject]:
        """Copies of :meth:`parts` for a close-up: the bottles as large as their column
        (or ``room``'s height, in rows) allows, names and tags at their own sizes beside or
        under them, the whole in the middle of ``room``; no slot for numbers."""
        left, right, bottom, top = room
        close = self.copy()
        bottles, names, tags = close.bottles, close.names, close.tags
        if self.columns:
            height = min(CLOSE_SHARE * self.pitch * BOTTLE_HEIGHT / BOTTLE_WIDTH,
                         top - bottom - (self.bottles.get_bottom()[1] - self.shelf_bottom()))
            old_bottom = bottles.get_bottom()[1]
            for b in bottles:
                b.scale_to_fit_height(height).align_to(bottles[0], UP)
            VGroup(names, tags, close.tag_name).shift(UP * (bottles.get_bottom()[1]
                                                            - old_bottom))
            close.potion_name.set_y(bottles.get_y())
        else:
            head = self.potion_name.get_bottom()[1] - PAD
            step = max(self.step, min(CLOSE_STEP, (head - bottom) / self.count))
            height = max(self.bottles[0].height, 0.8 * step)
            wider = (height - self.bottles[0].height) * BOTTLE_WIDTH / BOTTLE_HEIGHT
            for i, (b, name, tag) in enumerate(zip(bottles, names, tags)):
                rise = (self.ys[0] - self.ys[i]) - step * i  # the row moves down by -rise
                b.scale_to_fit_height(height).shift(UP * rise)
                b.align_to(self.bottles[i], LEFT)
                VGroup(name, tag).shift(UP * rise + RIGHT * wider)
            close.tag_name.shift(RIGHT * wider)
        parts = close.parts()
        VGroup(*parts).move_to(((left + right) / 2, (bottom + top) / 2, 0))
        return parts

    def shelf_bottom(self, with_tags: bool = True) -> float:
        """The lowest y of the shelf (with or without its tags)."""
        parts = VGroup(self.bottles, self.names, *((self.tags,) if with_tags else ()))
        return float(parts.get_bottom()[1])


__all__ = ["Shelf", "shelf_bottle"]
