"""The misreading to head off: generating is not inventing; weights are not reasons.

On a tall (9:16) frame what stands in a row is stacked: the prompt becomes a column
with the next word at its foot, the row of weights a column of bars.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    Rectangle,
    VGroup,
)

from scenes import style
from scenes.base import (
    ChapterScene,
    align_baselines,
    baseline,
    quoted,
    stack_lines,
    word_row,
    words,
)
from scenes.lines import wrapped

BAR_HEIGHT = 2.4  # scene units for a share of 1.0
#: tall: the length of a bar for a share of 1.0, and from one word's line to the next
TALL_BAR = 4.0
TALL_STEP = 0.6


class TheMisreading(ChapterScene):
    """Two things the chapter does not say."""

    section = "misreading"
    title = "The misreading to head off"
    beat_seconds = {"generating": 10.0, "weights": 10.0, "recap": 8.0}

    def _wrapped(self, text: str, size: int, color=style.INK) -> VGroup:
        """``text`` as one Text, or tall on as many centred lines as the frame needs."""
        if not self.tall:
            return words(text, size, color)
        left, right, _, _ = self.area()
        return wrapped(text, size, right - left, color)

    def _at_top(self, m):
        """``m`` at the top of the picture: the frame's edge, or tall, the picture area's."""
        if not self.tall:
            return m.to_edge(UP, buff=style.EDGE)
        return m.set_x(self.centre()[0]).set_y(self.area()[3], UP)

    def construct(self) -> None:
        n = self.numbers
        tall = self.tall

        # The viewer sees a prompt, and the next word arriving from everything before it.
        b = self.beat("generating")
        heading = self._at_top(self._wrapped("Generating is not inventing", style.HEADING))
        prompt = word_row(n["prompt"], style.BODY)
        nxt = words(n["predicted"], style.BODY, style.WRITER)
        if tall:  # a word a line, the next word at the foot; the arrows bend round the left
            line = stack_lines(VGroup(*prompt, nxt), TALL_STEP)
            line.set_y(heading.get_bottom()[1] - 0.5, UP)
            arrows = VGroup(*(
                CurvedArrow(w.get_left() + LEFT * 0.15, nxt.get_left() + LEFT * 0.15,
                            angle=1.2, color=style.MUTED, stroke_width=2, tip_length=0.12)
                for w in prompt
            ))
            VGroup(line, arrows).set_x(self.centre()[0])
        else:
            line = VGroup(*prompt, nxt).arrange(RIGHT, buff=style.GAP).move_to(UP * 0.4)
            align_baselines(line)
            arrows = VGroup(*(
                CurvedArrow(w.get_top() + UP * 0.1, nxt.get_top() + UP * 0.1 + LEFT * 0.1,
                            angle=-0.9, color=style.MUTED, stroke_width=2, tip_length=0.12)
                for w in prompt
            ))
        note = self._wrapped("the next piece, conditioned on every piece before it",
                          style.LABEL, style.MUTED).next_to(line, DOWN, buff=style.GAP * 2)
        self.play(FadeIn(heading), FadeIn(prompt), run_time=b.part(0.2))
        self.play(LaggedStart(*(Create(a) for a in arrows), lag_ratio=0.1), run_time=b.part(0.3))
        self.play(FadeIn(nxt, shift=RIGHT * 0.2), FadeIn(note), run_time=b.part(0.2))

        # The viewer sees one row of weights: what was combined, and a crossed-out "why".
        b = self.beat("weights")
        self.play(FadeOut(VGroup(heading, prompt, nxt, arrows, note)), run_time=b.part(0.1))
        heading = self._at_top(self._wrapped("The weights are not the reasons", style.HEADING))
        labels = word_row(n["words"], style.LABEL)
        if tall:  # a word a line, its bar to the right of it
            stack_lines(labels, 0.5, aligned_edge=RIGHT)
            bars = VGroup(*(
                Rectangle(width=max(TALL_BAR * w, 0.02), height=0.3, stroke_width=0,
                          fill_color=style.WEIGHT, fill_opacity=0.85)
                for w in n["row_weights"]
            ))
            middle = words("x", style.LABEL).height / 2  # of the lower-case letters
            for bar, label in zip(bars, labels):
                bar.move_to((labels.get_right()[0] + 0.25, baseline(label) + middle, 0),
                            aligned_edge=LEFT)
        else:
            bars = VGroup(*(
                Rectangle(width=0.5, height=max(BAR_HEIGHT * w, 0.02), stroke_width=0,
                          fill_color=style.WEIGHT, fill_opacity=0.85)
                for w in n["row_weights"]
            ))
            floor = labels.get_top()[1] + 0.15
            for bar, label in zip(bars, labels):
                bar.move_to([label.get_center()[0], floor + bar.height / 2, 0])
        reader = labels[n["reader_index"]]
        reader.set_color(style.QUERY)
        row_note = words(f"the row of {quoted(n['reader'])}", style.LABEL, style.QUERY)
        row_note.next_to(VGroup(bars, labels) if tall else bars, UP, buff=style.GAP)
        chart = VGroup(bars, labels, row_note)
        if tall:
            chart.set_x(self.centre()[0]).set_y(heading.get_bottom()[1] - 0.4, UP)
        else:
            chart.move_to(UP * 0.3)
        what = words("what was combined", style.BODY, style.WEIGHT)
        why = words("why the answer came out", style.BODY, style.MUTED)
        side = VGroup(what, why).arrange(DOWN, buff=style.GAP, aligned_edge=LEFT)
        side.next_to(chart, DOWN, buff=style.GAP * 1.5)
        cross = Line(why.get_left(), why.get_right(), color=style.BAD, stroke_width=5)
        self.play(FadeIn(heading), FadeIn(labels), FadeIn(row_note), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(bar, shift=UP * 0.1) for bar in bars), lag_ratio=0.08),
                  run_time=b.part(0.25))
        self.play(FadeIn(what), run_time=b.part(0.1))
        self.play(FadeIn(why), run_time=b.part(0.1))
        self.play(Create(cross), run_time=b.part(0.1))

        # The viewer sees the chapter in one sentence.
        b = self.beat("recap")
        self.play(FadeOut(VGroup(heading, chart, side, cross)), run_time=b.part(0.15))
        recap = VGroup(
            self._wrapped("Read all of it.", style.HEADING),
            self._wrapped("Write one piece at a time.", style.HEADING),
            self._wrapped("At every piece, decide afresh where to look.", style.HEADING,
                       style.WEIGHT),
        ).arrange(DOWN, buff=style.GAP * 2 if tall else style.GAP)
        if tall:
            recap.move_to(self.centre())
        self.play(LaggedStart(*(FadeIn(r, shift=UP * 0.2) for r in recap), lag_ratio=0.4),
                  run_time=b.part(0.5))
