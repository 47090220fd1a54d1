"""Every step afresh: the attention decoder's steps after the first, in the step picture.

Opens on what the step scene left (the step picture between steps: the English states,
the decoder's previous state, and the first French word) and runs every later step
through it: the last new state drops into the previous state's row, the weights move
(as the voice names the English word they fall on), their weighted copies pour into the
context, the context and the previous state make the new state, and the French word
appears as the voice says it. Then the table goes, and the two sentences stand one over
the other (side by side, in columns, where the frame lays things down), each French word
tied to the English words by its step's weights.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    Indicate,
    Line,
    ReplacementTransform,
    Transform,
    VGroup,
    config,
)

from production.language import N_
from scenes import style
from scenes.base import ChapterScene, baseline, stack_lines, word_row, words
from scenes.components.decoder_step import (
    row_name,
    step_picture,
    step_rows,
    weight_text,
    weighted_copies,
)
from scenes.lines import largest_that_fits, text_height

#: the beats of the steps after the first, in order, and their marks' prefixes
STEP_BEATS = ("second", "third", "fourth")
#: the sentences at the end: between words in a row; from one word's baseline to the next in
#: a column, at most, as many times the words' size (in sixtieths of a unit); and from the
#: English to the French, as a share of the room they stand apart in (scene units, at most)
WORD_GAP = 0.6
WORD_SPREAD = 3.0
DROP_SHARE, MAX_DROP = 0.45, 3.2


class EveryStepAfresh(ChapterScene):
    """Steps two to four: new weights every step, the French growing word by word."""

    section = "steps"
    title = N_("Every step decides afresh")
    opens_with = "the decoder's step picture and the first French word"
    beat_seconds = {"second": 12.0, "third": 11.0, "fourth": 7.0, "grown": 12.0}
    marks = {beat: (f"{beat}_read", beat) for beat in STEP_BEATS}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """For each later step, the English word weighed most and the French word written;
        and the word step two skips, the one before the word it reads."""
        source, written, reads = numbers["source"], numbers["written"], numbers["reads"]
        values = {}
        for k, beat in enumerate(STEP_BEATS, 1):
            values[f"{beat}_word"] = written[k]
            values[f"{beat}_read"] = source[reads[k]]
        values["second_skipped"] = source[reads[1] - 1]
        return values

    def construct(self) -> None:
        n = self.numbers
        frame = self.frame()
        table, column = step_picture(frame, n)
        self.table = table  # for tests: the measured layout
        opening = step_rows(frame, n, 1)
        french = opening["french"]
        names, strips = opening["names"], opening["strips"]
        previous_name, previous = opening["previous_name"], opening["previous"]
        rows = range(len(n["source"]))
        context_name = table.name("context", row_name("context"), style.READER)
        new_name = table.name("new", row_name("new"), style.WRITER)
        self.add(french[0], names, strips, previous_name, previous)

        bars = weights = context = new = None
        for k, beat in enumerate(STEP_BEATS, 1):
            b = self.beat(beat)
            step = n["steps"][k]
            # The viewer sees the last new state drop into the previous state's row (at
            # step two, the previous state light up); at the mark, the weights move to
            # the word they fall on most.
            if new is None:
                self.play(Indicate(VGroup(previous_name, previous), color=style.WRITER,
                                   scale_factor=1.05),
                          run_time=min(b.part(0.15), self.time_to(f"{beat}_read")))
            else:
                moved = table.strip("previous", n["previous_states"][k], style.WRITER)
                self.play(FadeOut(VGroup(context, context_name, new_name)),
                          ReplacementTransform(new, moved), FadeOut(previous),
                          run_time=min(b.part(0.15), self.time_to(f"{beat}_read")))
                previous = moved
            self.at(f"{beat}_read")
            read = n["reads"][k]
            new_bars = VGroup(*(column.bar(table, i, step["weights"][i]) for i in rows))
            new_weights = VGroup(*(column.value(table, i, weight_text(step["weights"][i]))
                                   for i in rows))
            lit = [names[i].animate.set_color(style.WEIGHT if i == read else style.INK)
                   for i in rows]
            until_word = self.time_to(beat)
            if bars is None:
                self.play(*(GrowFromEdge(bar, LEFT) for bar in new_bars),
                          FadeIn(new_weights), *lit, run_time=0.25 * until_word)
            else:
                self.play(*(Transform(bars[i], new_bars[i]) for i in rows),
                          FadeOut(weights), FadeIn(new_weights), *lit,
                          run_time=0.25 * until_word)
                new_bars = bars
            bars, weights = new_bars, new_weights
            # The viewer sees weighted copies of the states pour into this step's context,
            # and the context and the previous state make the new state.
            context = table.strip("context", step["context"], style.READER)
            new = table.strip("new", step["state"], style.WRITER)
            copies = weighted_copies(strips, step["weights"])
            self.play(*(c.animate.move_to(context) for c in copies), run_time=0.25 * until_word)
            self.play(FadeOut(copies), FadeIn(context), FadeIn(context_name),
                      run_time=0.1 * until_word)
            pair = VGroup(context.copy(), previous.copy())
            self.play(*(p.animate.move_to(new) for p in pair), run_time=0.2 * until_word)
            self.play(FadeOut(pair), FadeIn(new), FadeIn(new_name), run_time=0.1 * until_word)
            # At the mark, the French word appears in its place.
            self.at(beat)
            self.play(FadeIn(french[k], shift=DOWN * 0.2),
                      run_time=max(min(b.part(0.12), self.time_left()), 1 / config.frame_rate))

        # The viewer sees the table go: the English sentence over the French one, each
        # French word tied to the English words by its step's weights.
        b = self.beat("grown")
        english, written, links = self.sentences()
        table_parts = [m for m in (bars, weights, context, context_name, new, new_name)
                       if m is not None]
        self.play(FadeOut(VGroup(strips, previous, previous_name, *table_parts)),
                  *(ReplacementTransform(names[i], english[i]) for i in rows),
                  *(ReplacementTransform(french[k], written[k]) for k in range(len(written))),
                  run_time=b.part(0.2))
        self.play(*(FadeIn(line) for line in links), run_time=b.part(0.25))

    def sentences(self) -> tuple[VGroup, VGroup, VGroup]:
        """The English sentence and the French, each word its own text, as large as fits
        the area: where the frame lays things across, in two rows, the French under the
        English; else in two columns, the French right of the English, each word under the
        one before, so the words can be larger. From each French word a line to every
        English word, as thick and as bright as that step's weight."""
        n = self.numbers
        frame = self.frame()
        kind = frame.type
        left, right, bottom, top = self.area()
        room = (right - left, top - bottom)
        sizes = (kind.title, kind.heading, kind.body, kind.label)
        apart = DOWN if frame.across else RIGHT  # from the English to the French
        # between the two sentences, as a share of the room they stand apart in
        drop = min(DROP_SHARE * (room[1] if frame.across else room[0]), MAX_DROP)

        def pair(size: int) -> VGroup:
            if frame.across:
                english = word_row(n["source"], size, style.INK, buff=WORD_GAP)
                written = word_row(n["written"], size, style.WRITER, buff=WORD_GAP)
                written.move_to(english.get_center() + DOWN * drop)
            else:
                step = min(room[1] / len(n["source"]), WORD_SPREAD * size / 60)
                english = stack_lines([words(w, size, style.INK) for w in n["source"]],
                                      step, aligned_edge=RIGHT)
                written = stack_lines([words(w, size, style.WRITER) for w in n["written"]],
                                      step, aligned_edge=LEFT)
                written.shift(RIGHT * (english.get_right()[0] + drop - written.get_left()[0]))
            return VGroup(english, written)

        english, written = largest_that_fits(pair, sizes, room)
        # the point halfway between the two sentences at the area's centre
        halfway = (english.get_center() + written.get_center()) / 2
        VGroup(english, written).shift(self.centre() - halfway)
        def end(word, side):
            """Where a line leaves ``word`` on its ``side``: beside it, level with the middle
            of its lower-case letters."""
            point = word.get_edge_center(side) + side * 0.12
            if side[1] == 0:
                point[1] = baseline(word) + text_height("x", int(word.font_size)) / 2
            return point

        links = VGroup()
        for k, step in enumerate(n["steps"]):
            for i, w in enumerate(step["weights"]):
                link = Line(end(written[k], -apart), end(english[i], apart),
                            color=style.WEIGHT, stroke_width=1 + 9 * w)
                links.add(link.set_stroke(opacity=w))
        return english, written, links


__all__ = ["EveryStepAfresh"]
