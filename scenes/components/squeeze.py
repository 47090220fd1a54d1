"""The squeeze: a row of numbers, the fixed room it must pass through, and a readout panel.

Every width here is drawn to scale: one position of a row and one number of
the room take the same ``unit`` (scene units), so a row of 60 is drawn one and
a half times as wide as a room of 40. The drawing's width says the compression.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    FadeIn,
    FadeOut,
    Line,
    Rectangle,
    VGroup,
)

from scenes import style
from scenes.base import align_baselines, baseline, drawn_characters, stack_lines, words

BAR_FILL = 0.9  # a bar or cell takes this share of its slot; the rest is a gap


def bar_row(values: Sequence[float], unit: float, height: float, color) -> VGroup:
    """One bar per number, up for positive and down for negative, on a shared baseline.

    ``unit`` is the width of one slot, ``height`` the length of a bar of size 1
    (scene units). The group's centre is the baseline's centre.
    """
    bars = VGroup()
    for i, v in enumerate(values):
        bar = Rectangle(width=unit * BAR_FILL, height=max(abs(v) * height, 0.01),
                        stroke_width=0, fill_color=color, fill_opacity=1.0)
        bar.move_to(RIGHT * (i + 0.5) * unit + UP * v * height / 2)
        bars.add(bar)
    base = Line(LEFT * 0.0, RIGHT * unit * len(values), color=style.FAINT, stroke_width=1.5)
    row = VGroup(base, bars)
    row.shift(-base.get_center())
    return row


def cell_row(n: int, unit: float, height: float, color=style.MUTED,
             opacities: Sequence[float] | None = None,
             colors: Sequence | None = None) -> VGroup:
    """``n`` side-by-side cells, ``unit`` wide each, centred on the origin."""
    cells = VGroup()
    for i in range(n):
        fill = colors[i] if colors is not None else color
        opacity = opacities[i] if opacities is not None else 0.85
        cell = Rectangle(width=unit * BAR_FILL, height=height, stroke_width=0,
                         fill_color=fill, fill_opacity=opacity)
        cell.move_to(RIGHT * (i + 0.5) * unit)
        cells.add(cell)
    cells.shift(LEFT * n * unit / 2)
    return cells


class Throat(VGroup):
    """The room: ``room`` slots side by side, each ``unit`` wide, in a frame."""

    def __init__(self, room: int, unit: float, height: float = 0.6) -> None:
        super().__init__()
        self.frame = Rectangle(width=room * unit, height=height, color=style.ROOM,
                               stroke_width=3)
        self.frame.set_fill(style.ROOM, opacity=0.12)
        self.slots = cell_row(room, unit, height * 0.7, style.ROOM,
                              opacities=[0.35] * room)
        self.add(self.frame, self.slots)

    def get_frame(self) -> Rectangle:
        return self.frame

    def get_slots(self) -> VGroup:
        return self.slots


def funnel(row_top_width: float, top_y: float, throat: Throat, row_bottom_width: float,
           bottom_y: float) -> VGroup:
    """Four guide lines: from the ends of the upper row into the throat and out to the lower row."""
    frame = throat.get_frame()
    x = frame.get_center()[0]
    kw = {"color": style.FAINT, "stroke_width": 2.5}
    return VGroup(
        Line([x - row_top_width / 2, top_y, 0], frame.get_corner(UP + LEFT), **kw),
        Line([x + row_top_width / 2, top_y, 0], frame.get_corner(UP + RIGHT), **kw),
        Line(frame.get_corner(DOWN + LEFT), [x - row_bottom_width / 2, bottom_y, 0], **kw),
        Line(frame.get_corner(DOWN + RIGHT), [x + row_bottom_width / 2, bottom_y, 0], **kw),
    )


def third_ticks(sizes: Sequence[int], unit: float, height: float) -> VGroup:
    """Short ticks where one third of a row ends and the next begins (centred on the origin)."""
    total = sum(sizes)
    ticks = VGroup()
    edge = 0
    for size in sizes[:-1]:
        edge += size
        x = (edge - total / 2) * unit
        ticks.add(Line([x, -height / 2, 0], [x, height / 2, 0], color=style.MUTED,
                       stroke_width=2))
    return ticks


def swap_changed(owner: VGroup, texts: dict | list, changes, make) -> list[Animation]:
    """Fades that swap every text of ``texts`` whose new text differs (none for the rest).

    ``changes`` are (key, new text) pairs; ``make(key, text)`` builds the new text in
    its place. ``owner`` (which holds the texts one by one) and ``texts`` hold the
    new texts from now on, so what is on screen is what they say.
    """
    anims = []
    for key, text in changes:
        old = texts[key]
        if old.original_text == text:
            continue
        new = make(key, text)
        owner.remove(old)
        owner.add(new)
        texts[key] = new
        anims += [FadeOut(old, shift=UP * 0.12), FadeIn(new, shift=UP * 0.12)]
    return anims


def last_baseline(text) -> float:
    """The y of the baseline of a text's last line: the bottom of its last letter or digit
    that sits on the line (the text's bottom if a ligature leaves glyphs and letters
    unpaired)."""
    glyphs, chars = text.submobjects, drawn_characters(text)
    if len(glyphs) == len(chars):
        for glyph, char in reversed(list(zip(glyphs, chars))):
            if char.isalnum() and char not in "gjpqyQ":
                return float(glyph.get_bottom()[1])
    return float(text.get_bottom()[1])


def centre_lines(text):
    """Centre each line of a text on the text's middle (Pango sets them flush left); a
    text whose glyphs and letters do not pair (a ligature) is left as it is."""
    lines = [len("".join(line.split())) for line in text.original_text.split("\n")]
    if sum(lines) == len(text.submobjects):
        glyphs, x = iter(text.submobjects), text.get_x()
        for count in lines:
            VGroup(*(next(glyphs) for _ in range(count))).set_x(x)
    return text


class ReadoutPanel(VGroup):
    """Label / value lines, the values swappable one at a time.

    Values are separate texts so that what is on screen is always a text made
    from the current number (never a reshaped old one). Labels are ``label_size``.
    With ``width`` (scene units) the lines stand side by side instead, in even
    columns across that width, each value under its label (a label may break onto
    two lines, each centred; the last lines share a baseline).
    """

    PITCH = 0.7  # scene units from one baseline to the next
    DROP = 0.5  # side by side: from the labels' last baseline to the values'

    def __init__(self, labels: dict[str, str], values: dict[str, str],
                 value_colors: dict[str, object] | None = None, label_size: int = style.SMALL,
                 width: float | None = None) -> None:
        super().__init__()
        self.value_colors = value_colors or {}
        self.labels = {k: words(t, label_size, style.MUTED) for k, t in labels.items()}
        self.across = width is not None
        if self.across:
            for i, label in enumerate(self.labels.values()):
                centre_lines(label).move_to(RIGHT * (i + 0.5) * width / len(labels))
                label.shift(DOWN * last_baseline(label))
        else:
            stack_lines(list(self.labels.values()), self.PITCH)
            self.value_left = max(t.width for t in self.labels.values()) + style.GAP
        self.values = {k: self._value(k, values[k]) for k in labels}
        self.add(*self.labels.values(), *self.values.values())

    def _value(self, key: str, text: str):
        """A value text for ``key``: in the value column on its label's baseline, or (side
        by side) under its label."""
        value = words(text, style.LABEL, self.value_colors.get(key, style.INK))
        label = self.labels[key]
        if self.across:
            value.set_x(label.get_x())
            align_baselines([value], last_baseline(label) - self.DROP)
            return value
        value.move_to(label.get_center(), aligned_edge=LEFT)
        value.set_x(label.get_left()[0] + self.value_left, LEFT)
        align_baselines([label, value])
        return value

    def get_label(self, key: str):
        return self.labels[key]

    def get_value(self, key: str):
        return self.values[key]

    def make_update_animations(self, changes: dict[str, str]) -> list[Animation]:
        """Fades that swap the values whose text changes (none for unchanged ones)."""
        return swap_changed(self, self.values, changes.items(), self._value)


class ThirdsTable(VGroup):
    """Three small columns (front, middle, back of the row) with a count under each, in
    type of ``size``."""

    def __init__(self, headers: Sequence[str], counts: Sequence[str], width: float,
                 size: int = style.SMALL) -> None:
        super().__init__()
        self.type_size = size
        self.headers = VGroup(*(words(h, size, style.MUTED) for h in headers))
        for i, h in enumerate(self.headers):
            h.move_to(RIGHT * (i + 0.5) * width / len(headers))
        align_baselines(self.headers)
        probe = words("0", size).next_to(self.headers[0], DOWN, buff=style.LINE_GAP)
        self.drop = baseline(self.headers[0]) - baseline(probe)  # header to count baseline
        self.counts = [self._count(i, c) for i, c in enumerate(counts)]
        self.add(self.headers, *self.counts)

    def _count(self, i: int, text: str):
        t = words(text, self.type_size, style.INK).set_x(self.headers[i].get_x())
        align_baselines([t], baseline(self.headers[0]) - self.drop)
        return t

    def get_headers(self) -> VGroup:
        return self.headers

    def get_counts(self) -> list:
        return list(self.counts)

    def make_update_animations(self, counts: Sequence[str]) -> list[Animation]:
        """Fades that swap the counts whose text changes."""
        return swap_changed(self, self.counts, enumerate(counts), self._count)
