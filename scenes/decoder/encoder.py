"""The encoder reads one word at a time.

A placeholder until the scene is written: one beat showing its title.
"""

from __future__ import annotations

from manim import FadeIn

from scenes.base import ChapterScene
from scenes.lines import wrapped


class TheEncoderReads(ChapterScene):
    """A placeholder: its title."""

    section = "encoder"
    title = "The encoder reads one word at a time"
    beat_seconds = {"title": 3.0}

    def construct(self) -> None:
        kind = self.frame().type
        heading = wrapped(self.title, kind.heading, 0.9 * self.frame().room()[0])
        heading.move_to(self.centre())
        # The viewer sees the scene's title.
        b = self.beat("title")
        self.play(FadeIn(heading), run_time=b.part(0.3))
