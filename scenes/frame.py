"""The frames a scene is drawn for: wide 16:9 (the chapter), tall 9:16 (a short) and
square 1:1 (a feed's post), each with its size, where pictures may go, its type scale
and its flow.

A scene is written once. It builds its parts, asks its :class:`Frame` where they may go
(:meth:`Frame.area`), how large to set each kind of text (:attr:`Frame.type`), and
whether to lay side-by-side things across or down (:attr:`Frame.across`), and then
animates them the same way in every frame.

Sizes are in scene units. The wide frame is Manim's own, 8 units tall; the tall and the
square are 8 units wide, so a unit is the same number of pixels (135 at 1080p) in all
three. Type sizes are Manim font sizes: a line at size 26 is about 0.34 units from
ascender to descender, 20 px at 480p.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TypeScale:
    """The sizes text is set at in one frame, largest first. Every text in a scene takes
    one of these; ``minimum`` is the smallest the layout check lets through."""

    title: int  # the chapter's question, a title card
    heading: int  # a scene's heading
    body: int  # a sentence the viewer reads
    label: int  # names of rows, columns and parts
    number: int  # a figure from the ledger
    minimum: int  # small print: a unit, a note; nothing is smaller

    def sizes(self) -> tuple[int, ...]:
        return (self.title, self.heading, self.body, self.label, self.number, self.minimum)


@dataclass(frozen=True)
class Frame:
    """One kind of frame: its size, the zones kept clear, its type scale."""

    name: str
    width: float  # scene units
    height: float
    type: TypeScale
    margin: float  # kept clear on every side
    safe_top: float = 0.0  # kept clear at the top for the app's own buttons (tall, square)
    safe_bottom: float = 0.0  # ... and at the bottom
    caption_band: float = 0.0  # above the bottom zone: the burned-in captions

    def area(self) -> tuple[float, float, float, float]:
        """(left, right, bottom, top): where the pictures may go, the frame's centre at the
        origin. The frame less its margin, the zones the apps draw over, and the band the
        burned captions take."""
        half_w, half_h = self.width / 2, self.height / 2
        return (-half_w + self.margin, half_w - self.margin,
                -half_h + max(self.margin, self.safe_bottom + self.caption_band),
                half_h - max(self.margin, self.safe_top))

    def room(self) -> tuple[float, float]:
        """(width, height) of :meth:`area`."""
        left, right, bottom, top = self.area()
        return right - left, top - bottom

    def centre(self) -> np.ndarray:
        """The middle of :meth:`area` (the frame's centre when it keeps no zones)."""
        left, right, bottom, top = self.area()
        return np.array([(left + right) / 2, (bottom + top) / 2, 0.0])

    @property
    def across(self) -> bool:
        """Things that stand side by side do so here (the room is wider than tall);
        otherwise they stand one above the other."""
        width, height = self.room()
        return width >= height

    @property
    def keeps_zones(self) -> bool:
        """The apps draw over parts of this frame (tall, square): nothing may go there."""
        return self.safe_top > 0 or self.safe_bottom > 0

    @property
    def flow(self) -> str:
        """"across" or "down": how a scene lays out parts that go side by side."""
        return "across" if self.across else "down"

    def units(self) -> tuple[float, float] | None:
        """(width, height) for Manim's config, or None for Manim's own frame (wide)."""
        return None if self.name == "wide" else (self.width, self.height)


WIDE = Frame(
    name="wide", width=8 * 16 / 9, height=8.0, margin=0.5,
    type=TypeScale(title=60, heading=44, body=36, label=32, number=32, minimum=26),
)

# Phone apps draw their own buttons over the top 10 % and the bottom 20 % of an upright
# video; the burned captions sit in a band just above the bottom zone.
TALL = Frame(
    name="tall", width=8.0, height=8 * 16 / 9, margin=0.5,
    safe_top=0.10 * 8 * 16 / 9, safe_bottom=0.20 * 8 * 16 / 9, caption_band=1.7,
    type=TypeScale(title=64, heading=48, body=40, label=36, number=36, minimum=32),
)

# A square post in a feed: the app's buttons sit outside the picture or over its last
# few percent; the burned captions take a band at the bottom.
SQUARE = Frame(
    name="square", width=8.0, height=8.0, margin=0.4,
    safe_top=0.04 * 8, safe_bottom=0.05 * 8, caption_band=1.4,
    type=TypeScale(title=60, heading=44, body=38, label=34, number=34, minimum=30),
)

FRAMES: dict[str, Frame] = {f.name: f for f in (WIDE, TALL, SQUARE)}


def frame_named(name: str) -> Frame:
    """The frame called ``name``; a ValueError naming the frames there are."""
    try:
        return FRAMES[name]
    except KeyError:
        raise ValueError(f"frame {name!r}: must be one of {', '.join(FRAMES)}") from None
