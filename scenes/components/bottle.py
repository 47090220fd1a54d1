"""A potion bottle, its tag, and the flask: glass outlines whose liquid height is its amount.

A level is a fraction of the body in [0, 1]: 1 is a full body, 0 an empty one,
so "fill level = amount" holds for bottles and flask alike (the body has
straight walls, so the height of the liquid is proportional to its volume).
"""

from __future__ import annotations

import math

import numpy as np
from manim import (
    DL,
    DOWN,
    PI,
    UP,
    AnimationGroup,
    ArcBetweenPoints,
    Group,
    Polygon,
    RoundedRectangle,
    ShowPassingFlash,
    UpdateFromAlphaFunc,
    VGroup,
    VMobject,
    interpolate_color,
)

from scenes import style
from scenes.base import words

#: gap between the glass and the liquid inside it (scene units, before scaling)
INSET = 0.07
#: liquid shades, as a mix from the background towards the potion colour; poured
#: layers alternate between them so each pour stays visible until it is mixed
LAYER_MIX = (0.85, 0.55)
#: the shade of a bottle's own potion and of a mixed flask
FULL_MIX = 0.75


def _shade(color, mix: float):
    """An opaque shade between the background and ``color`` (opaque fills stack cleanly)."""
    return interpolate_color(style.BACKGROUND, color, mix)


class Bottle(VGroup):
    """A bottle: one glass silhouette (body, shoulders, neck, lip) and its liquid.

    ``level`` is the fraction of the body that is full (0..1). Sizes are in
    scene units. The bottle keeps track of its level, so animations can be
    built one after another before any is played.
    """

    def __init__(self, level: float = 1.0, *, width: float = 0.8, height: float = 0.95,
                 neck_width: float = 0.3, neck_height: float = 0.28, corner_radius: float = 0.16,
                 color=style.VALUE, glass=style.MUTED, stroke_width: float = 2.5) -> None:
        super().__init__()
        self.level = float(level)
        self.potion_color = color
        self._size = (width, height, corner_radius)
        w, h, n, nh = width / 2, height, neck_width / 2, neck_height
        lip = 0.05  # the lip sticks out this far on each side of the neck
        # Corners from the lip's top-left, anticlockwise; radii per corner below.
        corners = [
            (-n - lip, h + nh), (-n - lip, h + nh - 0.07), (-n, h + nh - 0.07), (-n, h),
            (-w, h), (-w, 0), (w, 0), (w, h), (n, h), (n, h + nh - 0.07),
            (n + lip, h + nh - 0.07), (n + lip, h + nh),
        ]
        self.glass = Polygon(*[(x, y, 0) for x, y in corners])
        # round_corners takes the radius of corner i+1 first (see Polygram.round_corners)
        radii = [0.0, 0.0, 0.06, corner_radius * 0.8, corner_radius, corner_radius,
                 corner_radius * 0.8, 0.06, 0.0, 0.0, 0.0, 0.0]
        self.glass.round_corners(radii)
        self.glass.set_stroke(glass, stroke_width).set_fill(opacity=0)
        self.liquid = VMobject()
        self.add(self.liquid, self.glass)
        self._draw_liquid(self.liquid, self.level, FULL_MIX)

    # ------------------------------------------------------------- geometry
    def _scale(self) -> float:
        return self.glass.width / (self._size[0] + 0.0)

    def _liquid_shape(self, level: float, mix: float) -> VMobject:
        """The liquid up to ``level`` (a fraction of the body), flat on top.

        Its sides follow the glass's rounded bottom corners at every height, so
        a shallow liquid is a thin sliver of the rounded bottom, never a box
        poking out of it.
        """
        width, height, radius = self._size
        s = self._scale()
        bottom_left = self.glass.get_corner(DL)
        x0 = bottom_left[0] + INSET * s
        x1 = bottom_left[0] + (width - INSET) * s
        floor = bottom_left[1] + INSET * s
        depth = (height - 2 * INSET) * s * max(level, 1e-4)
        r = (radius - INSET) * s

        def inset(y: float) -> float:  # how far the glass curves in at height y
            return r - math.sqrt(max(r * r - (r - y) ** 2, 0.0)) if y < r else 0.0

        ys = [depth] + [y for y in np.linspace(min(depth, r), 0, 10) if y < depth]
        left = [(x0 + inset(y), floor + y, 0) for y in ys]
        right = [(x1 - inset(y), floor + y, 0) for y in reversed(ys)]
        shape = Polygon(*left, *right)
        shape.set_stroke(width=0).set_fill(_shade(self.potion_color, mix),
                                           opacity=1.0 if level > 1e-4 else 0.0)
        return shape

    def _draw_liquid(self, target: VMobject, level: float, mix: float) -> None:
        target.become(self._liquid_shape(level, mix))

    # ------------------------------------------------------------- accessors
    def get_glass(self) -> Polygon:
        return self.glass

    def get_liquid(self) -> VMobject:
        return self.liquid

    def get_level(self) -> float:
        """The fraction of the body that is full (0..1), after every animation built so far."""
        return self.level

    def get_mouth(self):
        """The point liquid leaves from or enters by: the middle of the lip."""
        return self.glass.get_top()

    # ------------------------------------------------------------- styling
    def set_glass_color(self, color) -> Bottle:
        """Colour the glass outline (chainable, also under ``.animate``)."""
        self.glass.set_stroke(color)
        return self

    def fade_to(self, opacity: float) -> Bottle:
        """Fade glass and potion to ``opacity`` (1 is fully there), keeping the glass unfilled."""
        self.glass.set_stroke(opacity=opacity)
        for liquid in self._liquids():
            liquid.set_fill(opacity=opacity)
        return self

    def _liquids(self) -> list[VMobject]:
        """The visible liquid shapes (an empty bottle's liquid stays invisible)."""
        return [self.liquid] if self.level > 1e-4 else []

    def set_level(self, level: float) -> Bottle:
        """Fill (or empty) the bottle to ``level`` at once, a fraction of the body."""
        self.level = float(level)
        self._draw_liquid(self.liquid, self.level, FULL_MIX)
        return self

    # ------------------------------------------------------------- animations
    def make_level_animation(self, level: float) -> UpdateFromAlphaFunc:
        """The liquid rises or falls to ``level`` (a fraction of the body)."""
        # start and end are fixed now: later animations move self.level on
        start, end = self.level, float(level)
        self.level = end

        def update(liquid: VMobject, alpha: float) -> None:
            self._draw_liquid(liquid, start + (end - start) * alpha, FULL_MIX)

        return UpdateFromAlphaFunc(self.liquid, update)

    def make_pour_animation(self, flask: Flask, share: float,
                            layer: int | None = None) -> AnimationGroup:
        """Pour ``share`` of a body from this bottle into ``flask``.

        The bottle's level drops by ``share``, a stream as thick as the share
        arcs over to the flask's mouth, and the flask gains a layer of the same
        height (both bodies count in fractions of themselves).
        """
        start, end = self.get_mouth(), flask.get_mouth()
        bend = -PI / 4 if start[0] < end[0] else PI / 4
        stream = ArcBetweenPoints(start + UP * 0.05, end + UP * 0.05, angle=bend)
        stream.set_stroke(_shade(self.potion_color, LAYER_MIX[0]), 1.5 + 10 * share)
        # The group holds only the stream: the liquids are already on screen
        # inside their glasses, and a group holding them would draw them twice.
        return AnimationGroup(
            self.make_level_animation(self.level - share),
            ShowPassingFlash(stream, time_width=0.6),
            flask.make_fill_animation(share, layer),
            group=Group(stream),
        )


class Flask(Bottle):
    """The alchemist's flask: a wider bottle that fills in layers, one per pour.

    ``filled`` (a fraction of the body) starts it with a mixed potion in it.

    Each layer is drawn from the bottom of the body to its own top, with the
    later (higher) layers behind the earlier ones, so opaque shades stack into
    bands whose heights are the shares poured.
    """

    def __init__(self, filled: float = 0.0, *, width: float = 1.6, height: float = 1.7,
                 neck_width: float = 0.55, neck_height: float = 0.3, corner_radius: float = 0.26,
                 **kwargs) -> None:
        super().__init__(0.0, width=width, height=height, neck_width=neck_width,
                         neck_height=neck_height, corner_radius=corner_radius, **kwargs)
        self.layers = VGroup()
        self.add_to_back(self.layers)
        if filled > 0:  # start already holding a mixed potion up to ``filled``
            self.level = float(filled)
            band = VMobject()
            self._draw_liquid(band, self.level, FULL_MIX)
            self.layers.add(band)

    def get_layers(self) -> VGroup:
        return self.layers

    def _liquids(self) -> list[VMobject]:
        return list(self.layers)

    def make_fill_animation(self, share: float, layer: int | None = None) -> UpdateFromAlphaFunc:
        """A new band of height ``share`` (fraction of the body) grows on top of the liquid.

        ``layer`` picks the shade (alternating); by default the next in turn.
        """
        index = len(self.layers) if layer is None else layer
        mix = LAYER_MIX[index % len(LAYER_MIX)]
        start, end = self.level, self.level + float(share)
        self.level = end
        band = VMobject()
        self._draw_liquid(band, start, mix)
        self.layers.add_to_back(band)  # higher bands sit behind lower ones

        def update(m: VMobject, alpha: float) -> None:
            self._draw_liquid(m, start + (end - start) * alpha, mix)

        return UpdateFromAlphaFunc(band, update)

    def make_mix_animation(self) -> AnimationGroup:
        """Every band turns the one shade of a mixed potion."""
        mixed = _shade(self.potion_color, FULL_MIX)
        return AnimationGroup(*(band.animate.set_fill(mixed, opacity=1.0)
                                for band in self.layers))

    def make_empty_animation(self) -> AnimationGroup:
        """The liquid fades away and the flask is empty again (level 0)."""
        old = self.layers
        self.layers = VGroup()
        self.add_to_back(self.layers)
        self.level = 0.0
        # The old bands fade inside the flask, then leave it.
        return AnimationGroup(old.animate.set_fill(opacity=0),
                              _on_finish=lambda scene: self.remove(old))

class Tag(VGroup):
    """A bottle's tag (its key): a small card with a label of one or two centred lines,
    set at ``size`` (a size from the frame's type scale); ``width`` and ``height`` are the
    card's (scene units), by default the label's and a margin round it."""

    def __init__(self, lines: list[str], *, size: int, width: float | None = None,
                 height: float | None = None, color=style.KEY,
                 fill_opacity: float = 0.1) -> None:
        super().__init__()
        self.fill = fill_opacity
        self.label = VGroup(*(words(line, size, color) for line in lines)).arrange(DOWN, buff=0.1)
        width = width if width is not None else self.label.width + 0.3
        height = height if height is not None else self.label.height + 0.24
        self.card = RoundedRectangle(corner_radius=0.08, width=width, height=height,
                                     stroke_color=color, stroke_width=1.5)
        self.card.set_fill(color, opacity=fill_opacity)
        self.add(self.card, self.label.move_to(self.card))

    def get_card(self) -> RoundedRectangle:
        return self.card

    def get_label(self) -> VGroup:
        return self.label

    def fade_to(self, opacity: float) -> Tag:
        """Fade card and label to ``opacity`` (1 is fully there), keeping the card's tint."""
        self.card.set_stroke(opacity=opacity).set_fill(opacity=self.fill * opacity)
        self.label.set_opacity(opacity)
        return self


__all__ = ["Bottle", "Flask", "Tag"]
