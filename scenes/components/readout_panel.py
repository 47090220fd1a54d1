"""A readout: label and value lines, whose values can be swapped for new ones."""

from __future__ import annotations

from collections.abc import Sequence

from manim import LEFT, RIGHT, UP, AnimationGroup, FadeIn, FadeOut, Text, VGroup

from scenes import style
from scenes.base import align_baselines, baseline, stack_lines, words
from scenes.lines import text_width

#: how far a changing text slides as it goes out and the new one comes in (scene units)
SWAP_SHIFT = 0.25


def make_text_swap_animation(old: Text, new: Text) -> AnimationGroup:
    """The old text slides up and out while the new one slides up into its place."""
    return AnimationGroup(FadeOut(old, shift=UP * SWAP_SHIFT),
                          FadeIn(new, shift=UP * SWAP_SHIFT))


def put_in_place_of(new: Text, old: Text, edge=LEFT) -> Text:
    """Move ``new`` onto ``old``'s baseline, aligned on ``edge`` (LEFT, RIGHT, None: centre)."""
    if edge is None:
        new.set_x(old.get_x())
    else:
        new.align_to(old, edge)
    new.shift(UP * (baseline(old) - baseline(new)))
    return new


class Readout(VGroup):
    """Lines of "label   value": labels muted on the left, values in a column on the right.

    ``rows`` are (label, value text, value colour); the scene formats the values. A
    label with line breaks ("spread\n(bits)") takes a line each, its value on the last.
    With ``flush_right`` the values end at one right edge instead, as close to the
    labels as the longest line allows, which makes a narrower panel; it leaves room
    for every value in ``also`` (the texts the values may change to).
    """

    def __init__(self, rows: Sequence[tuple[str, str, object]], label_size: int,
                 value_size: int, line_step: float, flush_right: bool = False,
                 also: Sequence[Sequence[str]] = (), gap: float = style.GAP) -> None:
        super().__init__()
        self.value_size = value_size
        self.edge = RIGHT if flush_right else LEFT
        self.labels = VGroup(*(VGroup(*(words(line, label_size, style.MUTED)
                                        for line in label.split("\n")))
                               for label, _, _ in rows))
        self.values = VGroup(*(words(value, value_size, color) for _, value, color in rows))
        self.colors = [color for _, _, color in rows]
        lines = [line for label in self.labels for line in label]
        value_x = max(line.width for line in lines) + gap
        if flush_right:
            texts = [[value for _, value, _ in rows], *also]
            value_x = max([line.width for label in self.labels for line in label[:-1]]
                          + [label[-1].width + gap + text_width(version[i], value_size)
                             for version in texts for i, label in enumerate(self.labels)])
        stack_lines(lines, line_step)
        for label, value in zip(self.labels, self.values):
            value.move_to(RIGHT * value_x, aligned_edge=self.edge)
            align_baselines([label[-1], value])
        self.add(self.labels, self.values)

    def get_labels(self) -> VGroup:
        return self.labels

    def get_values(self) -> VGroup:
        return self.values

    def get_line(self, i: int) -> VGroup:
        return VGroup(self.labels[i], self.values[i])

    def make_values_animation(self, texts: Sequence[str]) -> AnimationGroup:
        """Every value that differs from ``texts`` slides out; the new value slides in.

        The readout holds the new texts from now on, so the scene's record of what
        is shown names the new values.
        """
        swaps = []
        for i, text in enumerate(texts):
            old = self.values[i]
            if old.original_text == text:
                continue
            new = put_in_place_of(words(text, self.value_size, self.colors[i]), old, self.edge)
            self.values.submobjects[i] = new
            swaps.append(make_text_swap_animation(old, new))
        return AnimationGroup(*swaps)
