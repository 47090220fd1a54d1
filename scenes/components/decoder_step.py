"""One step of the attention decoder, drawn as a table of hidden states.

The English words stand in a column at the left, each with its encoder state as a
strip of cells (:class:`~scenes.components.state_strip.StateStrip`) in a row; under
them, after a little gap, the decoder's own rows: this step's context, its previous
state and its new state. Every strip starts at the same x and has the same cells, so
a weighted average is a motion straight down, and two rows joined into a third are
neighbours. Each row has a slot for its numbers (a score, a weight bar, the word
written): beside its strip, on a line under it, or split (the figures beside the strip,
the bar on a thin line under it, as long as the strip for a whole weight), wherever the
strips' cells come out largest in the frame's room.
Over the table, in the step picture, the French written so far, each word in the
place it keeps in the whole sentence.

:class:`StepTable` measures all of this for one frame's area from the texts it must
hold, so the scenes that share the picture (and their joins) build it the same way
from their own numbers: :func:`score_table` for the scores and weights of one step,
:func:`step_table` for the step picture. Sizes are in scene units.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace

from manim import LEFT, RIGHT, UP, Rectangle, VGroup

from production.language import N_, _
from scenes import style
from scenes.base import align_baselines, words
from scenes.components.state_strip import StateStrip
from scenes.frame import Frame
from scenes.lines import text_height, text_width
from scenes.numbers import decimal, percent

#: the decoder's rows under the English words, in order, and their names on screen
DECODER_ROWS = ("context", "previous", "new")
ROW_NAMES = {"context": N_("context"), "previous": N_("previous"), "new": N_("new state")}
#: a row of figures alone (no name, no strip): the weights' total
TOTAL = "total"
#: from the row names to the strips, and from the strips to a slot beside them
LABEL_GAP, SLOT_GAP = 0.25, 0.4
#: a cell's side: at most, and the least for the slot to go beside the strip
MAX_CELL, MIN_CELL = 0.6, 0.24
#: between rows at least and at most (from one row's lowest to the next's highest)
ROW_GAP = (0.14, 0.45)
#: between the English rows and the decoder's
GROUP_GAP = 0.3
#: from a strip down to the line of numbers under it
UNDER_GAP = 0.1
#: the widest a slot beside the strips is let grow
MAX_SLOT = 6.5
#: the shortest bar that may stand for a whole weight (of 1)
MIN_BAR = 0.8
#: where a row's slot may go: beside its strip, under it, or split (see StepTable)
PLACES = ("beside", "under", "split")
#: between the parts of a slot (a score, a bar, a value)
INSIDE = 0.2
#: a bar's thickness, as a share of its line's figures: beside them, and alone on its
#: line under a strip (split), where it is as long as the strip and can be thinner
BAR_SHARE, UNDER_BAR_SHARE = 0.55, 0.35
#: from a strip down to the bar under it (split)
BAR_DROP = 0.06


def row_name(row: str) -> str:
    """The name on screen of one of the decoder's rows (a key of :data:`ROW_NAMES`), in
    the active language."""
    return _(ROW_NAMES[row])


def line_height(size: int) -> float:
    """From the top of a figure to the bottom of a descender, at ``size``."""
    return text_height("0g", size)


def x_height(size: int) -> float:
    return text_height("x", size)


def bar_thickness(size: int, place: str = "beside") -> float:
    """A weight bar's thickness, for figures set at ``size``: level with them, or (split)
    alone on its line under a strip."""
    return (UNDER_BAR_SHARE if place == "split" else BAR_SHARE) * text_height("0", size)


@dataclass(frozen=True)
class StepTable:
    """Where the rows of a step picture go in one frame (scene units).

    ``rows`` are the keys of the rows from top to bottom: 0, 1, ... for the English
    words, then names from :data:`DECODER_ROWS`; ``ys`` the y of each strip's middle;
    ``place`` where a slotted row's slot goes (one of :data:`PLACES`): ``"beside"`` the
    strips, from ``slot_left`` on the row's baseline; ``"under"`` them, on a line of its
    own; or ``"split"``, its figures beside the strips and its bar on a thin line under
    them, as long as the strips for a whole weight.
    """

    frame: Frame
    rows: tuple[Hashable, ...]
    ys: dict[Hashable, float]
    labels_right: float
    strip_left: float
    cell: float
    size: int
    slot_left: float
    slot_width: float
    place: str
    slotted: frozenset

    # ------------------------------------------------------------- measuring
    @classmethod
    def measure(cls, frame: Frame, names: Sequence[str], decoder: Sequence[str], *,
                slot: float, figure: float, slotted: Sequence[Hashable], top: float,
                bottom: float, size: int = 8) -> StepTable:
        """The table for English ``names`` and ``decoder`` rows in the area's width between
        ``top`` and ``bottom``, strips of ``size`` cells, with a slot for the rows in
        ``slotted``: at least ``slot`` wide beside or under the strips, or, split, a column
        of figures ``figure`` wide beside them and the bars under them. Of the places
        where the slot may go (beside or split only if their cells are at least
        MIN_CELL), the one whose cells come out largest once the rows fit the height;
        cells as large as the room allows."""
        kind = frame.type
        left, right, _, _ = frame.area()
        width = right - left
        labels = [*names, *(row_name(d) for d in decoder if d in ROW_NAMES)]
        label_w = max(text_width(t, kind.label) for t in labels)
        rows = (*range(len(names)), *decoder)
        slotted_set = frozenset(slotted)
        text_h = line_height(kind.label)
        number_h = line_height(kind.number)
        thick = bar_thickness(kind.number, "split")
        beside_room = width - label_w - LABEL_GAP - SLOT_GAP
        cells_room = {"beside": beside_room - slot, "split": beside_room - figure,
                  "under": width - label_w - LABEL_GAP}

        def heights(place: str, c: float) -> list[float]:
            def height(r: Hashable) -> float:
                if r == TOTAL:
                    return number_h
                if r not in slotted_set or place == "beside":
                    return max(c, text_h)
                if place == "under":
                    return c + UNDER_GAP + number_h
                return max(c, text_h) / 2 + c / 2 + BAR_DROP + thick
            return [height(r) for r in rows]

        room = top - bottom
        gaps = len(rows) - 1
        group = GROUP_GAP if decoder and names else 0.0

        def fitted(place: str) -> float:
            cell = min(MAX_CELL, cells_room[place] / size)
            while cell > 0.12 and sum(heights(place, cell)) + gaps * ROW_GAP[0] + group > room:
                cell *= 0.96
            return cell

        place, cell = "under", fitted("under")
        for candidate in ("split", "beside"):  # the later wins a tie
            if cells_room[candidate] / size >= MIN_CELL and fitted(candidate) >= cell - 1e-9:
                place, cell = candidate, fitted(candidate)
        spare = room - sum(heights(place, cell)) - group
        gap = min(max(spare / max(gaps, 1), ROW_GAP[0]), ROW_GAP[1])
        used = sum(heights(place, cell)) + gaps * gap + group
        strips = size * cell
        if place == "under":
            slot_width = width - label_w - LABEL_GAP
            table_w = label_w + LABEL_GAP + max(strips, slot_width)
        else:
            slot_width = (figure if place == "split" else
                          min(width - label_w - LABEL_GAP - strips - SLOT_GAP, MAX_SLOT))
            table_w = label_w + LABEL_GAP + strips + SLOT_GAP + slot_width
        start = (left + right - table_w) / 2
        labels_right = start + label_w
        strip_left = labels_right + LABEL_GAP
        first_decoder = next((d for d in decoder if d != TOTAL), None)
        ys: dict[Hashable, float] = {}
        y = top - (room - used) / 2
        for r, h in zip(rows, heights(place, cell)):
            if r == first_decoder and names:
                y -= group
            if r == TOTAL or r not in slotted_set or place == "beside":
                ys[r] = y - h / 2
            else:  # the strip at the top of its row, its slot's line under it
                ys[r] = y - (cell / 2 if place == "under" else max(cell, text_h) / 2)
            y -= h + gap
        return cls(frame=frame, rows=rows, ys=ys, labels_right=labels_right,
                   strip_left=strip_left, cell=cell, size=size,
                   slot_left=strip_left if place == "under" else strip_left + strips + SLOT_GAP,
                   slot_width=slot_width, place=place, slotted=slotted_set)

    def alone(self, count: int) -> StepTable:
        """The table's first ``count`` rows (the English words) as it opens on them, before
        the rest comes in: starting where the table does, each strip as large as the room
        right of its left edge allows (at most MAX_CELL), the rows spread as far apart as
        the room lets, at most ROW_GAP[1] apart, but never closer than in the table."""
        _, right, bottom, _ = self.frame.area()
        text_h = line_height(self.kind.label)
        rows = self.rows[:count]
        top = self.ys[rows[0]] + max(self.cell, text_h) / 2  # where the table's first row starts
        room = top - bottom
        cell = min(MAX_CELL, (right - self.strip_left) / self.size,
                   (room - (count - 1) * ROW_GAP[0]) / count)
        height = max(cell, text_h)
        kept = self.ys[rows[0]] - self.ys[rows[1]] if count > 1 else 0.0
        pitch = max(kept, min(height + ROW_GAP[1], (room - height) / max(count - 1, 1)))
        ys = {r: top - height / 2 - i * pitch for i, r in enumerate(rows)}
        return replace(self, rows=rows, ys=ys, cell=cell, slotted=frozenset())

    # ------------------------------------------------------------- where things go
    @property
    def kind(self):
        return self.frame.type

    @property
    def strip_width(self) -> float:
        return self.size * self.cell

    @property
    def under(self) -> bool:
        """Whether a row's figures stand on a line under its strip."""
        return self.place == "under"

    @property
    def bars_under(self) -> bool:
        """Whether a row's bar lies under its strip (a whole weight as long as the strip)."""
        return self.place == "split"

    def baseline(self, row: Hashable) -> float:
        """The baseline of a row's name: its lower-case letters centred on the strip."""
        return self.ys[row] - x_height(self.kind.label) / 2

    def slot_baseline(self, row: Hashable) -> float:
        """The baseline of what stands in a row's slot."""
        if row == TOTAL:
            return self.ys[row] - text_height("0", self.kind.number) / 2
        if self.under:
            return self.ys[row] - self.cell / 2 - UNDER_GAP - text_height("0", self.kind.number)
        return self.baseline(row)

    def bar_y(self, row: Hashable) -> float:
        """The y of the middle of a row's bar: level with its slot's figures, or (split)
        on its line under the strip."""
        if self.bars_under:
            return self.ys[row] - self.cell / 2 - BAR_DROP - self.bar_thickness() / 2
        return self.slot_baseline(row) + text_height("0", self.kind.number) / 2

    def bar_thickness(self) -> float:
        return bar_thickness(self.kind.number, self.place)

    def centre_x(self) -> float:
        """The x of the area's middle, where the table and the French line are centred."""
        return (self.frame.area()[0] + self.frame.area()[1]) / 2

    # ------------------------------------------------------------- building
    def name(self, row: Hashable, text: str, color=style.INK):
        """A row's name, right-aligned left of the strips, on the row's baseline."""
        label = words(text, self.kind.label, color)
        label.set_x(self.labels_right, RIGHT)
        align_baselines([label], self.baseline(row))
        return label

    def strip(self, row: Hashable, values: Sequence[float], color) -> StateStrip:
        """A hidden state as a strip of cells, in its row."""
        strip = StateStrip(values, color, cell=self.cell)
        return strip.move_to((self.strip_left, self.ys[row], 0), aligned_edge=LEFT)

    def value(self, row: Hashable, text: str, x: float, color=style.INK, *,
              edge=LEFT):
        """A figure in a row's slot, its ``edge`` (LEFT or RIGHT) at ``x``."""
        figure = words(text, self.kind.number, color)
        figure.set_x(x, edge)
        align_baselines([figure], self.slot_baseline(row))
        return figure

    def bar(self, row: Hashable, length: float, x: float, color=style.WEIGHT) -> Rectangle:
        """A bar ``length`` long from ``x``, where a row's bar goes (:meth:`bar_y`)."""
        bar = Rectangle(width=max(length, 0.03), height=self.bar_thickness(), stroke_width=0)
        bar.set_fill(color, opacity=0.9)
        return bar.move_to((x, self.bar_y(row), 0), aligned_edge=LEFT)


# ------------------------------------------------------------------ weights
def weight_text(weight: float) -> str:
    """A weight as the chapter writes it: three decimals, so a step's add up to one."""
    return decimal(weight, 3)


def probability_text(probability: float) -> str:
    """A French word's probability: a percent to one decimal ('95.2%', '0.06%')."""
    return percent(probability, 1, small=True)


@dataclass(frozen=True)
class WeightColumn:
    """Where a weight bar and its figure go in an English row's slot: the bars from
    ``bar_left``, a whole weight ``bar_length`` long, the figures right-aligned at
    ``value_right``; with ``score_right``, the score's figure right-aligned there first."""

    bar_left: float
    bar_length: float
    value_right: float
    score_right: float | None

    def bar(self, table: StepTable, row: int, weight: float) -> Rectangle:
        return table.bar(row, weight * self.bar_length, self.bar_left)

    def value(self, table: StepTable, row: int, text: str, color=style.WEIGHT):
        return table.value(row, text, self.value_right, color, edge=RIGHT)

    def score(self, table: StepTable, row: int, text: str, color=style.INK):
        return table.value(row, text, self.score_right, color, edge=RIGHT)


def weight_column(table: StepTable, weight_texts: Sequence[str],
                  score_texts: Sequence[str] = ()) -> WeightColumn:
    """The weights' column in the English rows' slots: the figures at the slot's right
    end, the bars as long as the slot leaves (split: under the strips, as long as they
    for a whole weight); with ``score_texts``, the scores in a column before the bars, if
    the slot has room for them and a bar of MIN_BAR (split: beside the weights)."""
    size = table.kind.number
    value_w = max(text_width(t, size) for t in weight_texts)
    score_w = max((text_width(t, size) for t in score_texts), default=0.0)
    start, width = table.slot_left, table.slot_width
    value_right = start + width
    if table.bars_under:
        scores = bool(score_texts) and width - value_w - score_w >= INSIDE
        return WeightColumn(bar_left=table.strip_left, bar_length=table.strip_width,
                            value_right=value_right,
                            score_right=start + score_w if scores else None)
    scores = bool(score_texts) and width - value_w - score_w - 2 * INSIDE >= MIN_BAR
    bar_left = start + (score_w + INSIDE if scores else 0.0)
    bar_length = width - (bar_left - start) - INSIDE - value_w
    return WeightColumn(bar_left=bar_left, bar_length=bar_length,
                        value_right=value_right, score_right=start + score_w if scores else None)


# ------------------------------------------------------------------ the two pictures
def score_slot(frame: Frame, weight_texts: Sequence[str]) -> float:
    """The least slot the scores' picture needs: a bar and a weight's figure."""
    return MIN_BAR + INSIDE + figure_width(frame, weight_texts)


def figure_width(frame: Frame, texts: Sequence[str]) -> float:
    """How wide a column of ``texts`` set as figures is in ``frame``."""
    return max(text_width(t, frame.type.number) for t in texts)


def heading_room(frame: Frame) -> float:
    """What a line of column names over the table takes, with its gap."""
    return line_height(frame.type.label) + 0.25


def score_table(frame: Frame, names: Sequence[str], weight_texts: Sequence[str],
                score_texts: Sequence[str] = ()) -> StepTable:
    """The scores' picture: a line of column names, the English rows, the weights' total,
    then the decoder's previous state. A slot for a bar and the weights, where the scores
    stand first."""
    _, _, bottom, top = frame.area()
    return StepTable.measure(frame, names, (TOTAL, "previous"),
                             slot=score_slot(frame, weight_texts),
                             figure=figure_width(frame, [*weight_texts, *score_texts]),
                             slotted=range(len(names)), top=top - heading_room(frame),
                             bottom=bottom)


def scores_picture(frame: Frame, n: dict) -> tuple[StepTable, WeightColumn]:
    """The table and weights' column of the scores' picture, from a ledger section holding
    the first step (``first``), its encoder states and the decoder's start (``previous``):
    the layout the scores' scene ends on and the next scene opens with."""
    first = n["first"]
    weights = [weight_text(w) for w in first["weights"]] + [weight_text(n["weight_total"])]
    scores = [decimal(s) for s in first["scores"]]
    table = score_table(frame, n["source"], weights, scores)
    return table, weight_column(table, weights, scores)


def kept_rows(frame: Frame, n: dict) -> dict[str, VGroup]:
    """The English words and their states as the scores' picture opens on them, alone
    (:meth:`StepTable.alone`): as large as the room lets them be before the decoder's
    rows and the weights' column come in."""
    table, _ = scores_picture(frame, n)
    alone = table.alone(len(n["source"]))
    return {"names": VGroup(*(alone.name(i, w) for i, w in enumerate(n["source"]))),
            "strips": VGroup(*(alone.strip(i, s, style.READER)
                               for i, s in enumerate(n["encoder_states"])))}


def score_rows(frame: Frame, n: dict) -> dict[str, VGroup]:
    """The rows the scores' picture ends on, as built from ``n``: the English words, their states,
    the weights (bars and figures), and the decoder's previous state with its name."""
    table, column = scores_picture(frame, n)
    weights = n["first"]["weights"]
    rows = range(len(n["source"]))
    return {
        "names": VGroup(*(table.name(i, w) for i, w in enumerate(n["source"]))),
        "strips": VGroup(*(table.strip(i, s, style.READER)
                           for i, s in enumerate(n["encoder_states"]))),
        "bars": VGroup(*(column.bar(table, i, weights[i]) for i in rows)),
        "weights": VGroup(*(column.value(table, i, weight_text(weights[i])) for i in rows)),
        "previous_name": table.name("previous", _("previous"), style.WRITER),
        "previous": table.strip("previous", n["previous"], style.WRITER),
    }


def french_room(frame: Frame) -> float:
    """What the French line over the step picture takes, with its gap."""
    return line_height(frame.type.body) + 0.35


def step_table(frame: Frame, names: Sequence[str], weight_texts: Sequence[str]) -> StepTable:
    """The step picture: the French written so far over the English rows and the
    decoder's rows (context, previous, new state)."""
    _, _, bottom, top = frame.area()
    return StepTable.measure(frame, names, DECODER_ROWS, slot=score_slot(frame, weight_texts),
                             figure=figure_width(frame, weight_texts),
                             slotted=range(len(names)), top=top - french_room(frame),
                             bottom=bottom)


def french_line(frame: Frame, table: StepTable, target: Sequence[str]) -> VGroup:
    """The whole French sentence in a row at the top of the area, centred over the
    table: each word where it stands once all are written (show them one by one)."""
    _, _, _, top = frame.area()
    line = VGroup(*(words(w, frame.type.body, style.WRITER) for w in target))
    line.arrange(RIGHT, buff=0.3)
    align_baselines(line)
    return line.move_to((table.centre_x(), top, 0), aligned_edge=UP)


def weighted_copies(strips: VGroup, weights: Sequence[float]) -> VGroup:
    """A copy of each strip, as opaque as its weight (a faint trace at zero): what a
    weighted average takes of each, to move where the average goes."""
    return VGroup(*(strip.copy().set_opacity(0.12 + 0.88 * w)
                    for strip, w in zip(strips, weights)))


def step_picture(frame: Frame, n: dict) -> tuple[StepTable, WeightColumn]:
    """The step picture's table and weights' column, measured for every step's weights
    (so each step fits it), from a ledger section holding every step (``steps``)."""
    weights = [weight_text(w) for step in n["steps"] for w in step["weights"]]
    table = step_table(frame, n["source"], weights)
    return table, weight_column(table, weights)


def step_rows(frame: Frame, n: dict, written: int) -> dict[str, VGroup]:
    """The step picture between two steps, after ``written`` words, as built from ``n``:
    the French line (all of it: show its first ``written`` words), the English words and
    their states, and the decoder's previous state (the last step's new state)."""
    table, _ = step_picture(frame, n)
    return {
        "french": french_line(frame, table, n["written"]),
        "names": VGroup(*(table.name(i, w) for i, w in enumerate(n["source"]))),
        "strips": VGroup(*(table.strip(i, s, style.READER)
                           for i, s in enumerate(n["encoder_states"]))),
        "previous_name": table.name("previous", row_name("previous"), style.WRITER),
        "previous": table.strip("previous", n["steps"][written - 1]["state"], style.WRITER),
    }


__all__ = ["DECODER_ROWS", "PLACES", "ROW_NAMES", "TOTAL", "StepTable", "WeightColumn",
           "bar_thickness", "figure_width", "french_line", "french_room", "heading_room",
           "kept_rows", "line_height", "probability_text", "row_name", "score_rows",
           "score_slot", "score_table", "scores_picture", "step_picture", "step_rows",
           "step_table", "weight_column", "weight_text", "weighted_copies"]
