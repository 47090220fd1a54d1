"""One attention weight: the match and the weight as formulas, each symbol tied to its picture."""

from __future__ import annotations

from dataclasses import dataclass, field

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    ReplacementTransform,
    VGroup,
    Wait,
    Write,
)

from production.language import N_, _
from scenes import core_words, style
from scenes.base import (
    Beat,
    ChapterScene,
    baseline,
    drawn_characters,
    markup,
    quoted,
    stack_lines,
    tint,
    words,
)
from scenes.components.markup_formula import MarkupFraction, glyphs, on_line
from scenes.components.number_column import NumberColumn
from scenes.components.weight_grid import LABEL_BUFF, weight_cell
from scenes.components.weight_grid_layout import closing_row, row_marks
from scenes.lines import balanced_lines, text_height, text_width
from scenes.numbers import decimal, setting

# Gaps in scene units.
GAP = 0.1  # the least gap between two blocks, one under the other
MAX_GAP = 0.6  # the most a gap grows to, sharing out spare height
COLUMN_GAP = 0.5  # between two columns
ARROW_ROOM = 0.45  # over a formula, for the arrows from what its symbols stand for
ROWS_GAP = 0.3  # between the query's row and the key's
STEP = 1.2 / 60  # between baselines of a block's lines, per unit of type size
ROW_CELL = (0.9, 0.7)  # the largest cell of the reader's row: width, height


def vector_row(values, color, size: int, box: float) -> NumberColumn:
    """A query or key as a row of boxes, each holding one feature's number (2 decimals)."""
    height = text_height("0.00", size) + 0.2
    return NumberColumn([decimal(x) for x in values], color, size, box, height, box,
                        fill_opacity=0.15, direction=RIGHT)


def last_equals(line):
    """The last "=" glyph of a line: a MarkupText, or a group whose last part is one."""
    if not hasattr(line, "original_text"):
        return last_equals(line[-1])
    return glyphs(line, "=", drawn_characters(line).count("=") - 1)


def painted(text, *colors):
    """``text`` (a MarkupText) with the glyphs of each (fragment, colour) given painted
    that colour, the first place the fragment is drawn, if it is. The formulas that may make way
    in a small frame are painted so rather than with colour tags: their markup then
    holds no digits (a tag's colour is written in hex) for the check that every frame
    shows the same numbers to count."""
    for fragment, color in colors:
        fragment = fragment.replace(" ", "")
        if fragment in drawn_characters(text):
            glyphs(text, fragment).set_color(color)
    return text


def weight_result(weight: float) -> str:
    """The markup of the worked division's result, '= 0.74' (a text of its own, so it
    can appear as the voice says the weight)."""
    return f"= {tint(decimal(weight), style.WEIGHT)}"


def reader_row(grid: dict, width: float, size: int) -> VGroup:
    """The reader's row of the grid, ``width`` wide at most (scene units), its words at
    ``size``: its label, its cells (brightness = weight), their outline and the top
    cell's (a group of these four, as the grid scene draws them), and the top word over
    its cell."""
    reader, top = grid["reader_index"], grid["top_index"]
    weights = grid["weights"][reader]
    label = words(grid["words"][reader], size, style.QUERY)
    cell_w = min(ROW_CELL[0], (width - label.width - LABEL_BUFF - 0.1) / len(weights))
    cell_h = min(ROW_CELL[1], cell_w)
    cells = VGroup(*(weight_cell(cell_w, cell_h, w).shift(RIGHT * cell_w * j)
                     for j, w in enumerate(weights)))
    label.next_to(cells, LEFT, buff=LABEL_BUFF)
    label.shift(UP * (cells.get_y() - text_height("x", size) / 2 - baseline(label)))
    column = words(grid["words"][top], size, style.KEY)
    column.next_to(cells[top], UP, buff=LABEL_BUFF)
    return VGroup(label, cells, *row_marks(cells, cells[top]), column)


@dataclass
class Block:
    """A part of the picture that stands in one column, under the one before it: from
    ``beat`` on, until it gives way to what comes later if its column runs out of room
    (unless it ``keeps``: it shows numbers). ``room`` (scene units) is kept clear over
    it; ``column`` 0 or 1 when the frame takes two, None across both, at the top."""

    name: str
    mob: VGroup
    beat: str
    column: int | None
    keeps: bool = True
    room: float = 0.0


@dataclass
class Plan:
    """Where the blocks stand: their centres' x, their tops' y in every beat they show in
    (scene units), and the beat each that gives way does so in."""

    x: dict[str, float]
    tops: dict[str, dict[str, float]]
    gone: dict[str, str] = field(default_factory=dict)
    columns: list[tuple[float, float]] = field(default_factory=list)


#: blocks that may give way when a column runs out of room, first to go first
GIVES_WAY = ("names", "match", "weight", "row")


def arrange(blocks: list[Block], beats: list[str], columns: list[tuple[float, float]],
            top: float, bottom: float) -> Plan | None:
    """Each column's blocks stacked, as many as fit between ``top`` and ``bottom`` in every
    beat: when a beat's blocks do not fit, the earliest that may give way does so (None
    if that is not enough). The gaps grow alike to use the height of the fullest beat;
    each beat's stacks stand in the middle of the height they leave, so they rise as
    blocks come in. ``columns`` are (left, right) x ranges, one or two."""
    order = {name: i for i, name in enumerate(beats)}
    gone: dict[str, str] = {}

    def shown(b: Block, i: int) -> bool:
        return order[b.beat] <= i and (b.name not in gone or order[gone[b.name]] > i)

    def stack(i: int, c: int) -> list[Block]:
        return [b for b in blocks if shown(b, i) and (b.column is None or b.column == c
                                                         or len(columns) == 1)]

    def height(i: int, c: int, gap: float) -> float:
        s = stack(i, c)
        return sum(b.mob.height + b.room for b in s) + gap * (len(s) - 1)

    for i, beat in enumerate(beats):
        for c in range(len(columns)):
            while height(i, c, GAP) > top - bottom + 1e-6:
                victims = [b for name in GIVES_WAY for b in stack(i, c)
                           if b.name == name and order[b.beat] < i]
                if not victims:
                    return None
                gone[victims[0].name] = beat
    plan = Plan({}, {beat: {} for beat in beats}, gone, columns)
    gaps = []
    for c in range(len(columns)):
        full = [(height(i, c, 0.0), len(stack(i, c))) for i in range(len(beats))]
        gaps.append(min([MAX_GAP] + [(top - bottom - h) / (k - 1) for h, k in full if k > 1]))
    # Each beat's blocks in the middle of the height they leave, rising as more come in.
    drops = []
    for i in range(len(beats)):
        fullest = max(height(i, c, gaps[c]) for c in range(len(columns)))
        drops.append(min([max(0.0, top - bottom - fullest) / 2, *drops[-1:]]))
    for c, (left, right) in enumerate(columns):
        gap = gaps[c]
        for i, beat in enumerate(beats):
            y = top - drops[i]
            for b in stack(i, c):
                plan.tops[beat][b.name] = y - b.room
                y -= b.room + b.mob.height + gap
                if b.column is None:
                    plan.x[b.name] = (columns[0][0] + columns[-1][1]) / 2
                else:
                    plan.x[b.name] = (left + right) / 2
    return plan


@dataclass
class Parts:
    """The scene's parts as the beats bring them in, with their blocks and its plan."""

    asks: VGroup
    offers: VGroup
    match: VGroup
    arrows: VGroup
    worked_match: VGroup
    names: VGroup
    row: VGroup
    lhs: VGroup
    fraction: MarkupFraction
    w_arrow: VGroup
    worked: VGroup
    softmax: VGroup
    note: VGroup
    blocks: dict[str, Block]
    plan: Plan


class OneAttentionWeight(ChapterScene):
    """match(i, j) = q_i · k_j and w_ij = softmax, worked out for "it" and "cat".

    The query and key rows carry their numbers; the weight is worked as a
    division: e^match over the row's sum of e^match, and their ratio.
    """

    relabel = staticmethod(core_words.shown)

    section = "formula"
    title = N_("One attention weight, as a formula")
    opens_with = "the reader's row of the grid"
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
        w(it, cat) = 3.67 / 4.96 = 0.74, their baselines apart in proportion to the
        size and their last "=" in one column so the results stand one under another.
        The last line's last part is its result, "= 0.74", a text of its own.
        ``stacked`` writes the ratio as a fraction, for numbers too long to sit side by
        side. A sharpness other than one shows as "s · " in the exponents; if the
        ledger shifted the exponentials to keep them finite, both carry the same
        "− shift", which leaves the ratio as it is.
        """
        n = self.numbers
        step = STEP * size
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
            markup(_("Σ<sub>n</sub> e<sup>{times}match({reader}, n){shift}</sup> = "
                     "{denominator}").format(times=times, reader=reader, shift=shift,
                                             denominator=denominator), size),
        ]
        for k, line in enumerate(lines):  # "e" sits on the line; Σ and its n do not
            on_line(line, "e", -step * k)
        if stacked:
            lhs = markup(pair, size)
            ratio = MarkupFraction(numerator, denominator, size, gap=0.12, overhang=0.08)
            ratio.next_to(lhs, RIGHT, buff=0.2)
            ratio.shift(UP * (glyphs(lhs, "=").get_y() - ratio.get_bar().get_y()))
            result.next_to(ratio, RIGHT, buff=0.2)
            result.shift(UP * (baseline(lhs) - baseline(result)))
            last = VGroup(lhs, ratio, result)
            last.shift(UP * (lines[-1].get_bottom()[1] - GAP - last.get_top()[1]))
        else:
            # Set as one line, then split in two where the line would have them.
            whole = markup(f"{pair} {numerator} / {denominator} = {weight}", size)
            on_line(whole, "w", -2 * step)
            division = markup(f"{pair} {numerator} / {denominator}", size)
            division.shift(whole[0].get_center() - division[0].get_center())
            result.shift(last_equals(whole).get_center() - glyphs(result, "=").get_center())
            last = VGroup(division, result)
        lines.append(last)
        for line in lines:
            line.shift(RIGHT * -last_equals(line).get_x())
        return VGroup(*lines)

    # ------------------------------------------------------------- layout
    def blocks(self, size: int, widths: list[float]) -> Parts | None:
        """Every block, its formulas at ``size``, set for columns ``widths`` wide (scene
        units): one column, or two (the match's blocks left, the weight's right). The
        names of the rows and the worked numbers are labels and numbers; what explains
        them, notes, at the frame's least size. None as soon as a block is too wide for
        its column."""
        n, t = self.numbers, self.frame().type
        two = len(widths) == 2
        width = {None: sum(widths) + COLUMN_GAP * (len(widths) - 1), 0: widths[0],
                 1: widths[-1]}
        reader, top = n["reader"], n["top_word"]
        sharp = n["sharpness"] != 1.0
        scaled = "s · " if sharp else ""  # the sharpness, only when it changes anything
        note_size = t.minimum

        # the weight: w_ij = e^match(i, j) / sum over n of e^match(i, n), under the reader's
        # row of the grid, whose top cell it is
        lhs = painted(markup("w<sub>ij</sub> =", size), ("wij", style.WEIGHT))
        fraction = MarkupFraction(_("e<sup>{scaled}match(i, j)</sup>").format(scaled=scaled),
                                  _("Σ<sub>n</sub> e<sup>{scaled}match(i, n)</sup>").format(
                                      scaled=scaled),
                                  size, gap=0.004 * size)
        fraction.next_to(lhs, RIGHT, buff=0.3)
        fraction.shift(UP * (glyphs(lhs, "=").get_y() - fraction.get_bar().get_y()))
        weight = VGroup(lhs, fraction)
        if weight.width > width[1]:
            return None
        row = reader_row(n["grid"], width[1], t.label)

        # worked out: the largest numbers that fit, the ratio stacked only if need be
        for stacked in (False, True):
            for number_size in (t.number, t.minimum):
                worked = self.worked_division(number_size, stacked)
                if worked.width <= width[1]:
                    break
            if worked.width <= width[1]:
                break
        # one sentence on two lines, broken where its text breaks it
        sentence = _("A <b>softmax</b>: the row becomes\nshares that add up to {total}.").format(
            total=tint(decimal(n["row_total"], 3), style.INK))
        softmax = stack_lines([markup(line, note_size, style.MUTED)
                               for line in sentence.split("\n")], STEP * note_size)
        if sharp:
            sharp_text = _("s = {sharpness} is the sharpness: it multiplies the match before "
                           "the e.").format(sharpness=setting(n["sharpness"]))
        else:
            sharp_text = _("A sharpness would multiply the match before the e; here it is "
                           "{sharpness}.").format(sharpness=setting(n["sharpness"]))
        note_column = 0 if two else 1
        note = stack_lines([words(line, note_size, style.MUTED) for line in
                            balanced_lines(sharp_text, note_size, width[note_column])],
                           STEP * note_size)
        if max(worked.width, softmax.width) > width[1] or note.width > width[note_column]:
            return None

        # the two rows side by side, each under its name, their boxes as wide as the
        # widest number needs and wider still, up to a margin, while they fit
        texts = [decimal(x) for x in (*n["query"], *n["key"])]
        room = (width[0] - ROWS_GAP) / 6  # over the match, in its column
        for row_size in (t.body, t.number, t.minimum):  # smaller rather than cramped
            widest = max(text_width(x, row_size) for x in texts)
            if widest + 0.25 <= room:
                break
        box = max(widest + 0.06, min(widest + 0.4, room))
        query = vector_row(n["query"], style.QUERY, row_size, box)
        key = vector_row(n["key"], style.KEY, row_size, box)
        asks = VGroup(words(_("{word} asks for").format(word=quoted(reader)), t.label,
                            style.QUERY), query)
        offers = VGroup(words(_("{word} offers").format(word=quoted(top)), t.label, style.KEY),
                        key)
        for group in (asks, offers):
            group.arrange(DOWN, buff=0.12)
        icons = VGroup(asks, offers).arrange(RIGHT, buff=ROWS_GAP, aligned_edge=DOWN)
        # One baseline for both labels, low enough that a descender ("dog") clears its row.
        labels = [asks[0], offers[0]]
        label_y = query.get_top()[1] + 0.12 + max(baseline(x) - x.get_bottom()[1]
                                                  for x in labels)
        for label in labels:
            label.shift(UP * (label_y - baseline(label)))

        # the match: match(i, j) = q_i · k_j, worked for the two words, and the names
        match = painted(markup(_("match(i, j) = q<sub>i</sub> · k<sub>j</sub>"), size),
                        ("qi", style.QUERY), ("kj", style.KEY))
        worked_match = markup(_("match({reader}, {top}) = {match}").format(
            reader=tint(reader, style.QUERY), top=tint(top, style.KEY),
            match=decimal(n["match"])), t.number)
        names = VGroup()
        for symbol, text, color in (("q", _("q, the <b>query</b>: what it asks for"), style.QUERY),
                                    ("k", _("k, the <b>key</b>: what it offers"), style.KEY)):
            lines = [markup(line, note_size, style.MUTED)
                     for line in balanced_lines(text, note_size, width[0], rich=True)]
            painted(lines[0], (symbol, color))
            names.add(*lines)
        stack_lines(names, STEP * note_size)

        blocks = [
            Block("icons", icons, "match", 0),
            Block("match", VGroup(match), "match", 0, keeps=False, room=ARROW_ROOM),
            Block("worked_match", VGroup(worked_match), "names", 0),
            Block("names", names, "names", 0, keeps=False),
            Block("row", row, "match", 1),
            Block("weight", weight, "weight", 1, keeps=False, room=ARROW_ROOM),
            Block("worked", worked, "weight", 1),
            Block("softmax", softmax, "softmax", 1),
            Block("note", note, "softmax", note_column),
        ]
        if any(b.mob.width > width[b.column] + 1e-6 for b in blocks):
            return None
        return Parts(asks, offers, match, VGroup(), worked_match, names, row, lhs, fraction,
                     VGroup(), worked, softmax, note, {b.name: b for b in blocks},
                     Plan({}, {}))

    def lay_out(self) -> Parts:
        """The blocks in two columns if the frame is wide enough for them, else in one;
        the formulas as large as keeps every block on screen to the end, or else as
        large as the fewest that give way allow."""
        t = self.frame().type
        left, right, bottom, top = self.area()
        beats = list(self.beat_seconds)
        half = (right - left - COLUMN_GAP) / 2
        layouts = ([(left, left + half), (right - half, right)], [(left, right)])
        tried = []
        for size in (t.heading, t.body, t.label):
            for columns in layouts:
                parts = self.blocks(size, [b - a for a, b in columns])
                if parts is None:
                    continue
                plan = arrange(list(parts.blocks.values()), beats, columns, top, bottom)
                if plan is None:
                    continue
                parts.plan = plan
                if not plan.gone:
                    return self.place(parts)
                tried.append(parts)
        return self.place(min(tried, key=lambda p: len(p.plan.gone)))

    def place(self, parts: Parts) -> Parts:
        """Every block where it first stands, and the rows' arrows to q_i and k_j."""
        plan = parts.plan
        for name, block in parts.blocks.items():
            y = plan.tops[block.beat][name]
            block.mob.move_to([plan.x[name], y - block.mob.height / 2, 0])
        # the rows over the formula: the key's row over k_j, within their column
        left, right = plan.columns[0]
        icons = parts.blocks["icons"].mob
        k_sym = glyphs(parts.match, "kj")
        icons.shift(RIGHT * (k_sym.get_x() - parts.offers.get_x()))
        icons.shift(RIGHT * (max(0.0, left - icons.get_left()[0])
                             + min(0.0, right - icons.get_right()[0])))
        parts.arrows = VGroup(*(
            Arrow(row[1].get_bottom(), glyphs(parts.match, sym).get_top(), buff=0.12,
                  color=color, stroke_width=3, max_tip_length_to_length_ratio=0.2)
            for row, sym, color in ((parts.asks, "qi", style.QUERY),
                                    (parts.offers, "kj", style.KEY))))
        parts.blocks["match"].mob.add(parts.arrows)
        # the arrow from the row's top cell, where the row stands once the weight is in,
        # down to w_ij (none if the row has made way by then)
        cell = parts.row[1][self.numbers["grid"]["top_index"]]
        lift = plan.tops["weight"].get("row")
        parts.w_arrow = VGroup(*(
            Arrow(cell.get_bottom() + UP * (y - plan.tops["match"]["row"]),
                  glyphs(parts.lhs, "wij").get_top(), buff=0.12, color=style.WEIGHT,
                  stroke_width=3, max_tip_length_to_length_ratio=0.2)
            for y in ([] if lift is None else [lift])))
        parts.blocks["weight"].mob.add(parts.w_arrow)
        return parts

    def make_way(self, parts: Parts, beat: Beat) -> None:
        """Make room for this beat's blocks, if its frame needs any: the blocks that give
        way fade, and those under them move up into the room (a tenth of the beat)."""
        plan = parts.plan
        beats = list(self.beat_seconds)
        before = beats[beats.index(beat.name) - 1]
        moves = [FadeOut(parts.blocks[name].mob) for name, at in plan.gone.items()
                 if at == beat.name]
        for name, y in plan.tops[beat.name].items():
            was = plan.tops[before].get(name)
            if was is not None and abs(was - y) > 1e-6:
                moves.append(parts.blocks[name].mob.animate.shift(UP * (y - was)))
        if moves:
            self.play(*moves, run_time=beat.part(0.1))

    def construct(self) -> None:
        p = self.lay_out()
        # The reader's row where the grid scene left it.
        carried = closing_row(self.numbers["grid"], self.frame())
        self.add(carried)

        # The viewer sees the reader's row leave the grid, its top word over its top
        # cell; then what the two words ask for and offer, and the match written as q · k.
        b = self.beat("match")
        self.play(*(ReplacementTransform(old, new) for old, new in zip(carried, p.row)),
                  FadeIn(p.row[-1], shift=DOWN * 0.1), run_time=b.part(0.2))
        self.remove(*p.row)
        self.add(p.row)
        self.play(FadeIn(p.asks, shift=DOWN * 0.1), FadeIn(p.offers, shift=DOWN * 0.1),
                  run_time=b.part(0.15))
        self.play(Write(p.match), run_time=b.part(0.25))
        self.play(*(GrowArrow(a) for a in p.arrows), run_time=b.part(0.15))

        # The viewer sees the worked match for the two words, and what q and k are called.
        b = self.beat("names")
        self.make_way(p, b)
        self.play(FadeIn(p.worked_match, shift=UP * 0.1), run_time=b.part(0.25))
        self.play(LaggedStart(*(FadeIn(line) for line in p.names), lag_ratio=0.4),
                  run_time=b.part(0.35))

        # The viewer sees the weight, then worked out: e^match, the row's sum, their
        # ratio, and its result as the voice says it. What no longer fits makes way.
        b = self.beat("weight")
        self.make_way(p, b)
        self.play(Write(p.lhs), FadeIn(p.fraction, shift=DOWN * 0.1), run_time=b.part(0.25))
        self.play(*([GrowArrow(a) for a in p.w_arrow] or [Wait()]), run_time=b.part(0.2))
        result = p.worked[-1][-1]
        # every line but the result, in before the voice says the weight
        self.play(LaggedStart(*(FadeIn(line, shift=DOWN * 0.1)
                                for line in (*p.worked[:-1], p.worked[-1][:-1])),
                              lag_ratio=0.6),
                  run_time=min(b.part(0.35), self.time_to("weight")))
        self.at("weight")  # the result appears as the voice says the weight
        self.play(FadeIn(result, shift=DOWN * 0.1), run_time=min(b.part(0.1), self.time_left()))

        # The viewer sees the step named: a softmax makes a row into shares of one.
        b = self.beat("softmax")
        self.make_way(p, b)
        self.play(LaggedStart(*(FadeIn(line) for line in p.softmax), lag_ratio=0.4),
                  run_time=b.part(0.35))
        self.play(FadeIn(p.note), run_time=b.part(0.2))
