"""Where MatchIsTheWeight's parts stand in a frame: the sentence and its arcs over the
grid of weights, as large as the room allows, and the side column (the legend, the
reader's panel, the key, the changed word) beside the grid or under it (:func:`lay_out`).

The formula scene opens on the reader's row where MatchIsTheWeight leaves it, laid out
the same way from its own numbers (:func:`closing_row`), outlined as the grid scene
outlines it (:func:`row_marks`).
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Mobject,
    SurroundingRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import stack_lines, words
from scenes.components.readout_panel import Readout
from scenes.components.tagged_sentence import TaggedSentence, WeightArcs
from scenes.components.weight_grid import (
    WeightGrid,
    WeightScale,
    label_rows_height,
    row_labels_width,
    rows_staggered,
)
from scenes.frame import Frame
from scenes.lines import balanced_lines, text_height
from scenes.numbers import decimal

# Sizes and gaps in scene units.
ARCS = (0.4, 1.0)  # the least and the most height over the sentence for the arcs
LINKS = 0.35 # from under the sentence to the top of the cells, when links head the columns
MAX_CELL = (1.5, 1.0)  # the largest cell: width, height
CELL_SHAPE = (1.5, 2.5)  # a cell is at most this many times as wide as tall, and as tall as wide
GAP = 0.12  # between blocks
NOTE_GAP = 0.6  # between the panel and the changed word beside it
KEY = (0.25, 0.3)  # the key as a bar beside the cells: its gap, its thickness
KEY_CAPTION = N_("brightness = weight")
#: what the grid shows, said in two parts of two clauses (a line break between them);
#: the second part as said when every word shows its tag, and when only some do
LEGEND = (N_("each row: one word,\nreading the sentence"),
          (N_("under each word:\nthe one thing the model was given"),
           N_("under a word:\nthe one thing the model was given")))


#: the panel's labels in full, and short for a side column that leaves the grid too
#: little width (the spread's unit on a line of its own)
PANEL_LABELS = ((N_("reading"), N_("most weight to"), N_("that weight"), N_("row total"),
                 N_("spread (bits)")),
                (N_("reading"), N_("top word"), N_("its weight"), N_("row total"),
                 N_("spread\n(bits)")))
SHORT_GAIN = 1.15  # short labels only if their cells are this much larger in area


def panel_rows(grid: dict, labels: tuple[str, ...] = PANEL_LABELS[0]
               ) -> list[tuple[str, str, object]]:
    """The reader's panel, formatted: weights 2 decimals, row total 3, spread 2 (bits)."""
    values = [(grid["reader"], style.QUERY), (grid["top_word"], style.INK),
              (decimal(grid["top_weight"]), style.WEIGHT),
              (decimal(grid["row_total"], 3), style.INK),
              (decimal(grid["spread_bits"]), style.INK)]
    return [(_(label), value, color) for label, (value, color) in zip(labels, values)]


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
    back: list[str]  # what the note's last texts say once the word is put back


@dataclass
class Arrangement:
    """One way to set the grid and the side parts: "side", "low" or "under" (see
    :func:`lay_out`), the cells it leaves, the parts as it sets them, the key if it stands
    in the side column, the floor the cells stand on (scene units), and whether the
    panel's labels are the short ones."""

    kind: str
    cells: Cells
    panel: Readout
    legend: VGroup
    note: VGroup
    back: list[str]  # what the note's last texts say once the word is put back
    key: WeightScale | None
    floor: float
    short: bool

    @property
    def area(self) -> float:
        return self.cells.width * self.cells.height


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
        for _round in range(3):  # the labels' size and the cells' depend on each other
            labels_w = row_labels_width(versions, cell_h, size)
            cell_w = min(MAX_CELL[0], (width - labels_w) / count)
            head = label_rows_height(versions, cell_w, size) if labelled else LINKS
            cell_h = min(MAX_CELL[1], (top - head - floor) / count, CELL_SHAPE[1] * cell_w)
            cell_w = min(cell_w, CELL_SHAPE[0] * cell_h)
        options.append(Cells(cell_w, cell_h, labelled))
    return next((c for c in options if not rows_staggered(c.height, size)), options[0])


def legend_lines(frame: Frame, width: float, every: bool) -> VGroup:
    """What the grid shows, in lines no wider than ``width`` where they can be."""
    size = frame.type.minimum
    parts = [[line for clause in _(part).split("\n")
              for line in balanced_lines(clause, size, width)]
             for part in (LEGEND[0], LEGEND[1][0 if every else 1])]
    step = text_height("Thp", size) + 0.06
    legend = stack_lines([words(line, size, style.MUTED)
                          for part in parts for line in part], step)
    legend[len(parts[0]):].shift(DOWN * GAP)
    return legend

def lay_out(n: dict, frame: Frame) -> Parts:
    """The sentence and its arcs over everything; under them the grid, as large as the
    room allows, and the side column: the legend, then the panel in its place, and the
    key, then the changed word in its place. The side column stands beside the grid
    or under it, whichever leaves the larger cells."""
    after = n["changed"]
    t = frame.type
    left, right, bottom, top = frame.area()
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
    sentence.move_to([frame.centre()[0], top - ARCS[0], 0], aligned_edge=UP)
    under = sentence.get_bottom()[1] - GAP

    step = text_height("Thp", t.number) + 0.04
    old, new = n["swap"]

    def changed_word(width: float, caption: bool = True,
                     height: float = float("inf")) -> tuple[VGroup, list[str]]:
        """The changed word, under its caption (if ``caption`` and it fits), as large as
        fits ``width`` and ``height``: "cat → dog" on a line, or if that is too wide,
        "cat", an arrow down, "dog" one under another. And what its texts naming words
        say once the word is put back ("dog → cat")."""
        for captioned in (True, False)[0 if caption else 1:]:
            for size in (t.number, t.minimum):
                for named, back in (([f"{old}  →  {new}"], [f"{new}  →  {old}"]),
                                    ([old, "↓", new], [new, "↓", old])):
                    lines = balanced_lines(_("change one word"), size, width) if captioned \
                        else []
                    note = stack_lines([*(words(line, size, style.MUTED) for line in lines),
                                        *(words(x, size) for x in named)],
                                       text_height("Thp", size) + 0.06, aligned_edge=ORIGIN)
                    if note.width <= width and note.height <= height:
                        return note, back
        return note, back

    # Three arrangements; the one that leaves the largest cells is taken, with the
    # panel's labels in full unless short ones leave much larger cells.
    # - "side": the side column right of the grid, as wide as the panel: the legend,
    #   then the panel, over the key (a strip under its caption), then the changed word.
    # - "low": the same column without the key; the key a strip under the cells.
    # - "under": the panel at the bottom left, the changed word beside it, the legend
    #   as wide as the room, the key a bar right of the cells.
    under_legend = legend_lines(frame, right - left, every)
    digit = words("0", t.minimum)
    strip = max(KEY[1], digit.height) + GAP  # a key strip under the cells, and its gap
    options = []
    for labels in PANEL_LABELS:
        short = labels != PANEL_LABELS[0]
        panel = Readout(panel_rows(n, labels), t.minimum, t.number, step, flush_right=True,
                        also=[[value for _, value, _ in panel_rows(after)]], gap=2 * GAP)
        side = panel.width
        legend = legend_lines(frame, side, every)
        key = WeightScale(side - 2 * (digit.width + 0.15), KEY[1], size=t.minimum,
                          caption=balanced_lines(_(KEY_CAPTION), t.minimum, side))
        for kind, floor in (("side", bottom), ("low", bottom + strip)):
            cells = fit_cells(versions, t.minimum, right - left - side - 2 * GAP, under,
                              floor)
            room = under - (0.0 if cells.labelled else LINKS) - bottom  # the column's
            for caption in (True, False):  # the changed word's caption, if it fits
                note, back = changed_word(side, caption)
                if kind == "side":
                    column = max(panel.height, legend.height) + GAP + max(note.height,
                                                                           key.height)
                else:
                    column = max(legend.height, panel.height + GAP + note.height)
                if column <= room + 1e-6:
                    options.append(Arrangement(kind, cells, panel, legend, note, back,
                                               key if kind == "side" else None, floor,
                                               short))
                    break
        spot = max(panel.height, under_legend.height)
        note, back = changed_word(right - left - panel.width - NOTE_GAP, height=spot)
        floor = bottom + max(spot, note.height) + GAP
        cells = fit_cells(versions, t.minimum, right - left - sum(KEY) - 0.4, under, floor)
        options.append(Arrangement("under", cells, panel, under_legend, note, back, None,
                                   floor, short))
    full = max((o for o in options if not o.short), key=lambda o: o.area)
    best = max(options, key=lambda o: o.area)
    chosen = best if best.area > SHORT_GAIN * full.area else full
    kind, cells, panel, legend, note = (chosen.kind, chosen.cells, chosen.panel,
                                        chosen.legend, chosen.note)
    side = panel.width
    labels_w = row_labels_width(versions, cells.height, t.minimum)
    head = label_rows_height(versions, cells.width, t.minimum) if cells.labelled else LINKS
    # the height the cells leave: the arcs take some, the rest is shared above and below
    spare = under - head - len(versions[0]) * cells.height - chosen.floor
    arcs_extra = min(ARCS[1] - ARCS[0], max(0.0, spare))
    drop = arcs_extra + max(0.0, spare - arcs_extra) / 2
    beside = kind != "under"
    if beside:  # room for all of the side column under its top
        column = max(legend.height, panel.height + GAP + note.height)
        if chosen.key is not None:
            column = max(panel.height, legend.height) + GAP + max(note.height,
                                                                   chosen.key.height)
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
        grid_left = frame.centre()[0] - (labels_w + cells_w + sum(KEY)) / 2 + labels_w
    grid.shift([grid_left, under - head, 0] - grid.get_cells().get_corner(LEFT + UP))
    if not cells.labelled:
        grid.link_columns([(word.get_x(), sentence.get_bottom()[1] - 0.06)
                           for word in sentence.get_words()])
    box = grid.get_cells()
    if beside:  # under the sentence, or level with the cells, clear of links over them
        for block in (panel, legend):
            block.set_x(right - side, LEFT)
            block.align_to(UP * under if cells.labelled else box, UP)
    if chosen.key is not None:
        scale = chosen.key
        # the key, then the changed word, under the panel and the legend, low as the cells
        clear = min(panel.get_bottom()[1], legend.get_bottom()[1]) - GAP
        for block in (scale, note):
            block.set_x(right - side / 2).align_to(box, DOWN)
            block.shift(UP * max(0.0, bottom - block.get_bottom()[1]))
            block.shift(UP * min(0.0, clear - block.get_top()[1]))
    elif kind == "low":
        # the changed word under the panel; the key a strip under the cells, its ends
        # labelled
        note.set_x(right - side / 2).next_to(panel, DOWN, buff=GAP)
        scale = WeightScale(box.width - 2 * (digit.width + 0.15), KEY[1], size=t.minimum,
                            caption=())
        scale.next_to(box, DOWN, buff=GAP)
    else:
        for block in (panel, legend):
            block.set_x(left, LEFT).align_to(UP * (chosen.floor - GAP), UP)
        note.set_x(right, RIGHT).align_to(panel, UP)
        bar = digit.height + 0.15
        scale = WeightScale(box.height - 2 * bar, KEY[1], size=t.minimum, caption=(),
                            vertical=True)
        scale.next_to(box, RIGHT, buff=KEY[0])
    return Parts(sentence, arcs, grid, panel, scale, legend, note, chosen.back)


def row_marks(row: VGroup, cell: Mobject) -> tuple[Mobject, Mobject]:
    """The outline of the reader's row of cells, in the query's colour, and of its top
    ``cell``; they stay over the cells while the cells change brightness."""
    row_box = SurroundingRectangle(row, buff=0.03, color=style.QUERY,
                                   stroke_width=3).set_z_index(1)
    top_box = SurroundingRectangle(cell, buff=0.0, color=style.INK,
                                   stroke_width=3).set_z_index(2)
    return row_box, top_box


def closing_row(n: dict, frame: Frame) -> VGroup:
    """The reader's row as MatchIsTheWeight ends on it, with the first version of the
    sentence: its label in the query's colour, its cells, its outline and its top cell's.
    What the next scene opens with (a group of the label, the cells and the outlines)."""
    p = lay_out(n, frame)
    reader = n["reader_index"]
    label = p.grid.get_row_label(reader).set_color(style.QUERY)
    row = p.grid.get_row(reader)
    return VGroup(label, row, *row_marks(row, p.grid.get_cell(reader, n["top_index"])))
