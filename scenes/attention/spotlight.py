"""A spotlight with a budget: "the cat ate fish", one word asking, 100 points of light.

Three shots on one stage (ledger section ``spotlight``):

- ``SpotlightBudget``: the asker's question and the words' labels, the light
  shared out as bars from one budget column, the hand trace as a table
  (score, sharpened, exponential, share; their total), why the rounded shares
  add to 99%, and the blend into the asker's new summary.
- ``SharpnessDial``: the same light at sharpness 1, 4 and 8, then every word
  taking its turn to ask; the budget column stays full throughout.
- ``LookBackRule``: words may only look back; a later word goes dark and its
  light moves to the others; the first word can only light itself.

In the tall frame of a short the same pictures are stacked: in the bar shots
the words fill the width under the lamp, the budget lies as a bar below the
share bars and the sharpness dial or the look-back box goes under it; in the
hand trace a label is a column vector on two lines, the budget column and the
totals share a column at the right, and each row puts its name on a line of its
own above its values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    TransformFromCopy,
    VGroup,
    config,
)

from core.spotlight import FEATURES
from scenes import style
from scenes.base import (
    Beat,
    ChapterScene,
    align_baselines,
    baseline,
    quoted,
    row_label,
    stack_lines,
    words,
)
from scenes.components.spotlight import (
    CheckBox,
    ShareBars,
    SpotlightStage,
    align_first_baselines,
    stacked_pair,
)
from scenes.numbers import decimal, percent, percent_figure, setting, short, whole_percent

#: width of the column of row names at the left (scene units)
NAMES_WIDTH = 3.0
#: from one table row's baseline to the next (scene units)
ROW_STEP = 0.6
#: the bottom of the bars sits this far above the frame's bottom edge (captions go below)
BARS_BOTTOM = 1.05
#: length of a summary bar for a value of 1 (scene units; tall, there is room for longer)
SUMMARY_LENGTH = 3.0
TALL_SUMMARY_LENGTH = 4.0

# The tall frame (a short): every text at least style.TALL_MIN_FONT_SIZE.
#: width of a word column in the bar shots: the four fill the area's width
TALL_COLUMN = 1.75
#: size of the words in the bar shots (the hand trace keeps style.BODY, to fit its table)
TALL_WORD_SIZE = 40
#: width of the hand trace's totals column, at the right of its word columns (a total is
#: the widest number in its row)
TALL_TOTALS = 1.6
#: how far the lamp hangs above the words in the bar shots
TALL_RISE = 1.5
#: ... and in the hand trace, whose table needs the height
TALL_TRACE_RISE = 0.75
#: height of a full share bar in the bar shots
TALL_BARS = 2.5
#: ... and in the hand trace's light beat
TALL_TRACE_BARS = 3.6
#: from a hand-trace row's baseline to the next
TALL_ROW_STEP = 0.92
#: from a hand-trace row's name line down to its values
TALL_NAME_STEP = 0.46
#: from one line of a wrapped note to the next
TALL_LINE_STEP = 0.42


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


# ------------------------------------------------------------------ the shared stage
@dataclass
class Light:
    """What is on stage: the words and lamp, the bars, the budget's total, and the
    texts that change."""

    stage: SpotlightStage
    bars: ShareBars
    total: VGroup
    percents: VGroup
    caption: VGroup


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
    def small(self) -> int:
        """The size of values, row names and notes: a phone needs the tall minimum."""
        return style.TALL_MIN_FONT_SIZE if self.tall else style.SMALL

    @staticmethod
    def place(stage: SpotlightStage, words_y: float, left: float | None = None) -> SpotlightStage:
        """Words at height ``words_y``, their columns from ``left`` (by default right of
        the row names)."""
        if left is None:
            left = -config.frame_width / 2 + style.EDGE + NAMES_WIDTH
        stage.shift(RIGHT * (left - stage.get_cells().get_left()[0])
                    + UP * (words_y - stage.get_words().get_y()))
        return stage

    def hang(self, stage: SpotlightStage, lamp_y: float, left: float) -> SpotlightStage:
        """Tall: the columns from ``left``, the lamp at height ``lamp_y``."""
        return self.place(stage, lamp_y - stage.rise - stage.get_words().height / 2, left)

    def under(self, mobject, above, gap: float):
        """Tall: ``mobject`` centred in the area, its top ``gap`` below ``above``'s bottom."""
        mobject.move_to(self.centre(), coor_mask=RIGHT)
        return mobject.shift(UP * (above.get_bottom()[1] - gap - mobject.get_top()[1]))

    @staticmethod
    def percent_texts(shares: Sequence[float], visible: Sequence[bool] | None = None):
        """Each bar's text and colour: its share in percent, or 'hidden'."""
        visible = visible if visible is not None else [True] * len(shares)
        texts = [percent(s) if v else "hidden" for s, v in zip(shares, visible)]
        colors = [style.WEIGHT if v else style.MUTED for v in visible]
        return texts, colors

    def asks(self, stage: SpotlightStage, word: str, asker: int) -> VGroup:
        """The lamp's caption for the bar shots: '“cat” asks'."""
        return stage.make_caption([(quoted(word), style.INK), ("asks", style.MUTED)], asker,
                                  size=style.BODY if self.tall else style.LABEL)

    # ------------------------------------------------------------- building
    def light(self, names: Sequence[str], asker: int, shares: Sequence[float],
              visible: Sequence[bool] | None = None, words_y: float = 0.5) -> Light:
        """The stage for the bar shots: words, lamp and beams, bars under the words.

        Tall: the lamp at the top of the area, the words across its width, the
        bars under them and the budget bar below the bars."""
        if self.tall:
            left, _, _, top = self.area()
            stage = SpotlightStage(names, asker, shares=shares, rise=TALL_RISE,
                                   column=TALL_COLUMN, word_size=TALL_WORD_SIZE)
            self.hang(stage, top - 0.35, left)  # the lamp's glow just inside the area
            bars = ShareBars(stage, shares, height=TALL_BARS, width=0.8, below=True,
                             text_size=self.small, value_size=style.BODY)
            # room under the words for a full bar's percent
            bars.shift(UP * (stage.get_words().get_bottom()[1] - 0.9
                             - bars.get_tracks().get_top()[1]))
        else:
            stage = self.place(SpotlightStage(names, asker, shares=shares, rise=2.1), words_y)
            bars = ShareBars(stage, shares).to_edge(DOWN, buff=BARS_BOTTOM)
        texts, colors = self.percent_texts(shares, visible)
        percents = bars.make_percent_labels(texts, shares, colors)
        hidden = [False] * len(names) if visible is None else [not v for v in visible]
        for word, dark in zip(stage.get_words(), hidden):
            word.set_opacity(0.3 if dark else 1.0)
        total = bars.make_total_label("total", percent(self.numbers["exact_total"]))
        return Light(stage, bars, total, percents, self.asks(stage, names[asker], asker))

    def show(self, lit: Light, extra: Sequence = (), *, run_time: float) -> None:
        """Everything on stage fades in together."""
        stage, bars = lit.stage, lit.bars
        self.add(stage.get_beams())
        self.play(FadeIn(stage.get_words()), FadeIn(stage.get_lamp()), FadeIn(lit.caption),
                  FadeIn(stage.get_beams()), FadeIn(bars), FadeIn(lit.percents),
                  FadeIn(lit.total),
                  *(FadeIn(m) for m in extra), run_time=run_time)

    def relight(self, lit: Light, names: Sequence[str], shares: Sequence[float], *,
                asker: int | None = None, visible: Sequence[bool] | None = None,
                extra: Sequence = (), held: Sequence[int] = (), run_time: float) -> None:
        """The light moves to new shares (and the lamp to a new asker): beams, bars, texts.

        The percents of the words in ``held`` (indices) stay off screen, for the scene
        to bring in later; they are in ``lit.percents`` all the same.
        """
        stage, bars = lit.stage, lit.bars
        texts, colors = self.percent_texts(shares, visible)
        percents = bars.make_percent_labels(texts, shares, colors)
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


# ------------------------------------------------------------------ shot 1
class SpotlightBudget(SpotlightShot):
    """100 points of light shared over four words, worked out by hand, then blended."""

    title = "A spotlight with 100 points of light"
    beat_seconds = {"stage": 7.0, "light": 7.0, "trace": 10.0, "shares": 8.0, "blend": 8.0}
    marks = {"trace": ("total",), "shares": ("share_1", "share_2", "share_3", "share_4")}

    def construct(self) -> None:
        n = self.numbers
        names = n["words"]
        asker = names.index(n["asker"])
        hidden = [not v for v in n["visible"]]
        labels = [pair(label) for label in n["labels"]]
        legend_text = "[" + ", ".join(FEATURES) + "]"
        if self.tall:
            # Columns across the area: the words, then the totals (as in the wide table).
            # Labels are column vectors, so they fit; the legend, one too, stands in the
            # totals' column; the lamp leaves room for a two-line question.
            left, right, _, top = self.area()
            stage = SpotlightStage(names, asker, labels=labels, rise=TALL_TRACE_RISE,
                                   column=(right - left - TALL_TOTALS) / len(names),
                                   label_size=self.small, stacked=True)
            self.hang(stage, top - 0.68, left)
            legend = stacked_pair(legend_text, self.small, style.MUTED)
            legend.set_x(self.totals_x(stage))
            align_first_baselines([stage.get_labels()[0], legend])
            # the budget column in the totals' column, low enough for its label to
            # stand under the legend
            bars = ShareBars(stage, n["shares"], height=TALL_TRACE_BARS, width=0.8,
                             apart=(TALL_TOTALS - stage.column) / 2, text_size=self.small)
            bars.shift(UP * (stage.get_labels().get_bottom()[1] - 1.2
                             - bars.get_tracks().get_top()[1]))
        else:
            stage = SpotlightStage(names, asker, labels=labels, rise=1.6)
            self.place(stage, words_y=1.0)
            legend = row_label(legend_text, left_of=stage.get_cells(),
                               beside=stage.get_labels()[0])
            bars = ShareBars(stage, n["shares"]).to_edge(DOWN, buff=BARS_BOTTOM)
        for word, label, dark in zip(stage.get_words(), stage.get_labels(), hidden):
            word.set_opacity(0.3 if dark else 1.0)
            label.set_opacity(0.3 if dark else 1.0)
        budget_label = bars.make_total_label("light to give", f"{n['budget_points']} points")
        if self.tall:
            # wider than its column: at the column's left, level with its top, where the
            # bars are still to come
            track = bars.get_total_track()
            for line in budget_label:
                line.set_x(track.get_left()[0] - 0.3, RIGHT)
            budget_label.align_to(track, UP)
        # tall: on two lines, '“ate” asks' over 'for [1.0, 0.0]'
        asks_for = [("asks", style.MUTED), ("for", style.MUTED)] if self.tall \
            else [("asks for", style.MUTED)]
        caption = stage.make_caption([(quoted(n["asker"]), style.INK), *asks_for,
                                      (pair(n["question"]), style.QUERY)],
                                     wrap=2 if self.tall else None)

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
        texts, colors = self.percent_texts(n["shares"], n["visible"])
        percents = bars.make_percent_labels(texts, n["shares"], colors)
        total_label = bars.make_total_label("total", percent(n["exact_total"]))
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
        rows = {}
        header = words("total", self.small, style.MUTED)
        # A word the asker may not see gets no score and no sharpened score; its
        # exponential is the ledger's 0, so it adds nothing to the total.
        seen = n["visible"]
        sharpen = f"sharpen × {setting(n['sharpness'])}"
        if words(sharpen, style.SMALL).width > NAMES_WIDTH - 0.25:  # a huge sharpness
            sharpen = f"× {setting(n['sharpness'])}"
        steps = [("score", [short(x) if v else "hidden" for x, v in zip(n["scores"], seen)]),
                 (sharpen,
                  [short(x) if v else None for x, v in zip(n["sharpened"], seen)]),
                 ("exponential", [tenths(x) for x in n["exponentials"]])]
        for k, (name, texts) in enumerate(steps):
            rows[name] = self.table_row(stage, name, texts, self.row_y(stage, k))
        total = words(tenths(n["total"]), self.small, style.INK)
        if self.tall:
            # the totals' column: its header on the exponentials' name line
            header.set_x(self.totals_x(stage))
            align_baselines([header], self.row_y(stage, len(steps) - 1) + TALL_NAME_STEP)
        else:
            header.set_x(bars.get_total_track().get_x())
            align_baselines([stage.get_words()[0], header])
        total.set_x(header.get_x())
        align_baselines([total], self.row_y(stage, len(steps) - 1))
        self.play(FadeOut(bars), FadeOut(percents), FadeOut(total_label), run_time=b.part(0.12))
        for k, row in enumerate(rows.values()):
            self.play(FadeIn(row, shift=DOWN * 0.1), run_time=b.part(0.1))
            self.wait(b.part(0.1 if k < len(rows) - 1 else 0.02))
        self.at("total")  # the total appears as the voice says it
        self.play(FadeIn(header), FadeIn(total), run_time=min(b.part(0.12), self.time_left()))

        # The viewer sees each word's share of the light, one by one as the voice
        # reads them, and why the rounded shares add to 99% while the exact ones add
        # to 100%.
        b = self.beat("shares")
        share_texts = [whole_percent(p) for p in n["shares_percent"]]
        share_row = self.table_row(stage, "share", share_texts, self.row_y(stage, 3),
                                   style.WEIGHT)
        rounded, exact = whole_percent(n["rounded_total_percent"]), percent(n["exact_total"])
        summed = words(rounded, self.small, style.WEIGHT)
        align_baselines([summed.set_x(header.get_x())], self.row_y(stage, 3))
        if self.tall:
            note = self.lines(["Rounded, the shares", f"add to {rounded}; exactly,",
                               f"they add to {exact}."], self.small, style.MUTED)
            self.under(note, share_row, 0.2)
        else:
            note = words(f"Rounded, the shares add to {rounded}; exactly, they add to {exact}.",
                         style.SMALL, style.MUTED)
            note.next_to(share_row, DOWN, buff=0.3).set_x(stage.get_cells().get_x())
        label, cells = share_row
        self.play(FadeIn(label, shift=DOWN * 0.1), run_time=b.part(0.1))
        # each word's share appears as the voice says it
        self.fade_in_on_marks(b, self.marks["shares"], cells, b.part(0.06))
        self.play(FadeIn(summed), FadeIn(note), run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees the trace clear away; lines from every word, as thick
        # as its share, gather into the asker's new summary, [thing, action].
        b = self.beat("blend")
        rise = UP * 3 * (TALL_ROW_STEP if self.tall else ROW_STEP)
        self.play(*(FadeOut(row) for row in rows.values()),
                  FadeOut(header), FadeOut(total), FadeOut(summed), FadeOut(note),
                  share_row.animate.shift(rise), run_time=b.part(0.15))
        summary = self.summary_block(stage, share_row, n)
        lines = self.blend_lines(stage, share_row, summary[0], n["shares"])
        self.play(LaggedStart(*(Create(line) for line in lines), lag_ratio=0.1),
                  run_time=b.part(0.2))
        self.play(FadeIn(summary[0]), FadeIn(summary[1]), run_time=b.part(0.15))
        self.play(*(GrowFromEdge(bar, LEFT) for bar in summary[2]), FadeIn(summary[3]),
                  run_time=b.part(0.15))

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

    @staticmethod
    def totals_x(stage: SpotlightStage) -> float:
        """Tall: the x of the middle of the totals' column, right of the words'."""
        return float(stage.get_cells().get_right()[0]) + TALL_TOTALS / 2

    def row_y(self, stage: SpotlightStage, k: int) -> float:
        """The baseline of row ``k`` of the hand trace (0: the scores), under the labels."""
        if self.tall:
            # the first name line 0.62 under the labels' second line
            under_labels = baseline(stage.get_labels()[0][-1]) - TALL_NAME_STEP - 0.62
            return under_labels - k * TALL_ROW_STEP
        return baseline(stage.get_labels()[0]) - (k + 1) * ROW_STEP

    def table_row(self, stage: SpotlightStage, name: str, texts: Sequence[str | None], y: float,
                  color=style.INK) -> VGroup:
        """A row of the hand trace: its name at the left, one value under each word
        (tall: the name on a line of its own above the values, as the columns take the
        whole width).

        A text of None leaves its cell empty; 'hidden' is set in the muted colour.
        """
        cells = VGroup(*(words(t, self.small, style.MUTED if t == "hidden" else color)
                         .set_x(stage.column_x(i))
                         for i, t in enumerate(texts) if t is not None))
        if self.tall:
            label = row_label(name, size=self.small)
            align_baselines([label], y + TALL_NAME_STEP)
            align_baselines(cells, y)
        else:
            label = row_label(name, left_of=stage.get_cells())
            align_baselines([label, *cells], y)
        return VGroup(label, cells)

    @staticmethod
    def lines(texts: Sequence[str], size: int, color) -> VGroup:
        """Lines of text one under another, TALL_LINE_STEP apart, each centred on the
        others (place the block afterwards)."""
        block = stack_lines([words(t, size, color) for t in texts], TALL_LINE_STEP)
        for line in block:
            line.set_x(0)
        return block

    def summary_block(self, stage: SpotlightStage, share_row: VGroup, n) -> list:
        """The new summary: its line, the left column's name, and a bar per feature
        (tall: the line larger and centred in the area, its name on the line above)."""
        size = style.BODY if self.tall else style.LABEL
        line = VGroup(words(f"new {quoted(n['asker'])} =", size, style.INK),
                      words(pair_2(n["summary"]), size, style.KEY))
        line.arrange(RIGHT, buff=0.2)
        align_baselines(line)
        if self.tall:  # lower, as the area below is free: longer lines to blend along
            self.under(line, share_row, 1.6)
            name = row_label("blend", size=self.small)  # a little higher over larger type
            align_baselines([name], baseline(line[0]) + TALL_NAME_STEP + 0.08)
        else:
            line.next_to(share_row, DOWN, buff=1.1).set_x(stage.get_cells().get_x())
            name = row_label("blend", left_of=stage.get_cells(), beside=line[0])
        names = VGroup(*(words(f, self.small, style.MUTED) for f in FEATURES))
        values = VGroup(*(words(decimal(v), self.small, style.KEY) for v in n["summary"]))
        bars = VGroup()
        left = line.get_left()[0] + 1.2
        length = TALL_SUMMARY_LENGTH if self.tall else SUMMARY_LENGTH
        y = baseline(line[0])
        for label, value, v in zip(names, values, n["summary"]):
            y -= 0.55
            label.next_to((left, 0, 0), LEFT, buff=0.2)
            bar = Rectangle(width=max(v * length, 1e-3), height=0.22, stroke_width=0)
            bar.set_fill(style.KEY, opacity=0.85)
            bar.move_to((left, y + 0.1, 0), aligned_edge=LEFT)
            value.next_to(bar, RIGHT, buff=0.2)
            align_baselines([label, value], y)
            bars.add(bar)
        return [line, name, bars, VGroup(names, values)]

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

    def construct(self) -> None:
        n = self.numbers
        names = n["words"]
        asker = names.index(n["asker"])
        sweep = n["sharpness_sweep"]
        lit = self.light(names, asker, sweep[0]["shares"])
        if self.tall:
            # under the budget bar's label: the name, and the value on its baseline
            name = words("sharpness", style.BODY, style.MUTED)
            self.under(name, lit.total, 0.6)
            # name and first value centred together
            name.shift(LEFT * (self.dial_value(sweep[0]["sharpness"], name).width + 0.25) / 2)
        else:
            name = row_label("sharpness", left_of=lit.stage.get_cells())
            name.align_to(lit.stage.get_words(), UP)
        value = self.dial_value(sweep[0]["sharpness"], name)

        # The viewer sees one word light the others at sharpness 1, then 4, then 8:
        # the best fit's bar grows, and the budget column stays full.
        b = self.beat("sweep")
        self.show(lit, (name, value), run_time=b.part(0.15))
        for state in sweep[1:]:
            self.wait(b.part(0.17))
            new = self.dial_value(state["sharpness"], name)
            self.relight(lit, names, state["shares"], extra=(FadeOut(value), FadeIn(new)),
                         run_time=b.part(0.08))
            value = new

        # The viewer sees the lamp move from word to word; each asker lights its own pattern.
        b = self.beat("askers")
        for k, word in enumerate(names):
            extra = ()
            if k == 0:
                new = self.dial_value(n["sharpness"], name)
                extra = (FadeOut(value), FadeIn(new))
                value = new
            self.relight(lit, names, n["askers"][word], asker=k, extra=extra,
                         run_time=b.part(0.07))
            if k < len(names) - 1:
                self.wait(b.part(0.15))

    def dial_value(self, sharpness: float, name):
        """The dial's setting, under its name (tall: after it, on its baseline)."""
        value = words(setting(sharpness), style.HEADING, style.INK)
        if self.tall:
            value.next_to(name, RIGHT, buff=0.25)
            align_baselines([name, value])
            return value
        return value.next_to(name, DOWN, buff=0.2).align_to(name, RIGHT)


# ------------------------------------------------------------------ shot 3
class LookBackRule(SpotlightShot):
    """Words may only look back: a later word goes dark and its light moves."""

    title = "The look-back rule"
    beat_seconds = {"hide": 9.0, "alone": 7.0}
    marks = {"hide": ("back_top_percent",)}

    def construct(self) -> None:
        n = self.numbers
        names = n["words"]
        asker = names.index(n["asker"])
        rule = n["lookback_rule"]
        before = rule[n["asker"]]["visible"] if n["lookback"] else [True] * len(names)
        lit = self.light(names, asker, n["askers"][n["asker"]], before)
        if self.tall:
            # one line, under the budget bar's label
            box = CheckBox(["look back only"], ticked=n["lookback"], size=style.BODY)
            self.under(box, lit.total, 0.6)
        else:
            box = CheckBox(["look back", "only"], ticked=n["lookback"])
            box.next_to(lit.stage.get_cells(), LEFT, buff=0.25)
            box.align_to(lit.stage.get_words(), UP).to_edge(LEFT, buff=style.EDGE)

        # The viewer sees the rule switched on: words after the asker go dark,
        # and their light moves to the words the asker can still see; the largest
        # share's percent comes last.
        b = self.beat("hide")
        self.show(lit, (box,), run_time=b.part(0.15))
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


__all__ = ["LookBackRule", "SharpnessDial", "SpotlightBudget", "pair", "pair_2", "tenths",
           "top_share"]
