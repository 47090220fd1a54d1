"""The closed book: a long row squeezed through a fixed room, and a writer that feeds itself."""

from __future__ import annotations

import re
from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    PI,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Line,
    MoveAlongPath,
    MoveToTarget,
    ReplacementTransform,
    RoundedRectangle,
    Square,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, align_baselines, baseline, words
from scenes.components.feedback_loop import WriterLoop, writing_tape
from scenes.components.squeeze import (
    ReadoutPanel,
    ThirdsTable,
    Throat,
    bar_row,
    cell_row,
    funnel,
    third_ticks,
)
from scenes.frame import Frame
from scenes.lines import (
    balanced_lines,
    centred_lines,
    largest_that_fits,
    text_height,
    text_width,
    wrapped,
)
from scenes.numbers import factor, factor_figure, out_of, percent

#: the threshold in the ledger's recovery rule: "... at least 90 % of its variance ..."
THRESHOLD = re.compile(r"at least ([0-9.]+) ?% of")


def rule_in_brief(rule: str) -> list[str]:
    """The ledger's recovery rule in a few words, with the threshold the ledger states:
    the pieces a line may break between ("at least ... of" is one: no-break spaces join
    its words in the sentence to translate)."""
    threshold = float(THRESHOLD.search(rule).group(1)) / 100
    text = _("Right means a read-out of the room explains at\u00a0least\u00a0{share}\u00a0of "
             "that number, on fresh rows")
    return [piece.replace("\u00a0", " ").format(share=percent(threshold, 2))
            for piece in text.split(" ")]


@dataclass(frozen=True)
class Rows:
    """Where the rows are drawn (scene units): the rows' middle x, the baselines of the
    row that goes in and of the row that comes back, each row's half height, the height
    of a cell, and the width of one number."""

    x: float
    in_y: float
    out_y: float
    band: float
    cell: float
    unit: float


@dataclass(frozen=True)
class Squeeze:
    """The squeeze's parts, placed: the readout panel, the room's size, the key, the
    rule, the thirds, where the rows go, and the throat."""

    panel: ReadoutPanel
    kept: VGroup
    legend: VGroup
    rule: VGroup
    thirds: ThirdsTable
    rows: Rows
    throat: Throat


class SqueezeTheRow(ChapterScene):
    """A row of numbers through a throat the width of the room; then longer rows, same room."""

    section = "bottleneck"
    title = N_("The squeeze: a long row through a fixed room")
    beat_seconds = {"row": 6.0, "squeeze": 7.0, "marks": 8.0, "lengthen": 12.0, "rule": 6.0}
    marks = {"rule": ("squeeze",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"room": str(n["room"]), "length": str(n["length"]),
                "squeeze": factor_figure(n["squeeze"])}

    @staticmethod
    def readout(row: dict) -> dict[str, str]:
        """The panel's values for one row of the ledger (the first, or one of the sweep)."""
        return {"went_in": str(row["length"]), "squeeze": factor(row["squeeze"]),
                "back": out_of(row["recovered_count"], row["length"])}

    def construct(self) -> None:
        n = self.numbers
        sweep = n["sweep"]
        parts = self.lay_out(self.frame(), n)
        panel, kept, legend, rule, thirds, rows, throat = (
            parts.panel, parts.kept, parts.legend, parts.rule, parts.thirds, parts.rows,
            parts.throat)
        went_in, squeeze, back = (panel.get_entry(k) for k in ("went_in", "squeeze", "back"))
        self.geometry, unit = rows, rows.unit
        in_bars = bar_row(n["example_in"], unit, rows.band / self.reach(n), style.INK)
        in_bars.shift([rows.x, rows.in_y, 0] - in_bars[0].get_center())
        guides = funnel(n["length"] * unit, rows.in_y - rows.band, throat, n["length"] * unit,
                        rows.out_y + rows.band)

        # The viewer sees a row of numbers (bars up and down) above a throat as wide as the
        # room, and where what comes back will be counted.
        b = self.beat("row")
        self.play(FadeIn(went_in), FadeIn(in_bars), FadeIn(back[0]), run_time=b.part(0.15))
        self.play(Create(throat.get_frame()), FadeIn(throat.get_slots()), Create(guides),
                  FadeIn(kept), run_time=b.part(0.25))
        self.play(FadeIn(squeeze), run_time=b.part(0.2))

        # The viewer sees the row pressed through the throat and come out the other side.
        b = self.beat("squeeze")
        pressed = in_bars[1].copy()
        pressed.generate_target()
        pressed.target.stretch_to_fit_width(throat.get_frame().width * 0.96)
        pressed.target.stretch(0.45, 1).move_to(throat).set_color(style.ROOM)
        self.play(MoveToTarget(pressed), run_time=b.part(0.35))
        out_bars = bar_row(n["example_out"], unit, rows.band / self.reach(n), style.INK)
        out_bars.shift([rows.x, rows.out_y, 0] - out_bars[0].get_center())
        self.play(ReplacementTransform(pressed, out_bars[1]), FadeIn(out_bars[0]),
                  run_time=b.part(0.35))
        self.remove(*out_bars)
        self.add(out_bars)

        # The viewer sees which numbers came back as they went in (green) and which came back wrong.
        b = self.beat("marks")
        should = VGroup(*(
            Line(LEFT * unit * 0.5, RIGHT * unit * 0.5, color=style.INK, stroke_width=2)
            .move_to([bar.get_x(), rows.out_y + v * rows.band / self.reach(n), 0])
            for bar, v in zip(out_bars[1], n["example_in"])
        ))
        ticks = third_ticks([c[1] for c in n["third_counts"]], unit, 2 * rows.band)
        ticks.move_to([rows.x, rows.out_y, 0])
        self.play(FadeIn(should), FadeIn(legend[2]), run_time=b.part(0.2))
        self.play(*(bar.animate.set_color(style.GOOD if ok else style.BAD)
                    for bar, ok in zip(out_bars[1], n["recovered"])),
                  FadeIn(legend[:2]), run_time=b.part(0.25))
        self.play(FadeIn(back[1]), FadeIn(thirds), Create(ticks), run_time=b.part(0.25))

        # The viewer sees the room held fixed while the row grows; the front of the output fades.
        b = self.beat("lengthen")
        first = {"in": in_bars.copy(), "out": out_bars.copy(), "guides": guides.copy(),
                 "ticks": ticks.copy()}
        state = {"in": [in_bars], "out": [out_bars, should], "guides": guides,
                 "ticks": ticks}
        self.throat, self.unit, self.rows = throat, unit, state  # for tests: what is drawn
        step = 0.85 / len(sweep)
        self.remove(legend[2])  # the marks of what went in go with the bars
        for s in sweep:
            self.play(*self.sweep_step(state, s, throat, panel, thirds),
                      run_time=b.part(step * 0.3))
            self.wait(b.part(step * 0.7))

        # The viewer sees the first row come back, its squeeze shown as the voice says it;
        # then, in small type, what counts as coming back, in the thirds' place.
        b = self.beat("rule")
        self.at("squeeze")  # the squeeze appears as the voice says it
        self.play(*(FadeOut(m) for m in state["in"] + state["out"] + [state["ticks"]]),
                  FadeOut(state["guides"]),
                  *(FadeIn(first[k]) for k in ("in", "out", "guides", "ticks")),
                  *panel.make_update_animations(self.readout(n)),
                  run_time=min(b.part(0.2), self.time_left()))
        self.play(FadeOut(thirds), FadeIn(rule), run_time=min(b.part(0.25), self.time_left()))
        # The viewer sees all but the room fade: the writer's scene opens on it.
        self.hand_over(throat)

    @classmethod
    def lay_out(cls, frame: Frame, n: dict) -> Squeeze:
        """The squeeze's parts for the bottleneck numbers ``n``, placed in ``frame``.

        Across the top, what went in and the squeeze; under the rows, what came back; at
        the bottom the thirds, and at the end the rule in their place. The rows, to scale,
        take the height between, either across the whole width with the room's size at
        the throat's left and the key beside what came back, or narrower with the room's
        size and the key in a column at their right: whichever gives them more room.
        OnePieceAtATime opens on this throat, where this scene leaves it.
        """
        kind, gap = frame.type, style.GAP
        left, right, bottom, top = frame.area()
        width, centre = right - left, frame.centre()[0]
        panel = ReadoutPanel({"went_in": _("went in"), "squeeze": _("squeeze"),
                              "back": _("came back")},
                             cls.readout(n), label_size=kind.label, value_size=kind.number,
                             value_colors={"back": style.GOOD})
        kept = VGroup(words(_("room"), kind.label, style.ROOM),
                      words(str(n["room"]), kind.number, style.ROOM)).arrange(RIGHT,
                                                                             buff=panel.GAP)
        align_baselines(kept)
        legend = cls.legend(kind.label)
        lines = balanced_lines(rule_in_brief(n["rule"]), kind.minimum, 0.95 * width)
        rule = centred_lines(lines, kind.minimum, style.MUTED)
        rule.move_to([centre, bottom, 0], aligned_edge=DOWN)

        def thirds_table(span: float) -> ThirdsTable:
            return ThirdsTable((_("front"), _("middle"), _("back")),
                               [out_of(*c) for c in n["third_counts"]], span,
                               size=kind.label, count_size=kind.number)

        slot = max(thirds_table(width).height, rule.height)
        went_in, squeeze, back = (panel.get_entry(k) for k in ("went_in", "squeeze", "back"))
        widest = {key: max(text_width(cls.readout(row)[key], panel.value_size)
                           for row in (n, *n["sweep"])) for key in ("squeeze", "back")}
        went_in.move_to([left, top, 0], aligned_edge=LEFT + UP)
        squeeze.shift(RIGHT * (right - widest["squeeze"] - panel.GAP - squeeze[0].get_right()[0])
                      + UP * (baseline(went_in[0]) - baseline(squeeze[0])))
        back.move_to([left, bottom + slot + gap, 0], aligned_edge=LEFT + DOWN)
        rows_top = went_in.get_bottom()[1] - gap
        longest = max([n["room"], n["length"]] + [s["length"] for s in n["sweep"]])
        # Across: the key at the right, its first line on what came back's baseline; the
        # rows as wide as leaves room for the room's size beside the throat.
        raised = legend.copy().move_to([right, 0, 0], aligned_edge=RIGHT)
        raised.shift(UP * (baseline(back[0]) - baseline(raised[0][1])))
        lift = UP * max(back.get_bottom()[1] - raised.get_bottom()[1], 0)
        raised.shift(lift)
        full = min(width, (width - 2 * (kept.width + 0.2)) * longest / n["room"])
        fits = left + back[0].width + panel.GAP + widest["back"] + gap <= raised.get_left()[0]
        # In a column: the rows narrower by it.
        column = max(kept.width, legend.width) + gap
        # The better is the larger, counting no more height than half the width.
        beside = fits and full * min(rows_top - raised.get_top()[1] - gap, 0.55 * full) >= \
            (width - column) * min(rows_top - back.get_top()[1] - gap, 0.55 * (width - column))
        if beside:
            legend.move_to(raised)
            back.shift(lift)
            rows = cls.rows_between(centre - full / 2, centre + full / 2,
                                    rows_top, legend.get_top()[1] + gap, longest)
        else:
            rows = cls.rows_between(left, right - column, rows_top, back.get_top()[1] + gap,
                                    longest)
            legend.move_to([right - column + gap, rows.out_y + rows.band, 0],
                           aligned_edge=LEFT + UP)
        throat = Throat(n["room"], rows.unit, 0.6 * rows.band).move_to(
            [rows.x, (rows.in_y + rows.out_y) / 2, 0])
        if beside:  # the room's size beside the throat, at its left
            kept.next_to(throat, LEFT, buff=0.2)
        else:  # ... or at the top of the column
            kept.move_to(throat).set_x(right - column + gap, LEFT)
        kept.shift(UP * (throat.get_y() - kept[0].get_y()))
        # The thirds under the rows, as wide as the longest row (or as their columns need).
        probe = thirds_table(width)
        counts = [out_of(*c) for row in (n, *n["sweep"]) for c in row["third_counts"]]
        need = 3 * (max(*(m.width for m in probe.get_headers()),
                        *(text_width(c, kind.number) for c in counts)) + 2 * gap)
        thirds = thirds_table(min(max(rows.unit * longest, need), width))
        thirds.move_to([rows.x, bottom, 0], aligned_edge=DOWN)
        thirds.shift(RIGHT * (max(left - thirds.get_left()[0], 0)
                              + min(right - thirds.get_right()[0], 0)))
        return Squeeze(panel, kept, legend, rule, thirds, rows, throat)

    @staticmethod
    def reach(n: dict) -> float:
        """The largest number either example row holds, up or down (a bar that long fills
        its row's half height)."""
        return max(abs(v) for v in (*n["example_in"], *n["example_out"]))

    @staticmethod
    def rows_between(left: float, right: float, top: float, bottom: float,
                     longest: int) -> Rows:
        """The rows between ``left`` and ``right`` and between ``top`` and ``bottom`` (scene
        units), the longest row ``longest`` numbers across the width: the row that goes in
        and the row that comes back each take a quarter of the height, the funnel and the
        throat the half between."""
        band = 0.125 * (top - bottom)
        return Rows(x=(left + right) / 2, in_y=top - band, out_y=bottom + band, band=band,
                    cell=1.2 * band, unit=(right - left) / longest)

    @staticmethod
    def legend(size: int) -> VGroup:
        """Two swatches: came back right, came back wrong (and the mark of what went in),
        in type of ``size``."""
        lines = VGroup()
        for color, text in ((style.GOOD, _("right")), (style.BAD, _("wrong"))):
            swatch = Square(0.22, stroke_width=0, fill_color=color, fill_opacity=1)
            label = words(text, size, style.INK)
            lines.add(VGroup(swatch, label).arrange(RIGHT, buff=0.2))
        dash = Line(LEFT * 0.11, RIGHT * 0.11, color=style.INK, stroke_width=2)
        lines.add(VGroup(dash, words(_("went in"), size, style.INK)).arrange(RIGHT, buff=0.2))
        return lines.arrange(DOWN, buff=style.LINE_GAP, aligned_edge=LEFT)

    def sweep_step(self, state, s, throat, panel, thirds) -> list:
        """Animations that redraw the rows for one length of the sweep and update the panel."""
        rows, length = self.geometry, s["length"]
        new_in = cell_row(length, rows.unit, rows.cell, style.MUTED).move_to(
            [rows.x, rows.in_y, 0])
        new_out = cell_row(
            length, rows.unit, rows.cell,
            colors=[style.GOOD if ok else style.BAD for ok in s["recovered"]],
            opacities=[0.1 + 0.9 * r for r in s["recovery"]],
        ).move_to([rows.x, rows.out_y, 0])
        new_guides = funnel(length * rows.unit, rows.in_y - rows.band, throat,
                            length * rows.unit, rows.out_y + rows.band)
        new_ticks = third_ticks([c[1] for c in s["third_counts"]], rows.unit,
                                2 * rows.band).move_to([rows.x, rows.out_y, 0])
        anims = [
            *(FadeOut(m) for m in state["in"] + state["out"]), FadeIn(new_in), FadeIn(new_out),
            ReplacementTransform(state["guides"], new_guides),
            FadeOut(state["ticks"]), FadeIn(new_ticks),
            *panel.make_update_animations(self.readout(s)),
            *thirds.make_update_animations([out_of(*c) for c in s["third_counts"]]),
        ]
        state.update({"in": [new_in], "out": [new_out], "guides": new_guides, "ticks": new_ticks})
        return anims


class OnePieceAtATime(ChapterScene):
    """The writer's every word comes back round as its next input, word by word."""

    section = "writing"
    title = N_("Writing one piece at a time")
    beat_seconds = {"setup": 7.0, "first": 8.0, "feed": 8.0, "rest": 8.0}
    opens_with = "the squeeze's room"

    #: the words written slowly, one by one, in the "feed" beat (after the first)
    SLOW_WORDS = 3
    LOOP_NOTE = N_("each word it writes comes round as its next input")

    def construct(self) -> None:
        read, written = self.numbers["input"], self.numbers["output"]
        kind, gap = self.frame().type, style.GAP
        left, right, bottom, top = self.area()
        width = right - left
        # The tape across the top; under it the room, the writer and its loop, sized to
        # what is left.
        tape = writing_tape(self.frame(), read, written)

        loop_label = wrapped(_(self.LOOP_NOTE), kind.label, 0.95 * width, style.MUTED)
        room = VGroup(RoundedRectangle(corner_radius=0.15, width=1, height=1,
                                       color=style.ROOM).set_fill(style.ROOM, opacity=0.15),
                      words(_("the room"), kind.label, style.ROOM))
        room[0].stretch_to_fit_width(room[1].width + 2 * gap)
        room[0].stretch_to_fit_height(room[1].height + gap)
        room[1].move_to(room[0])
        # Across: a slot's column, an arrow, the writer, an arrow, a slot's column. The
        # columns are as wide as their labels, or narrower with the labels on two lines,
        # so that the arrows keep some length.
        name = words(_("writer"), kind.heading)
        box_width = max(0.35 * width, name.width + 2 * gap)
        arrow = 0.6
        natural = [text_width(t, kind.label) for t in (_("next input"), _("writes"), *written)]
        column = min(max(natural) + 0.1, (width - box_width) / 2 - arrow)
        in_label = wrapped(_("next input"), kind.label, column, style.MUTED)
        out_label = wrapped(_("writes"), kind.label, column, style.MUTED)
        # Down: the room, the feed arrow, the writer, the loop under it and its note, in
        # the height the tape leaves.
        rest = tape.get_bottom()[1] - bottom - room.height - loop_label.height - 3 * gap
        machine = WriterLoop(box_width, min(max(0.45 * rest, name.height + 2 * gap),
                                            0.6 * box_width),
                             (width - box_width) / 2 - column / 2, 0.3 * rest,
                             name_size=kind.heading, clear=column / 2 + 0.05)
        room.next_to(machine.get_box(), UP, buff=0.2 * rest)
        feed = Arrow(room.get_bottom(), machine.get_box().get_top(), buff=0.05,
                     color=style.ROOM, stroke_width=3, max_tip_length_to_length_ratio=0.4)
        loop_label.next_to(machine.get_loop(), DOWN, buff=style.LINE_GAP)
        drawing = VGroup(room, feed, machine, loop_label)
        # The drawing in the middle of the height the tape leaves.
        drawing.move_to([self.centre()[0], (tape.get_bottom()[1] - gap + bottom) / 2, 0])
        drawing.shift(RIGHT * (self.centre()[0] - machine.get_box().get_x()))
        # The slots' labels over them, their last lines on one baseline clear of the words.
        line = machine.in_slot[1] + text_height("a", kind.label) / 2 + gap
        for label, slot in ((in_label, machine.in_slot), (out_label, machine.out_slot)):
            label.set_x(slot[0]).shift(UP * (line - baseline(label[-1])))
        self.slot_word = words(_("start"), kind.label, style.MUTED).move_to(machine.in_slot)
        self.machine, self.tape = machine, tape
        # The words read: on the tape; or, where the tape keeps no line for them (a long
        # sentence, a small frame), in the tape's place until they have gone into the room.
        reading = tape.get_read()
        on_tape = len(reading) > 0
        if not on_tape:
            reading = largest_that_fits(
                lambda size: wrapped(" ".join(read), size, 0.95 * width, style.READER),
                (kind.label, kind.minimum), (0.95 * width, tape.height))
            reading.move_to(tape, aligned_edge=UP)
        labels = [FadeIn(tape.get_labels())]
        # The squeeze's room, where SqueezeTheRow left it.
        throat = SqueezeTheRow.lay_out(self.frame(), self.numbers["bottleneck"]).throat
        self.add(throat)

        # The viewer sees the squeeze's room shrink into the writer's "room", a sentence
        # read into it, and the writer waiting with its loop.
        b = self.beat("setup")
        self.play(ReplacementTransform(throat.get_frame(), room[0]),
                  FadeOut(throat.get_slots(), target_position=room[0], scale=0.3),
                  FadeIn(room[1]), FadeIn(reading, lag_ratio=0.1),
                  *(labels if on_tape else []), run_time=b.part(0.25))
        gone = reading.copy() if on_tape else reading
        self.play(gone.animate.scale(0.3).move_to(room).set_opacity(0), run_time=b.part(0.2))
        self.remove(gone)
        self.play(FadeIn(machine.get_box()), FadeIn(machine.get_name()), GrowArrow(feed),
                  *([] if on_tape else labels), run_time=b.part(0.15))
        self.play(FadeIn(machine.get_arrows()), Create(machine.get_loop()),
                  FadeIn(in_label), FadeIn(out_label), FadeIn(self.slot_word),
                  run_time=b.part(0.15))

        # The viewer sees the first word written, copied out, and carried round to the input.
        b = self.beat("first")
        self.write_word(written, 0, b.part(0.6))
        self.play(FadeIn(loop_label), run_time=b.part(0.15))

        # The viewer sees the next few words, each one coming round again.
        b = self.beat("feed")
        slow = range(1, min(1 + self.SLOW_WORDS, len(written)))
        for i in slow:
            self.write_word(written, i, b.part(0.8 / len(slow)))

        # The viewer sees the rest of the sentence written the same way.
        b = self.beat("rest")
        rest = range(1 + self.SLOW_WORDS, len(written))
        for i in rest:
            self.write_word(written, i, b.part(0.8 / len(rest)))
        # The viewer sees all but the words read fade: the next scene opens on them.
        self.hand_over(tape.get_read())

    def write_word(self, written, i: int, seconds: float) -> None:
        """The writer writes word ``i``: it goes up onto the tape and round the loop (seconds)."""
        machine = self.machine
        word = words(written[i], self.frame().type.label, style.WRITER).move_to(machine.out_slot)
        self.play(FadeIn(word, shift=RIGHT * 0.3), run_time=seconds * 0.35)
        back = word.copy()
        # Up to the tape on an arc that passes over the room rather than through it.
        self.play(ReplacementTransform(word, self.tape.get_written_word(i), path_arc=PI / 3),
                  MoveAlongPath(back, machine.get_loop_path()),
                  FadeOut(self.slot_word), run_time=seconds * 0.55)
        self.slot_word = back
