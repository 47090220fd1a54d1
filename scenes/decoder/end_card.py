"""The chapter's end card: what it taught in three short lines, then its credits."""

from __future__ import annotations

from manim import UP, FadeIn

from production.language import N_, _
from scenes.base import ChapterScene
from scenes.components.end_card import end_card_parts

#: what the chapter taught, one idea a line, each with the mark its line appears on
LEARNED = (N_("Keep a state for every word."), N_("Weigh them all afresh at every step."),
           N_("Keep attention, drop the chain, add position."))
MARKS = ("state", "weigh", "attention")


class DecoderEndCard(ChapterScene):
    """The chapter in three lines, each as the voice says it, then who spoke it and what
    drew it."""

    section = "decoder_end"
    title = N_("What we learned, and credits")
    beat_seconds = {"learned": 10.0, "credits": 7.0}
    marks = {"learned": MARKS}
    names_next = True

    def construct(self) -> None:
        lines, credits = end_card_parts(self, tuple(_(line) for line in LEARNED))

        # The viewer sees the chapter in three lines, each as the voice begins it.
        b = self.beat("learned")
        for k, (line, mark) in enumerate(zip(lines.get_lines(), MARKS)):
            self.at(mark)
            until = self.time_to(MARKS[k + 1]) if k + 1 < len(MARKS) else self.time_left()
            self.play(FadeIn(line, shift=UP * 0.2), run_time=min(b.part(0.12), until))
        if len(lines.get_following()):  # the course's next chapter, if there is one
            self.play(FadeIn(lines.get_following()), run_time=min(b.part(0.1),
                                                                   self.time_left()))

        # The viewer sees who spoke the chapter, under what licence, and what made it.
        b = self.beat("credits")
        self.play(lines.make_exit_animation(), run_time=b.part(0.15))
        self.play(credits.make_entrance_animation(), run_time=b.part(0.4))
