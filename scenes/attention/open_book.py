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
    SurroundingRectangle,
    VGroup,
    config,
)

from scenes import style
from scenes.base import ChapterScene, align_baselines, words
from scenes.components.accuracy_chart import AccuracyBars
from scenes.components.alignment_map import AlignmentMap, WeightKey
from scenes.numbers import percent, percent_figure


class LeaveTheBookOpen(ChapterScene):
    """An alignment grid built row by row, then both writers' accuracy against length."""

    section = "open_book"
    title = "Leave the book open"
    beat_seconds = {"states": 6.0, "rows": 10.0, "grid": 6.0, "race": 9.0, "longest": 8.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"longest": str(n["lengths"][-1]),
                "closed": percent_figure(n["closed_book_accuracy"][-1]),
                "open": percent_figure(n["attention_accuracy"][-1])}


    #: the grid's largest cell (width, height) and the space it may fill (scene units)
    MAX_CELL = (0.85, 0.62)
    GRID_SPACE = (6.8, 5.0)
    #: the grid's height and each chart's plot height in the tall frame (scene units)
    TALL_GRID_HEIGHT = 4.0
    TALL_PLOT_HEIGHT = 1.85

    def construct(self) -> None:
        n = self.numbers
        read, written = n["example_input"], n["example_attention_output"]
        size = len(read)
        left, right, _, top = self.area()
        small = style.TALL_MIN_FONT_SIZE if self.tall else style.SMALL

        read_caption = words("read", small, style.MUTED)
        state_caption = words("states", small, style.READER)
        if self.tall:
            # Upright: the heading on two lines across the top, the grid under it as wide
            # as the frame allows (the read labels staggered), the key under the grid.
            heading = words("At every step, the writer\nlooks back at every state",
                            style.BODY, style.INK)
            heading.move_to([left, top, 0], aligned_edge=LEFT + UP)
            label_room = max(read_caption.width, state_caption.width,
                             *(words(w, small).width for w in written)) + style.GAP
            # (less a little, as the last column's label may be wider than its column)
            space = (right - left - label_room - 0.15, self.TALL_GRID_HEIGHT)
            grid_top = heading.get_bottom()[1] - 0.7 * style.GAP
        else:
            space = self.GRID_SPACE
        grid = AlignmentMap(n["example_alignment"], read, written,
                            min(self.MAX_CELL[0], space[0] / size),
                            min(self.MAX_CELL[1], space[1] / size),
                            label_size=small, stagger=self.tall)
        self.grid = grid  # for tests: what is drawn
        if not self.tall:
            label_room = max(read_caption.width, state_caption.width,
                             grid.get_written_labels().width) + style.GAP
            grid_top = top
        grid.shift(RIGHT * (left + label_room - grid.get_cells().get_left()[0])
                   + UP * (grid_top - grid.get_top()[1]))
        read_caption.next_to(grid.get_read_labels(), LEFT, buff=0, coor_mask=[0, 1, 0])
        read_caption.set_x(left, LEFT)
        align_baselines([grid.get_read_labels()[0], read_caption])
        state_caption.move_to(grid.get_states()).set_x(left, LEFT)

        key_title = words("weight", small, style.WEIGHT)
        adds_up = words("each row adds\nup to one", small, style.MUTED)
        if self.tall:
            key = WeightKey("none", "all of it", width=3.0, label_size=small)
            VGroup(key_title, key).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            VGroup(key_title, key).next_to(grid, DOWN, buff=0.7 * style.GAP).set_x(left, LEFT)
            adds_up.next_to(key, RIGHT, buff=2 * style.GAP).align_to(key_title, UP)
        else:
            heading = words("At every step,\nthe writer looks\nback at every state",
                            style.LABEL, style.INK)
            heading.move_to([min(grid.get_right()[0] + 2 * style.GAP, right - heading.width),
                             top, 0], aligned_edge=LEFT + UP)
            key = WeightKey("none", "all of it", width=heading.width * 0.8)
            VGroup(key_title, key).arrange(DOWN, buff=0.15, aligned_edge=LEFT)
            VGroup(key_title, key).next_to(heading, DOWN, buff=2 * style.GAP)
            VGroup(key_title, key).align_to(heading, LEFT)
            adds_up.next_to(key, DOWN, buff=2 * style.GAP).align_to(heading, LEFT)

        # The viewer sees the words read, each with its own state, all kept open.
        b = self.beat("states")
        self.play(FadeIn(grid.get_read_labels(), lag_ratio=0.1), FadeIn(read_caption),
                  run_time=b.part(0.25))
        self.play(FadeIn(grid.get_states(), shift=DOWN * 0.15, lag_ratio=0.1),
                  FadeIn(state_caption), run_time=b.part(0.25))
        self.play(FadeIn(heading), run_time=b.part(0.2))

        # The viewer sees the grid fill row by row: one output step at a time, bright = weight.
        b = self.beat("rows")
        self.play(FadeIn(key_title), FadeIn(key), run_time=b.part(0.1))
        for i in range(size):
            self.play(grid.make_row_animation(i), run_time=b.part(0.7 / size))

        # The viewer sees that every row shares out all of one step's attention.
        b = self.beat("grid")
        step = grid.get_row(min(2, size - 1))
        one_step = SurroundingRectangle(step, buff=0.04, color=style.WRITER, stroke_width=3)
        self.play(Create(one_step), run_time=b.part(0.2))
        self.play(FadeIn(adds_up), run_time=b.part(0.2))

        # The viewer sees the two writers side by side: words right against sentence length.
        b = self.beat("race")
        self.play(FadeOut(VGroup(grid, read_caption, state_caption, heading, key_title, key,
                                 adds_up, one_step)), run_time=b.part(0.15))
        ticks = [str(length) for length in n["lengths"]]
        chance = words(f"chance\n{percent(n['chance_accuracy'], 1)}", small, style.MUTED)
        # Upright, the charts stand one above the other, as wide as the chance label
        # beside them allows (the ticks are the same for both).
        plot = {"width": right - left - chance.width - 0.2, "height": self.TALL_PLOT_HEIGHT,
                "tick_size": small, "title_buff": 0.7} if self.tall else {}
        closed = AccuracyBars(n["closed_book_accuracy"], ticks, "closed book", style.ROOM,
                              chance=n["chance_accuracy"], **plot)
        opened = AccuracyBars(n["attention_accuracy"], ticks, "open book (attention)",
                              style.WEIGHT, chance=n["chance_accuracy"], **plot)
        if self.tall:
            charts = VGroup(closed, opened).arrange(DOWN, buff=1.5 * style.GAP, aligned_edge=LEFT)
        else:
            charts = VGroup(closed, opened).arrange(RIGHT, buff=1.2, aligned_edge=DOWN)
            align_baselines([closed.get_title(), opened.get_title()])
        self.charts = charts
        all_right = words("all right", small, style.MUTED)
        all_right.next_to(closed.get_top_line(), UP, buff=0.1).align_to(closed.get_top_line(),
                                                                         LEFT)
        chance.next_to(opened.get_chance_line(), RIGHT, buff=0.2)
        x_caption = words("words in the sentence", small, style.MUTED)
        x_caption.next_to(VGroup(closed.get_frame(), opened.get_frame()), DOWN, buff=style.GAP)
        chart = VGroup(charts, all_right, chance, x_caption)
        chart.move_to(self.centre() if self.tall else [0, (top + self.FLOOR) / 2, 0])
        self.play(*(FadeIn(c.get_frame()) for c in (closed, opened)),
                  *(FadeIn(c.get_title()) for c in (closed, opened)),
                  FadeIn(all_right), FadeIn(x_caption), run_time=b.part(0.2))
        self.play(FadeIn(closed.get_chance_line()), FadeIn(opened.get_chance_line()),
                  FadeIn(chance), run_time=b.part(0.1))
        self.play(closed.make_grow_animation(), opened.make_grow_animation(),
                  run_time=b.part(0.4))

        # The viewer sees the longest sentence picked out, with both measured accuracies.
        b = self.beat("longest")
        last = len(ticks) - 1
        labels = VGroup()
        for c, share, color in ((closed, n["closed_book_accuracy"][last], style.ROOM),
                                (opened, n["attention_accuracy"][last], style.WEIGHT)):
            label = words(percent(share), style.LABEL, color)
            label.next_to(c.get_bar(last), UP, buff=0.15)
            labels.add(label)
        self.play(*(bar.animate.set_fill(opacity=0.3)
                    for c in (closed, opened) for bar in c.get_bars()[:last]),
                  *(c.ticks[last].animate.set_color(style.INK) for c in (closed, opened)),
                  run_time=b.part(0.25))
        self.play(FadeIn(labels, shift=UP * 0.15), run_time=b.part(0.2))

    #: the lowest y of anything important: the bottom unit of the frame is for captions
    FLOOR = -config.frame_height / 2 + 1.0
