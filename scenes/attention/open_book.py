"""Leave the book open: the writer looks back at every word read, and stops forgetting."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, align_baselines, words
from scenes.components.accuracy_chart import AccuracyBars
from scenes.components.alignment_map import AlignmentMap, WeightKey
from scenes.components.feedback_loop import writing_tape
from scenes.lines import text_width, wrapped
from scenes.numbers import percent, percent_figure

HEADING = N_("At every step, the writer looks back at every state")
ADDS_UP = N_("each row adds up to one")


class LeaveTheBookOpen(ChapterScene):
    """An alignment grid built row by row, then both writers' accuracy against length."""

    section = "open_book"
    title = N_("Leave the book open")
    beat_seconds = {"states": 6.0, "rows": 10.0, "grid": 6.0, "race": 9.0, "longest": 8.0}
    opens_with = "the words read"

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"longest": str(n["lengths"][-1]),
                "closed": percent_figure(n["closed_book_accuracy"][-1]),
                "open": percent_figure(n["attention_accuracy"][-1])}

    def construct(self) -> None:
        n = self.numbers
        grid, read_caption, state_caption, heading, key_title, key, adds_up = self.lay_out_grid()
        self.grid = grid  # for tests: what is drawn
        size = len(grid.get_cells())
        # The words read, where the writer's scene left them on its tape.
        carried = writing_tape(self.frame(), n["example_input"],
                               n["example_closed_book_output"]).get_read()
        self.add(carried)

        # The viewer sees the words read move to the grid's columns (out of the heading's
        # way), then each word's own state, all kept open, over the grid still empty.
        b = self.beat("states")
        empty = grid.get_cells().copy().set_fill(opacity=0)
        self.play(*self.settle(carried, grid), FadeIn(read_caption), run_time=b.part(0.25))
        self.play(FadeIn(grid.get_states(), shift=DOWN * 0.15, lag_ratio=0.1),
                  FadeIn(state_caption), FadeIn(empty), FadeIn(heading), run_time=b.part(0.25))

        # The viewer sees the grid fill row by row: one output step at a time, bright = weight.
        b = self.beat("rows")
        self.play(FadeIn(key_title), FadeIn(key), run_time=b.part(0.1))
        for i in range(size):
            self.play(grid.make_row_animation(i), FadeOut(empty[i]), run_time=b.part(0.7 / size))

        # The viewer sees that every row shares out all of one step's attention.
        b = self.beat("grid")
        step = grid.get_row(min(2, size - 1))
        one_step = SurroundingRectangle(step, buff=0.04, color=style.WRITER, stroke_width=3)
        self.play(Create(one_step), run_time=b.part(0.2))
        self.play(FadeIn(adds_up), run_time=b.part(0.2))

        # The viewer sees the two writers side by side: words right against sentence length.
        b = self.beat("race")
        closed, opened, all_right, chance, x_caption, labels = self.lay_out_charts()
        self.charts = VGroup(closed, opened)
        self.play(FadeOut(VGroup(grid, read_caption, state_caption, heading, key_title, key,
                                 adds_up, one_step)),
                  *(FadeIn(c.get_frame()) for c in (closed, opened)),
                  *(FadeIn(c.get_title()) for c in (closed, opened)),
                  FadeIn(all_right), FadeIn(x_caption), run_time=b.part(0.25))
        self.play(FadeIn(closed.get_chance_line()), FadeIn(opened.get_chance_line()),
                  FadeIn(chance), run_time=b.part(0.1))
        self.play(closed.make_grow_animation(), opened.make_grow_animation(),
                  run_time=b.part(0.4))

        # The viewer sees the longest sentence picked out, with both measured accuracies.
        b = self.beat("longest")
        last = len(n["lengths"]) - 1
        self.play(*(bar.animate.set_fill(opacity=0.3)
                    for c in (closed, opened) for bar in c.get_bars()[:last]),
                  *(c.ticks[last].animate.set_color(style.INK) for c in (closed, opened)),
                  run_time=b.part(0.25))
        self.play(FadeIn(labels, shift=UP * 0.15), run_time=b.part(0.2))

    @staticmethod
    def settle(carried: VGroup, grid: AlignmentMap) -> list:
        """Animations that move each word read to its column: into the column's label, or,
        where the labels thin out, into its state; labels no word comes to fade in."""
        states = grid.get_states()
        labels = {min(range(len(states)), key=lambda k: abs(states[k].get_x() - label.get_x())):
                  label for label in grid.get_read_labels()}
        anims = [ReplacementTransform(word, labels.pop(i)) if i in labels
                 else FadeOut(word, target_position=states[i], scale=0.5)
                 for i, word in enumerate(carried)]
        return anims + [FadeIn(label) for label in labels.values()]

    # ------------------------------------------------------------------ the grid

    def lay_out_grid(self) -> tuple:
        """The heading across the top; under it the grid, as large as the room allows, and
        its note under it; the key standing in a column at the grid's right or lying in
        a row under it, whichever leaves the grid's cells more room."""
        kind, gap = self.frame().type, style.GAP
        left, right, bottom, top = self.area()
        heading = wrapped(_(HEADING), kind.body, 0.95 * (right - left))
        heading.move_to([self.centre()[0], top, 0], aligned_edge=UP)
        # The rows' captions are notes, in the smallest type; the words are labels.
        read_caption = words(_("read"), kind.minimum, style.MUTED)
        state_caption = words(_("states"), kind.minimum, style.READER)
        key_title = words(_("weight"), kind.label, style.WEIGHT)
        adds_up = wrapped(_(ADDS_UP), kind.label, 0.95 * (right - left), style.MUTED)
        label_room = max(read_caption.width, state_caption.width,
                         *(text_width(w, kind.label)
                           for w in self.numbers["example_attention_output"])) + 0.6 * gap
        space = heading.get_bottom()[1] - gap - bottom - adds_up.height - gap
        standing = WeightKey(_("none"), _("all of it"), 1.0, label_size=kind.label, upright=True)
        ends = text_width(_("none"), kind.label) + text_width(_("all of it"), kind.label)
        lying = WeightKey(_("none"), _("all of it"), ends + 2 * gap, label_size=kind.label)
        beside = self.fit_grid(right - left - max(standing.width, key_title.width) - gap,
                               space, label_room)
        row = VGroup(key_title.copy(), lying.copy())
        row[0].set_y(row[1].get_strip().get_y())
        under = self.fit_grid(right - left, space - row.height - gap, label_room)
        cells = under.get_cells()
        if cells.width * cells.height > beside.get_cells().width * beside.get_cells().height:
            grid, key = under, lying
            VGroup(key_title, key).arrange(RIGHT, buff=gap)
            key_title.set_y(key.get_strip().get_y())
            VGroup(key_title, key).next_to(cells, DOWN, buff=gap).set_x(cells.get_x())
        else:
            # The key stands beside the grid, as tall as the grid with its labels.
            grid, cells = beside, beside.get_cells()
            strip = grid.height - (standing.height - 1.0) - key_title.height - 0.15
            key = WeightKey(_("none"), _("all of it"), max(strip, 0.5), label_size=kind.label,
                            upright=True)
            VGroup(key_title, key).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            VGroup(key_title, key).next_to(cells, RIGHT, buff=gap).align_to(grid, UP)
        adds_up.next_to(VGroup(cells, key), DOWN, buff=gap)
        read_caption.next_to(grid.get_read_labels()[0], LEFT, buff=0, coor_mask=[0, 1, 0])
        # (left of the written words, and of the first read word where it reaches past them)
        read_caption.set_x(min(cells.get_left()[0] - label_room,
                               grid.get_read_labels().get_left()[0] - 0.6 * gap
                               - max(read_caption.width, state_caption.width)), LEFT)
        align_baselines([grid.get_read_labels()[0], read_caption])
        state_caption.move_to(grid.get_states()).set_x(read_caption.get_left()[0], LEFT)
        # All of it in the middle of the room under the heading, the note centred in it.
        block = VGroup(grid, read_caption, state_caption, key_title, key, adds_up)
        block.move_to([self.centre()[0], (heading.get_bottom()[1] - gap + bottom) / 2, 0])
        VGroup(*block[:-1]).set_x(self.centre()[0])
        adds_up.set_x(self.centre()[0])
        for part in (VGroup(key_title, key), adds_up):  # (both inside the room)
            part.shift(RIGHT * (max(left - part.get_left()[0], 0)
                                + min(right - part.get_right()[0], 0)))
        return grid, read_caption, state_caption, heading, key_title, key, adds_up

    def fit_grid(self, width: float, height: float, label_room: float) -> AlignmentMap:
        """The largest grid whose cells, labels and states fit ``width`` x ``height``
        (scene units), ``label_room`` kept at its left; its cells no wider than twice
        their height, nor taller than wide."""
        n, label = self.numbers, self.frame().type.label
        weights, read = n["example_alignment"], n["example_input"]
        written = n["example_attention_output"]
        cell = (1.0, 1.0)
        for _attempt in range(4):
            grid = AlignmentMap(weights, read, written, *cell, label_size=label, stagger=True)
            cells = grid.get_cells()
            above = grid.get_top()[1] - cells.get_top()[1]
            past = max(grid.get_right()[0] - cells.get_right()[0], 0)
            # (the first column's label may reach past the cells' left, over the captions)
            before = max(cells.get_left()[0] - grid.get_read_labels().get_left()[0], 0)
            high = (height - above) / len(written)
            wide = (width - label_room - before - past) / len(read)
            cell = (min(wide, 2 * high, height / 3), min(high, wide, height / 3))
        grid = AlignmentMap(weights, read, written, *cell, label_size=label, stagger=True)
        if grid.height > height:  # the labels took another line at the last size
            grid = AlignmentMap(weights, read, written, cell[0],
                                cell[1] - (grid.height - height) / len(written),
                                label_size=label, stagger=True)
        return grid

    # ------------------------------------------------------------------ the race

    def lay_out_charts(self) -> tuple:
        """The two charts side by side if their tick labels fit so, else one above the
        other; each with a margin at its right for the labels of its lines and its last
        bar; the plots as tall as the room leaves."""
        n, kind, gap = self.numbers, self.frame().type, style.GAP
        left, right, bottom, top = self.area()
        width, height = right - left, top - bottom
        ticks = [str(length) for length in n["lengths"]]
        last = len(ticks) - 1
        all_right = words(_("all right"), kind.label, style.MUTED)
        chance = words(_("chance\n{share}").format(share=percent(n["chance_accuracy"], 1)),
                       kind.label, style.MUTED)
        labels = VGroup(words(percent(n["closed_book_accuracy"][last]), kind.number, style.ROOM),
                        words(percent(n["attention_accuracy"][last]), kind.number,
                              style.WEIGHT))
        x_caption = words(_("words in the sentence"), kind.label, style.MUTED)
        margin = max(all_right.width, chance.width, labels[0].width, labels[1].width) + 0.4
        tick = max(text_width(t, kind.number) for t in ticks) + 0.1
        # above a plot its title, under it its ticks: what a chart takes besides its plot
        probe = AccuracyBars([1.0], ticks[:1], _("open book (attention)"), style.WEIGHT,
                             width=1.0, height=1.0, tick_size=kind.number, title_size=kind.label)
        extra = probe.height - 1.0
        plot_room = height - x_caption.height - gap
        side_width = (width - 2 * margin) / 2
        side = side_width >= tick * len(ticks)
        plot_width = side_width if side else width - margin
        plot_height = plot_room - extra if side else (plot_room - 2 * extra - gap) / 2

        def chart(shares, title, color) -> AccuracyBars:
            return AccuracyBars(shares, ticks, title, color, chance=n["chance_accuracy"],
                                width=plot_width, height=plot_height, tick_size=kind.number,
                                title_size=kind.label)

        closed = chart(n["closed_book_accuracy"], _("closed book"), style.ROOM)
        opened = chart(n["attention_accuracy"], _("open book (attention)"), style.WEIGHT)
        step = RIGHT * (plot_width + margin) if side else DOWN * (plot_height + extra + gap)
        opened.shift(closed.get_base_line().get_left() + step
                     - opened.get_base_line().get_left())
        all_right.next_to(closed.get_top_line(), RIGHT, buff=0.2)
        chance.next_to(opened.get_chance_line(), RIGHT, buff=0.2)
        for label, c in zip(labels, (closed, opened)):
            label.next_to(c.get_base_line(), RIGHT, buff=0.2)
            label.set_y(c.get_bar(last).get_top()[1])
        # The plots and their margins in the middle of the room; the axis's caption
        # centred under the plots, inside the room.
        x_caption.next_to(VGroup(closed.get_frame(), opened.get_frame()), DOWN, buff=gap)
        block = VGroup(closed, opened, all_right, chance, x_caption, labels)
        plots_left = closed.get_base_line().get_left()[0]
        plots_right = opened.get_base_line().get_right()[0]
        block.shift(RIGHT * (self.centre()[0] - (plots_left + plots_right + margin) / 2)
                    + UP * (self.centre()[1] - block.get_y()))
        x_caption.set_x((closed.get_base_line().get_left()[0]
                         + opened.get_base_line().get_right()[0]) / 2)
        x_caption.shift(RIGHT * (max(left - x_caption.get_left()[0], 0)
                                 + min(right - x_caption.get_right()[0], 0)))
        return closed, opened, all_right, chance, x_caption, labels
