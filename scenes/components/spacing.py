"""How close lines of text may stand one under another, and how far a stack of them
reaches: the measurements a layout fitted to a frame's room is made of.

Steps are between baselines, so lines space evenly whatever hangs below them (see
:func:`scenes.base.stack_lines`). Sizes are in scene units.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import Mobject

from scenes.base import baseline

#: kept clear between the descenders of one line and the ascenders of the next
CLEAR = 0.04


def closest(lines: Sequence[Mobject]) -> float:
    """The least step between the baselines of ``lines`` (texts, in order) set one under
    another that keeps each clear of the next."""
    return max(baseline(a) - a.get_bottom()[1] + b.get_top()[1] - baseline(b)
               for a, b in zip(lines, lines[1:])) + CLEAR


def reach(lines: Sequence[Mobject], margin: float = 0.1) -> float:
    """How far ``lines`` set one under another reach above the first baseline and below
    the last: their height less the steps between them, plus ``margin`` for what is drawn
    beside them (a bar a little thicker than the text)."""
    return lines[0].get_top()[1] - baseline(lines[0]) + baseline(lines[-1]) \
        - lines[-1].get_bottom()[1] + margin


__all__ = ["CLEAR", "closest", "reach"]
