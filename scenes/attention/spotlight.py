"""A spotlight with a budget: "the cat ate fish", one word asking, 100 points of light.

Three shots on one stage (ledger section ``spotlight``), played as one take:

- ``SpotlightBudget``: the asker's question and the words' labels, the light
  shared out as bars from one budget column, the hand trace as a table
  (score, sharpened, exponential, share; their total), why the rounded shares
  add to 99%, and the blend into the asker's new summary. It ends on the words,
  the lamp and its light.
- ``SharpnessDial``: opens on those words and that lamp, which move into its own
  stage over the bars; the same light at sharpness 1, 4 and 8, then every word
  taking its turn to ask; the budget column stays full throughout. It ends on the
  lit stage: words, lamp, bars and total, the last word asking.
- ``LookBackRule``: opens on that lit stage, which moves over for its check box
  and goes back to the asker; words may only look back; a later word goes dark and
  its light moves to the others; the first word can only light itself.

A shot that opens with what the one before left builds it itself, from its own
numbers, with the same layout as the shot before (:meth:`SpotlightShot.trace`,
:meth:`SpotlightShot.dial_light`), so it stands where the viewer last saw it.

Each shot builds its parts once and lays them out for the frame it is drawn for,
measured from the frame's area and type scale: the lamp at the top of the area, the
words' columns across its whole width and the bars or the table down to its bottom.
Where the room is wider than tall, the budget stands as a column at the right of
the bars and the table's rows are named in a column at the left (with short names
when the long ones leave the columns too narrow); where it is taller than wide, the
budget lies as a bar under the bars and each row's name stands on a line of its own
above its values. A row of figures too wide for its columns (a sharpness far past
the lesson's) takes two lines: every other figure on the second, then also a power
of ten's mantissa over its power, and at last the type scale's smallest size. A
shot's own part (the sharpness dial, the look-back box) takes a column at the left
when there is room for it, and a line under the bars otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowFromEdge,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
    config,
)

from core.spotlight import FEATURES
from scenes import style
from scenes.base import Beat, ChapterScene, align_baselines, baseline, quoted, words
from scenes.components.spotlight import (
    CheckBox,
    ShareBars,
    SpotlightStage,
    stacked_halves,
)
from scenes.frame import TypeScale
from scenes.lines import text_width, wrapped
from scenes.numbers import decimal, percent, percent_figure, setting, short, whole_percent

#: between neighbouring parts (scene units)
GAP = 0.25
#: the least room between two labels or values side by side (scene units)
APART = 0.15
#: how far the lamp hangs above the words, as a share of the area's height, and the
#: least and most that may be (scene units): in the bar shots, and in the hand trace,
#: whose table needs the height
RISE = (0.18, 1.0, 2.0)
TRACE_RISE = (0.2, 0.35, 1.8)
#: the widest a word's column gets (scene units): wider, the beams thin out
MAX_COLUMN = 2.6
#: a bar is this share of its column's width
BAR_SHARE = 0.47
#: the hand trace's rows are at most this many of their text's heights apart
MAX_ROW_STEP = 3.0
#: the blend's lines from the shares down to the summary are at most this long
MAX_BLEND = 2.4
#: what a hidden word's cell says, and, where that would crowd a hidden neighbour's, a dash
HIDDEN, DASH = "hidden", "\u2014"
#: how a row of the hand trace may stand, in the order tried: on one line; on two, each
#: power of ten's mantissa over its power; on two, every other figure on the second
#: (either half first). See :class:`Fit`.
WAYS = (("line", 0), ("split", 0), ("stagger", 0), ("stagger", 1))


# ------------------------------------------------------------------ formatting
def tenths(x: float) -> str:
    """Exponentials and their total to one decimal, as in the hand trace: 36.6, 64.8."""
    return decimal(x, 1)


def pair(values: Sequence[float]) -> str:
    """A label or a question, [thing, action]: '[0.9, 0.2]'."""
    return "[" + ", ".join(short(v) for v in values) + "]"


def pair_2(values: Sequence[float]) -> str:
    """The new summary, [thing, action], to two decimals: '[0.82, 0.17]'."""
    return "[" + ", ".join(decimal(v) for v in values) + "]"


def top_share(shares: Sequence[float]) -> int:
    """The index of the largest share (the first, if several are equal)."""
    return max(range(len(shares)), key=shares.__getitem__)


def split_power(text: str) -> list[str]:
    """A power of ten as two lines, its mantissa over its power: '1.4×10²⁹³' ->
    ['1.4×', '10²⁹³']; any other text as one."""
    mantissa, times, power = text.partition("\u00d7")
    return [mantissa + times, power] if times else [text]


def widest(texts: Sequence[str], size: int) -> float:
    """The width of the widest of ``texts`` at ``size`` (scene units)."""
    return max(text_width(t, size) for t in texts)


def height(size: int) -> float:
    """The height of a line of figures at ``size``, from the top of a digit to the
    bottom of a comma (scene units)."""
    return words("0,", size).height


def line_step(size: int) -> float:
    """From a line of figures at ``size`` to the next, baseline to baseline (scene units)."""
    return height(size) + 0.12


def second_line(size: int) -> float:
    """From a row's figures at ``size`` down to its second line, baseline to baseline
    (scene units): figures hang nothing under the line."""
    return words("0", size).height + 0.12


def spread(centres: Sequence[float], widths: Sequence[float], low: float,
           high: float) -> tuple[list[float], bool]:
    """Where texts ``widths`` wide, wanted in this order at ``centres``, stand on one line:
    each as near its centre as its neighbours let it, :data:`APART` from them, all
    between ``low`` and ``high`` (scene units); and whether they can (if not, they
    stand from ``low`` on, past ``high``).

    The nearest such places (least squares) are the nearest non-decreasing sequence to
    the centres less the room the texts before each take, held within the bounds."""
    if not widths:
        return [], True
    room = [0.0]
    for a, b in zip(widths, widths[1:]):
        room.append(room[-1] + (a + b) / 2 + APART)
    least, most = low + widths[0] / 2, high - widths[-1] / 2 - room[-1]
    if least > most + 1e-9:
        return [least + before for before in room], False
    blocks: list[list[float]] = []  # [sum, count] of pooled neighbours
    for centre, before in zip(centres, room):
        blocks.append([centre - before, 1])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] > blocks[-1][0] * blocks[-2][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    pooled = [min(max(total / count, least), most) for total, count in blocks
              for _ in range(int(count))]
    return [q + before for q, before in zip(pooled, room)], True


# ------------------------------------------------------------------ the shared stage
@dataclass
class Light:
    """What is on stage in a bar shot: the words and lamp, the bars, the budget's total,
    the texts that change, and the shot's own part (``beside``: in a column at the left)."""

    stage: SpotlightStage
    bars: ShareBars
    total: VGroup
    percents: VGroup
    caption: VGroup
    side: Mobject
    beside: bool


@dataclass(frozen=True)
class Table:
    """How the hand trace stands across the area (scene units): its ``count`` word
    columns from ``start``, each ``column`` wide, then the totals' column; its figures
    at ``size``; the rows' ``names`` (score, sharpened, exponential, share, blend) in a
    column at the left when ``beside``, else each on a line over its values; the labels
    and the legend on one line or ``stacked`` as column vectors."""

    start: float
    column: float
    totals: float
    beside: bool
    names: tuple[str, ...]
    labels_stacked: bool
    legend_stacked: bool
    count: int
    size: int

    def x(self, slot: int) -> float:
        """The middle of word column ``slot``, or of the totals' column (slot ``count``)."""
        if slot < self.count:
            return self.start + (slot + 0.5) * self.column
        return self.start + self.count * self.column + self.totals / 2


@dataclass(frozen=True)
class Fit:
    """How a row of the hand trace stands (one of :data:`WAYS`): on one ``line``; with
    a power of ten ``split``, its mantissa over its power; or ``stagger``ed, the figures
    whose column's parity is ``first`` on the first line with the row's name and the
    others on a second. Each line's figures stand as near their columns as they can."""

    way: str = "line"
    first: int = 0
    lines: int = 1


@dataclass(frozen=True)
class Cell:
    """Where one text of a row stands: its column (``slot``), its middle ``x``, the line
    it starts on (0 or 1) and its ``parts`` (a line each) at ``size``."""

    slot: int
    x: float
    line: int
    parts: tuple[str, ...]
    size: int


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


class SpotlightShot(ChapterScene):
    """The stage every spotlight shot stands on; subclasses tell the story."""

    section = "spotlight"

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        back = n["lookback_rule"][n["asker"]]
        top = top_share(back["shares"])
        return {
            "asker": n["asker"],
            "budget": str(n["budget_points"]),
            "total": tenths(n["total"]),
            # in word order, one slot (and one mark) each: share_1 is the first word's
            **{f"share_{k}": str(p) for k, p in enumerate(n["shares_percent"], 1)},
            "rounded": str(n["rounded_total_percent"]),
            "top_word": n["top_word"],
            "back_top_word": n["words"][top],
            "back_top_percent": percent_figure(back["shares"][top]),
            "first_word": n["words"][0],
        }

    # ------------------------------------------------------------- layout
    @property
    def sizes(self) -> TypeScale:
        """The frame's type scale: every text here takes one of its sizes."""
        return self.frame().type

    @staticmethod
    def rise(share_min_max: tuple[float, float, float], room: float) -> float:
        """How far the lamp hangs above the words for an area ``room`` units high."""
        share, least, most = share_min_max
        return min(max(share * room, least), most)

    @staticmethod
    def hang(stage: SpotlightStage, left: float, lamp_y: float) -> SpotlightStage:
        """The word columns from x = ``left``, the lamp at height ``lamp_y``."""
        return stage.shift(RIGHT * (left - stage.get_cells().get_left()[0])
                           + UP * (lamp_y - stage.get_lamp().get_y()))

    def to_top(self, stage: SpotlightStage, caption: VGroup) -> None:
        """Lamp and caption moved up together until the higher touches the area's top."""
        highest = max(stage.get_lamp().get_top()[1], caption.get_top()[1])
        shift = UP * (self.area()[3] - highest)
        stage.shift(shift)
        caption.shift(shift)

    def inside(self, mobject: Mobject) -> Mobject:
        """``mobject`` moved left or right, as little as it takes, into the area."""
        left, right, _, _ = self.area()
        return mobject.shift(RIGHT * (min(0.0, right - mobject.get_right()[0])
                                      + max(0.0, left - mobject.get_left()[0])))

    def hidden_texts(self, hidden: Sequence[bool], column: float) -> list[str | None]:
        """What each hidden word's cell says (None for a word in sight): 'hidden', or a
        dash where two hidden words stand side by side in columns too narrow for both."""
        fits = text_width(HIDDEN, self.sizes.minimum) + APART <= column
        texts = []
        for i, dark in enumerate(hidden):
            crowded = any(0 <= j < len(hidden) and hidden[j] for j in (i - 1, i + 1))
            texts.append((HIDDEN if fits or not crowded else DASH) if dark else None)
        return texts

    def percent_labels(self, bars: ShareBars, shares: Sequence[float],
                       visible: Sequence[bool] | None, column: float) -> VGroup:
        """Each bar's share in percent above it, or 'hidden' for a word out of sight (in
        columns too narrow for two, every other one a line higher than its neighbour)."""
        s = self.sizes
        visible = visible if visible is not None else [True] * len(shares)
        texts = [percent(x) if v else HIDDEN for x, v in zip(shares, visible)]
        colors = [style.WEIGHT if v else style.MUTED for v in visible]
        sizes = [s.number if v else s.minimum for v in visible]
        labels = bars.make_percent_labels(texts, shares, colors, sizes)
        if text_width(HIDDEN, s.minimum) + APART > column:
            for i in range(1, len(labels)):
                raised = labels[i - 1].get_y() > labels[i].get_y() + 0.01
                if not visible[i] and not visible[i - 1] and not raised:
                    labels[i].shift(UP * 1.3 * height(s.minimum))
        return labels

    def asks(self, stage: SpotlightStage, word: str, asker: int) -> VGroup:
        """The lamp's caption for the bar shots: '“cat” asks'."""
        left, right, _, _ = self.area()
        return stage.make_caption([(quoted(word), style.INK), ("asks", style.MUTED)], asker,
                                  size=self.sizes.label, bounds=(left, right))

    # ------------------------------------------------------------- the bar shots
    def light(self, names: Sequence[str], asker: int, shares: Sequence[float],
              visible: Sequence[bool] | None = None, *,
              side: Callable[[bool], Mobject]) -> Light:
        """The stage for the bar shots, laid out for the frame: the lamp at the top of
        the area, the words under it across the area's width, their bars down to its
        bottom, and the budget column at their right (where the room is taller than
        wide, a budget bar under them instead).

        ``side(beside)`` makes the shot's own part: for a column of its own at the
        left of the words (True), taken when the columns still have room for a full
        bar's percent, or for a line under everything else (False).
        """
        s = self.sizes
        left, right, bottom, top = self.area()
        width, room = self.frame().room()
        below = not self.frame().across  # no room at the right: the budget lies under the bars
        count = len(names) + (0 if below else 1)
        part = side(True)
        beside = width - part.width - GAP >= count * (text_width(percent(1.0), s.number) + GAP)
        if not beside:
            part = side(False)
        start = left + (part.width + GAP if beside else 0.0)
        column = min((right - start) / count, MAX_COLUMN)
        start += ((right - start) - count * column) / 2  # centred, when the columns are capped

        stage = SpotlightStage(names, asker, shares=shares, rise=self.rise(RISE, room),
                               column=column, word_size=s.body)
        self.hang(stage, start, 0.0)
        caption = self.asks(stage, names[asker], asker)
        self.to_top(stage, caption)

        # the tracks from under a full bar's percent down to what stands below them: the
        # budget bar and its total (measured on bars of height 1), and the shot's part
        def make_bars(full: float) -> tuple[ShareBars, VGroup]:
            bars = ShareBars(stage, shares, height=full, width=BAR_SHARE * column, apart=0.0,
                             below=below, text_size=s.label, value_size=s.number)
            return bars, bars.make_total_label("total", percent(self.numbers["exact_total"]))

        trial, label = make_bars(1.0)
        under = trial.get_tracks().get_bottom()[1] - min(trial.get_bottom()[1],
                                                         label.get_bottom()[1])
        under += 0.0 if beside else 2 * GAP + part.height
        tracks_top = stage.get_words().get_bottom()[1] - height(s.number) - 0.12 - GAP
        bars, total = make_bars(tracks_top - bottom - under)
        shift = UP * (tracks_top - bars.get_tracks().get_top()[1])
        bars.shift(shift)
        self.inside(total.shift(shift))
        if beside:
            part.next_to((start - GAP, 0, 0), LEFT, buff=0)
            part.align_to(stage.get_words(), UP)
        else:
            lowest = min(bars.get_bottom()[1], total.get_bottom()[1])
            part.move_to(self.centre(), coor_mask=RIGHT)
            part.shift(UP * (lowest - 2 * GAP - part.get_top()[1]))

        percents = self.percent_labels(bars, shares, visible, column)
        hidden = [False] * len(names) if visible is None else [not v for v in visible]
        for word, dark in zip(stage.get_words(), hidden):
            word.set_opacity(0.3 if dark else 1.0)
        return Light(stage, bars, total, percents, caption, part, beside)

    @staticmethod
    def on_stage(lit: Light) -> list[Mobject]:
        """What a bar shot shows but its own part, back to front: beams, words, lamp,
        caption, bars, percents and total."""
        stage = lit.stage
        return [stage.get_beams(), stage.get_words(), stage.get_lamp(), lit.caption,
                lit.bars, lit.percents, lit.total]

    def moves(self, stage: SpotlightStage, caption: VGroup, lit: Light) -> list:
        """Animations that carry a stage on screen (beams, words, lamp and caption) into
        ``lit``'s: the caption's texts move along, a word it changes fading into the new
        one on the way, and what it loses fades."""
        new = lit.stage
        anims = [ReplacementTransform(stage.get_beams(), new.get_beams()),
                 ReplacementTransform(stage.get_words(), new.get_words()),
                 ReplacementTransform(stage.get_lamp(), new.get_lamp())]
        for k, part in enumerate(lit.caption):
            if k >= len(caption):
                anims.append(FadeIn(part))
            elif caption[k].original_text == part.original_text:
                anims.append(ReplacementTransform(caption[k], part))
            else:  # another word: the one fades into the other as it moves
                anims.append(FadeTransform(caption[k], part))
        anims += [FadeOut(old) for old in caption[len(lit.caption):]]
        return anims

    def relight(self, lit: Light, names: Sequence[str], shares: Sequence[float], *,
                asker: int | None = None, visible: Sequence[bool] | None = None,
                extra: Sequence = (), held: Sequence[int] = (), run_time: float) -> None:
        """The light moves to new shares (and the lamp to a new asker): beams, bars, texts.

        The percents of the words in ``held`` (indices) stay off screen, for the scene
        to bring in later; they are in ``lit.percents`` all the same.
        """
        stage, bars = lit.stage, lit.bars
        percents = self.percent_labels(bars, shares, visible, stage.column)
        shown = VGroup(*(p for i, p in enumerate(percents) if i not in held))
        anims = [bars.make_shares_animation(shares),
                 FadeOut(lit.percents), FadeIn(shown), *extra]
        dimmed = None if visible is None else [not v for v in visible]
        moving = asker is not None and asker != stage.asker
        if moving:
            caption = self.asks(stage, names[asker], asker)
            anims += [FadeOut(lit.caption), FadeIn(caption)]
            lit.caption = caption
        anims.append(stage.make_light_animation(shares, asker, dimmed))
        self.play(*anims, run_time=run_time)
        lit.percents = percents

    def settle(self, lit: Light, names: Sequence[str], shares: Sequence[float],
               asker: int) -> None:
        """``lit`` as :meth:`relight` to ``shares`` with ``asker`` asking leaves it, at once
        (for a stage not yet on screen)."""
        stage, bars = lit.stage, lit.bars
        stage.asker = asker
        stage.get_lamp().move_to(stage.lamp_point(asker))
        stage.get_beams().become(stage.make_beams(shares))
        bars.get_bars().become(bars.make_bars(shares))
        bars.get_segments().become(bars.make_segments(shares))
        lit.caption = self.asks(stage, names[asker], asker)
        lit.percents = self.percent_labels(bars, shares, None, stage.column)

    def dial_light(self) -> Light:
        """The sharpness sweep's stage: the asker's light at the sweep's first sharpness,
        the dial at the left of the words or under the bars (SharpnessDial's, and what
        LookBackRule opens on)."""
        n = self.numbers
        names = n["words"]
        first = n["sharpness_sweep"][0]
        return self.light(names, names.index(n["asker"]), first["shares"],
                          side=lambda beside: self.dial(first["sharpness"], beside))

    def dial(self, sharpness: float, beside: bool) -> VGroup:
        """The dial: its name and its setting, under the name (``beside``, in a column
        at the left) or after it on its baseline."""
        s = self.sizes
        name = words("sharpness", s.label, style.MUTED)
        value = words(setting(sharpness), s.heading, style.INK)
        if beside:
            value.next_to(name, DOWN, buff=0.2).align_to(name, RIGHT)
        else:
            value.next_to(name, RIGHT, buff=0.25)
            align_baselines([name, value])
        return VGroup(name, value)

    # ------------------------------------------------------------- the hand trace
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

    def table(self, labels: Sequence[str], size: int) -> Table:
        """The hand trace's columns across the area, measured with its figures at
        ``size`` and its names at the frame's label size.

        Across a room wider than tall the rows are named in a column at the left: the
        long names if the word columns then still hold every value and label (on one
        line, or stacked), else the short ones. In a room taller than wide each name
        stands over its row, and the columns take the whole width. The totals' column
        holds the exponentials' total on one line if the columns still hold every value;
        else only as wide as its mantissa or power.
        """
        n, s = self.numbers, self.sizes
        left, right, _, _ = self.area()
        count = len(labels)
        times = f"× {setting(n['sharpness'])}"
        long = ("score", f"sharpen {times}", "exponential", "share", "blend")
        brief = ("score", times, "e\u02e3", "share", "blend")
        values = [*(short(x) for x in n["scores"]), *(short(x) for x in n["sharpened"]),
                  *(tenths(x) for x in n["exponentials"]),
                  *(whole_percent(p) for p in n["shares_percent"])]
        cell = widest(values, size) + APART
        total, rounded = tenths(n["total"]), whole_percent(n["rounded_total_percent"])

        def totals(split: bool) -> float:
            figures = [*(split_power(total) if split else [total]), rounded]
            return max(widest(figures, size), text_width("total", s.label)) + APART

        one, two = widest(labels, size), widest(
            [t for label in labels for t in stacked_halves(label)], size)
        legend_one = text_width("[" + ", ".join(FEATURES) + "]", s.label)
        legend_two = widest(FEATURES, s.label)
        if not self.frame().across:  # names over their rows; the legend in the totals' column
            for split in (False, True):
                column_total = max(totals(split), legend_two + GAP)
                column = (right - left - column_total) / count
                if cell <= column:
                    break
            return Table(left, column, column_total, False, long, one + APART > column, True,
                         count, size)
        choices = [(names, legend_stacked, labels_stacked)
                   for names in (long, brief) for legend_stacked in (False, True)
                   for labels_stacked in (False, True)]
        for split in (False, True):
            column_total = totals(split)
            for names, legend_stacked, labels_stacked in choices:
                side = max(widest(names, s.label), legend_two if legend_stacked else legend_one)
                start = left + side + APART
                column = min((right - start - column_total) / count, MAX_COLUMN)
                if max(cell, (two if labels_stacked else one) + APART) <= column:
                    return Table(start, column, column_total, True, names, labels_stacked,
                                 legend_stacked, count, size)
        # no columns hold every value in its own: the narrowest names, and the rows'
        # figures stand as near their columns as they can
        return Table(start, column, column_total, True, names, labels_stacked,
                     legend_stacked, count, size)

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

    def place(self, table: Table, texts: Sequence[str | None],
              fit: Fit) -> tuple[list[Cell], bool]:
        """Where a row's texts stand, as ``fit`` says: on each line, each as near its
        column as its neighbours let it, inside the area (and right of the names'
        column, on the line a name stands on); and whether they can."""
        left, right, _, _ = self.area()
        cells = []
        for slot, text in enumerate(texts):
            if text is None:
                continue
            parts = split_power(text) if fit.way == "split" else [text]
            line = 1 if fit.way == "stagger" and slot % 2 != fit.first else 0
            size = self.sizes.minimum if text == HIDDEN else table.size
            cells.append(Cell(slot, table.x(slot), line, tuple(parts), size))
        clear = True
        for line in (0, 1):
            on = [c for c in cells if c.line == line]
            low = table.start if table.beside and line == 0 else left
            xs, fits = spread([c.x for c in on], [widest(c.parts, c.size) for c in on],
                              low, right)
            clear = clear and fits
            for cell, x in zip(on, xs):
                cells[cells.index(cell)] = Cell(cell.slot, x, cell.line, cell.parts, cell.size)
        return cells, clear

    def fit_row(self, table: Table, texts: Sequence[str | None]) -> Fit | None:
        """The first of :data:`WAYS` the row's texts stand clear in, and on how many lines
        (None if in none)."""
        for way, first in WAYS:
            cells, clear = self.place(table, texts, Fit(way, first))
            if clear:
                return Fit(way, first, max(c.line + len(c.parts) for c in cells))
        return None

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
                                   style.MUTED if part in (HIDDEN, DASH) else color)
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
        left, right, bottom, _ = self.area()
        names = n["words"]
        asker = names.index(n["asker"])
        size = table.size

        def build(rise: float) -> tuple:
            stage = SpotlightStage(names, asker, labels=labels, rise=rise, column=table.column,
                                   word_size=s.body, label_size=size,
                                   stacked=table.labels_stacked, shares=shares)
            self.hang(stage, table.start, 0.0)
            parts = [(quoted(n["asker"]), style.INK), ("asks", style.MUTED),
                     ("for", style.MUTED), (pair(n["question"]), style.QUERY)]
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
        flat, _, flat_legend = build(0.0)
        # room for the rise and three steps, between the labels and what the rows need
        descent = height(size) - words("0", size).height
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
            legend = VGroup(*(words(f, s.label, style.MUTED) for f in FEATURES))
        else:
            legend = VGroup(words("[" + ", ".join(FEATURES) + "]", s.label, style.MUTED))
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
        return words("0", size).height + 0.3 * height(self.sizes.label)

    def first_row(self, stage: SpotlightStage, legend: VGroup, size: int,
                  name_step: float) -> float:
        """The baseline of the hand trace's first row (the scores, at ``size``), under the
        labels and their legend."""
        under = min(stage.get_labels().get_bottom()[1], legend.get_bottom()[1])
        return under - GAP - name_step - words("0", size).height

    def note(self, table: Table) -> VGroup:
        """Why the shares add to 99%: a note for under them, centred under the table
        (wrapped, if it must be, to the area's width)."""
        n = self.numbers
        left, right, _, _ = self.area()
        text = (f"Rounded, {whole_percent(n['rounded_total_percent'])}; "
                f"exactly, {percent(n['exact_total'])}.")
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


# ------------------------------------------------------------------ shot 1
class SpotlightBudget(SpotlightShot):
    """100 points of light shared over four words, worked out by hand, then blended."""

    title = "A spotlight with 100 points of light"
    beat_seconds = {"stage": 7.0, "light": 7.0, "trace": 10.0, "shares": 8.0, "blend": 8.0}
    marks = {"trace": ("total",), "shares": ("share_1", "share_2", "share_3", "share_4")}

    def construct(self) -> None:
        n = self.numbers
        s = self.sizes
        trace = self.trace()
        table, stage, caption, legend = trace.table, trace.stage, trace.caption, trace.legend
        bars = self.budget_bars(table, stage, legend)
        budget_label = bars.make_total_label("light to give", f"{n['budget_points']} points")
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
        total_label = self.inside(bars.make_total_label("total", percent(n["exact_total"])))
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
        header = words("total", s.label, style.MUTED).set_x(table.x(table.count))
        align_baselines([stage.get_words()[0], header])
        self.play(FadeOut(bars), FadeOut(percents), FadeOut(total_label), run_time=b.part(0.12))
        for k, (row, _) in enumerate(rows):
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
        left_edge, right, bottom, _ = self.area()
        line = VGroup(words(f"new {quoted(n['asker'])} =", s.body, style.INK),
                      words(pair_2(n["summary"]), s.body, style.KEY))
        line.arrange(RIGHT, buff=0.2)
        align_baselines(line)
        whole_width = bool(not name_step and line.width > right - table.start)
        self.inside(line.set_x(((left_edge if name_step or whole_width else table.start)
                                + right) / 2))
        names = VGroup(*(words(f, s.label, style.MUTED) for f in FEATURES))
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


# ------------------------------------------------------------------ shot 2
class SharpnessDial(SpotlightShot):
    """Sharpness 1, 4, 8 for one asker; then each word asks in turn."""

    title = "Sharpness, and every word asking in turn"
    beat_seconds = {"sweep": 10.0, "askers": 10.0}
    opens_with = "the four words and the lamp"

    def construct(self) -> None:
        n = self.numbers
        names = n["words"]
        sweep = n["sharpness_sweep"]
        # the stage as SpotlightBudget left it: the words, the lamp, its light and question
        trace = self.trace(n["shares"])
        self.add(trace.stage.get_beams(), trace.stage.get_words(), trace.stage.get_lamp(),
                 trace.caption)
        lit = self.dial_light()
        value = lit.side[1]

        # The viewer sees the words and the lamp move into place over the bars, the
        # dial at 1 and the light spread almost evenly; then at 4, then 8: the best
        # fit's bar grows, and the budget column stays full.
        b = self.beat("sweep")
        self.play(*self.moves(trace.stage, trace.caption, lit), FadeIn(lit.bars),
                  FadeIn(lit.percents), FadeIn(lit.total), FadeIn(lit.side),
                  run_time=b.part(0.15))
        self.add(lit.caption)
        for state in sweep[1:]:
            self.wait(b.part(0.17))
            new = self.dial_value(lit, state["sharpness"])
            self.relight(lit, names, state["shares"], extra=(FadeOut(value), FadeIn(new)),
                         run_time=b.part(0.08))
            value = new

        # The viewer sees the lamp move from word to word; each asker lights its own
        # pattern; then the dial fades, for the look-back rule.
        b = self.beat("askers")
        for k, word in enumerate(names):
            extra = ()
            if k == 0:
                new = self.dial_value(lit, n["sharpness"])
                extra = (FadeOut(value), FadeIn(new))
                value = new
            self.relight(lit, names, n["askers"][word], asker=k, extra=extra,
                         run_time=b.part(0.07))
            if k < len(names) - 1:
                self.wait(b.part(0.15))
        self.hand_over(*self.on_stage(lit))

    def dial_value(self, lit: Light, sharpness: float):
        """A new setting for the dial on stage, where its first one stands."""
        dial = self.dial(sharpness, lit.beside)
        dial.shift(lit.side[0].get_center() - dial[0].get_center())
        return dial[1]


# ------------------------------------------------------------------ shot 3
class LookBackRule(SpotlightShot):
    """Words may only look back: a later word goes dark and its light moves."""

    title = "The look-back rule"
    beat_seconds = {"hide": 9.0, "alone": 7.0}
    marks = {"hide": ("back_top_percent",)}
    opens_with = "the lit stage: words, lamp, bars and total"

    def construct(self) -> None:
        n = self.numbers
        names = n["words"]
        asker = names.index(n["asker"])
        rule = n["lookback_rule"]
        # the stage as SharpnessDial left it: the last word asking, its light in the bars
        was = self.dial_light()
        last = len(names) - 1
        self.settle(was, names, n["askers"][names[last]], last)
        self.add(*self.on_stage(was))
        before = rule[n["asker"]]["visible"] if n["lookback"] else [True] * len(names)
        lit = self.light(names, asker, n["askers"][n["asker"]], before,
                         side=lambda beside: CheckBox(
                             ["look back", "only"] if beside else ["look back only"],
                             ticked=n["lookback"], size=self.sizes.label))
        box = lit.side

        # The viewer sees the stage make room for the rule's box and the lamp go back
        # to the asker; then the rule switched on: words after the asker go dark,
        # and their light moves to the words the asker can still see; the largest
        # share's percent comes last.
        b = self.beat("hide")
        self.play(*self.moves(was.stage, was.caption, lit),
                  ReplacementTransform(was.bars, lit.bars),
                  ReplacementTransform(was.total, lit.total),
                  FadeOut(was.percents), FadeIn(lit.percents), FadeIn(box),
                  run_time=b.part(0.15))
        self.add(lit.caption)
        self.wait(b.part(0.2))
        after = rule[n["asker"]]
        top = top_share(after["shares"])
        self.relight(lit, names, after["shares"], visible=after["visible"],
                     extra=(box.make_tick_animation(after["lookback"]),), held=(top,),
                     run_time=b.part(0.15))
        self.at("back_top_percent")  # the largest share appears as the voice says it
        self.play(FadeIn(lit.percents[top], scale=1.5),
                  run_time=min(b.part(0.1), self.time_left()))

        # The viewer sees the first word ask: it can see only itself, so it keeps all the light.
        b = self.beat("alone")
        first = rule[names[0]]
        self.relight(lit, names, first["shares"], asker=0, visible=first["visible"],
                     run_time=b.part(0.15))


__all__ = ["LookBackRule", "SharpnessDial", "SpotlightBudget", "pair", "pair_2", "split_power",
           "tenths", "top_share"]
