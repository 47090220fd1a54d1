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
from scenes.base import Beat, ChapterScene, align_baselines, baseline, quoted, row_label, words
from scenes.components.spotlight import (
    CheckBox,
    ShareBars,
    SpotlightStage,
)
from scenes.numbers import decimal, percent, percent_figure, setting, short, whole_percent

#: width of the column of row names at the left (scene units)
NAMES_WIDTH = 3.0
#: from one table row's baseline to the next (scene units)
ROW_STEP = 0.6
#: the bottom of the bars sits this far above the frame's bottom edge (captions go below)
BARS_BOTTOM = 1.05
#: length of a summary bar for a value of 1 (scene units)
SUMMARY_LENGTH = 3.0



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
    @staticmethod
    def place(stage: SpotlightStage, words_y: float) -> SpotlightStage:
        """Words at height ``words_y``, their columns right of the row names."""
        left = -config.frame_width / 2 + style.EDGE + NAMES_WIDTH
        stage.shift(RIGHT * (left - stage.get_cells().get_left()[0])
                    + UP * (words_y - stage.get_words().get_y()))
        return stage

    @staticmethod
    def percent_texts(shares: Sequence[float], visible: Sequence[bool] | None = None):
        """Each bar's text and colour: its share in percent, or 'hidden'."""
        visible = visible if visible is not None else [True] * len(shares)
        texts = [percent(s) if v else "hidden" for s, v in zip(shares, visible)]
        colors = [style.WEIGHT if v else style.MUTED for v in visible]
        return texts, colors

    def asks(self, stage: SpotlightStage, word: str, asker: int) -> VGroup:
        """The lamp's caption for the bar shots: '“cat” asks'."""
        return stage.make_caption([(quoted(word), style.INK), ("asks", style.MUTED)], asker)

    # ------------------------------------------------------------- building
    def light(self, names: Sequence[str], asker: int, shares: Sequence[float],
              visible: Sequence[bool] | None = None, words_y: float = 0.5) -> Light:
        """The stage for the bar shots: words, lamp and beams, bars under the words."""
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
        stage = SpotlightStage(names, asker, labels=[pair(label) for label in n["labels"]],
                               rise=1.6)
        self.place(stage, words_y=1.0)
        for word, label, dark in zip(stage.get_words(), stage.get_labels(), hidden):
            word.set_opacity(0.3 if dark else 1.0)
            label.set_opacity(0.3 if dark else 1.0)
        bars = ShareBars(stage, n["shares"]).to_edge(DOWN, buff=BARS_BOTTOM)
        budget_label = bars.make_total_label("light to give", f"{n['budget_points']} points")
        caption = stage.make_caption([(quoted(n["asker"]), style.INK), ("asks for", style.MUTED),
                                      (pair(n["question"]), style.QUERY)])
        legend = row_label("[" + ", ".join(FEATURES) + "]", left_of=stage.get_cells(),
                           beside=stage.get_labels()[0])

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
        header = words("total", style.SMALL, style.MUTED).set_x(bars.get_total_track().get_x())
        align_baselines([stage.get_words()[0], header])
        first = baseline(stage.get_labels()[0])
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
            rows[name] = self.table_row(stage, name, texts, first - (k + 1) * ROW_STEP)
        total = words(tenths(n["total"]), style.SMALL, style.INK).set_x(header.get_x())
        align_baselines([total], first - len(steps) * ROW_STEP)
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
        share_row = self.table_row(stage, "share", share_texts, first - 4 * ROW_STEP,
                                   style.WEIGHT)
        summed = words(whole_percent(n["rounded_total_percent"]), style.SMALL, style.WEIGHT)
        align_baselines([summed.set_x(header.get_x())], first - 4 * ROW_STEP)
        note = words(f"Rounded, the shares add to {whole_percent(n['rounded_total_percent'])}; "
                     f"exactly, they add to {percent(n['exact_total'])}.",
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
        rise = UP * 3 * ROW_STEP
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

    def table_row(self, stage: SpotlightStage, name: str, texts: Sequence[str | None], y: float,
                  color=style.INK) -> VGroup:
        """A row of the hand trace: its name at the left, one value under each word.

        A text of None leaves its cell empty; 'hidden' is set in the muted colour.
        """
        cells = VGroup(*(words(t, style.SMALL, style.MUTED if t == "hidden" else color)
                         .set_x(stage.column_x(i))
                         for i, t in enumerate(texts) if t is not None))
        label = row_label(name, left_of=stage.get_cells())
        align_baselines([label, *cells], y)
        return VGroup(label, cells)

    def summary_block(self, stage: SpotlightStage, share_row: VGroup, n) -> list:
        """The new summary: its line, the left column's name, and a bar per feature."""
        line = VGroup(words(f"new {quoted(n['asker'])} =", style.LABEL, style.INK),
                      words(pair_2(n["summary"]), style.LABEL, style.KEY))
        line.arrange(RIGHT, buff=0.2)
        align_baselines(line)
        line.next_to(share_row, DOWN, buff=1.1).set_x(stage.get_cells().get_x())
        name = row_label("blend", left_of=stage.get_cells(), beside=line[0])
        names = VGroup(*(words(f, style.SMALL, style.MUTED) for f in FEATURES))
        values = VGroup(*(words(decimal(v), style.SMALL, style.KEY) for v in n["summary"]))
        bars = VGroup()
        left = line.get_left()[0] + 1.2
        y = baseline(line[0])
        for label, value, v in zip(names, values, n["summary"]):
            y -= 0.55
            label.next_to((left, 0, 0), LEFT, buff=0.2)
            bar = Rectangle(width=max(v * SUMMARY_LENGTH, 1e-3), height=0.22, stroke_width=0)
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

    @staticmethod
    def dial_value(sharpness: float, name):
        value = words(setting(sharpness), style.HEADING, style.INK)
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
