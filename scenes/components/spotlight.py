"""The spotlight with a budget: a lamp over the asking word, soft beams of light
to every word, and the light's shares as bars that always stack to the whole.

Two pieces, both laid out on the same word columns:

- ``SpotlightStage``: the words in evenly spaced columns, an optional row of
  labels under them, a lamp over the asking word and one soft cone of light
  from the lamp to each word, as bright as that word's share.
- ``ShareBars``: under each word an empty track of the full budget and a bar of
  that word's share in it; at the right a budget column where the shares stack
  up, so their total is always the whole track. Where there is no room beside
  the bars (a frame taller than wide), the budget can lie as a bar below them instead.

Texts that change (percent labels, the lamp's caption) are never animated in
place: ``make_*_labels`` methods return fresh texts that the scene fades in
while it fades the old ones out, so what is on screen is always what a text
says it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Circle,
    Dot,
    Polygon,
    Rectangle,
    Text,
    Transform,
    VGroup,
    VMobject,
)

from production.language import separator
from scenes import style
from scenes.base import align_baselines, baseline, word_row, words

#: width of one word column (scene units)
COLUMN = 1.9
#: the brightest a beam gets (fill opacity of one layer at a share of 1)
BEAM_OPACITY = 0.42
#: a lit word's beam is at least this bright, so a small share still shows
BEAM_FLOOR = 0.05
#: a bar this thin or thinner is drawn as nothing (scene units)
NO_BAR = 1e-3
#: thickness of the budget bar when it lies below the bars (scene units)
BUDGET_THICKNESS = 0.45


def stacked_halves(text: str) -> list[str]:
    """A pair such as '[0.2, 0.1]' as the two lines of a column vector: '[0.2' and
    '0.1]' (a column's rows need no comma between them)."""
    return text.split(separator(), 1)


def stacked_pair(text: str, size: int, color) -> VGroup:
    """A pair such as '[0.2, 0.1]' as a column vector: '[0.2' over '0.1]', each line
    centred, so a narrow column can hold it; the baselines a line of ``size`` apart."""
    lines = VGroup(*(words(half, size, color) for half in stacked_halves(text)))
    lines[1].shift(UP * (baseline(lines[0]) - size / 60 - baseline(lines[1])))
    lines[1].set_x(lines[0].get_x())
    return lines


def caption_parts(phrase: str, slots: Mapping[str, tuple[str, object]],
                  color=style.MUTED) -> list[tuple[str, object]]:
    """The (text, colour) parts of a lamp's caption (:meth:`SpotlightStage.make_caption`)
    from ``phrase``, a whole phrase in the active language with named slots ('{word}
    asks'): each slot the (text, colour) ``slots`` gives it, each other word a part of
    its own in ``color``, in the phrase's order."""
    parts: list[tuple[str, object]] = []
    for piece in re.split(r"(\{\w+\})", phrase):
        if piece[1:-1] in slots and piece.startswith("{") and piece.endswith("}"):
            parts.append(slots[piece[1:-1]])
        else:
            parts.extend((word, color) for word in piece.split())
    return parts


def align_first_baselines(groups: Sequence[VGroup]) -> None:
    """Move groups of lines up or down so their first lines share the first group's baseline."""
    target = baseline(groups[0][0])
    for group in groups:
        group.shift(UP * (target - baseline(group[0])))


class SpotlightStage(VGroup):
    """Words in columns, their labels, a lamp over the asker and a beam to each word.

    ``labels`` are already formatted texts (one per word) or None for no label
    row; with ``stacked`` each label is a column vector on two lines (for narrow
    columns). ``rise`` is how far above the words the lamp hangs and ``column`` the
    width of a word's column (scene units); ``word_size`` and ``label_size`` are font
    sizes, which the scene takes from its frame's type scale.
    """

    def __init__(self, names: Sequence[str], asker: int, *, word_size: int,
                 labels: Sequence[str] | None = None, label_size: int = 0,
                 shares: Sequence[float] | None = None, rise: float = 1.7,
                 column: float = COLUMN, stacked: bool = False) -> None:
        super().__init__()
        self.column = column
        self.rise = rise
        self.cells = VGroup(*(
            Rectangle(width=column, height=0.01, stroke_opacity=0, fill_opacity=0)
            for _ in names
        )).arrange(RIGHT, buff=0)
        self.words = word_row(names, word_size)
        for word, cell in zip(self.words, self.cells):
            word.set_x(cell.get_x())
        self.labels = VGroup()
        if labels is not None:
            make = stacked_pair if stacked else words
            self.labels = VGroup(*(make(text, label_size, style.KEY) for text in labels))
            self.labels.next_to(self.words, DOWN, buff=0.25)
            (align_first_baselines if stacked else align_baselines)(self.labels)
            for label, cell in zip(self.labels, self.cells):
                label.set_x(cell.get_x())
        self.lamp = self._make_lamp().move_to(self.lamp_point(asker))
        self.asker = asker
        self.beams = self.make_beams(shares if shares is not None else [0.0] * len(names))
        self.add(self.cells, self.beams, self.words, self.labels, self.lamp)

    # ------------------------------------------------------------- geometry
    def column_x(self, i: int) -> float:
        """The x of the middle of word column ``i``."""
        return float(self.cells[i].get_x())

    def words_top(self) -> float:
        return float(self.words.get_top()[1])

    def lamp_point(self, asker: int):
        return (self.column_x(asker), self.words_top() + self.rise, 0)

    @staticmethod
    def _make_lamp() -> VGroup:
        glow = Circle(radius=0.3, stroke_width=0).set_fill(style.WEIGHT, opacity=0.18)
        bulb = Dot(radius=0.12, color=style.WEIGHT)
        return VGroup(glow, bulb)

    # ------------------------------------------------------------- accessors
    def get_cells(self) -> VGroup:
        return self.cells

    def get_words(self) -> VGroup:
        return self.words

    def get_word(self, i: int) -> Text:
        return self.words[i]

    def get_labels(self) -> VGroup:
        return self.labels

    def get_lamp(self) -> VGroup:
        return self.lamp

    def get_beams(self) -> VGroup:
        return self.beams

    # ------------------------------------------------------------- pictures
    def make_beams(self, shares: Sequence[float], asker: int | None = None) -> VGroup:
        """One soft cone per word from the lamp (over ``asker``) to the word's top.

        A cone is two layers, a wide faint one and a narrow one inside it, so
        its middle is brighter than its edges. A share of zero draws nothing.
        """
        apex = self.lamp_point(self.asker if asker is None else asker)
        top = self.words_top() + 0.08
        beams = VGroup()
        for i, share in enumerate(shares):
            x = self.column_x(i)
            opacity = 0.0 if share <= 0 else BEAM_FLOOR + BEAM_OPACITY * share
            cone = VGroup()
            for spread in (0.42, 0.22):
                half = spread * self.column
                layer = Polygon(apex, (x - half, top, 0), (x + half, top, 0), stroke_width=0)
                cone.add(layer.set_fill(style.WEIGHT, opacity=opacity))
            beams.add(cone)
        return beams

    def make_caption(self, parts: Sequence[tuple[str, object]], asker: int | None = None, *,
                     size: int, wrap: int | None = None,
                     bounds: tuple[float, float] | None = None) -> VGroup:
        """A caption beside the lamp, on the side with more room: between the lamp and
        ``bounds`` (left, right; scene units) when given, else the side with more words.

        ``parts`` are (text, colour) pairs set on one baseline. With ``wrap`` the
        parts from that index on go on a second line, standing on the lamp's level,
        and the first line sits above it (so neither crosses the beams below the
        lamp, however flat); the lines are flush on the lamp's side.
        """
        asker = self.asker if asker is None else asker
        if bounds is None:
            side = RIGHT if asker < len(self.words) / 2 else LEFT
        else:
            x = self.column_x(asker)
            side = RIGHT if bounds[1] - x > x - bounds[0] else LEFT
        if wrap is None:
            caption = VGroup(*(words(text, size, color) for text, color in parts))
            caption.arrange(RIGHT, buff=0.18)
            align_baselines(caption)
            caption.next_to(self.lamp_point(asker), side, buff=0.45)
            return caption
        caption = VGroup()
        for line_parts in (parts[:wrap], parts[wrap:]):
            line = VGroup(*(words(text, size, color) for text, color in line_parts))
            line.arrange(RIGHT, buff=0.18)
            align_baselines(line)
            caption.add(line)
        caption[0].next_to(caption[1], UP, buff=0.12, aligned_edge=-side)
        caption.next_to(self.lamp_point(asker), side, buff=0.45)
        caption.shift(UP * (self.lamp_point(asker)[1] - caption[1].get_bottom()[1]))
        return caption

    # ------------------------------------------------------------- animations
    def make_light_animation(self, shares: Sequence[float], asker: int | None = None,
                             dimmed: Sequence[bool] | None = None) -> AnimationGroup:
        """The beams (and the lamp, if ``asker`` moves) change to a new set of shares.

        ``dimmed`` words (hidden from the asker) fade to a third of their
        brightness; the others come back to full.
        """
        if asker is not None:
            self.asker = asker
        anims = [Transform(self.beams, self.make_beams(shares)),
                 self.lamp.animate.move_to(self.lamp_point(self.asker))]
        if dimmed is not None:
            for word, dim in zip(self.words, dimmed):
                anims.append(word.animate.set_opacity(0.3 if dim else 1.0))
            for label, dim in zip(self.labels, dimmed):
                anims.append(label.animate.set_opacity(0.3 if dim else 1.0))
        return AnimationGroup(*anims)


class ShareBars(VGroup):
    """A track and a bar under each word column, and a budget column that stacks the bars.

    ``height`` is the height of a bar at a share of 1 (the whole budget),
    scene units. Place the group with ``to_edge``/``align_to`` vertically only,
    so the tracks stay under their words. The budget column stands one word
    column and ``apart`` further right of the last track; with ``below`` the
    budget is a bar lying under the tracks instead, as wide as they are, its
    label under it (for a frame taller than wide, with no room at the right).
    ``text_size`` is the font size of the budget's name, ``value_size`` that of the
    figures (the percents and the budget's value).
    """

    def __init__(self, stage: SpotlightStage, shares: Sequence[float] | None = None, *,
                 text_size: int, value_size: int, height: float = 2.6, width: float = 0.9,
                 apart: float = 0.5, below: bool = False) -> None:
        super().__init__()
        self.full = height
        self.bar_width = width
        self.below = below
        self.text_size = text_size
        self.value_size = value_size
        xs = [stage.column_x(i) for i in range(len(stage.get_words()))]
        self.tracks = VGroup(*(self._track().set_x(x) for x in xs))
        if below:
            self.total_track = Rectangle(width=self.tracks.width, height=BUDGET_THICKNESS,
                                         stroke_width=0).set_fill(style.FAINT, opacity=0.45)
            self.total_track.next_to(self.tracks, DOWN, buff=0.3)
        else:
            self.total_track = self._track().next_to(self.tracks, RIGHT,
                                                     buff=stage.column - width)
            self.total_track.shift(RIGHT * apart)
        shares = list(shares) if shares is not None else [0.0] * len(xs)
        self.bars = self.make_bars(shares)
        self.budget = self._budget_block()
        self.segments = self.make_segments(shares)
        self.add(self.tracks, self.total_track, self.bars, self.segments)

    def _track(self) -> Rectangle:
        track = Rectangle(width=self.bar_width, height=self.full, stroke_width=0)
        return track.set_fill(style.FAINT, opacity=0.45)

    def _bar(self, i: int, share: float) -> Rectangle:
        track = self.tracks[i]
        bar = Rectangle(width=self.bar_width, height=max(share * self.full, NO_BAR),
                        stroke_width=0)
        bar.set_fill(style.WEIGHT, opacity=0.85 if share > 0 else 0.0)
        return bar.move_to(track.get_bottom(), aligned_edge=DOWN)

    def _budget_block(self) -> Rectangle:
        if self.below:
            block = Rectangle(width=self.total_track.width, height=BUDGET_THICKNESS,
                              stroke_width=0)
        else:
            block = Rectangle(width=self.bar_width, height=self.full, stroke_width=0)
        return block.set_fill(style.WEIGHT, opacity=0.85).move_to(self.total_track)

    # ------------------------------------------------------------- accessors
    def get_tracks(self) -> VGroup:
        return self.tracks

    def get_total_track(self) -> Rectangle:
        return self.total_track

    def get_bars(self) -> VGroup:
        return self.bars

    def get_segments(self) -> VGroup:
        return self.segments

    def get_budget(self) -> Rectangle:
        """The whole budget as one block filling the budget column (not part of the group)."""
        return self.budget.move_to(self.total_track)

    def bar_top(self, i: int, share: float):
        """The point at the top of word ``i``'s bar for ``share``."""
        return self.tracks[i].get_bottom() + UP * share * self.full

    # ------------------------------------------------------------- pictures
    def make_bars(self, shares: Sequence[float]) -> VGroup:
        return VGroup(*(self._bar(i, s) for i, s in enumerate(shares)))

    def make_segments(self, shares: Sequence[float]) -> VGroup:
        """The shares stacked bottom to top in word order inside the budget column
        (left to right along the budget bar, when it lies below).

        Neighbouring pieces alternate in brightness and are parted by a thin
        dark line, so each word's piece can be told apart.
        """
        segments = VGroup()
        if self.below:
            floor, step, edge = self.total_track.get_left(), RIGHT * self.total_track.width, LEFT
        else:
            floor, step, edge = self.total_track.get_bottom(), UP * self.full, DOWN
        for i, share in enumerate(shares):
            if self.below:
                piece = Rectangle(width=max(share * self.total_track.width, NO_BAR),
                                  height=BUDGET_THICKNESS, stroke_width=1.5 if share > 0 else 0)
            else:
                piece = Rectangle(width=self.bar_width, height=max(share * self.full, NO_BAR),
                                  stroke_width=1.5 if share > 0 else 0)
            piece.set_stroke(style.BACKGROUND)
            piece.set_fill(style.WEIGHT, opacity=(0.85 if i % 2 == 0 else 0.55) if share > 0 else 0)
            piece.move_to(floor, aligned_edge=edge)
            floor = floor + step * share
            segments.add(piece)
        return segments

    def make_percent_labels(self, texts: Sequence[str], shares: Sequence[float],
                            colors: Sequence[object] | None = None,
                            sizes: Sequence[int] | None = None) -> VGroup:
        """Each word's formatted share, just above the top of its bar (each at its
        ``sizes``, by default the bars' ``value_size``)."""
        labels = VGroup()
        for i, (text, share) in enumerate(zip(texts, shares)):
            color = style.WEIGHT if colors is None else colors[i]
            label = words(text, self.value_size if sizes is None else sizes[i], color)
            labels.add(label.next_to(self.bar_top(i, share), UP, buff=0.12))
        return labels

    def make_total_label(self, name: str, value: str) -> VGroup:
        """Two lines over the budget column: a muted name, then the value (or, under
        a budget bar lying below, one line: the name, then the value)."""
        label = VGroup(words(name, self.text_size, style.MUTED),
                       words(value, self.value_size, style.WEIGHT))
        if self.below:
            label.arrange(RIGHT, buff=0.2)
            align_baselines(label)
            return label.next_to(self.total_track, DOWN, buff=0.15)
        label.arrange(DOWN, buff=0.12).next_to(self.total_track, UP, buff=0.15)
        return label

    # ------------------------------------------------------------- animations
    def make_shares_animation(self, shares: Sequence[float]) -> AnimationGroup:
        """Bars grow or shrink to ``shares``; the stacked pieces re-divide the budget column."""
        return AnimationGroup(Transform(self.bars, self.make_bars(shares)),
                              Transform(self.segments, self.make_segments(shares)))


class CheckBox(VGroup):
    """A small box with a caption; ``make_tick_animation`` draws the tick in it."""

    def __init__(self, lines: Sequence[str], ticked: bool = False, *, size: int) -> None:
        super().__init__()
        self.box = Rectangle(width=0.36, height=0.36, stroke_width=2).set_stroke(style.MUTED)
        self.caption = VGroup(*(words(line, size, style.INK) for line in lines))
        self.caption.arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        self.caption.next_to(self.box, RIGHT, buff=0.2, aligned_edge=UP)
        self.caption.shift(UP * 0.03)
        self.tick = VMobject(stroke_color=style.GOOD, stroke_width=5)
        size = self.box.width
        corner = self.box.get_corner(DOWN + LEFT)
        self.tick.set_points_as_corners([corner + (0.18 * size, 0.5 * size, 0),
                                         corner + (0.42 * size, 0.22 * size, 0),
                                         corner + (0.85 * size, 0.85 * size, 0)])
        self.tick.set_stroke(opacity=1.0 if ticked else 0.0)
        self.ticked = ticked
        self.add(self.box, self.caption, self.tick)

    def get_box(self) -> Rectangle:
        return self.box

    def get_caption(self) -> VGroup:
        return self.caption

    def make_tick_animation(self, ticked: bool = True):
        """The tick appears (or goes away)."""
        self.ticked = ticked
        return self.tick.animate.set_stroke(opacity=1.0 if ticked else 0.0)


__all__ = ["COLUMN", "CheckBox", "ShareBars", "SpotlightStage", "caption_parts",
           "stacked_halves"]
