"""A bar chart of accuracy against sentence length, drawn from lines and rectangles.

No number axis: the bars stand on a baseline (no word right) and reach up
towards a dashed guide (every word right). Tick labels under the bars are
texts the scene formats; nothing here reads TeX.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    DashedLine,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    VGroup,
)

from scenes import style
from scenes.base import align_baselines, words


class AccuracyBars(VGroup):
    """One bar per sentence length; a bar's height is the share of words right.

    ``width`` and ``height`` are the plot's size in scene units (height = all right).
    ``ticks`` are the texts under the bars (``tick_size``), ``title`` the text
    (``title_size``) flush with the plot's left, its baseline ``title_buff`` scene units
    above the plot, so two charts' titles share a line whatever their letters.
    """

    def __init__(self, shares: Sequence[float], ticks: Sequence[str], title: str, color, *,
                 width: float, height: float, tick_size: int, title_size: int,
                 chance: float | None = None, title_buff: float = 0.3) -> None:
        super().__init__()
        self.plot_height = height
        slot = width / len(shares)
        self.base = Line(ORIGIN, RIGHT * width, color=style.MUTED,
                         stroke_width=2)
        self.top = DashedLine(UP * height, UP * height + RIGHT * width, color=style.FAINT,
                              stroke_width=2, dash_length=0.12)
        self.bars = VGroup()
        for k, share in enumerate(shares):
            bar = Rectangle(width=slot * 0.62, height=max(share * height, 0.02), stroke_width=0,
                            fill_color=color, fill_opacity=0.9)
            bar.move_to(RIGHT * (k + 0.5) * slot, aligned_edge=DOWN)
            self.bars.add(bar)
        self.ticks = VGroup(*(words(t, tick_size, style.MUTED)
                              .next_to(bar, DOWN, buff=0.15).set_x(bar.get_x())
                              for t, bar in zip(ticks, self.bars)))
        for tick in self.ticks:
            tick.next_to(self.base, DOWN, buff=0.15, coor_mask=[0, 1, 0])
        align_baselines(self.ticks)
        self.title = words(title, title_size, color).set_x(0, LEFT)
        align_baselines([self.title], height + title_buff)
        self.chance = VGroup()
        if chance is not None:
            self.chance = DashedLine(UP * chance * height, UP * chance * height + RIGHT * width,
                                     color=style.MUTED, stroke_width=2, dash_length=0.08)
            self.chance.set_stroke(opacity=0.6)
        self.add(self.top, self.chance, self.bars, self.base, self.ticks, self.title)

    def get_bars(self) -> VGroup:
        return self.bars

    def get_bar(self, k: int) -> Rectangle:
        return self.bars[k]

    def get_frame(self) -> VGroup:
        """The baseline, the all-right guide and the tick labels."""
        return VGroup(self.base, self.top, self.ticks)

    def get_title(self):
        return self.title

    def get_chance_line(self):
        return self.chance

    def get_top_line(self) -> DashedLine:
        return self.top

    def get_base_line(self) -> Line:
        return self.base

    def make_grow_animation(self, lag_ratio: float = 0.15) -> LaggedStart:
        """The bars rise from the baseline, shortest sentence first."""
        return LaggedStart(*(GrowFromEdge(bar, DOWN) for bar in self.bars), lag_ratio=lag_ratio)
