"""The closed book: a long row squeezed through a fixed room, and a writer that feeds itself."""

from __future__ import annotations

import re
import textwrap
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

from scenes import style
from scenes.base import ChapterScene, align_baselines, baseline, words
from scenes.components.feedback_loop import WordTape, WriterLoop
from scenes.components.squeeze import (
    ReadoutPanel,
    ThirdsTable,
    Throat,
    bar_row,
    cell_row,
    funnel,
    third_ticks,
)
from scenes.lines import wrapped
from scenes.numbers import factor, factor_figure, out_of, percent

#: the threshold in the ledger's recovery rule: "... at least 90 % of its variance ..."
THRESHOLD = re.compile(r"at least ([0-9.]+) ?% of")


def rule_in_brief(rule: str, line: int = 43) -> str:
    """The ledger's recovery rule in a few words, with the threshold the ledger states,
    in lines of at most ``line`` characters."""
    threshold = float(THRESHOLD.search(rule).group(1)) / 100
    brief = (f"Right means a read-out of the room explains at least {percent(threshold, 2)} "
             "of that number, on fresh rows")
    return "\n".join(textwrap.wrap(brief, line, break_on_hyphens=False))


@dataclass(frozen=True)
class SqueezeSizes:
    """How large the squeeze is drawn (scene units)."""

    draw_width: float  # the longest row's width
    bar_height: float  # a bar for a number of size 1
    cell_height: float
    funnel: float  # from a row's baseline to the throat's centre
    throat_height: float
    panel_width: float  # wide: the panel's column; tall: the width its lines spread over
    thirds_width: float


class SqueezeTheRow(ChapterScene):
    """A row of numbers through a throat the width of the room; then longer rows, same room."""

    section = "bottleneck"
    title = "The squeeze: a long row through a fixed room"
    beat_seconds = {"row": 6.0, "squeeze": 7.0, "marks": 8.0, "lengthen": 12.0, "rule": 6.0}
    marks = {"rule": ("squeeze",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"room": str(n["room"]), "length": str(n["length"]),
                "squeeze": factor_figure(n["squeeze"])}


    #: wide: the drawing takes the frame's left, the panel its right; tall: the drawing
    #: takes the frame's width, shallower, and the panel stands under it
    WIDE = SqueezeSizes(draw_width=8.5, bar_height=0.45, cell_height=0.32, funnel=1.5,
                        throat_height=0.6, panel_width=4.0, thirds_width=4.0)
    TALL = SqueezeSizes(draw_width=6.0, bar_height=0.25, cell_height=0.25, funnel=0.85,
                        throat_height=0.4, panel_width=7.0, thirds_width=4.8)

    def construct(self) -> None:
        n = self.numbers
        size = self.sizes = self.TALL if self.tall else self.WIDE  # (sweep_step reads it)
        small = style.TALL_MIN_FONT_SIZE if self.tall else style.SMALL
        room, sweep = n["room"], n["sweep"]
        longest = max([room, n["length"]] + [s["length"] for s in sweep])
        unit = size.draw_width / longest
        left, right, _, top = self.area()
        x = 0.0 if self.tall else left + size.draw_width / 2

        went_in = words("the row\ngoes in" if self.tall else "the row goes in", small,
                        style.MUTED)
        went_in.move_to([left, top, 0], aligned_edge=LEFT + UP)
        legend = self.legend(small)
        if self.tall:
            # Upright, the key to the colours stands at the top right, beside the row's
            # label; its mark for what went in (gone before the rule comes) goes where the
            # rule will be.
            legend[:2].move_to([right, top, 0], aligned_edge=RIGHT + UP)
            head = min(went_in.get_bottom()[1], legend[1].get_bottom()[1])
            in_y = head - 0.6 * style.GAP - size.bar_height
        else:
            in_y = went_in.get_bottom()[1] - style.GAP - size.bar_height
        in_bars = bar_row(n["example_in"], unit, size.bar_height, style.INK).move_to([x, in_y, 0])
        in_bars.shift(UP * (in_y - in_bars[0].get_y()))
        throat = Throat(room, unit, size.throat_height).move_to([x, in_y - size.funnel, 0])
        out_y = throat.get_y() - size.funnel
        room_label = words("the room", small, style.ROOM)
        room_label.next_to(throat, LEFT, buff=style.GAP)
        room_label.set_x(max(room_label.get_x(), left + room_label.width / 2))
        guides = funnel(n["length"] * unit, in_y - size.bar_height - 0.1, throat,
                        n["length"] * unit, out_y + size.bar_height + 0.1)
        came_out = words("what the writer reads back", small, style.MUTED)
        came_out.move_to([left, out_y - size.bar_height - style.LINE_GAP, 0],
                         aligned_edge=LEFT + UP)

        labels = {"kept": "kept (room)", "went_in": "went in", "squeeze": "squeeze",
                  "back": "came back"}
        if self.tall:
            # Side by side, each label on two lines over its value.
            labels = {k: text.replace(" ", "\n") for k, text in labels.items()}
        panel = ReadoutPanel(
            labels,
            {"kept": str(room), "went_in": str(n["length"]), "squeeze": factor(n["squeeze"]),
             "back": out_of(n["recovered_count"], n["length"])},
            value_colors={"kept": style.ROOM, "back": style.GOOD}, label_size=small,
            width=size.panel_width if self.tall else None,
        )
        thirds = ThirdsTable(("front", "middle", "back"),
                             [out_of(*c) for c in n["third_counts"]], width=size.thirds_width,
                             size=small)
        if self.tall:
            # On two lines, "a squeeze" over "of" and the factor.
            named = VGroup(words("a squeeze", small, style.MUTED),
                           VGroup(words("of", small, style.MUTED),
                                  words(factor(n["squeeze"]), style.LABEL, style.INK)))
            named[1].arrange(RIGHT, buff=0.2)
            align_baselines(named[1])
        else:
            named = VGroup(words("a squeeze of", small, style.MUTED),
                           words(factor(n["squeeze"]), style.LABEL, style.INK))
        rule = words(rule_in_brief(n["rule"], 30 if self.tall else 43), small, style.MUTED)
        if self.tall:
            # Under the drawing: the panel, the thirds with the squeeze named beside them,
            # and the rule last.
            gap = 0.7 * style.GAP
            panel.next_to(came_out, DOWN, buff=gap).set_x(0)
            thirds.next_to(panel, DOWN, buff=gap).set_x(left, LEFT)
            named.arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            named.align_to(thirds, UP).set_x(right, RIGHT)
            rule.next_to(thirds, DOWN, buff=gap).set_x(left, LEFT)
            legend[2].move_to(rule.get_corner(LEFT + UP), aligned_edge=LEFT + UP)
        else:
            panel.align_to(went_in, UP)
            panel.set_x(right - size.panel_width, LEFT)
            thirds.next_to(panel, DOWN, buff=style.GAP * 1.5).align_to(panel, LEFT)
            legend.next_to(thirds, DOWN, buff=style.GAP * 1.5).align_to(panel, LEFT)
            named.arrange(RIGHT, buff=0.2)
            align_baselines(named)
            named.next_to(legend[:2], DOWN, buff=style.GAP * 1.5).align_to(panel, LEFT)
            rule.next_to(came_out, DOWN, buff=style.GAP * 0.8).set_x(left, LEFT)

        # The viewer sees a row of numbers (bars up and down) above a throat as wide as the room.
        b = self.beat("row")
        self.play(FadeIn(went_in), FadeIn(in_bars, lag_ratio=0.02), run_time=b.part(0.3))
        self.play(Create(throat.get_frame()), FadeIn(throat.get_slots()), Create(guides),
                  FadeIn(room_label), run_time=b.part(0.25))
        self.play(*(FadeIn(m) for k in ("kept", "went_in", "squeeze")
                    for m in (panel.get_label(k), panel.get_value(k))), run_time=b.part(0.2))

        # The viewer sees the row pressed through the throat and come out the other side.
        b = self.beat("squeeze")
        flow = in_bars[1].copy()
        flow.generate_target()
        flow.target.stretch_to_fit_width(throat.get_frame().width * 0.96)
        flow.target.stretch(0.45, 1).move_to(throat).set_color(style.ROOM)
        self.play(MoveToTarget(flow), run_time=b.part(0.35))
        out_bars = bar_row(n["example_out"], unit, size.bar_height, style.INK)
        out_bars.shift([x, out_y, 0] - out_bars[0].get_center())
        self.play(ReplacementTransform(flow, out_bars[1]), FadeIn(out_bars[0]),
                  FadeIn(came_out), run_time=b.part(0.35))
        self.remove(*out_bars)
        self.add(out_bars)

        # The viewer sees which numbers came back as they went in (green) and which came back wrong.
        b = self.beat("marks")
        should = VGroup(*(
            Line(LEFT * unit * 0.5, RIGHT * unit * 0.5, color=style.INK, stroke_width=2)
            .move_to([bar.get_x(), out_y + v * size.bar_height, 0])
            for bar, v in zip(out_bars[1], n["example_in"])
        ))
        ticks = third_ticks([c[1] for c in n["third_counts"]], unit, 2 * size.bar_height)
        ticks.move_to([x, out_y, 0])
        self.play(FadeIn(should), FadeIn(legend[2]), run_time=b.part(0.2))
        self.play(*(bar.animate.set_color(style.GOOD if ok else style.BAD)
                    for bar, ok in zip(out_bars[1], n["recovered"])),
                  FadeIn(legend[:2]), run_time=b.part(0.25))
        self.play(FadeIn(panel.get_label("back")), FadeIn(panel.get_value("back")),
                  FadeIn(thirds), Create(ticks), run_time=b.part(0.25))

        # The viewer sees the room held fixed while the row grows; the front of the output fades.
        b = self.beat("lengthen")
        state = {"in": [in_bars], "out": [out_bars, should], "guides": guides,
                 "ticks": ticks}
        self.throat, self.unit, self.rows = throat, unit, state  # for tests: what is drawn
        step = 0.85 / len(sweep)
        self.remove(legend[2])  # the marks of what went in go with the bars
        for s in sweep:
            self.play(*self.sweep_step(state, s, unit, x, in_y, out_y, throat, panel, thirds),
                      run_time=b.part(step * 0.3))
            self.wait(b.part(step * 0.7))

        # The viewer sees the first row's squeeze named as the voice says it; then, in
        # small type, what counts as coming back.
        b = self.beat("rule")
        self.at("squeeze")  # the squeeze appears as the voice says it
        self.play(FadeIn(named, shift=UP * 0.1), run_time=min(b.part(0.15), self.time_left()))
        self.play(FadeIn(rule), run_time=min(b.part(0.25), self.time_left()))

    @staticmethod
    def legend(size: int = style.SMALL) -> VGroup:
        """Two swatches: came back as it went in, came back wrong (and the mark of what went
        in), in type of ``size``."""
        lines = VGroup()
        for color, text in ((style.GOOD, "came back right"), (style.BAD, "came back wrong")):
            swatch = Square(0.22, stroke_width=0, fill_color=color, fill_opacity=1)
            label = words(text, size, style.INK)
            lines.add(VGroup(swatch, label).arrange(RIGHT, buff=0.2))
        dash = Line(LEFT * 0.11, RIGHT * 0.11, color=style.INK, stroke_width=2)
        lines.add(VGroup(dash, words("what went in", size, style.INK))
                  .arrange(RIGHT, buff=0.2))
        return lines.arrange(DOWN, buff=style.LINE_GAP, aligned_edge=LEFT)

    def sweep_step(self, state, s, unit, x, in_y, out_y, throat, panel, thirds) -> list:
        """Animations that redraw the rows for one length of the sweep and update the panel."""
        length = s["length"]
        cell_height = self.sizes.cell_height
        new_in = cell_row(length, unit, cell_height, style.MUTED).move_to([x, in_y, 0])
        new_out = cell_row(
            length, unit, cell_height,
            colors=[style.GOOD if ok else style.BAD for ok in s["recovered"]],
            opacities=[0.1 + 0.9 * r for r in s["recovery"]],
        ).move_to([x, out_y, 0])
        new_guides = funnel(length * unit, in_y - cell_height, throat, length * unit,
                            out_y + cell_height)
        new_ticks = third_ticks([c[1] for c in s["third_counts"]], unit,
                                2 * cell_height).move_to([x, out_y, 0])
        anims = [
            *(FadeOut(m) for m in state["in"] + state["out"]), FadeIn(new_in), FadeIn(new_out),
            ReplacementTransform(state["guides"], new_guides),
            FadeOut(state["ticks"]), FadeIn(new_ticks),
            *panel.make_update_animations({
                "kept": str(s["room"]), "went_in": str(length), "squeeze": factor(s["squeeze"]),
                "back": out_of(s["recovered_count"], length)}),
            *thirds.make_update_animations([out_of(*c) for c in s["third_counts"]]),
        ]
        state.update({"in": [new_in], "out": [new_out], "guides": new_guides, "ticks": new_ticks})
        return anims


class OnePieceAtATime(ChapterScene):
    """The writer's every word comes back round as its next input, word by word."""

    section = "writing"
    title = "Writing one piece at a time"
    beat_seconds = {"setup": 7.0, "first": 8.0, "feed": 8.0, "rest": 8.0}

    #: the words written slowly, one by one, in the "feed" beat (after the first)
    SLOW_WORDS = 3
    LOOP_NOTE = "each word it writes comes round as its next input"

    def construct(self) -> None:
        read, written = self.numbers["input"], self.numbers["output"]
        kind, gap = self.frame().type, style.GAP
        left, right, bottom, top = self.area()
        width, height = right - left, top - bottom
        # The tape across the top, in the largest type that leaves most of the room for the
        # drawing; under it the room, the writer and its loop, sized to what is left.
        tape = self.word_tape(read, written, width, 0.35 * height, (kind.body, kind.label),
                              kind.label)
        tape.move_to([self.centre()[0], top, 0], aligned_edge=UP)

        loop_label = wrapped(self.LOOP_NOTE, kind.label, 0.95 * width, style.MUTED)
        room = VGroup(RoundedRectangle(corner_radius=0.15, width=1, height=1,
                                       color=style.ROOM).set_fill(style.ROOM, opacity=0.15),
                      words("the room", kind.label, style.ROOM))
        room[0].stretch_to_fit_width(room[1].width + 2 * gap)
        room[0].stretch_to_fit_height(room[1].height + gap)
        room[1].move_to(room[0])
        # Across: a slot's column, an arrow, the writer, an arrow, a slot's column. The
        # columns are as wide as their labels, or narrower with the labels on two lines,
        # so that the arrows keep some length.
        name = words("writer", kind.heading)
        box_width = max(0.35 * width, name.width + 2 * gap)
        arrow = 0.6
        natural = [words(t, kind.label).width for t in ("next input", "writes", *written)]
        column = min(max(natural) + 0.1, (width - box_width) / 2 - arrow)
        in_label = wrapped("next input", kind.label, column, style.MUTED)
        out_label = wrapped("writes", kind.label, column, style.MUTED)
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
        # The slots' labels over them, their last lines on one baseline clear of the words.
        line = machine.in_slot[1] + words("a", kind.label).height / 2 + gap
        for label, slot in ((in_label, machine.in_slot), (out_label, machine.out_slot)):
            label.set_x(slot[0]).shift(UP * (line - baseline(label[-1])))
        self.slot_word = words("start", kind.label, style.MUTED).move_to(machine.in_slot)
        self.machine, self.tape = machine, tape

        # The viewer sees a sentence read into the room, and the writer waiting with its loop.
        b = self.beat("setup")
        self.play(FadeIn(tape.get_labels()), FadeIn(tape.get_read(), lag_ratio=0.1),
                  run_time=b.part(0.2))
        gone = tape.get_read().copy()
        self.play(FadeIn(room), gone.animate.scale(0.3).move_to(room).set_opacity(0),
                  run_time=b.part(0.25))
        self.remove(gone)
        self.play(FadeIn(machine.get_box()), FadeIn(machine.get_name()), GrowArrow(feed),
                  run_time=b.part(0.15))
        self.play(FadeIn(machine.get_arrows()), Create(machine.get_loop()),
                  FadeIn(in_label), FadeIn(out_label), FadeIn(self.slot_word),
                  run_time=b.part(0.2))

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

    @staticmethod
    def word_tape(read, written, width: float, height: float, sizes: tuple[int, int],
                  label_size: int) -> WordTape:
        """The largest tape within ``width`` x ``height`` (scene units): both lines if they fit,
        then the smaller of ``sizes``, then the written line alone."""
        large, small = sizes
        for lines, size in ((read, large), (read, small), (None, large), (None, small)):
            tape = WordTape(lines, written, width, size=size, label_size=label_size)
            if tape.height <= height:
                return tape
        return tape

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
