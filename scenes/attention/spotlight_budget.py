"""SpotlightBudget, the first spotlight shot: one word asking, 100 points of light.

The asker's question and the words' labels, the light shared out as bars from one
budget column, the hand trace as a table (score, sharpened, exponential, share; their
total), why the rounded shares add to 99%, and the blend into the asker's new summary.
It ends on the words, the lamp and its light, which SharpnessDial
(:mod:`scenes.attention.spotlight`) opens on.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    TransformFromCopy,
    VGroup,
    config,
)

from production.language import N_, _
from scenes import style
from scenes.base import Beat, align_baselines, baseline, quoted, words
from scenes.components.spotlight import ShareBars, SpotlightStage
from scenes.components.spotlight_shot import APART, BAR_SHARE, GAP, height, pair_2
from scenes.components.spotlight_table import Table
from scenes.components.spotlight_trace import HandTrace
from scenes.core_words import spotlight_features as features
from scenes.numbers import decimal, percent

#: the blend's lines from the shares down to the summary are at most this long
MAX_BLEND = 2.4


class SpotlightBudget(HandTrace):
    """100 points of light shared over four words, worked out by hand, then blended."""

    title = N_("A spotlight with 100 points of light")
    beat_seconds = {"stage": 7.0, "light": 7.0, "trace": 10.0, "shares": 8.0, "blend": 8.0}
    marks = {"trace": ("total",), "shares": ("share_1", "share_2", "share_3", "share_4")}

    def construct(self) -> None:
        n = self.numbers
        s = self.sizes
        trace = self.trace()
        table, stage, caption, legend = trace.table, trace.stage, trace.caption, trace.legend
        bars = self.budget_bars(table, stage, legend)
        budget_label = bars.make_total_label(
            _("light to give"), _("{points} points").format(points=n["budget_points"]))
        if budget_label.width > table.totals:
            # wider than its column: at the column's left, level with its top, where the
            # bars are still to come
            track = bars.get_total_track()
            for line in budget_label:
                line.set_x(track.get_left()[0] - 0.3, RIGHT)
            budget_label.align_to(track, UP)

        # The viewer sees the four words, a full column of 100 points of light,
        # then the asking word's lamp with its question and every word's label.
        b = self.beat("stage")
        self.add(stage.get_beams())
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.15) for w in stage.get_words()),
                              lag_ratio=0.15),
                  FadeIn(bars.get_total_track()), FadeIn(bars.get_budget()),
                  FadeIn(budget_label), run_time=b.part(0.25))
        self.play(FadeIn(stage.get_lamp(), scale=0.5), FadeIn(caption), run_time=b.part(0.2))
        self.play(FadeIn(stage.get_labels(), shift=UP * 0.1), FadeIn(legend),
                  run_time=b.part(0.2))

        # The viewer sees the lamp light every word; the full column splits into
        # the four shares, which drop under their words as bars.
        b = self.beat("light")
        percents = self.percent_labels(bars, n["shares"], n["visible"], table.column)
        total_label = self.inside(bars.make_total_label(_("total"), percent(n["exact_total"])))
        self.play(FadeIn(bars.get_segments()), FadeOut(bars.get_budget()),
                  FadeOut(budget_label), FadeIn(total_label), run_time=b.part(0.15))
        self.play(stage.make_light_animation(n["shares"]), FadeIn(bars.get_tracks()),
                  *(TransformFromCopy(piece, bar)
                    for piece, bar in zip(bars.get_segments(), bars.get_bars())),
                  run_time=b.part(0.35))
        self.add(bars)
        self.cue("tick")
        self.play(FadeIn(percents), run_time=b.part(0.12))

        # The viewer sees the bars give way to the hand trace: each word's score,
        # the score sharpened, its exponential, and the exponentials' total.
        b = self.beat("trace")
        rows = [self.table_row(trace, k) for k in range(3)]
        total = rows[2][1]
        header = words(_("total"), s.label, style.MUTED).set_x(table.x(table.count))
        align_baselines([stage.get_words()[0], header])
        self.play(FadeOut(bars), FadeOut(percents), FadeOut(total_label), run_time=b.part(0.12))
        for k, (row, _total) in enumerate(rows):
            self.play(FadeIn(row, shift=DOWN * 0.1), run_time=b.part(0.1))
            self.wait(b.part(0.1 if k < len(rows) - 1 else 0.02))
        self.at("total")  # the total appears as the voice says it
        self.play(FadeIn(header), FadeIn(total), run_time=min(b.part(0.12), self.time_left()))

        # The viewer sees each word's share of the light, one by one as the voice
        # reads them, and why the rounded shares add to 99% while the exact ones add
        # to 100%.
        b = self.beat("shares")
        share_row, summed = self.table_row(trace, 3)
        note = self.note(table)
        note.shift(UP * (share_row.get_bottom()[1] - GAP - note.get_top()[1]))
        label, cells = share_row
        self.play(FadeIn(label, shift=DOWN * 0.1), run_time=b.part(0.1))
        # each word's share appears as the voice says it
        self.fade_in_on_marks(b, self.marks["shares"], cells, b.part(0.06))
        self.play(FadeIn(summed), FadeIn(note), run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees the trace clear away; lines from every word, as thick
        # as its share, gather into the asker's new summary, [thing, action]; then
        # all but the words, the lamp and its light fade, for the sharpness dial.
        b = self.beat("blend")
        rise = UP * (trace.row_y(0) - trace.row_y(3))
        self.play(*(FadeOut(row) for row, _ in rows),
                  FadeOut(header), FadeOut(total), FadeOut(summed), FadeOut(note),
                  share_row.animate.shift(rise), run_time=b.part(0.15))
        *summary, crowded = self.summary_block(table, share_row, n, trace.name_step)
        lines = self.blend_lines(stage, share_row, summary[0], n["shares"])
        self.play(LaggedStart(*(Create(line) for line in lines), lag_ratio=0.1),
                  run_time=b.part(0.2))
        # the blend's name takes the place of the shares' name where it stands right under it
        self.play(FadeIn(summary[0]), FadeIn(summary[1]), *([FadeOut(label)] if crowded else []),
                  run_time=b.part(0.15))
        self.play(*(GrowFromEdge(bar, LEFT) for bar in summary[2]), FadeIn(summary[3]),
                  run_time=b.part(0.15))
        self.hand_over(stage.get_beams(), stage.get_words(), stage.get_lamp(), caption)

    # ------------------------------------------------------------- layout
    def budget_bars(self, table: Table, stage: SpotlightStage, legend: VGroup) -> ShareBars:
        """The bars under the words and the budget column in the totals' column, from
        under the labels (and the legend, with room for the total's two lines over the
        column) down to the bottom of the area."""
        s = self.sizes
        bottom = self.area()[2]
        pad = height(s.number) + 0.12 + GAP
        two_lines = height(s.label) + height(s.number) + 0.3
        top = stage.get_labels().get_bottom()[1] - pad
        if not table.beside:  # the legend stands in the totals' column, over the total
            top = min(top, legend.get_bottom()[1] - two_lines - GAP)
        bars = ShareBars(stage, self.numbers["shares"], height=top - bottom - 0.05,
                         width=BAR_SHARE * table.column, apart=(table.totals - table.column) / 2,
                         text_size=s.label, value_size=s.number)
        return bars.shift(UP * (top - bars.get_tracks().get_top()[1]))

    # ------------------------------------------------------------- pieces
    def fade_in_on_marks(self, b: Beat, marks: Sequence[str], items: Sequence,
                         run_time: float) -> None:
        """Each item fades in as the voice starts its mark's word (in beat ``b``), over
        ``run_time`` seconds or less: each fade ends by the next mark, the last by the
        beat's end."""
        for k, (mark, item) in enumerate(zip(marks, items, strict=True)):
            self.at(mark)
            room = self.time_to(marks[k + 1]) if k + 1 < len(marks) else self.time_left()
            self.play(FadeIn(item, shift=DOWN * 0.1),
                      run_time=max(min(run_time, room), 1 / config.frame_rate))

    def summary_block(self, table: Table, share_row: VGroup, n, name_step: float) -> list:
        """The new summary under the shares (at ``share_row``, where they end up): its
        line centred under the table, its name, and a bar per feature, as long as the
        line for a value of 1; low enough for the lines from the shares to gather.

        The name stands beside the line like the rows' names; where the line needs the
        area's whole width, in the names' column between the shares and the line (or,
        without the room for it there or with the names over their rows, on a line over
        the summary's). Last, whether it stands right under the shares' name, which
        should then make way for it."""
        s = self.sizes
        left_edge, right, bottom, _top = self.area()
        line = VGroup(words(_("new {word} =").format(word=quoted(n["asker"])), s.body, style.INK),
                      words(pair_2(n["summary"]), s.body, style.KEY))
        line.arrange(RIGHT, buff=0.2)
        align_baselines(line)
        whole_width = bool(not name_step and line.width > right - table.start)
        self.inside(line.set_x(((left_edge if name_step or whole_width else table.start)
                                + right) / 2))
        names = VGroup(*(words(f, s.label, style.MUTED) for f in features()))
        values = VGroup(*(words(decimal(v), s.number, style.KEY) for v in n["summary"]))
        left = line.get_left()[0] + max(m.width for m in names) + 0.2
        length = min(line.get_right()[0], right - max(m.width for m in values) - 0.2) - left
        step = 1.5 * height(s.label)
        bars = VGroup()
        y = baseline(line[0])
        for label, value, v in zip(names, values, n["summary"]):
            y -= step
            label.next_to((left, 0, 0), LEFT, buff=0.2)
            bar = Rectangle(width=max(v * length, 1e-3), height=0.45 * height(s.label),
                            stroke_width=0)
            bar.set_fill(style.KEY, opacity=0.85)
            bar.move_to((left, y + bar.height / 2, 0), aligned_edge=LEFT)
            value.next_to(bar, RIGHT, buff=0.2)
            align_baselines([label, value], y)
            bars.add(bar)
        block = VGroup(line, bars, names, values)

        def lower(name_step: float) -> None:
            """As low as the area goes, or as near as the longest lines allow."""
            block.shift(UP * max(bottom + 0.05 - block.get_bottom()[1],
                                 share_row.get_bottom()[1] - MAX_BLEND - line.get_top()[1]
                                 - name_step))

        lower(name_step)
        name = words(table.names[4], s.label, style.MUTED)
        between = share_row.get_bottom()[1] - line.get_top()[1]
        if whole_width and between >= name.height + 2 * APART:
            name.set_x(table.start - APART, RIGHT)
            name.set_y((share_row.get_bottom()[1] + line.get_top()[1]) / 2)
            return [line, name, bars, VGroup(names, values), False]
        if whole_width:
            name_step = self.name_line(s.number)
            lower(name_step)
        name = self.row_name(table, table.names[4], baseline(line[0]), name_step)
        return [line, name, bars, VGroup(names, values), whole_width]

    @staticmethod
    def blend_lines(stage: SpotlightStage, share_row: VGroup, target: VGroup,
                    shares: Sequence[float]) -> VGroup:
        """From under each word's share to the summary, as thick as the share."""
        end = target.get_top() + UP * 0.12
        lines = VGroup()
        for i, share in enumerate(shares):
            start = (stage.column_x(i), share_row.get_bottom()[1] - 0.12, 0)
            line = Line(start, end, stroke_width=1 + 12 * share, color=style.WEIGHT)
            lines.add(line.set_stroke(opacity=0.3 + 0.6 * share if share > 0 else 0))
        return lines


__all__ = ["SpotlightBudget"]
