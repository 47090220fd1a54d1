"""Every step decides afresh.

A placeholder until the scene is written: one beat showing its title.
"""

from __future__ import annotations

from manim import FadeIn

from scenes.base import ChapterScene
from scenes.lines import wrapped


class EveryStepAfresh(ChapterScene):
    """A placeholder: its title."""

    section = "steps"
    title = "Every step decides afresh"
    beat_seconds = {"title": 3.0}

    def construct(self) -> None:
        kind = self.frame().type
        heading = wrapped(self.title, kind.heading, 0.9 * self.frame().room()[0])
        heading.move_to(self.centre())
        # The viewer sees the scene's title.
        b = self.beat("title")
        self.play(FadeIn(heading), run_time=b.part(0.3))
