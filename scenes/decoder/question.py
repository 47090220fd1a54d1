"""The question: at every step, where should the decoder look? Under it, the English
sentence over its French, each French word linked to the English word it reads."""

from __future__ import annotations

from manim import DOWN, UP, FadeIn, LaggedStart, Write

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene
from scenes.components.sentence_pair import SentencePair, pair_rows
from scenes.lines import largest_that_fits, wrapped

QUESTION = N_("At every step, where should the decoder look?")


class DecoderQuestion(ChapterScene):
    """The chapter's question over the sentence pair; the links cross where the French
    puts a word elsewhere. Hands the English line over to the next scene."""

    section = "question"
    title = N_("Where should the decoder look?")
    beat_seconds = {"question": 7.7}
    marks = {"question": ("french",)}

    def construct(self) -> None:
        n = self.numbers
        frame = self.frame()
        left, right, bottom, top = self.area()
        rows = pair_rows(frame, n["source"], n["target"])
        pair = SentencePair(n["source"], n["target"], n["reads"], n["crossing"], rows)
        self.pair = pair  # for tests: what is drawn
        # The question as large as fits above the pair, in the middle of its part.
        above = pair.get_english().get_top()[1]
        room = (0.95 * (right - left), top - above - 2 * style.GAP)
        question = largest_that_fits(lambda size: wrapped(_(QUESTION), size, room[0]),
                                     (frame.type.title, frame.type.heading), room)
        question.move_to([self.centre()[0], (top + above + style.GAP) / 2, 0])

        # The viewer sees the question, the English sentence under it; then, as the voice
        # says "French", the French sentence, and a link from each French word up to the
        # English word it reads: two of them cross.
        b = self.beat("question")
        self.play(Write(question), run_time=min(b.part(0.25), 0.6 * self.time_to("french")))
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.2) for w in pair.get_english()),
                              lag_ratio=0.15), run_time=min(b.part(0.15), self.time_to("french")))
        self.at("french")
        self.play(FadeIn(pair.get_french(), shift=UP * 0.2, lag_ratio=0.15),
                  run_time=min(b.part(0.15), self.time_left()))
        self.play(*pair.make_links_animation(), run_time=min(b.part(0.2), self.time_left()))
        self.hand_over(pair.get_english())
