"""The misreading to head off: generating is not inventing; weights are not reasons.

One layout for every frame, measured from the frame's room: a sentence that fits the
width stands in a row with its arrows arching over it, otherwise it stands as a column
whose arrows fan out to the next word; a row of weights is a row of upright bars when
its words fit the width, otherwise a column of bars lying down. What goes with a
picture (a note, the two readings of a weight) goes under it when there is room, and
beside it when there is not.
"""

from __future__ import annotations

import math

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    CurvedArrow,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, align_baselines, baseline, quoted, stack_lines, words
from scenes.components.potion_layout import glyphs, written_heading
from scenes.components.spacing import closest, reach
from scenes.lines import text_height, wrapped

#: from a heading to what is under it, and from a picture to its note (scene units)
GAP = 0.35
#: the widest a column of the weights' chart may be, as a share of the room
CHART_SHARE = 0.85


class TheMisreading(ChapterScene):
    """Two things the chapter does not say."""

    section = "misreading"
    title = N_("The misreading to head off")
    opens_with = "the predicted word and its context"
    beat_seconds = {"generating": 10.0, "weights": 10.0}

    # ------------------------------------------------------------- layout
    def _heading(self, text: str) -> VGroup:
        """A heading on as many lines as the frame's width needs, at the top of the room."""
        left, right, _, top = self.area()
        return wrapped(text, self.frame().type.heading, right - left).move_to(
            (self.centre()[0], top, 0), aligned_edge=UP)

    def _below(self, heading: Mobject) -> tuple[float, float, float, float]:
        """(left, right, bottom, top): the room under ``heading``."""
        left, right, bottom, _ = self.area()
        return left, right, bottom, heading.get_bottom()[1] - GAP

    def _sentence(self, room, note_text: str):
        """The prompt and the word written after it, with an arrow from every word of the
        prompt to it, and the note under them. Across, as large as the row fits the width,
        its arrows arching over it; else a column whose arrows fan out to the next word,
        the note under the column, or if that leaves the column too little room, under
        the next word."""
        n = self.numbers
        scale = self.frame().type
        left, right, bottom, top = room
        for size in (scale.heading, scale.body):  # the largest type the row fits in
            prompt = VGroup(*(words(w, size) for w in n["prompt"]))
            nxt = words(n["predicted"], size, style.WRITER)
            line = VGroup(*prompt, nxt).arrange(RIGHT, buff=style.GAP)
            if line.width <= right - left:
                break
        if line.width <= right - left:  # across: the arrows arch over the row
            align_baselines(line)
            note = self._note(note_text, right - left)
            rise = min(3.2, top - bottom - note.height - GAP - line.height - 0.3)
            # one bend for every arrow, the longest rising ``rise``: an arc of angle a over
            # a chord c rises c/2 * tan(a/4)
            bend = min(2.2, 4 * math.atan(2 * rise / (nxt.get_x() - prompt[0].get_x())))
            # the arrows land side by side along the next word's top, in the prompt's order
            arrows = VGroup(*(
                CurvedArrow(w.get_top() + UP * 0.1,
                            nxt.get_top() + UP * 0.1 + RIGHT * nxt.width * 0.6
                            * (i / (len(prompt) - 1) - 0.5),
                            angle=-bend, color=style.MUTED, stroke_width=2.5, tip_length=0.15)
                for i, w in enumerate(prompt)))
            note.next_to(line, DOWN, buff=GAP)
            return _centred(VGroup(arrows, line, note), room), prompt, nxt, arrows, note
        # down: a word a line, the next word right of them, the arrows fanning in
        low = closest(prompt) + 0.04
        ends = reach(prompt, 0)  # above the first baseline and below the last
        widest = max(w.width for w in prompt)
        note = self._note(note_text, right - left)
        step = (top - bottom - note.height - GAP - ends) / (len(prompt) - 1)
        under_column = step >= low
        if not under_column:  # the note goes under the next word, in the room right of it
            step = (top - bottom - ends) / (len(prompt) - 1)
            note = self._note(note_text, right - left - widest - 1.5)
        fan = min(3.0, right - left - widest - max(nxt.width, 0 if under_column else note.width))
        stack_lines(prompt, min(size / 60 * 1.5, step), aligned_edge=RIGHT)
        nxt.next_to(prompt, RIGHT, buff=fan).set_y(prompt.get_y())
        if under_column:
            note.next_to(VGroup(prompt, nxt), DOWN, buff=GAP)
        else:  # high enough for the note to fit under it, level with the column's foot
            nxt.set_y(max(nxt.get_y(), prompt.get_bottom()[1] + note.height + GAP + 0.1),
                      DOWN)
            note.next_to(nxt, DOWN, buff=GAP).align_to(nxt, LEFT)
        # the arrows end side by side down the next word's left, in the prompt's order
        spread = nxt.height * 0.7
        arrows = VGroup(*(
            Arrow(w.get_right(), nxt.get_left() + UP * spread * (0.5 - i / (len(prompt) - 1)),
                  buff=0.12, color=style.MUTED, stroke_width=2.5, tip_length=0.15,
                  max_tip_length_to_length_ratio=0.2)
            for i, w in enumerate(prompt)))
        return _centred(VGroup(prompt, arrows, nxt, note), room), prompt, nxt, arrows, note

    def _note(self, text: str, width: float) -> VGroup:
        return wrapped(text, self.frame().type.label, width, style.MUTED)

    def _chart(self, room):
        """The row of weights, each bar as long as its weight, the largest as long as the
        room allows: upright bars over their words when the words fit the width in a row,
        else a column of words with their bars lying right of them. The two readings of a
        weight go under the chart, or if that leaves it too little room, beside it with
        the name of the row over them."""
        n = self.numbers
        scale = self.frame().type
        left, right, bottom, top = room
        width, height = right - left, top - bottom
        labels = VGroup(*(words(w, scale.label) for w in n["words"]))
        labels[n["reader_index"]].set_color(style.QUERY)
        row_note = words(_("the row of {word}").format(word=quoted(n["reader"])), scale.label,
                         style.QUERY)
        side = self._readings(width)
        weights = n["row_weights"]
        largest = max(weights)
        pitch = min(1.5, width * CHART_SHARE / len(labels))
        if max(w.width for w in labels) + 0.15 <= pitch:  # across: upright bars
            for i, label in enumerate(labels):
                label.set_x(pitch * i)
            align_baselines(labels)
            high = max(1.0, height - row_note.height - labels.height - side.height - 0.55
                       - GAP)
            bars = VGroup(*(
                Rectangle(width=0.55 * pitch, height=max(high * w / largest, 0.02),
                          stroke_width=0, fill_color=style.WEIGHT, fill_opacity=0.85)
                .move_to((label.get_x(), labels.get_top()[1] + 0.15, 0), aligned_edge=DOWN)
                for w, label in zip(weights, labels)))
            row_note.set_x(labels.get_x()).set_y(labels.get_top()[1] + 0.15 + high + 0.2, DOWN)
            side.next_to(labels, DOWN, buff=GAP)
            return _centred(VGroup(bars, labels, row_note, side), room), bars, labels, \
                row_note, side
        # down: a word a line, its bar to the right of it
        low = closest(labels) + 0.04
        ends = reach(labels, 0)
        step = (height - row_note.height - 0.25 - ends - GAP - side.height) / (len(labels) - 1)
        beside = step < low
        if beside:  # the name of the row and the readings stand right of the chart
            step = (height - ends) / (len(labels) - 1)
            side = self._readings(width * 0.42)
            side = VGroup(row_note, side).arrange(DOWN, buff=GAP)
        stack_lines(labels, min(0.8, step), aligned_edge=RIGHT)
        long = (width - (side.width + GAP if beside else 0)) * CHART_SHARE - labels.width - 0.25
        middle = text_height("x", scale.label) / 2  # of the lower-case letters
        bars = VGroup(*(
            Rectangle(width=max(long * w / largest, 0.02), height=min(0.4, step * 0.6),
                      stroke_width=0, fill_color=style.WEIGHT, fill_opacity=0.85)
            .move_to((labels.get_right()[0] + 0.25, baseline(label) + middle, 0),
                     aligned_edge=LEFT)
            for w, label in zip(weights, labels)))
        chart = VGroup(labels, bars)
        if beside:
            side.next_to(chart, RIGHT, buff=GAP)
            side = side[1]
        else:
            row_note.next_to(chart, UP, buff=0.25)
            side.next_to(chart, DOWN, buff=GAP)
        return _centred(VGroup(chart, row_note, side), room), bars, labels, row_note, side

    def _readings(self, width: float) -> VGroup:
        """What a weight is, and what it is not (to be crossed out): each on as few lines as
        ``width`` allows, one under the other."""
        size = self.frame().type.body
        what = wrapped(_("what was combined"), size, width, style.WEIGHT)
        why = wrapped(_("why the answer came out"), size, width, style.MUTED)
        return VGroup(what, why).arrange(DOWN, buff=0.2)

    # ------------------------------------------------------------- beats
    def construct(self) -> None:
        n = self.numbers
        # The viewer sees the word just written after the last word of the prompt, where
        # the scene before left them...
        written = written_heading(self, n["prompt"][-1], n["predicted"])
        self.add(written)

        # ...come down into the whole prompt, and an arrow from every word of it to the
        # written word: it was conditioned on all of them.
        b = self.beat("generating")
        heading = self._heading(_("Generating is not inventing"))
        _whole, prompt, nxt, arrows, note = self._sentence(
            self._below(heading), _("the next piece, conditioned on every piece before it"))
        last, word = glyphs(written, n["prompt"][-1]), glyphs(written, n["predicted"])
        kept = {id(g) for g in (*last, *word)}
        rest = VGroup(*(g for line in written for g in line if id(g) not in kept))
        self.play(FadeOut(rest), ReplacementTransform(last, prompt[-1]),
                  ReplacementTransform(word, nxt), FadeIn(VGroup(*prompt[:-1])),
                  run_time=b.part(0.2))
        self.play(FadeIn(heading), LaggedStart(*(Create(a) for a in arrows), lag_ratio=0.1),
                  run_time=b.part(0.3))
        self.play(FadeIn(note), run_time=b.part(0.15))

        # The viewer sees one row of weights: what was combined, and a crossed-out "why".
        b = self.beat("weights")
        self.play(FadeOut(VGroup(heading, prompt, nxt, arrows, note)), run_time=b.part(0.1))
        heading = self._heading(_("The weights are not the reasons"))
        _whole, bars, labels, row_note, side = self._chart(self._below(heading))
        what, why = side
        cross = VGroup(*(Line(line.get_left(), line.get_right(), color=style.BAD,
                              stroke_width=5).set_y(line.get_y()) for line in why))
        self.play(FadeIn(heading), FadeIn(labels), FadeIn(row_note), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(bar, shift=UP * 0.1) for bar in bars), lag_ratio=0.08),
                  run_time=b.part(0.25))
        self.play(FadeIn(what), run_time=b.part(0.1))
        self.play(FadeIn(why), run_time=b.part(0.1))
        self.play(Create(cross), run_time=b.part(0.1))


def _centred(group: Mobject, room) -> Mobject:
    """``group`` moved to the middle of ``room`` (left, right, bottom, top)."""
    left, right, bottom, top = room
    return group.move_to(((left + right) / 2, (bottom + top) / 2, 0))
