"""The end card: what the chapter taught in three short lines and the course's next
chapter, then its credits."""

from __future__ import annotations

from production.language import N_, _
from scenes.base import ChapterScene
from scenes.components.end_card import end_card_parts

#: what the chapter taught, one idea a line
LEARNED = (N_("Read all of it."), N_("Write one piece at a time."),
           N_("At every piece, decide afresh where to look."))


class EndCard(ChapterScene):
    """The chapter in three lines and what comes next, then who spoke it and what drew
    it."""

    section = "end_card"
    title = N_("What we learned, and credits")
    beat_seconds = {"learned": 8.0, "credits": 6.0}
    names_next = True

    def construct(self) -> None:
        lines, credits = end_card_parts(self, tuple(_(line) for line in LEARNED))

        # The viewer sees the chapter in three lines, one after another, and the course's
        # next chapter under them.
        b = self.beat("learned")
        self.play(lines.make_entrance_animation(lag_ratio=0.3), run_time=b.part(0.35))

        # The viewer sees who spoke the chapter, under what licence, and what made it.
        b = self.beat("credits")
        self.play(lines.make_exit_animation(), run_time=b.part(0.15))
        self.play(credits.make_entrance_animation(), run_time=b.part(0.4))
