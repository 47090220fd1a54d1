"""What each word asks for and what it offers: two short rows of numbers, and their match.

Where its parts stand is :mod:`scenes.components.match_layout`'s to say: the grid scene
opens on the sentence where this one leaves it, laid out the same way.
"""

from __future__ import annotations

from manim import (
    DOWN,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
)

from production.language import N_
from scenes import core_words, style
from scenes.base import ChapterScene
from scenes.components.match_layout import lay_out
from scenes.numbers import decimal


class AskAndOffer(ChapterScene):
    """What the reader asks for, what its top word offers, and their match term by term."""

    relabel = staticmethod(core_words.shown)

    section = "ask_offer"
    title = N_("What each word asks for, and offers")
    beat_seconds = {"words": 6.0, "asks": 8.0, "offers": 8.0, "multiply": 9.0, "sum": 7.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"reader": n["reader"], "top_word": n["top_word"], "match": decimal(n["top_match"])}

    def construct(self) -> None:
        p = lay_out(self.numbers, self.frame())
        sentence, query, key, products = p.sentence, p.query, p.key, p.products
        reader_word = sentence[self.numbers["reader_index"]]
        top_word = sentence[self.numbers["top_index"]]

        # The viewer sees the sentence, and under it that every word will carry two short
        # rows.
        b = self.beat("words")
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.15) for w in sentence), lag_ratio=0.08),
                  FadeIn(p.intro, shift=UP * 0.15), run_time=b.part(0.25))

        # The viewer sees the reader's row: what "it" asks for, feature by feature; the
        # features' names come in as the promise leaves.
        b = self.beat("asks")
        self.play(FadeOut(p.intro), sentence.animate.shift(RIGHT * p.shift), FadeIn(p.features),
                  run_time=b.part(0.15))
        self.play(reader_word.animate.set_color(style.QUERY), run_time=b.part(0.1))
        self.play(Create(p.ties[0]), FadeIn(p.asks, shift=DOWN * 0.1), run_time=b.part(0.2))
        self.play(query.make_fill_animation(), run_time=b.part(0.35))

        # The viewer sees the top word's row: what "cat" offers, on the same features.
        b = self.beat("offers")
        self.play(top_word.animate.set_color(style.KEY), Create(p.ties[1]),
                  FadeIn(p.offers, shift=DOWN * 0.1), run_time=b.part(0.25))
        self.play(key.make_fill_animation(), run_time=b.part(0.35))

        # The viewer sees the two rows side by side, multiplied feature by feature.
        b = self.beat("multiply")
        self.play(FadeOut(p.ties), query.animate.set_x(p.final[0]),
                  p.asks.animate.set_x(p.heads[0]), key.animate.set_x(p.final[1]),
                  p.offers.animate.set_x(p.heads[1]),
                  run_time=b.part(0.3))
        self.play(FadeIn(p.signs), FadeIn(p.term), run_time=b.part(0.15))
        self.play(products.make_fill_animation(lag_ratio=0.4), run_time=b.part(0.35))

        # The viewer sees the products added up into one number: the match, q · k.
        b = self.beat("sum")
        self.play(Create(p.rule), run_time=b.part(0.15))
        self.play(FadeIn(p.total, shift=DOWN * 0.15), FadeIn(p.name), run_time=b.part(0.25))
        self.play(FadeIn(p.note), run_time=b.part(0.2))
        # The sentence stays: the grid of every word's matches opens with it.
        self.hand_over(sentence)
