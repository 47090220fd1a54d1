"""One attention weight: the match and the weight as formulas, each symbol tied to its picture."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    GrowArrow,
    LaggedStart,
    Rectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import ChapterScene, markup, words
from scenes.components.markup_formula import MarkupFraction, glyphs, on_line
from scenes.components.readout_panel import stack_lines

EQUALS_Y = 1.3  # both formulas put their "=" on this height (scene units)
WORKED_Y = -0.3  # baseline of the worked numbers under the formulas
TEXT_TOP = -1.05  # baseline of the first line of explanation
LINE_STEP = 0.45  # between baselines of explanation lines
BLOCK_X = 3.7  # the two formulas are centred this far left and right of the middle


def tint(text: str, color) -> str:
    """Pango markup for ``text`` in one of the palette's colours."""
    return f'<span foreground="{color.to_hex()}">{text}</span>'


def sharpness_text(sharpness: float) -> str:
    """The sharpness as set: 1, 3, 0.25 (no trailing zeros)."""
    return f"{sharpness:g}"


def boxes_row(color, count: int = 3, side: float = 0.36) -> VGroup:
    """A short row of empty boxes in a role colour: the picture of a query or a key."""
    return VGroup(*(
        Rectangle(width=side, height=side, color=color, stroke_width=2).set_fill(color, 0.25)
        for _ in range(count)
    )).arrange(RIGHT, buff=0.06)


def equals_on(formula, y: float, holder=None):
    """Shift a formula so the middle of its "=" (in ``holder``, if given) sits at height y."""
    formula.shift(UP * (y - glyphs(holder or formula, "=").get_y()))
    return formula


class OneAttentionWeight(ChapterScene):
    """match(i, j) = q_i · k_j and w_ij = softmax, with the worked numbers for "it" and "cat"."""

    section = "formula"
    title = "One attention weight, as a formula"
    beat_seconds = {"match": 8.0, "names": 7.0, "weight": 9.0, "softmax": 9.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"reader": n["reader"], "top_word": n["top_word"], "weight": f"{n['weight']:.2f}"}


    def construct(self) -> None:
        n = self.numbers
        reader, top = n["reader"], n["top_word"]
        match_value, weight_value = f"{n['match']:.2f}", f"{n['weight']:.2f}"
        row_total = f"{n['row_total']:.3f}"
        sharp = n["sharpness"] != 1.0
        scaled = "s · " if sharp else ""  # the sharpness, only when it changes anything

        # ---- the match: match(i, j) = q_i · k_j, with the two rows it came from
        match = markup(f"match(i, j) = {tint('q<sub>i</sub>', style.QUERY)} · "
                       f"{tint('k<sub>j</sub>', style.KEY)}", style.HEADING)
        equals_on(match, EQUALS_Y).set_x(-BLOCK_X)
        q_sym, k_sym = glyphs(match, "qi"), glyphs(match, "kj")
        asks = VGroup(words(f"“{reader}” asks for", style.SMALL, style.QUERY),
                      boxes_row(style.QUERY)).arrange(DOWN, buff=0.15)
        offers = VGroup(words(f"“{top}” offers", style.SMALL, style.KEY),
                        boxes_row(style.KEY)).arrange(DOWN, buff=0.15)
        # Each row sits above and before its symbol, clear of the other formula.
        for icon in (asks, offers):
            icon.next_to(match, UP, buff=1.2)
        offers.align_to(k_sym, RIGHT)
        asks.next_to(offers, LEFT, buff=style.GAP * 2)
        asks.shift(UP * (offers[1].get_bottom()[1] - asks[1].get_bottom()[1]))
        q_arrow = Arrow(asks.get_bottom(), q_sym.get_top(), buff=0.12, color=style.QUERY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)
        k_arrow = Arrow(offers.get_bottom(), k_sym.get_top(), buff=0.12, color=style.KEY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)

        # ---- the weight: w_ij = e^match(i, j) / sum over n of e^match(i, n)
        lhs = markup(f"{tint('w<sub>ij</sub>', style.WEIGHT)} =", style.HEADING)
        fraction = MarkupFraction(f"e<sup>{scaled}match(i, j)</sup>",
                                  f"Σ<sub>n</sub> e<sup>{scaled}match(i, n)</sup>")
        fraction.next_to(lhs, RIGHT, buff=0.3)
        fraction.shift(UP * (glyphs(lhs, "=").get_y() - fraction.get_bar().get_y()))
        weight = VGroup(lhs, fraction)
        equals_on(weight, EQUALS_Y, holder=lhs)
        weight.set_x(BLOCK_X)
        w_sym = glyphs(lhs, "wij")
        cell = Rectangle(width=0.7, height=0.7).set_stroke(style.FAINT, width=2)
        cell.set_fill(style.WEIGHT, opacity=n["weight"])  # brightness = weight, as in the grid
        cell_note = stack_lines([
            markup(f"row {tint(f'“{reader}”', style.QUERY)}, column {tint(f'“{top}”', style.KEY)}",
                   style.SMALL, style.MUTED),
            words("its cell in the grid", style.SMALL, style.MUTED),
        ], 0.4).next_to(cell, RIGHT, buff=style.GAP)
        cell_icon = VGroup(cell, cell_note)
        cell_icon.align_to(asks, DOWN)
        cell_icon.shift(RIGHT * (w_sym.get_x() - cell.get_x()))
        w_arrow = Arrow(cell.get_bottom(), w_sym.get_top(), buff=0.12, color=style.WEIGHT,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)

        # The viewer sees the two rows again, and the match written as q times k.
        b = self.beat("match")
        self.play(FadeIn(asks, shift=DOWN * 0.1), FadeIn(offers, shift=DOWN * 0.1),
                  run_time=b.part(0.2))
        self.play(Write(match), run_time=b.part(0.3))
        self.play(GrowArrow(q_arrow), GrowArrow(k_arrow), run_time=b.part(0.2))

        # The viewer sees the worked match for the two words, and what q and k are called.
        b = self.beat("names")
        worked_match = markup(f"match({tint(reader, style.QUERY)}, {tint(top, style.KEY)}) = "
                              f"{match_value}", style.BODY)
        on_line(worked_match, "m", WORKED_Y).set_x(match.get_x())
        names = stack_lines([
            markup(f"{tint('q', style.QUERY)}, the <b>query</b>: what a word asks for",
                   style.SMALL, style.MUTED),
            markup(f"{tint('k', style.KEY)}, the <b>key</b>: what a word offers",
                   style.SMALL, style.MUTED),
        ], LINE_STEP)
        names.align_to(match, LEFT).shift(UP * TEXT_TOP)
        if sharp:
            sharp_lines = [f"s = {sharpness_text(n['sharpness'])} is the sharpness: it",
                           "multiplies the match before the e."]
        else:
            sharp_lines = ["A sharpness would multiply the",
                           f"match before the e; here it is {sharpness_text(n['sharpness'])}."]
        note = stack_lines([words(line, style.SMALL, style.MUTED) for line in sharp_lines],
                           LINE_STEP)
        note.align_to(names, LEFT).shift(UP * (TEXT_TOP - 2.5 * LINE_STEP))
        self.play(FadeIn(worked_match, shift=UP * 0.1), run_time=b.part(0.25))
        self.play(LaggedStart(*(FadeIn(line) for line in names), lag_ratio=0.4),
                  run_time=b.part(0.35))

        # The viewer sees the weight: the match through e, over the same for the whole row.
        b = self.beat("weight")
        worked_weight = markup(f"{tint('w', style.WEIGHT)}({tint(reader, style.QUERY)}, "
                               f"{tint(top, style.KEY)}) = "
                               f"{tint(weight_value, style.WEIGHT)}", style.BODY)
        on_line(worked_weight, "w", WORKED_Y).set_x(weight.get_x())
        self.play(Write(lhs), FadeIn(fraction, shift=DOWN * 0.1), run_time=b.part(0.3))
        self.play(FadeIn(cell_icon), GrowArrow(w_arrow), run_time=b.part(0.25))
        self.play(FadeIn(worked_weight, shift=UP * 0.1), run_time=b.part(0.2))

        # The viewer sees the step named: a softmax makes a row into shares of one.
        b = self.beat("softmax")
        softmax = stack_lines([
            markup("This step is a <b>softmax</b>:", style.SMALL, style.MUTED),
            words("it turns a row of numbers", style.SMALL, style.MUTED),
            words("into shares that add up to one.", style.SMALL, style.MUTED),
            markup(f"Row {tint(f'“{reader}”', style.QUERY)} adds up to "
                   f"{tint(row_total, style.INK)}.", style.SMALL, style.MUTED),
        ], LINE_STEP)
        softmax.shift(RIGHT * (BLOCK_X - 2.9) + UP * TEXT_TOP)
        softmax[3].shift(DOWN * 0.15)
        self.play(LaggedStart(*(FadeIn(line) for line in softmax[:3]), lag_ratio=0.3),
                  run_time=b.part(0.3))
        self.play(FadeIn(softmax[3]), run_time=b.part(0.15))
        self.play(FadeIn(note), run_time=b.part(0.15))
