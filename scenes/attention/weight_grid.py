"""The match is the weight: the whole grid of weights, one row read out, one word changed."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    SurroundingRectangle,
    VGroup,
    config,
)

from scenes import style
from scenes.base import ChapterScene, stack_lines, words
from scenes.components.readout_panel import Readout
from scenes.components.tagged_sentence import TaggedSentence, WeightArcs
from scenes.components.weight_grid import (
    WeightGrid,
    WeightScale,
    label_rows_height,
    row_labels_width,
)
from scenes.numbers import decimal

ARC_ROOM = 0.95  # scene units above the sentence kept for the arcs
FLOOR = -3.0  # nothing important below this: captions will sit there
MAX_CELL = (1.0, 0.5)  # largest cell (width, height) in scene units
# The tall frame (scene units)
TALL_ARC_ROOM = 0.5  # above the sentence, for the arcs
TALL_GAP = 0.2  # between the grid and the panel
TALL_LINE_STEP = 0.48  # between baselines of the panel's and the legend's lines
TALL_CELL_SHAPE = 1.2  # the widest a cell may be for its height
TALL_LINKS = 0.42  # from under the sentence to the top of the grid, for the links
TALL_KEY = (0.25, 0.3)  # the key's bar right of the grid: its gap, its thickness


def panel_rows(grid: dict) -> list[tuple[str, str, object]]:
    """The reader's panel, formatted: weights 2 decimals, row total 3, spread 2 (bits)."""
    return [
        ("reading", grid["reader"], style.QUERY),
        ("most weight to", grid["top_word"], style.INK),
        ("that weight", decimal(grid["top_weight"]), style.WEIGHT),
        ("row total", decimal(grid["row_total"], 3), style.INK),
        ("spread (bits)", decimal(grid["spread_bits"]), style.INK),
    ]


class MatchIsTheWeight(ChapterScene):
    """Every word's row of weights, the reader's row as arcs and a panel, then one word changed."""

    section = "grid"
    title = "The match is the weight"
    beat_seconds = {"grid": 8.0, "row": 8.0, "panel": 9.0, "swap": 6.0, "moved": 9.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n, new = numbers, numbers["changed"]
        return {"reader": n["reader"], "top_word": n["top_word"],
                "top_weight": decimal(n["top_weight"]), "spread": decimal(n["spread_bits"]),
                "old": n["swap"][0], "new": n["swap"][1], "new_reader": new["reader"],
                "new_top": new["top_word"], "new_weight": decimal(new["top_weight"])}

    def construct(self) -> None:
        n = self.numbers
        after = n["changed"]
        size = len(n["words"])
        versions = [n["words"], after["words"]]
        reader = n["reader_index"]
        # Tall, only the two words the narration needs keep their tag.
        legend_lines = ("each row: one word,", "reading the sentence",
                        "under a word:" if self.tall else "under each word:",
                        "the one thing the", "model was given")
        old, new = n["swap"]
        if self.tall:
            sentence, arcs, grid, panel, scale, legend, note = self.lay_out_tall(legend_lines)
        else:
            half_w = config.frame_width / 2 - style.EDGE
            top = config.frame_height / 2 - style.EDGE

            sentence = TaggedSentence(n["words"], n["tags"],
                                      also=[(after["words"], after["tags"])],
                                      max_width=2 * half_w)
            sentence.move_to(UP * (top - ARC_ROOM), aligned_edge=UP)
            arcs = WeightArcs(sentence, reader, n["weights"][reader], max_height=ARC_ROOM - 0.1)

            panel = Readout(panel_rows(n))
            scale = WeightScale().to_edge(RIGHT, buff=style.EDGE)

            # The grid fills what is left: left of the panel, under the sentence.
            panel.next_to(sentence, DOWN, buff=style.GAP).to_edge(RIGHT, buff=style.EDGE)
            grid_top = sentence.get_bottom()[1] - style.GAP
            cell_h = MAX_CELL[1]
            for _ in range(3):  # the label sizes and the cell size depend on each other
                grid_left = -half_w + row_labels_width(versions, cell_h)
                room_w = panel.get_left()[0] - 1.5 * style.GAP - grid_left
                cell_w = min(MAX_CELL[0], room_w / size)
                cells_top = grid_top - label_rows_height(versions, cell_w)
                cell_h = min(MAX_CELL[1], (cells_top - FLOOR - 0.1) / size)
            grid = WeightGrid(n["words"], n["weights"], cell_w, cell_h, also=[after["words"]])
            grid.shift([grid_left, cells_top, 0] - grid.get_cells().get_corner(LEFT + UP))
            # A short sentence leaves a small grid: centre it in its room.
            grid.shift(RIGHT * max(0.0, (-half_w + grid_left + room_w) / 2 - grid.get_x()))
            scale.align_to(grid.get_cells(), DOWN)
            if scale.get_top()[1] > panel.get_bottom()[1] - style.GAP:
                scale.next_to(panel, DOWN, buff=style.GAP).to_edge(RIGHT, buff=style.EDGE)

            legend = stack_lines([words(line, style.SMALL, style.MUTED)
                                  for line in legend_lines], step=0.5)
            legend[2:].shift(DOWN * style.GAP)
            legend.align_to(panel, LEFT).align_to(panel, UP)
            note = VGroup(words("change one word", style.SMALL, style.MUTED),
                          words(f"{old}  →  {new}", style.LABEL))
            note.arrange(DOWN, buff=style.LINE_GAP).move_to(scale)

        # The viewer sees the sentence with its tags, then the grid fill in row by row.
        b = self.beat("grid")
        self.play(FadeIn(sentence, shift=DOWN * 0.15), run_time=b.part(0.2))
        self.play(grid.make_fill_animation(), run_time=b.part(0.4))
        self.play(FadeIn(legend), FadeIn(scale), run_time=b.part(0.2))

        # The viewer sees the reader's row picked out, and the same row drawn as arcs.
        b = self.beat("row")
        row_box = SurroundingRectangle(grid.get_row(reader), buff=0.03, color=style.QUERY,
                                       stroke_width=3)
        top_box = SurroundingRectangle(grid.get_cell(reader, n["top_index"]), buff=0.0,
                                       color=style.INK, stroke_width=3)
        # The outlines stay over the cells while the cells change brightness.
        row_box.set_z_index(1)
        top_box.set_z_index(2)
        self.play(Create(row_box), grid.get_row_label(reader).animate.set_color(style.QUERY),
                  sentence.get_word(reader).animate.set_color(style.QUERY), run_time=b.part(0.2))
        self.play(LaggedStart(*(Create(a) for a in arcs), lag_ratio=0.06), run_time=b.part(0.4))
        self.play(Create(top_box), run_time=b.part(0.15))

        # The viewer sees the reader's panel: who reads, where most weight goes, and how much.
        b = self.beat("panel")
        self.play(FadeOut(legend), run_time=b.part(0.1))
        self.cue("tick")
        self.play(LaggedStart(*(FadeIn(panel.get_line(i), shift=LEFT * 0.15)
                                for i in range(len(panel.get_values()))), lag_ratio=0.35),
                  run_time=b.part(0.55))

        # The viewer sees one word of the sentence changed, everywhere it stands.
        b = self.beat("swap")
        self.play(FadeOut(scale), FadeIn(note, shift=UP * 0.15), run_time=b.part(0.2))
        self.play(sentence.make_change_animation(after["words"], after["tags"]),
                  grid.make_labels_animation(after["words"]), run_time=b.part(0.35))

        # The viewer sees every cell, every arc and every panel number move to the new values.
        b = self.beat("moved")
        new_reader = after["reader_index"]
        self.play(
            grid.make_weights_animation(after["weights"]),
            arcs.make_weights_animation(new_reader, after["weights"][new_reader]),
            panel.make_values_animation([value for _, value, _ in panel_rows(after)]),
            row_box.animate.move_to(grid.get_row(new_reader)),
            top_box.animate.move_to(grid.get_cell(new_reader, after["top_index"])),
            run_time=b.part(0.4),
        )

    def lay_out_tall(self, legend_lines: tuple[str, ...]):
        """The parts laid out for the tall frame, in one column at the phone's type size:
        the arcs and the sentence on one line (the tags only under the words the narration
        names: the readers and the words they weight most), faint links from each word
        down to its column, a grid of square cells with its row labels in one column,
        then the panel (the legend before it) at the bottom left with the brightness key
        (then the changed word) beside it at the bottom right. The sentence heads the
        columns, so they carry no labels of their own; the grid takes the room left.

        Returns the sentence, arcs, grid, panel, key, legend and the changed-word note.
        """
        n = self.numbers
        after = n["changed"]
        size, reader = len(n["words"]), n["reader_index"]
        versions = [n["words"], after["words"]]
        left, right, bottom, top = self.area()
        text = style.LABEL

        named = (reader, n["top_index"], after["reader_index"], after["top_index"])
        sentence = TaggedSentence(n["words"], n["tags"], also=[(after["words"], after["tags"])],
                                  max_width=right - left, size=text, tagged=named)
        sentence.move_to(UP * (top - TALL_ARC_ROOM), aligned_edge=UP).set_x(self.centre()[0])
        arcs = WeightArcs(sentence, reader, n["weights"][reader], max_height=TALL_ARC_ROOM - 0.1)

        # The panel (and the legend before it) at the bottom left, the changed word
        # beside it at the bottom right, on as few lines as leave room for it.
        panel = Readout(panel_rows(n), text, text, TALL_LINE_STEP, flush_right=True,
                        also=[[value for _, value, _ in panel_rows(after)]])
        legend = stack_lines([words(line, text, style.MUTED) for line in legend_lines],
                             step=TALL_LINE_STEP)
        legend[2:].shift(DOWN * 0.1)
        spot_top = bottom + max(panel.height, legend.height)
        for block in (panel, legend):
            block.set_x(left, LEFT).align_to(UP * spot_top, UP)
        beside = right - panel.get_right()[0] - style.GAP
        old, new = n["swap"]
        change = ["change one word"]
        if words(change[0], text).width > beside:
            change = ["change", "one word"]
        note = VGroup(*(words(line, text, style.MUTED) for line in change),
                      words(f"{old}  →  {new}", text))
        note.arrange(DOWN, buff=0.05)
        note.set_x(right, RIGHT).align_to(UP * bottom, DOWN)

        # The grid between the links and the panel, its cells as large as the room allows
        # and nearly square, the row labels left of them and the key as a bar right of
        # them; the three together centred.
        links_top = sentence.get_bottom()[1] - 0.06
        cells_top = links_top - TALL_LINKS
        reach = words("Thp", text).height / 2  # a row label's reach below its row's middle
        cell_h = MAX_CELL[0]
        for _ in range(3):  # the labels' reach and width and the cell size depend on each other
            floor = spot_top + TALL_GAP + max(0.0, reach - cell_h / 2)
            labels_w = row_labels_width(versions, cell_h, text)
            cell_h = min(MAX_CELL[0], (cells_top - floor) / size)
        key_w = TALL_KEY[0] + TALL_KEY[1]
        cell_w = min(TALL_CELL_SHAPE * cell_h, (right - left - labels_w - key_w) / size)
        grid = WeightGrid(n["words"], n["weights"], cell_w, cell_h, also=[after["words"]],
                          label_size=text, label_columns=False)
        grid_left = self.centre()[0] - (labels_w + size * cell_w + key_w) / 2 + labels_w
        grid.shift([grid_left, cells_top, 0] - grid.get_cells().get_corner(LEFT + UP))
        grid.link_columns([(word.get_x(), links_top) for word in sentence.get_words()])
        cells = grid.get_cells()
        digit = words("0", text).height + 0.15
        scale = WeightScale(width=cells.height - 2 * digit, height=TALL_KEY[1], size=text,
                            caption=(), vertical=True)
        scale.next_to(cells, RIGHT, buff=TALL_KEY[0])
        return sentence, arcs, grid, panel, scale, legend, note
