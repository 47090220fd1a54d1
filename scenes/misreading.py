"""The misreading to head off: generating is not inventing; weights are not reasons."""

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
from scenes.base import ChapterScene, align_baselines, quoted, word_row, words

BAR_HEIGHT = 2.4  # scene units for a share of 1.0


class TheMisreading(ChapterScene):
    """Two things the chapter does not say."""

    section = "misreading"
    title = "The misreading to head off"
    beat_seconds = {"generating": 10.0, "weights": 10.0, "recap": 8.0}

    def construct(self) -> None:
        n = self.numbers

        # The viewer sees a prompt, and the next word arriving from everything before it.
        b = self.beat("generating")
        heading = words("Generating is not inventing", style.HEADING).to_edge(UP, buff=style.EDGE)
        prompt = word_row(n["prompt"], style.BODY)
        nxt = words(n["predicted"], style.BODY, style.WRITER)
        line = VGroup(*prompt, nxt).arrange(RIGHT, buff=style.GAP).move_to(UP * 0.4)
        align_baselines(line)
        arrows = VGroup(*(
            CurvedArrow(w.get_top() + UP * 0.1, nxt.get_top() + UP * 0.1 + LEFT * 0.1,
                        angle=-0.9, color=style.MUTED, stroke_width=2, tip_length=0.12)
            for w in prompt
        ))
        note = words("the next piece, conditioned on every piece before it",
                     style.LABEL, style.MUTED).next_to(line, DOWN, buff=style.GAP * 2)
        self.play(FadeIn(heading), FadeIn(prompt), run_time=b.part(0.2))
        self.play(LaggedStart(*(Create(a) for a in arrows), lag_ratio=0.1), run_time=b.part(0.3))
        self.play(FadeIn(nxt, shift=RIGHT * 0.2), FadeIn(note), run_time=b.part(0.2))

        # The viewer sees one row of weights: what was combined, and a crossed-out "why".
        b = self.beat("weights")
        self.play(FadeOut(VGroup(heading, prompt, nxt, arrows, note)), run_time=b.part(0.1))
        heading = words("The weights are not the reasons", style.HEADING)
        heading.to_edge(UP, buff=style.EDGE)
        labels = word_row(n["words"], style.LABEL)
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
        row_note.next_to(bars, UP, buff=style.GAP)
        chart = VGroup(bars, labels, row_note).move_to(UP * 0.3)
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
            words("Read all of it.", style.HEADING),
            words("Write one piece at a time.", style.HEADING),
            words("At every piece, decide afresh where to look.", style.HEADING, style.WEIGHT),
        ).arrange(DOWN, buff=style.GAP)
        self.play(LaggedStart(*(FadeIn(r, shift=UP * 0.2) for r in recap), lag_ratio=0.4),
                  run_time=b.part(0.5))
