"""A short list of named horizontal bars, each with its already formatted value.

Rows run top to bottom: a name (right-aligned), a bar whose length is its
value, and the value's text in a column of its own to the right of the
longest possible bar, so extra columns can line up beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    LEFT,
    RIGHT,
    AnimationGroup,
    FadeIn,
    GrowFromEdge,
    LaggedStart,
    Mobject,
    Rectangle,
    Transform,
    VGroup,
)

from scenes import style
from scenes.base import align_baselines, baseline, stack_lines, words
from scenes.lines import text_height

#: from one row's baseline to the next (scene units)
ROW_STEP = 0.5
#: from the names to the bars, and from the bars to the values (scene units)
INSIDE = 0.6 * style.GAP
#: thickness of a bar (scene units) with rows ROW_STEP apart
BAR_HEIGHT = 0.26
#: the shortest bar drawn, so a value of zero still shows where its bar would be
MIN_BAR = 0.03


class BarList(VGroup):
    """Named bars. ``values`` set the lengths (``max_width`` for ``scale``, by
    default the largest value); ``texts`` are what the viewer reads, set at ``size`` (a
    size from the frame's type scale), like the names.
    ``show_names`` may be False or the indices of the rows to name: the other
    names only place their rows (to line up beside a list that shows them).
    ``bar_height`` is the thickness of a bar (scene units), by default in proportion to
    the rows' step.
    """

    def __init__(self, names: Sequence[str], values: Sequence[float], texts: Sequence[str], *,
                 size: int, color=style.VALUE, max_width: float = 2.2,
                 scale: float | None = None, name_color=style.INK, text_color=style.INK,
                 row_step: float = ROW_STEP, bar_height: float | None = None,
                 show_names: bool | Sequence[int] = True) -> None:
        super().__init__()
        if not len(names) == len(values) == len(texts):
            raise ValueError("names, values and texts must be parallel")
        self.color = color
        self.max_width = max_width
        # no thicker than the text beside it: 1.6 times the height of its lower-case letters
        self.bar_height = bar_height or min(BAR_HEIGHT * row_step / ROW_STEP,
                                            1.6 * text_height("x", size))
        self.scale_value = scale if scale else max(max(values), 1e-12)
        self.names = stack_lines([words(n, size, name_color) for n in names], row_step,
                                 aligned_edge=RIGHT)
        left = self.names.get_right()[0] + INSIDE
        self.bars = VGroup()
        self.texts = VGroup()
        for name, value, text in zip(self.names, values, texts):
            bar = self._bar(value).move_to((left, self._bar_y(name), 0), aligned_edge=LEFT)
            self.bars.add(bar)
            label = words(text, size, text_color)
            label.move_to((left + max_width + INSIDE, 0, 0), aligned_edge=LEFT)
            align_baselines([name, label])
            self.texts.add(label)
        # the rows whose names are drawn; the other names only set baselines
        self.named = set(range(len(names)) if show_names is True else show_names or ())
        self.add(*(name for i, name in enumerate(self.names) if i in self.named))
        self.add(self.bars, self.texts)

    def _bar(self, value: float) -> Rectangle:
        width = max(self.max_width * value / self.scale_value, MIN_BAR)
        bar = Rectangle(width=width, height=self.bar_height, stroke_width=0)
        return bar.set_fill(self.color, opacity=0.85)

    @staticmethod
    def _bar_y(name) -> float:
        """Bars sit on the middle of the lower-case letters of their row."""
        return baseline(name) + 0.36 * text_height("x", int(name.font_size))

    # ------------------------------------------------------------- accessors
    def get_names(self) -> VGroup:
        return self.names

    def get_bars(self) -> VGroup:
        return self.bars

    def get_texts(self) -> VGroup:
        return self.texts

    def get_row(self, i: int) -> VGroup:
        """The name (if shown), bar and value text of row ``i``."""
        parts = (self.names[i],) if i in self.named else ()
        return VGroup(*parts, self.bars[i], self.texts[i])

    def get_bar_left(self) -> float:
        """The x where every bar starts."""
        return float(self.bars.get_left()[0])

    # ------------------------------------------------------------- animations
    def make_grow_animation(self, lag_ratio: float = 0.15) -> LaggedStart:
        """Rows appear top to bottom: the name, then the bar grows from the left, then its value."""
        return LaggedStart(*(
            LaggedStart(*(FadeIn(self.names[i]),) * (i in self.named),
                        GrowFromEdge(self.bars[i], LEFT), FadeIn(self.texts[i]), lag_ratio=0.3)
            for i in range(len(self.names))
        ), lag_ratio=lag_ratio)

    def make_change_animation(self, values: Sequence[float], texts: Sequence[str],
                              text_color=style.INK) -> LaggedStart:
        """Bars stretch or shrink to new ``values``; their value texts cross-fade to ``texts``."""
        anims = []
        for i, (value, text) in enumerate(zip(values, texts)):
            bar = self._bar(value).move_to(self.bars[i], aligned_edge=LEFT)
            bar.set_fill(self.bars[i].get_fill_color(), self.bars[i].get_fill_opacity())
            label = words(text, int(self.texts[i].font_size), text_color)
            label.move_to(self.texts[i], aligned_edge=LEFT)
            align_baselines([self.names[i], label])
            anims.append(Transform(self.bars[i], bar))
            anims.append(swap_in_group(self.texts, i, label))
        return LaggedStart(*anims, lag_ratio=0.05)


def swap_in_group(group: VGroup, i: int, new: Mobject) -> AnimationGroup:
    """Cross-fade ``group[i]`` into ``new``, which takes its place in ``group``.

    Both stay inside the group while they fade (a part added to the scene by
    itself would break its group apart, and an animation group holding a
    mobject that is not on screen adds itself to the scene whole); the old one
    leaves the group when the fade ends. ``new.original_text`` is then what
    the viewer sees.
    """
    old = group.submobjects[i]
    group.submobjects[i] = new
    group.add(old)
    new.set_opacity(0)
    return AnimationGroup(old.animate.set_opacity(0), new.animate.set_opacity(1),
                          _on_finish=lambda scene: group.remove(old))

__all__ = ["INSIDE", "BarList", "swap_in_group"]
