"""The hand trace's stage and rows (:class:`HandTrace`): the words in the table's
columns with their labels and its legend, the lamp with its question, and each row of
figures under them, named.

The lamp hangs at the top of the area, the words' columns stand across its width and the
rows reach down to its bottom; the table's figures are set at the type scale's size for
figures if every row stands clear at it and the rows fit the area's height, else at its
smallest. SpotlightBudget works it out; SharpnessDial opens on its stage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manim import LEFT, RIGHT, UP, Mobject, VGroup

from production.language import _
from scenes import style
from scenes.base import align_baselines, baseline, quoted, words
from scenes.components.spotlight import SpotlightStage, caption_parts
from scenes.components.spotlight_shot import (
    APART,
    DASH,
    GAP,
    HIDDEN,
    height,
    line_step,
    pair,
    second_line,
    tenths,
)
from scenes.components.spotlight_table import WAYS, Fit, Table, TraceTable
from scenes.core_words import spotlight_features as features
from scenes.lines import text_height, text_width, wrapped
from scenes.numbers import percent, short, whole_percent

#: how far the lamp hangs above the words, as a share of the area's height, and the
#: least and most that may be (scene units): less than the bar shots' RISE
#: (scenes/components/spotlight_bars.py), for the table needs the height
TRACE_RISE = (0.2, 0.35, 1.8)
#: the hand trace's rows are at most this many of their text's heights apart
MAX_ROW_STEP = 3.0


@dataclass
class Trace:
    """The hand trace's stage and how its rows stand: the ``table``'s columns, the stage
    with the lamp's caption and the labels' legend, each row's (name, texts, colour) with
    the last text the totals' column's (or None), how each row fits, the first row's
    baseline, the ``step`` from a row to the next (past a row's second line, if it has
    one) and the ``name_step`` from a name over its row to the row (0 beside it)."""

    table: Table
    stage: SpotlightStage
    caption: VGroup
    legend: VGroup
    rows: list[tuple[str, list[str | None], object]]
    fits: list[Fit]
    first: float
    step: float
    name_step: float

    def row_y(self, k: int) -> float:
        """The baseline of row ``k`` (its first line)."""
        below = sum(second_line(self.table.size) * (f.lines - 1) for f in self.fits[:k])
        return self.first - k * self.step - below


class HandTrace(TraceTable):
    """A spotlight shot that lays out the hand trace: its stage and its rows."""

    def trace(self, shares: Sequence[float] | None = None) -> Trace:
        """The hand trace's stage, laid out for the frame (SpotlightBudget's, and what
        SharpnessDial opens on): the words in the table's columns, dimmed where the
        asker may not see them, their labels, the lamp with its question, its beams lit
        with ``shares`` (unlit by default), and how the rows will stand under them.

        The table's figures are set at the type scale's size for figures if every row
        stands clear at it and the rows fit the area's height, else at its smallest.
        """
        n, s = self.numbers, self.sizes
        labels = [pair(label) for label in n["labels"]]
        for size in (s.number, s.minimum):
            table = self.table(labels, size)
            rows = self.trace_rows(table)
            fits = [self.fit_row(table, texts) for _, texts, _ in rows]
            extra = sum(second_line(size) * (f.lines - 1) for f in fits if f)
            stage, caption, legend, step, name_step, tall_enough = self.trace_stage(
                table, labels, extra, shares)
            if all(fits) and tall_enough:
                break
        fits = [f or Fit(*WAYS[-1], lines=2) for f in fits]
        for word, label, seen in zip(stage.get_words(), stage.get_labels(), n["visible"]):
            word.set_opacity(1.0 if seen else 0.3)
            label.set_opacity(1.0 if seen else 0.3)
        return Trace(table, stage, caption, legend, rows, fits,
                     self.first_row(stage, legend, table.size, name_step), step, name_step)

    def trace_rows(self, table: Table) -> list[tuple[str, list[str | None], object]]:
        """The hand trace's rows, (name, texts, colour): a text per word column, then the
        totals' column's. A word the asker may not see gets no score and no sharpened
        score; its exponential is the ledger's 0, so it adds nothing to the total."""
        n = self.numbers
        dark = self.hidden_texts([not v for v in n["visible"]], table.column)
        return [
            (table.names[0], [*(dark[i] or short(x) for i, x in enumerate(n["scores"])), None],
             style.INK),
            (table.names[1], [*(None if dark[i] else short(x)
                                for i, x in enumerate(n["sharpened"])), None], style.INK),
            (table.names[2], [*(tenths(x) for x in n["exponentials"]), tenths(n["total"])],
             style.INK),
            (table.names[3], [*(whole_percent(p) for p in n["shares_percent"]),
                              whole_percent(n["rounded_total_percent"])], style.WEIGHT),
        ]

    def hidden_texts(self, hidden: Sequence[bool], column: float) -> list[str | None]:
        """What each hidden word's cell says (None for a word in sight): 'hidden', or a
        dash where two hidden words stand side by side in columns too narrow for both."""
        fits = text_width(_(HIDDEN), self.sizes.minimum) + APART <= column
        texts = []
        for i, dark in enumerate(hidden):
            crowded = any(0 <= j < len(hidden) and hidden[j] for j in (i - 1, i + 1))
            texts.append((_(HIDDEN) if fits or not crowded else DASH) if dark else None)
        return texts

    def table_row(self, trace: Trace, k: int) -> tuple[VGroup, Mobject | None]:
        """Row ``k`` of the hand trace: its name and one value under each word, on its
        baseline (and the line under it, if it takes two); and apart, its text in the
        totals' column (or None). A text of None leaves its cell empty; a hidden word's
        is muted."""
        name, texts, color = trace.rows[k]
        y, table = trace.row_y(k), trace.table
        cells, total = VGroup(), None
        for cell in self.place(table, texts, trace.fits[k])[0]:
            lines = VGroup(*(words(part, cell.size,
                                   style.MUTED if part in (_(HIDDEN), DASH) else color)
                             for part in cell.parts))
            for j, line in enumerate(lines):
                line.set_x(cell.x)
                align_baselines([line], y - (cell.line + j) * second_line(table.size))
            made = lines[0] if len(lines) == 1 else lines
            if cell.slot < table.count:
                cells.add(made)
            else:
                total = made
        label = self.row_name(table, name, y, trace.name_step)
        return VGroup(label, cells), total

    def trace_stage(self, table: Table, labels: Sequence[str], extra: float,
                    shares: Sequence[float] | None) -> tuple:
        """The stage (its beams lit with ``shares``), the lamp's caption and the labels'
        legend, hung from the top of the area; the rows' step (baseline to baseline) and
        name step (a name line to its values, 0 when the names stand beside); and
        whether the rows fit the area's height.

        Under the labels, the four rows (``extra`` units more for their second lines)
        and the note reach down to the area's bottom: the lamp hangs at its preferred
        rise (:data:`TRACE_RISE`) and the rows share what is left, at least a line
        apart (a name line and a line, when the names stand over their rows) and at most
        :data:`MAX_ROW_STEP` text heights; if the rows need more, the lamp hangs lower;
        if they take less, higher.
        """
        n, s = self.numbers, self.sizes
        left, right, bottom = self.area()[:3]
        names = n["words"]
        asker = names.index(n["asker"])
        size = table.size

        def build(rise: float) -> tuple:
            stage = SpotlightStage(names, asker, labels=labels, rise=rise, column=table.column,
                                   word_size=s.body, label_size=size,
                                   stacked=table.labels_stacked, shares=shares)
            self.hang(stage, table.start, 0.0)
            parts = caption_parts(_("{word} asks for {question}"),
                                  {"word": (quoted(n["asker"]), style.INK),
                                   "question": (pair(n["question"]), style.QUERY)})
            caption = stage.make_caption(parts, size=s.label, bounds=(left, right))
            if caption.get_left()[0] < left or caption.get_right()[0] > right:
                # no room beside the lamp: over it, as far to the side as the area needs
                caption.next_to(stage.get_lamp(), UP, buff=0.1)
                self.inside(caption.set_x(stage.get_lamp().get_x()))
            self.to_top(stage, caption)
            legend = self.legend(table, stage)
            return stage, caption, legend

        name_step = 0.0 if table.beside else self.name_line(size)
        least = name_step + line_step(size)
        most = name_step + MAX_ROW_STEP * height(size)
        flat, _caption, flat_legend = build(0.0)
        # room for the rise and three steps, between the labels and what the rows need
        descent = height(size) - text_height("0", size)
        room = (self.first_row(flat, flat_legend, size, name_step) - bottom - descent - GAP
                - self.note(table).height - extra)
        rise = self.rise(TRACE_RISE, self.frame().room()[1])
        step = min(max((room - rise) / 3, least), most)
        rise = min(max(room - 3 * step, TRACE_RISE[1]), TRACE_RISE[2])
        return (*build(rise), step, name_step, room - 3 * least >= TRACE_RISE[1] - 1e-6)

    def legend(self, table: Table, stage: SpotlightStage) -> VGroup:
        """What the labels' two numbers are: '[thing, action]' on the labels' line, or,
        ``stacked``, each feature's name on its own line, level with the labels' lines
        when they are stacked too; right-aligned left of the word columns, or centred in
        the totals' column."""
        s = self.sizes
        if table.legend_stacked:
            legend = VGroup(*(words(f, s.label, style.MUTED) for f in features()))
        else:
            legend = VGroup(words("[" + ", ".join(features()) + "]", s.label, style.MUTED))
        first = stage.get_labels()[0]
        lines = list(first) if table.labels_stacked else [first]
        for k, line in enumerate(legend):
            if table.beside:
                line.set_x(table.start - APART, RIGHT)
            else:
                line.set_x(table.x(table.count))
            level = baseline(lines[k]) if k < len(lines) \
                else baseline(lines[0]) - k * s.label / 60
            align_baselines([line], level)
        return legend

    def name_line(self, size: int) -> float:
        """From a name on a line of its own down to the figures (at ``size``) under it
        (baselines)."""
        return text_height("0", size) + 0.3 * height(self.sizes.label)

    def first_row(self, stage: SpotlightStage, legend: VGroup, size: int,
                  name_step: float) -> float:
        """The baseline of the hand trace's first row (the scores, at ``size``), under the
        labels and their legend."""
        under = min(stage.get_labels().get_bottom()[1], legend.get_bottom()[1])
        return under - GAP - name_step - text_height("0", size)

    def note(self, table: Table) -> VGroup:
        """Why the shares add to 99%: a note for under them, centred under the table
        (wrapped, if it must be, to the area's width)."""
        n = self.numbers
        left, right = self.area()[:2]
        text = _("Rounded, {rounded}; exactly, {exact}.").format(
            rounded=whole_percent(n["rounded_total_percent"]), exact=percent(n["exact_total"]))
        note = wrapped(text, self.sizes.minimum, right - left, style.MUTED)
        return self.inside(note.set_x((table.start + right) / 2))

    def row_name(self, table: Table, name: str, y: float, name_step: float):
        """A row's name: right-aligned left of the word columns on its baseline ``y``, or
        (with a ``name_step``) at the area's left on the line that far over it."""
        label = words(name, self.sizes.label, style.MUTED)
        if not name_step:
            label.set_x(table.start - APART, RIGHT)
        else:
            label.set_x(self.area()[0], LEFT)
        align_baselines([label], y + name_step)
        return label
