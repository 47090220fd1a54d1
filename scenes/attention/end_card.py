"""The end card: what the chapter taught in three short lines, then its credits."""

from __future__ import annotations

from manim import DOWN, UP, FadeIn, FadeOut, LaggedStart, VGroup

from scenes import style
from scenes.base import ChapterScene
from scenes.lines import largest_that_fits, wrapped

#: what the chapter taught, one idea a line
LEARNED = ("Read all of it.", "Write one piece at a time.",
           "At every piece, decide afresh where to look.")


class EndCard(ChapterScene):
    """The chapter in three lines, then who spoke it and what drew it."""

    section = "end_card"
    title = "What we learned, and credits"
    beat_seconds = {"learned": 8.0, "credits": 6.0}

    def construct(self) -> None:
        frame = self.frame()
        lines = largest_that_fits(self.learned, (frame.type.title, frame.type.heading),
                                  frame.room()).move_to(self.centre())
        credits = largest_that_fits(self.credits_block,
                                    (frame.type.body, frame.type.label, frame.type.minimum),
                                    frame.room()).move_to(self.centre())

        # The viewer sees the chapter in three lines, one after another.
        b = self.beat("learned")
        self.play(LaggedStart(*(FadeIn(line, shift=UP * 0.2) for line in lines),
                              lag_ratio=0.45), run_time=b.part(0.5))

        # The viewer sees who spoke the chapter, under what licence, and what made it.
        b = self.beat("credits")
        self.play(FadeOut(lines, shift=UP * 0.2), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(part, shift=UP * 0.1) for part in credits),
                              lag_ratio=0.3), run_time=b.part(0.4))

    def learned(self, size: int) -> VGroup:
        """The three lines at ``size``, each wrapped to the room, the last in the weights'
        colour."""
        width = self.frame().room()[0]
        lines = VGroup(*(wrapped(line, size, width,
                                 style.WEIGHT if i == len(LEARNED) - 1 else style.INK)
                         for i, line in enumerate(LEARNED)))
        return lines.arrange(DOWN, buff=size / 60)

    def credits_block(self, size: int) -> VGroup:
        """The credits at ``size``, a heading over each part: the voice and its licence,
        then the tools, in lines that fit the room's width."""
        given = self.given_credits
        if not given:
            raise ValueError(f"{type(self).__name__} needs its credits: render it through "
                             "production.drawing.construct_scene(credits=...)")
        width = self.frame().room()[0]
        parts = [("narrated by", [given["voice"], *([given["licence"]]
                                                    if given["licence"] else [])]),
                 ("made with", [given["tools"]])]
        block = VGroup()
        for heading, texts in parts:
            part = VGroup(wrapped(heading, size, width, style.MUTED),
                          *(wrapped(text, size, width) for text in texts))
            block.add(part.arrange(DOWN, buff=size / 120))
        return block.arrange(DOWN, buff=size / 50)
