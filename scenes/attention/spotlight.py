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
numbers, with the same layout as the shot before (:meth:`HandTrace.trace`,
:meth:`BarShot.dial_light`), so it stands where the viewer last saw it.

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

SharpnessDial and LookBackRule stand here; SpotlightBudget in
:mod:`scenes.attention.spotlight_budget`. What they stand on: the formatters, the
measures and :class:`SpotlightShot` in :mod:`scenes.components.spotlight_shot`; the bar
shots' stage (:class:`BarShot`) in :mod:`scenes.components.spotlight_bars`; the hand
trace's columns (:class:`TraceTable`) in :mod:`scenes.components.spotlight_table` and its
stage and rows (:class:`HandTrace`) in :mod:`scenes.components.spotlight_trace`.
"""

from __future__ import annotations

from manim import FadeIn, FadeOut, ReplacementTransform

from production.language import N_, _
from scenes.components.spotlight import CheckBox
from scenes.components.spotlight_bars import BarShot, Light
from scenes.components.spotlight_shot import top_share
from scenes.components.spotlight_trace import HandTrace
from scenes.lines import two_lines


# ------------------------------------------------------------------ shot 2
class SharpnessDial(BarShot, HandTrace):
    """Sharpness 1, 4, 8 for one asker; then each word asks in turn."""

    title = N_("Sharpness, and every word asking in turn")
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
class LookBackRule(BarShot):
    """Words may only look back: a later word goes dark and its light moves."""

    title = N_("The look-back rule")
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
                             two_lines(_("look back only")) if beside
                             else [_("look back only")],
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


__all__ = ["LookBackRule", "SharpnessDial"]
