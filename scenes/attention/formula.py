"""One attention weight: the match and the weight as formulas, each symbol tied to its picture."""

from __future__ import annotations

from manim import (
    DL,
    DOWN,
    DR,
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
from scenes.lines import balanced_lines
from scenes.numbers import decimal, setting

EQUALS_Y = 1.3  # both formulas put their "=" on this height (scene units)
WORKED_Y = -0.3  # baseline of the worked numbers under the formulas
TEXT_TOP = -1.05  # baseline of the first line of explanation
LINE_STEP = 0.45  # between baselines of explanation lines
BLOCK_X = 3.7  # the two formulas are centred this far left and right of the middle
VECTOR_BOX = 1.15  # width of one box of a query or key row, so "-1.05" fits at SMALL
WORKED_SIZES = (style.LABEL, style.SMALL, style.MIN_FONT_SIZE)  # largest that fits first
WORKED_STEP = 0.62  # between baselines of the worked division's lines
# The tall frame stacks everything in one column (scene units)
TALL_GAP = 0.1  # between one block and the next, before the spare height is shared out
TALL_GAPS = 8.5  # how many such gaps the tall stack has (some count one and a half)
TALL_LINE_STEP = 0.48  # between baselines of explanation lines
ARROW_ROOM = 0.45  # between the query and key rows and the formula their arrows point at


def vector_row(values, color, size: int = style.SMALL, box: float = VECTOR_BOX) -> NumberColumn:
    """A query or key as a row of boxes, each holding one feature's number (2 decimals)."""
    return NumberColumn([decimal(x) for x in values], color, size,
                        box_width=box, row_step=box, direction=RIGHT,
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

    def worked_division(self, size: int, stacked: bool = False,
                        step: float = WORKED_STEP) -> VGroup:
        """The weight worked out, at ``size``: e^match, the row's sum, and their ratio.

        Three lines, e^1.30 = 3.67, Σ_n e^match(it, n) = 4.96 and
        w(it, cat) = 3.67 / 4.96 = 0.74, their baselines ``step`` apart and their
        last "=" in one column so the results stand one under another. The last
        line's last part is its result, "= 0.74", a text of its own. ``stacked``
        writes the ratio as a fraction, for numbers too long to sit side by side.
        A sharpness other than one shows as "s · " in the exponents; if the ledger
        shifted the exponentials to keep them finite, both carry the same
        "− shift", which leaves the ratio as it is.
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
            on_line(line, "e", WORKED_Y - step * k)
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
            on_line(whole, "w", WORKED_Y - 2 * step)
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
        tall = self.tall
        # Tall, everything stands in one column, so the formulas take the phone's minimum
        # type size like the text, which is larger than the wide frame's.
        formula_size = style.LABEL if tall else style.HEADING
        text_size = style.LABEL if tall else style.SMALL
        line_step = TALL_LINE_STEP if tall else LINE_STEP

        # ---- the weight: w_ij = e^match(i, j) / sum over n of e^match(i, n)
        lhs = markup(f"{tint('w<sub>ij</sub>', style.WEIGHT)} =", formula_size)
        fraction = MarkupFraction(f"e<sup>{scaled}match(i, j)</sup>",
                                  f"Σ<sub>n</sub> e<sup>{scaled}match(i, n)</sup>",
                                  formula_size, gap=0.1 if tall else 0.2)
        fraction.next_to(lhs, RIGHT, buff=0.3)
        fraction.shift(UP * (glyphs(lhs, "=").get_y() - fraction.get_bar().get_y()))
        weight = VGroup(lhs, fraction)
        w_sym = glyphs(lhs, "wij")

        # ---- the match: match(i, j) = q_i · k_j, with the two rows it came from
        match = markup(f"match(i, j) = {tint('q<sub>i</sub>', style.QUERY)} · "
                       f"{tint('k<sub>j</sub>', style.KEY)}", formula_size)
        q_sym, k_sym = glyphs(match, "qi"), glyphs(match, "kj")
        # Tall, each box as wide as the widest number needs, and narrower still, down to
        # a hair around it, if that keeps the two rows side by side.
        box = VECTOR_BOX
        if tall:
            widest = max(words(decimal(x), text_size).width for x in (*n["query"], *n["key"]))
            box = max(widest + 0.04, min(widest + 0.12, (2 * right_edge - 0.12) / 6))
        query = vector_row(n["query"], style.QUERY, text_size, box)
        key = vector_row(n["key"], style.KEY, text_size, box)
        asks = VGroup(words(f"{quoted(reader)} asks for", text_size, style.QUERY),
                      query).arrange(DOWN, buff=0.15)
        offers = VGroup(words(f"{quoted(top)} offers", text_size, style.KEY),
                        key).arrange(DOWN, buff=0.15)
        icons = VGroup(asks, offers).arrange(RIGHT, buff=style.GAP * 1.2, aligned_edge=DOWN)
        # One baseline for both labels, low enough that a descender ("dog") clears its row.
        labels = [asks[0], offers[0]]
        label_y = query.get_top()[1] + 0.15 + max(baseline(t) - t.get_bottom()[1]
                                                  for t in labels)
        for label in labels:
            label.shift(UP * (label_y - baseline(label)))

        # ---- the weight's cell in the grid, and a note naming its row and column
        cell = Rectangle(width=0.7, height=0.7).set_stroke(style.FAINT, width=2)
        cell.set_fill(style.WEIGHT, opacity=n["weight"])  # brightness = weight, as in the grid
        row, column = tint(quoted(reader), style.QUERY), tint(quoted(top), style.KEY)
        note_versions = ([f"row {row}, column {column}", "its cell in the grid"],
                         [f"row {row},", f"column {column}"])

        # ---- the worked match, the names of q and k, and the sharpness
        worked_match = markup(f"match({tint(reader, style.QUERY)}, {tint(top, style.KEY)}) = "
                              f"{match_value}", style.LABEL)
        names = stack_lines([
            markup(f"{tint('q', style.QUERY)}, the <b>query</b>: what it asks for",
                   text_size, style.MUTED),
            markup(f"{tint('k', style.KEY)}, the <b>key</b>: what it offers",
                   text_size, style.MUTED),
        ], line_step)
        if sharp:
            sharp_lines = [f"s = {setting(n['sharpness'])} is the sharpness: it",
                           "multiplies the match before the e."]
        else:
            sharp_lines = ["A sharpness would multiply the",
                           f"match before the e; here it is {setting(n['sharpness'])}."]
        if tall:
            sharp_lines = balanced_lines(" ".join(sharp_lines), text_size, 2 * right_edge)
        note = stack_lines([words(line, text_size, style.MUTED) for line in sharp_lines],
                           line_step)
        softmax = stack_lines([
            markup("A <b>softmax</b>: the row becomes", text_size, style.MUTED),
            markup(f"shares that add up to {tint(row_total, style.INK)}.",
                   text_size, style.MUTED),
        ], line_step)

        if tall:
            cell.scale(0.8)  # beside w_ij, no taller than the formula's first line
            parts = (icons, match, worked_match, names, weight, cell, note_versions, softmax,
                     note)
            # Place once with a small gap, then again with the height left shared out.
            cell_note, worked = self.stack_tall(*parts, gap=TALL_GAP)
            spare = note.get_bottom()[1] - self.area()[2]
            gap = min(0.3, max(0.04, TALL_GAP + spare / TALL_GAPS))
            cell_note, worked = self.stack_tall(*parts, gap=gap)
        else:
            equals_on(weight, EQUALS_Y, holder=lhs)
            weight.set_x(BLOCK_X)
            equals_on(match, EQUALS_Y).set_x(-BLOCK_X)
            # The two rows side by side at the top, "offers" over its k, both clear of the
            # frame's edge on the left and of the grid cell on the right.
            icons.to_edge(UP, buff=style.EDGE)
            icons.shift(RIGHT * (k_sym.get_x() - offers.get_x()))
            icons.shift(RIGHT * max(0.0, -right_edge - icons.get_left()[0]))
            # The cell over w_ij (or just clear of the rows), with its note; the note is
            # shortened if the full one won't fit.
            cell.to_edge(UP, buff=style.EDGE)
            cell.set_x(max(w_sym.get_x(), icons.get_right()[0] + style.GAP + cell.width / 2))
            for note_lines in note_versions:
                cell_note = stack_lines([markup(line, style.SMALL, style.MUTED)
                                         for line in note_lines], 0.4)
                cell_note.next_to(cell, RIGHT, buff=style.GAP)
                if cell_note.get_right()[0] <= right_edge:
                    break
            on_line(worked_match, "m", WORKED_Y).set_x(match.get_x())
            names.align_to(match, LEFT).shift(UP * TEXT_TOP)
            note.align_to(names, LEFT).shift(UP * (TEXT_TOP - 2.5 * LINE_STEP))
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
            # Under the formula it names, clear of the sharpness note on the left.
            softmax.align_to(lhs, LEFT)
            softmax.shift(RIGHT * min(0.0, right_edge - softmax.get_right()[0]))
            softmax.shift(UP * (worked.get_bottom()[1] - 0.67))
        cell_icon = VGroup(cell, cell_note)
        # Tall and side by side (the names under the rows), each row's arrow leaves from
        # near the end that faces the other row, clear of its name.
        q_from, k_from = query.get_bottom(), key.get_bottom()
        if tall and icons[0][0].get_top()[1] < query.get_bottom()[1]:
            q_from, k_from = query.get_corner(DR) + LEFT * 0.2, key.get_corner(DL) + RIGHT * 0.2
        q_arrow = Arrow(q_from, q_sym.get_top(), buff=0.12, color=style.QUERY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)
        k_arrow = Arrow(k_from, k_sym.get_top(), buff=0.12, color=style.KEY,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)
        # Tall, the cell stands left of w_ij rather than over it.
        w_start, w_end = (cell.get_right(), w_sym.get_left()) if tall else \
            (cell.get_bottom(), w_sym.get_top())
        w_arrow = Arrow(w_start, w_end, buff=0.12, color=style.WEIGHT,
                        stroke_width=3, max_tip_length_to_length_ratio=0.2)

        # The viewer sees the two rows again, and the match written as q times k.
        b = self.beat("match")
        self.play(FadeIn(asks, shift=DOWN * 0.1), FadeIn(offers, shift=DOWN * 0.1),
                  run_time=b.part(0.2))
        self.play(Write(match), run_time=b.part(0.3))
        self.play(GrowArrow(q_arrow), GrowArrow(k_arrow), run_time=b.part(0.2))

        # The viewer sees the worked match for the two words, and what q and k are called.
        b = self.beat("names")
        self.play(FadeIn(worked_match, shift=UP * 0.1), run_time=b.part(0.25))
        self.play(LaggedStart(*(FadeIn(line) for line in names), lag_ratio=0.4),
                  run_time=b.part(0.35))

        # The viewer sees the weight, then worked out: e^match, the row's sum, their
        # ratio, and its result as the voice says it.
        b = self.beat("weight")
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
        self.play(LaggedStart(*(FadeIn(line) for line in softmax), lag_ratio=0.4),
                  run_time=b.part(0.35))
        self.play(FadeIn(note), run_time=b.part(0.2))

    def stack_tall(self, icons, match, worked_match, names, weight, cell, note_versions,
                   softmax, note, gap: float):
        """Place the parts one under another for the tall frame, ``gap`` apart (scene
        units); returns the cell's note and the worked division, which are made to fit.

        Top to bottom: the query and key rows, the match and its worked numbers, the
        names of q and k, the cell beside the weight formula (its note under it, beside
        the first worked line), the worked division, the softmax, the sharpness.
        """
        left, right, _, top = self.area()
        lhs = weight[0]
        asks, offers = icons
        query, key = asks[1], offers[1]
        q_k = VGroup(glyphs(match, "qi"), glyphs(match, "kj"))
        apart = min(style.GAP, right - left - query.width - key.width)
        if apart >= 0.1:
            # The two rows side by side over "q · k", each row's name under it at the
            # outer side, beside the arrows that run down from the rows' inner ends.
            label_room = max(asks[0].height, offers[0].height) + 0.2
            match.set_y(top - query.height - label_room - match.height / 2 - 0.1)
            match.shift(RIGHT * (self.centre()[0] - q_k.get_x()))
            match.shift(RIGHT * max(0.0, left - match.get_left()[0]))
            middle = min(max(q_k.get_x(), left + query.width + apart / 2),
                         right - key.width - apart / 2)
            for row, edge, x in ((query, RIGHT, middle - apart / 2),
                                 (key, LEFT, middle + apart / 2)):
                row.set_x(x, edge).align_to(UP * top, UP)
            asks[0].next_to(query, DOWN, buff=0.1).align_to(query, LEFT)
            offers[0].next_to(key, DOWN, buff=0.1).align_to(key, RIGHT)
            offers[0].align_to(asks[0], UP)
        else:
            # Too wide side by side: one row under the other, each under its name.
            icons.arrange(DOWN, buff=TALL_GAP, aligned_edge=LEFT)
            icons.set_x(self.centre()[0]).align_to(UP * top, UP)
            match.next_to(icons, DOWN, buff=ARROW_ROOM)
            match.shift(RIGHT * (self.centre()[0] - match.get_x()))
        worked_match.next_to(match, DOWN, buff=gap).align_to(match, LEFT)
        names.next_to(worked_match, DOWN, buff=gap * 1.5).set_x(left, LEFT)
        weight.next_to(names, DOWN, buff=gap * 1.5).set_x(right, RIGHT)
        # The cell level with w_ij at the left margin, its note under it: the longer note
        # if it fits beside the formula.
        cell.set_x(left, LEFT).set_y(glyphs(lhs, "wij").get_y())
        for note_lines in note_versions:
            cell_note = stack_lines([markup(line, style.LABEL, style.MUTED)
                                     for line in note_lines], TALL_LINE_STEP)
            cell_note.next_to(cell, DOWN, buff=0.12).set_x(left, LEFT)
            if cell_note.get_right()[0] <= weight.get_left()[0] - style.GAP:
                break
        # The worked division at the phone's size, its ratio stacked only if too long;
        # its first line may stand beside the cell's note, the rest below it.
        for stacked in (False, True):
            worked = self.worked_division(style.LABEL, stacked, step=0.55)
            if worked.width <= right - left:
                break
        worked.set_x(self.centre()[0])
        worked.shift(UP * (weight.get_bottom()[1] - gap - worked[0].get_top()[1]))
        # down until no line reaching under the cell's note touches it
        beside = [line for line in worked
                  if line.get_left()[0] < cell_note.get_right()[0] + style.GAP]
        if beside:
            clear = cell_note.get_bottom()[1] - gap - max(line.get_top()[1] for line in beside)
            worked.shift(UP * min(0.0, clear))
        softmax.next_to(worked, DOWN, buff=gap * 1.5).set_x(left, LEFT)
        note.next_to(softmax, DOWN, buff=gap).set_x(left, LEFT)
        return cell_note, worked
