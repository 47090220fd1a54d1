"""Average, join, write: the rest of the attention decoder's first step.

Opens on what the scores' scene left (the English states with their weights, and the
decoder's previous state) and moves it into the step picture
(:func:`scenes.components.decoder_step.step_picture`): the weighted copies of the states
pour down into one strip, this step's context; the context and the previous state join
into the new state; the table then makes way for the output, the new state over a
feed-forward layer's distribution over the French words, the most likely written at the
top; and the new state goes back into the table as the next step's previous state.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene
from scenes.components.bar_list import BarList
from scenes.components.decoder_step import (
    StepTable,
    line_height,
    probability_text,
    row_name,
    score_rows,
    step_picture,
    step_rows,
    weight_text,
    weighted_copies,
)
from scenes.lines import text_width, wrapped
from scenes.numbers import percent_figure

#: from the new state down to the distribution, and around its arrow's label
DROP = 0.12
#: the most room a French word's row of the distribution takes, in lines of its text
ROW_LINES = 2.0


class AverageAndWrite(ChapterScene):
    """The weighted average, the new state, the output word, and the state carried on."""

    section = "step"
    title = N_("Average, join, write: one step")
    opens_with = "the encoder states with their weights"
    beat_seconds = {"average": 12.0, "join": 9.0, "output": 10.0, "onward": 10.0}
    marks = {"average": ("context",), "output": ("word",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """The word weighed most, the word written and its probability, from the ledger."""
        first = numbers["first"]
        return {"top_word": numbers["source"][numbers["top"]], "word": first["word"],
                "probability": percent_figure(numbers["ranked_probabilities"][0], 1)}

    def construct(self) -> None:
        n = self.numbers
        frame = self.frame()
        first = n["first"]
        rows = range(len(n["source"]))
        opening = score_rows(frame, n)
        table, column = step_picture(frame, n)
        self.table = table  # for tests: the measured layout

        names = VGroup(*(table.name(i, w) for i, w in enumerate(n["source"])))
        strips = VGroup(*(table.strip(i, s, style.READER)
                          for i, s in enumerate(n["encoder_states"])))
        bars = VGroup(*(column.bar(table, i, first["weights"][i]) for i in rows))
        weights = VGroup(*(column.value(table, i, weight_text(first["weights"][i]))
                           for i in rows))
        previous_name = table.name("previous", row_name("previous"), style.WRITER)
        previous = table.strip("previous", n["previous"], style.WRITER)
        context_name = table.name("context", row_name("context"), style.READER)
        context = table.strip("context", first["context"], style.READER)
        new_name = table.name("new", row_name("new"), style.WRITER)
        new = table.strip("new", first["state"], style.WRITER)

        # The viewer sees the states and their weights settle into the step picture;
        # weighted copies of the states pour down into one strip: at the mark, the context.
        self.add(*opening.values())
        b = self.beat("average")
        self.play(*(ReplacementTransform(opening[k], part) for k, part in (
            ("names", names), ("strips", strips), ("bars", bars), ("weights", weights),
            ("previous_name", previous_name), ("previous", previous))),
            run_time=min(b.part(0.12), 0.3 * self.time_to("context")))
        copies = weighted_copies(strips, first["weights"])
        self.play(*(c.animate.move_to(context) for c in copies),
                  run_time=min(b.part(0.3), 0.9 * self.time_to("context")))
        self.at("context")
        self.play(FadeOut(copies), FadeIn(context), FadeIn(context_name),
                  run_time=min(b.part(0.12), self.time_left()))

        # The viewer sees the context and the previous state join into the new state.
        b = self.beat("join")
        pair = VGroup(context.copy(), previous.copy())
        self.play(*(p.animate.move_to(new) for p in pair), run_time=b.part(0.3))
        self.play(FadeOut(pair), FadeIn(new), FadeIn(new_name), run_time=b.part(0.12))

        # The viewer sees the table make way: the new state on top, under it the
        # feed-forward layer's probability for every French word; at the mark, the most
        # likely is written at the top.
        b = self.beat("output")
        head, layer, distribution = self.output_layout(table, new, new_name)
        written = step_rows(frame, n, 1)["french"][0]
        self.play(FadeOut(VGroup(names, strips, bars, weights, context_name, context,
                                 previous_name, previous)),
                  new.animate.move_to(head[1]), new_name.animate.move_to(head[0]),
                  run_time=min(b.part(0.15), 0.3 * self.time_to("word")))
        self.play(FadeIn(layer), distribution.make_grow_animation(lag_ratio=0.08),
                  run_time=min(b.part(0.3), 0.9 * self.time_to("word")))
        self.at("word")
        chosen = SurroundingRectangle(distribution.get_row(0), color=style.WRITER,
                                      buff=0.08, stroke_width=3)
        self.play(FadeIn(chosen), FadeIn(written, shift=DOWN * 0.2),
                  run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees the distribution go and the table come back: the new state
        # drops into the previous state's row, ready for the next step.
        b = self.beat("onward")
        after = step_rows(frame, n, 1)
        self.play(FadeOut(VGroup(layer, distribution, chosen)), run_time=b.part(0.12))
        self.play(ReplacementTransform(new, after["previous"]),
                  ReplacementTransform(new_name, after["previous_name"]),
                  FadeIn(after["names"]), FadeIn(after["strips"]), run_time=b.part(0.2))
        self.hand_over(written, after["names"], after["strips"], after["previous_name"],
                       after["previous"])

    def output_layout(self, table: StepTable, new: VGroup, new_name) -> tuple:
        """The new state's row centred at the top of the table (under the French line), a
        feed-forward arrow down from it, and under that the distribution over the French
        words, most likely first, in the room left."""
        n = self.numbers
        kind = self.frame().type
        left, right, bottom = self.area()[:3]
        under_french = self.area()[3] - line_height(kind.body) - 0.2
        head = VGroup(new_name.copy(), new.copy())
        head.shift(UP * (under_french - head.get_top()[1])).set_x(self.centre()[0])
        text = _("feed-forward layer")
        start = head[1].get_bottom()[1] - 0.15
        # under the strip, as near its middle as leaves room for the label on one line at
        # its right, else at its left; else at the strip's left end, the label at its right
        # on two lines
        one_line = text_width(text, kind.label) + 0.45
        lowest, highest = head[1].get_left()[0] + 0.1, head[1].get_right()[0] - 0.1
        x, side = min(head[1].get_x(), right - one_line), RIGHT
        if x < lowest:
            x, side = max(head[1].get_x(), left + one_line), LEFT
        if x > highest:
            x, side = lowest, RIGHT
        label = wrapped(text, kind.label, (right - x if side is RIGHT else x - left) - 0.45,
                        style.MUTED)
        length = max(2 * DROP + label.height, 0.7)
        arrow = Arrow((x, start, 0), (x, start - length, 0), buff=0, color=style.MUTED,
                      stroke_width=3, tip_length=0.18, max_tip_length_to_length_ratio=0.3)
        label.next_to(arrow, side, buff=0.2)
        texts = [probability_text(p) for p in n["ranked_probabilities"]]
        room = arrow.get_bottom()[1] - 0.15 - bottom
        step = min(ROW_LINES * line_height(kind.label), room / len(texts))
        names_w = max(text_width(w, kind.label) for w in n["ranking"])
        texts_w = max(text_width(t, kind.label) for t in texts)
        bar_room = min(right - left - names_w - texts_w - 1.0, 5.0)
        distribution = BarList(n["ranking"], n["ranked_probabilities"], texts,
                               size=kind.label, color=style.WRITER, max_width=bar_room,
                               scale=1.0, row_step=step,
                               bar_height=min(0.3, 0.45 * line_height(kind.label)))
        distribution.move_to((self.centre()[0], 0, 0), coor_mask=RIGHT)
        distribution.shift(UP * (arrow.get_bottom()[1] - 0.15 - distribution.get_top()[1]))
        return head, VGroup(arrow, label), distribution


__all__ = ["AverageAndWrite"]
