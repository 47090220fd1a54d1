"""The match is the weight: the whole grid of weights, one row read out, one word changed."""

from __future__ import annotations

from dataclasses import dataclass

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
    rows_staggered,
)
from scenes.lines import balanced_lines
from scenes.numbers import decimal

# Sizes and gaps in scene units.
ARCS = (0.4, 1.0)  # the least and the most height over the sentence for the arcs
LINKS = 0.35 # from under the sentence to the top of the cells, when links head the columns
MAX_CELL = (1.5, 1.0)  # the largest cell: width, height
CELL_SHAPE = (1.5, 2.5)  # a cell is at most this many times as wide as tall, and as tall as wide
GAP = 0.12  # between blocks
KEY = (0.25, 0.3)  # the key as a bar beside the cells: its gap, its thickness
KEY_CAPTION = "brightness = weight"
#: what the grid shows, said in two parts of two clauses ("{which}": "each" when every
#: word shows its tag, "a" when only some do)
LEGEND = (("each row: one word,", "reading the sentence"),
          ("under {which} word:", "the one thing the model was given"))


def panel_rows(grid: dict) -> list[tuple[str, str, object]]:
    """The reader's panel, formatted: weights 2 decimals, row total 3, spread 2 (bits)."""
    return [
        ("reading", grid["reader"], style.QUERY),
        ("most weight to", grid["top_word"], style.INK),
        ("that weight", decimal(grid["top_weight"]), style.WEIGHT),
        ("row total", decimal(grid["row_total"], 3), style.INK),
        ("spread (bits)", decimal(grid["spread_bits"]), style.INK),
    ]


@dataclass
class Parts:
    """The scene's parts, placed where they first appear."""

    sentence: TaggedSentence
    arcs: WeightArcs
    grid: WeightGrid
    panel: Readout
    scale: WeightScale
    legend: VGroup
    note: VGroup


@dataclass(frozen=True)
class Cells:
    """The grid's cells (scene units), and whether the column labels head them (or links
    from the sentence do)."""

    width: float
    height: float
    labelled: bool


def fit_cells(versions: list[list[str]], size: int, width: float, top: float,
              floor: float) -> Cells:
    """The largest cells for a grid of ``versions[0]``'s words whose row labels (at
    ``size``) and cells take ``width`` and stand between ``top`` and ``floor`` with
    their column heads: labels over the columns, or links if only those leave the rows
    tall enough for their labels."""
    count = len(versions[0])
    options = []
    for labelled in (True, False):
        cell_w, cell_h = MAX_CELL
        for _ in range(3):  # the labels' size and the cells' depend on each other
            labels_w = row_labels_width(versions, cell_h, size)
            cell_w = min(MAX_CELL[0], (width - labels_w) / count)
            head = label_rows_height(versions, cell_w, size) if labelled else LINKS
            cell_h = min(MAX_CELL[1], (top - head - floor) / count, CELL_SHAPE[1] * cell_w)
            cell_w = min(cell_w, CELL_SHAPE[0] * cell_h)
        options.append(Cells(cell_w, cell_h, labelled))
    return next((c for c in options if not rows_staggered(c.height, size)), options[0])


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

    # ------------------------------------------------------------- layout
    def legend(self, width: float, every: bool) -> VGroup:
        """What the grid shows, in lines no wider than ``width`` where they can be."""
        size = self.frame().type.minimum
        which = "each" if every else "a"
        parts = [[line for clause in part
                  for line in balanced_lines(clause.format(which=which), size, width)]
                 for part in LEGEND]
        step = words("Thp", size).height + 0.06
        legend = stack_lines([words(line, size, style.MUTED)
                              for part in parts for line in part], step)
        legend[len(parts[0]):].shift(DOWN * GAP)
        return legend

    def lay_out(self) -> Parts:
        """The sentence and its arcs over everything; under them the grid, as large as the
        room allows, and the side column: the legend, then the panel in its place, and the
        key, then the changed word in its place. The side column stands beside the grid
        or under it, whichever leaves the larger cells."""
        n = self.numbers
        after = n["changed"]
        t = self.frame().type
        left, right, bottom, top = self.area()
        versions = [n["words"], after["words"]]
        reader = n["reader_index"]

        # The sentence with every word's tag if they fit on two lines, else only the tags
        # the narration needs; its words at the label size if they fit, else the least.
        named = (reader, n["top_index"], after["reader_index"], after["top_index"])
        for size, tagged, lines in ((t.label, None, 2), (t.label, named, 3),
                                    (t.minimum, named, 3)):
            sentence = TaggedSentence(n["words"], n["tags"],
                                      also=[(after["words"], after["tags"])], size=size,
                                      tag_size=t.minimum, max_width=right - left,
                                      tagged=tagged, max_lines=lines)
            if sentence.fits:
                break
        every = tagged is None
        sentence.move_to([self.centre()[0], top - ARCS[0], 0], aligned_edge=UP)
        under = sentence.get_bottom()[1] - GAP

        step = words("Thp", t.number).height + 0.04
        panel = Readout(panel_rows(n), t.minimum, t.number, step, flush_right=True,
                        also=[[value for _, value, _ in panel_rows(after)]], gap=2 * GAP)
        old, new = n["swap"]

        def changed_word(width: float) -> VGroup:
            """The changed word under its caption, as large as fits ``width``."""
            for size in (t.number, t.minimum):
                note = VGroup(*(words(line, size, style.MUTED)
                                for line in balanced_lines("change one word", size, width)),
                              words(f"{old}  →  {new}", size)).arrange(DOWN, buff=0.06)
                if note.width <= width:
                    break
            return note

        # Beside: the side column right of the grid, as wide as the panel. Under: the panel
        # at the bottom left, the changed word beside it, the legend as wide as the room,
        # the key a bar right of the cells.
        side = max(panel.width, words(KEY_CAPTION, t.minimum).width)
        beside_cells = fit_cells(versions, t.minimum, right - left - side - 2 * GAP,
                                 under, bottom)
        under_legend = self.legend(right - left, every)
        spot_top = bottom + max(panel.height, under_legend.height)
        under_cells = fit_cells(versions, t.minimum, right - left - sum(KEY) - 0.4,
                                under, spot_top + GAP)
        beside = beside_cells.width * beside_cells.height >= \
            under_cells.width * under_cells.height
        cells = beside_cells if beside else under_cells
        legend = self.legend(side, every) if beside else under_legend
        note = changed_word(side if beside else right - left - panel.width - GAP)
        labels_w = row_labels_width(versions, cells.height, t.minimum)
        head = label_rows_height(versions, cells.width, t.minimum) if cells.labelled else LINKS
        floor = bottom if beside else spot_top + GAP
        # the height the cells leave: the arcs take some, the rest is shared above and below
        spare = under - head - len(versions[0]) * cells.height - floor
        arcs_extra = min(ARCS[1] - ARCS[0], max(0.0, spare))
        drop = arcs_extra + max(0.0, spare - arcs_extra) / 2
        if beside:  # room for all of the side column under its top
            end = words("0", t.minimum).height + 0.5  # the key's strip and its ends
            column = max(panel.height, legend.height) + GAP + max(
                note.height, end + words(KEY_CAPTION, t.minimum).height)
            drop = max(0.0, min(drop, under - (0.0 if cells.labelled else head) - column
                                - bottom))
        sentence.shift(DOWN * drop)
        under -= drop
        arcs = WeightArcs(sentence, reader, n["weights"][reader],
                          max_height=ARCS[0] + arcs_extra - 0.1)

        grid = WeightGrid(n["words"], n["weights"], cells.width, cells.height,
                          also=[after["words"]], label_size=t.minimum,
                          label_columns=cells.labelled)
        cells_w = len(versions[0]) * cells.width
        if beside:
            room = right - side - 2 * GAP - left
            grid_left = left + labels_w + max(0.0, room - labels_w - cells_w) / 2
        else:
            grid_left = self.centre()[0] - (labels_w + cells_w + sum(KEY)) / 2 + labels_w
        grid.shift([grid_left, under - head, 0] - grid.get_cells().get_corner(LEFT + UP))
        if not cells.labelled:
            grid.link_columns([(word.get_x(), sentence.get_bottom()[1] - 0.06)
                               for word in sentence.get_words()])
        box = grid.get_cells()
        if beside:  # under the sentence, or level with the cells, clear of links over them
            for block in (panel, legend):
                block.set_x(right - side, LEFT)
                block.align_to(UP * under if cells.labelled else box, UP)
            end = words("0", t.minimum).width + 0.15
            scale = WeightScale(side - 2 * end, 0.3, size=t.minimum, caption=(KEY_CAPTION,))
            # the key, then the changed word, under the panel and the legend, low as the cells
            clear = min(panel.get_bottom()[1], legend.get_bottom()[1]) - GAP
            for block in (scale, note):
                block.set_x(right - side / 2).align_to(box, DOWN)
                block.shift(UP * max(0.0, bottom - block.get_bottom()[1]))
                block.shift(UP * min(0.0, clear - block.get_top()[1]))
        else:
            for block in (panel, legend):
                block.set_x(left, LEFT).align_to(UP * spot_top, UP)
            note.set_x(right, RIGHT).align_to(UP * bottom, DOWN)
            digit = words("0", t.minimum).height + 0.15
            scale = WeightScale(box.height - 2 * digit, KEY[1], size=t.minimum, caption=(),
                                vertical=True)
            scale.next_to(box, RIGHT, buff=KEY[0])
        return Parts(sentence, arcs, grid, panel, scale, legend, note)

    def construct(self) -> None:
        n = self.numbers
        after = n["changed"]
        reader = n["reader_index"]
        p = self.lay_out()
        sentence, arcs, grid, panel = p.sentence, p.arcs, p.grid, p.panel

        # The viewer sees the sentence with its tags, then the grid fill in row by row.
        b = self.beat("grid")
        self.play(FadeIn(sentence, shift=DOWN * 0.15), run_time=b.part(0.2))
        self.play(grid.make_fill_animation(), run_time=b.part(0.4))
        self.play(FadeIn(p.legend), FadeIn(p.scale), run_time=b.part(0.2))

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
        self.play(FadeOut(p.legend), run_time=b.part(0.1))
        self.cue("tick")
        self.play(LaggedStart(*(FadeIn(panel.get_line(i), shift=LEFT * 0.15)
                                for i in range(len(panel.get_values()))), lag_ratio=0.35),
                  run_time=b.part(0.55))

        # The viewer sees one word of the sentence changed, everywhere it stands.
        b = self.beat("swap")
        self.play(FadeOut(p.scale), FadeIn(p.note, shift=UP * 0.15), run_time=b.part(0.2))
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
