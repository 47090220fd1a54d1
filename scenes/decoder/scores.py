"""Score every state, then softmax: the attention decoder's first step, up to its weights.

The English words stand in a column, each with the state the encoder left after it, as
large as the room lets them be (:meth:`~scenes.components.decoder_step.StepTable.alone`);
they make room for the table as the decoder's previous state (before the first step, its
fixed start) comes in under them. A copy of that state passes along the English rows, one
score lands in each, and the softmax turns the scores into weights: bars that share out
one whole. The table is :func:`scenes.components.decoder_step.score_table`, measured for
the frame: the scores in a column of their own before the weights where the room allows,
else in the weights' place until the softmax replaces them.
"""

from __future__ import annotations

from manim import (
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    ReplacementTransform,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, align_baselines, words
from scenes.components.decoder_step import (
    TOTAL,
    StepTable,
    WeightColumn,
    kept_rows,
    score_rows,
    scores_picture,
    weight_text,
)
from scenes.lines import text_height
from scenes.numbers import decimal


class ScoreEveryState(ChapterScene):
    """Every encoder state kept, scored against the decoder's previous state, softmaxed."""

    section = "scores"
    title = N_("Score every state, then softmax")
    beat_seconds = {"keep": 10.0, "previous": 9.0, "score": 12.0, "softmax": 13.0}
    marks = {"score": ("top_score",), "softmax": ("total",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """The best-scored word, its score and its weight, from the ledger."""
        first, top = numbers["first"], numbers["top"]
        return {"top_word": numbers["source"][top], "top_score": decimal(first["scores"][top]),
                "top_weight": weight_text(first["weights"][top])}

    def construct(self) -> None:
        n = self.numbers
        frame = self.frame()
        kind = frame.type
        first = n["first"]
        table, column = scores_picture(frame, n)
        alone = kept_rows(frame, n)
        kept = score_rows(frame, n)
        names, strips = kept["names"], kept["strips"]
        bars, weights = kept["bars"], kept["weights"]
        previous_name, previous = kept["previous_name"], kept["previous"]
        rows = range(len(n["source"]))
        # where the scores stand: a column of their own, or the weights' place
        own_column = column.score_right is not None
        scores = VGroup(*(
            column.score(table, i, decimal(s)) if own_column
            else column.value(table, i, decimal(s), style.INK)
            for i, s in enumerate(first["scores"])))
        total = VGroup(words(_("total"), kind.label, style.MUTED),
                       column.value(table, TOTAL, weight_text(n["weight_total"])))
        total[0].next_to(total[1], LEFT, buff=0.2)
        align_baselines([total[1], total[0]])
        heads = self.headings(table, column, own_column)
        self.table = table  # for tests: the measured layout

        # The viewer sees the English words, each with the state the encoder left: all kept,
        # as large as the room lets them be.
        b = self.beat("keep")
        self.play(LaggedStart(*(FadeIn(VGroup(alone["names"][i], alone["strips"][i]),
                                       shift=RIGHT * 0.2)
                                for i in rows), lag_ratio=0.25), run_time=b.part(0.35))
        self.play(FadeIn(heads["states"]), run_time=b.part(0.1))

        # The viewer sees the rows make room for the table (where the room is short) and the
        # decoder's previous state appear under them (at step 1, its start).
        b = self.beat("previous")
        self.play(ReplacementTransform(alone["names"], names),
                  ReplacementTransform(alone["strips"], strips), run_time=b.part(0.12))
        self.play(FadeIn(previous_name), FadeIn(previous, shift=UP * 0.2), run_time=b.part(0.2))

        # The viewer sees a copy of that state pass along the English rows; at the mark, a
        # score lands in every row.
        b = self.beat("score")
        each = min(b.part(0.12), 0.9 * self.time_to("top_score") / len(rows))
        for i in rows:
            ghost = previous.copy().set_opacity(0.55)
            self.play(ghost.animate.move_to(strips[i]), run_time=each * 2 / 3)
            self.play(FadeOut(ghost), run_time=each / 3)
        self.at("top_score")
        self.play(FadeIn(heads["score"]), FadeIn(scores, shift=LEFT * 0.15, lag_ratio=0.1),
                  run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees the softmax turn the scores into weights: bars and figures; at
        # the mark, their total.
        b = self.beat("softmax")
        leaving = () if own_column else (FadeOut(scores), FadeOut(heads["score"]))
        self.play(*leaving, FadeIn(heads["softmax"]), FadeIn(heads["weight"]),
                  LaggedStart(*(GrowFromEdge(bar, LEFT) for bar in bars), lag_ratio=0.1),
                  FadeIn(weights, lag_ratio=0.1),
                  run_time=min(b.part(0.25), 0.9 * self.time_to("total")))
        self.at("total")
        self.play(FadeIn(total, shift=UP * 0.1), run_time=min(b.part(0.1), self.time_left()))
        self.hand_over(names, strips, bars, weights, previous_name, previous)

    def headings(self, table: StepTable, column: WeightColumn, own_column: bool
                 ) -> dict[str, VGroup]:
        """The names of the columns on a line over the table: the states' over the strips
        (shifted left to clear the others, if the area lets it), the scores' over their
        figures, "softmax" over the bars (where they stand in a column of their own) and
        "weight" over the weights' figures."""
        kind = table.kind
        top = self.area()[3]
        base = top - text_height("h" + "".join(c for c in _("score") + _("weight") + _("softmax")
                                               + _("encoder states") if c > "~"), kind.label)
        value_right = column.value_right

        def head(text: str, x: float, edge=RIGHT, color=style.MUTED):
            label = words(text, kind.label, color)
            label.set_x(x, edge)  # (ORIGIN: centred on x)
            align_baselines([label], base)
            return label

        score = head(_("score"), column.score_right if own_column else value_right)
        weight = head(_("weight"), value_right, color=style.WEIGHT)
        softmax = head(_("softmax"), column.bar_left + column.bar_length / 2, ORIGIN)
        states = head(_("encoder states"), table.strip_left, LEFT, style.READER)
        if table.bars_under or any(
                abs(softmax.get_x() - m.get_x()) < (softmax.width + m.width) / 2 + 0.3
                for m in (score, weight)):  # too narrow, or the bars under the strips
            softmax = VGroup()
        first_figure = min(m.get_left()[0] for m in (score, softmax, weight) if m.submobjects)
        # over the strips from their left edge, or as far left of it as clears the figures
        states.shift(LEFT * max(states.get_right()[0] - (first_figure - 0.3), 0.0))
        if states.get_left()[0] < self.area()[0] or states.width > table.strip_width + 0.5:
            states = VGroup()
        return {"states": states, "score": score, "softmax": softmax, "weight": weight}


__all__ = ["ScoreEveryState"]
