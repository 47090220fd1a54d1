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
    config,
)

from scenes import style
from scenes.base import (
    ChapterScene,
    baseline,
    drawn_characters,
    markup,
    quoted,
    stack_lines,
    tint,
    words,
)
from scenes.components.markup_formula import (
    MarkupFraction,
    glyphs,
    on_line,
)
from scenes.components.number_column import NumberColumn
from scenes.numbers import decimal, setting

EQUALS_Y = 1.3  # both formulas put their "=" on this height (scene units)
WORKED_Y = -0.3  # baseline of the worked numbers under the formulas
TEXT_TOP = -1.05  # baseline of the first line of explanation
LINE_STEP = 0.45  # between baselines of explanation lines
BLOCK_X = 3.7  # the two formulas are centred this far left and right of the middle
VECTOR_BOX = 1.15  # width of one box of a query or key row, so "-1.05" fits at SMALL
WORKED_SIZES = (style.LABEL, style.SMALL, style.MIN_FONT_SIZE)  # largest that fits first
WORKED_STEP = 0.62  # between baselines of the worked division's lines


def vector_row(values, color) -> NumberColumn:
    """A query or key as a row of boxes, each holding one feature's number (2 decimals)."""
    return NumberColumn([decimal(x) for x in values], color, style.SMALL,
                        box_width=VECTOR_BOX, row_step=VECTOR_BOX, direction=RIGHT,
                        box_height=style.CELL, fill_opacity=0.15)


def last_equals(line):
    """The last "=" glyph of a line: a MarkupText, or a group whose last part is one."""
    if not hasattr(line, "original_text"):
        return last_equals(line[-1])
    return glyphs(line, "=", drawn_characters(line).count("=") - 1)


def weight_result(weight: float) -> str:
    """The markup of the worked division's result, '= 0.74' (a text of its own, so it
    can appear as the voice says the weight)."""
    return f"= {tint(decimal(weight), style.WEIGHT)}"


def equals_on(formula, y: float, holder=None):
    """Shift a formula so the middle of its "=" (in ``holder``, if given) sits at height y."""
    formula.shift(UP * (y - glyphs(holder or formula, "=").get_y()))
    return formula


class OneAttentionWeight(ChapterScene):
    """match(i, j) = q_i · k_j and w_ij = softmax, worked out for "it" and "cat".

    The query and key rows carry their numbers; the weight is worked as a
    division: e^match over the row's sum of e^match, and their ratio.
    """

    section = "formula"
    title = "One attention weight, as a formula"
    beat_seconds = {"match": 8.0, "names": 7.0, "weight": 10.0, "softmax": 9.0}
    marks = {"weight": ("weight",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"reader": n["reader"], "top_word": n["top_word"], "weight": decimal(n["weight"])}

    def worked_division(self, size: int, stacked: bool = False) -> VGroup:
        """The weight worked out, at ``size``: e^match, the row's sum, and their ratio.

        Three lines, e^1.30 = 3.67, Σ_n e^match(it, n) = 4.96 and
        w(it, cat) = 3.67 / 4.96 = 0.74, with their last "=" in one column so the
        results stand one under another. The last line's last part is its result,
        "= 0.74", a text of its own. ``stacked`` writes the ratio as a
        fraction, for numbers too long to sit side by side. A sharpness other
        than one shows as "s · " in the exponents; if the ledger shifted the
        exponentials to keep them finite, both carry the same "− shift", which
        leaves the ratio as it is.
        """
        n = self.numbers
        reader, top = tint(n["reader"], style.QUERY), tint(n["top_word"], style.KEY)
        times = f"{setting(n['sharpness'])} · " if n["sharpness"] != 1.0 else ""
        shift = f" − {setting(n['exp_shift'])}" if n["exp_shift"] else ""
        # e^match and its row's sum: a power of ten once too large or small for two decimals
        numerator = decimal(n["numerator"], low=0.01)
        denominator = decimal(n["denominator"], low=0.01)
        weight = tint(decimal(n["weight"]), style.WEIGHT)
        pair = f"{tint('w', style.WEIGHT)}({reader}, {top}) ="
        result = markup(weight_result(n["weight"]), size)
        lines = [
            markup(f"e<sup>{times}{decimal(n['match'])}{shift}</sup> = "
                   f"{numerator}", size),
            markup(f"Σ<sub>n</sub> e<sup>{times}match({reader}, n){shift}</sup> = "
                   f"{denominator}", size),
        ]
        for k, line in enumerate(lines):  # "e" sits on the line; Σ and its n do not
            on_line(line, "e", WORKED_Y - WORKED_STEP * k)
        if stacked:
            lhs = markup(pair, size)
            ratio = MarkupFraction(numerator, denominator, size, gap=0.12, overhang=0.08)
            ratio.next_to(lhs, RIGHT, buff=0.2)
            ratio.shift(UP * (glyphs(lhs, "=").get_y() - ratio.get_bar().get_y()))
            result.next_to(ratio, RIGHT, buff=0.2)
            result.shift(UP * (baseline(lhs) - baseline(result)))
            last = VGroup(lhs, ratio, result)
            last.shift(UP * (lines[-1].get_bottom()[1] - style.LINE_GAP - last.get_top()[1]))
        else:
            # Set as one line, then split in two where the line would have them.
            whole = markup(f"{pair} {numerator} / {denominator} = {weight}", size)
            on_line(whole, "w", WORKED_Y - 2 * WORKED_STEP)
            division = markup(f"{pair} {numerator} / {denominator}", size)
            division.shift(whole[0].get_center() - division[0].get_center())
            result.shift(last_equals(whole).get_center() - glyphs(result, "=").get_center())
            last = VGroup(division, result)
        lines.append(last)
        for line in lines:
            line.shift(RIGHT * -last_equals(line).get_x())
        return VGroup(*lines)

    def construct(self) -> None:
        n = self.numbers
        reader, top = n["reader"], n["top_word"]
        match_value = decimal(n["match"])
        row_total = decimal(n["row_total"], 3)
        sharp = n["sharpness"] != 1.0
        scaled = "s · " if sharp else ""  # the sharpness, only when it changes anything
        right_edge = config.frame_width / 2 - style.EDGE

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

        # ---- the match: match(i, j) = q_i · k_j, with the two rows it came from
        match = markup(f"match(i, j) = {tint('q<sub>i</sub>', style.QUERY)} · "
                       f"{tint('k<sub>j</sub>', style.KEY)}", style.HEADING)
        equals_on(match, EQUALS_Y).set_x(-BLOCK_X)
        q_sym, k_sym = glyphs(match, "qi"), glyphs(match, "kj")
        query, key = vector_row(n["query"], style.QUERY), vector_row(n["key"], style.KEY)
        asks = VGroup(words(f"{quoted(reader)} asks for", style.SMALL, style.QUERY),
                      query).arrange(DOWN, buff=0.15)
        offers = VGroup(words(f"{quoted(top)} offers", style.SMALL, style.KEY),
                        key).arrange(DOWN, buff=0.15)
        # The two rows side by side at the top, "offers" over its k, both clear of the
        # frame's edge on the left and of the grid cell on the right.
        icons = VGroup(asks, offers).arrange(RIGHT, buff=style.GAP * 1.2, aligned_edge=DOWN)
        # One baseline for both labels, low enough that a descender ("dog") clears its row.
        labels = [asks[0], offers[0]]
        label_y = query.get_top()[1] + 0.15 + max(baseline(t) - t.get_bottom()[1]
                                                  for t in labels)
        for label in labels:
            label.shift(UP * (label_y - baseline(label)))
        icons.to_edge(UP, buff=style.EDGE)
        icons.shift(RIGHT * (k_sym.get_x() - offers.get_x()))
        icons.shift(RIGHT * max(0.0, -right_edge - icons.get_left()[0]))
        q_arrow = Arrow(query.get_bottom(), q_sym.get_top(), buff=0.12, color=style.QUERY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)
        k_arrow = Arrow(key.get_bottom(), k_sym.get_top(), buff=0.12, color=style.KEY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)

        # ---- the weight's cell in the grid, over w_ij (or just clear of the rows), with a
        # note naming its row and column; the note is shortened if the full one won't fit.
        cell = Rectangle(width=0.7, height=0.7).set_stroke(style.FAINT, width=2)
        cell.set_fill(style.WEIGHT, opacity=n["weight"])  # brightness = weight, as in the grid
        cell.to_edge(UP, buff=style.EDGE)
        cell.set_x(max(w_sym.get_x(), icons.get_right()[0] + style.GAP + cell.width / 2))
        row, column = tint(quoted(reader), style.QUERY), tint(quoted(top), style.KEY)
        for note_lines in ([f"row {row}, column {column}", "its cell in the grid"],
                           [f"row {row},", f"column {column}"]):
            cell_note = stack_lines([markup(line, style.SMALL, style.MUTED)
                                     for line in note_lines], 0.4)
            cell_note.next_to(cell, RIGHT, buff=style.GAP)
            if cell_note.get_right()[0] <= right_edge:
                break
        cell_icon = VGroup(cell, cell_note)
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
                              f"{match_value}", style.LABEL)
        on_line(worked_match, "m", WORKED_Y).set_x(match.get_x())
        names = stack_lines([
            markup(f"{tint('q', style.QUERY)}, the <b>query</b>: what it asks for",
                   style.SMALL, style.MUTED),
            markup(f"{tint('k', style.KEY)}, the <b>key</b>: what it offers",
                   style.SMALL, style.MUTED),
        ], LINE_STEP)
        names.align_to(match, LEFT).shift(UP * TEXT_TOP)
        if sharp:
            sharp_lines = [f"s = {setting(n['sharpness'])} is the sharpness: it",
                           "multiplies the match before the e."]
        else:
            sharp_lines = ["A sharpness would multiply the",
                           f"match before the e; here it is {setting(n['sharpness'])}."]
        note = stack_lines([words(line, style.SMALL, style.MUTED) for line in sharp_lines],
                           LINE_STEP)
        note.align_to(names, LEFT).shift(UP * (TEXT_TOP - 2.5 * LINE_STEP))
        self.play(FadeIn(worked_match, shift=UP * 0.1), run_time=b.part(0.25))
        self.play(LaggedStart(*(FadeIn(line) for line in names), lag_ratio=0.4),
                  run_time=b.part(0.35))

        # The viewer sees the weight, then worked out: e^match, the row's sum, their
        # ratio, and its result as the voice says it.
        b = self.beat("weight")
        room = right_edge - (names.get_right()[0] + style.GAP)
        # The largest size at which the lines fit beside the names; the ratio is
        # stacked as a fraction only when its numbers are too long for one line.
        layouts = [(size, stacked) for stacked in (False, True) for size in WORKED_SIZES]
        for size, stacked in layouts:
            worked = self.worked_division(size, stacked)
            if worked.width <= room:
                break
        worked.set_x(BLOCK_X)
        worked.shift(RIGHT * min(0.0, right_edge - worked.get_right()[0]))
        self.play(Write(lhs), FadeIn(fraction, shift=DOWN * 0.1), run_time=b.part(0.25))
        self.play(FadeIn(cell_icon), GrowArrow(w_arrow), run_time=b.part(0.2))
        result = worked[-1][-1]
        # every line but the result, in before the voice says the weight
        self.play(LaggedStart(*(FadeIn(line, shift=DOWN * 0.1)
                                for line in (*worked[:-1], worked[-1][:-1])),
                              lag_ratio=0.6),
                  run_time=min(b.part(0.35), self.time_to("weight")))
        self.at("weight")  # the result appears as the voice says the weight
        self.play(FadeIn(result, shift=DOWN * 0.1), run_time=min(b.part(0.1), self.time_left()))

        # The viewer sees the step named: a softmax makes a row into shares of one.
        b = self.beat("softmax")
        softmax = stack_lines([
            markup("A <b>softmax</b>: the row becomes", style.SMALL, style.MUTED),
            markup(f"shares that add up to {tint(row_total, style.INK)}.",
                   style.SMALL, style.MUTED),
        ], LINE_STEP)
        # Under the formula it names, clear of the sharpness note on the left.
        softmax.align_to(lhs, LEFT)
        softmax.shift(RIGHT * min(0.0, right_edge - softmax.get_right()[0]))
        softmax.shift(UP * (worked.get_bottom()[1] - 0.67))
        self.play(LaggedStart(*(FadeIn(line) for line in softmax), lag_ratio=0.4),
                  run_time=b.part(0.35))
        self.play(FadeIn(note), run_time=b.part(0.2))
