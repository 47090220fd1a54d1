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
from scenes.base import align_baselines, baseline, words

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


class ReadoutPanel(VGroup):
    """Label-value pairs, each value just after its label on the label's baseline; the
    scene places each pair where it belongs (:meth:`get_entry`).

    Values are separate texts so that what is on screen is always a text made from the
    current number (never a reshaped old one). Labels are ``label_size``, values
    ``value_size``.
    """

    GAP = 0.25  # scene units between a label and its value

    def __init__(self, labels: dict[str, str], values: dict[str, str], *, label_size: int,
                 value_size: int, value_colors: dict[str, object] | None = None) -> None:
        super().__init__()
        self.value_colors = value_colors or {}
        self.value_size = value_size
        self.labels = {k: words(t, label_size, style.MUTED) for k, t in labels.items()}
        self.values = {k: self._value(k, values[k]) for k in labels}
        self.add(*self.labels.values(), *self.values.values())

    def _value(self, key: str, text: str):
        """A value text for ``key``, just after its label, on its baseline."""
        value = words(text, self.value_size, self.value_colors.get(key, style.INK))
        label = self.labels[key]
        value.next_to(label, RIGHT, buff=self.GAP)
        align_baselines([label, value])
        return value

    def get_label(self, key: str):
        return self.labels[key]

    def get_value(self, key: str):
        return self.values[key]

    def get_entry(self, key: str) -> VGroup:
        """The label and its value, to place together."""
        return VGroup(self.labels[key], self.values[key])

    def make_update_animations(self, changes: dict[str, str]) -> list[Animation]:
        """Fades that swap the values whose text changes (none for unchanged ones)."""
        return swap_changed(self, self.values, changes.items(), self._value)


class ThirdsTable(VGroup):
    """Three columns across ``width`` scene units (front, middle, back of the row), each
    header (``size``) over a count (``count_size``)."""

    def __init__(self, headers: Sequence[str], counts: Sequence[str], width: float, *,
                 size: int, count_size: int) -> None:
        super().__init__()
        self.type_size = count_size
        self.headers = VGroup(*(words(h, size, style.MUTED) for h in headers))
        for i, h in enumerate(self.headers):
            h.move_to(RIGHT * (i + 0.5) * width / len(headers))
        align_baselines(self.headers)
        probe = words("0", count_size).next_to(self.headers[0], DOWN, buff=style.LINE_GAP)
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
