"""Where AskAndOffer's parts stand in a frame: the sentence, what the reader asks for and
what its top word offers as two rows of numbers, their products and their sum, the rows
as large as the frame's room allows (:func:`lay_out`).

The grid scene opens on the sentence where AskAndOffer leaves it, laid out the same way
from its own numbers (:func:`closing_sentence`, :func:`from_grid`).
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Line,
    Text,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import align_baselines, baseline, stack_lines, word_row, words
from scenes.components.number_column import NumberColumn
from scenes.frame import Frame
from scenes.lines import balanced_lines, centred_lines, text_height, text_width, wrapped
from scenes.numbers import decimal

#: the intro, in two parts (a line break between them), each on lines of its own
INTRO = N_("Every word carries two short rows of numbers:\nwhat it asks for, and what it offers.")
NOTE = N_("Large when the two line up.")
# Spacing (scene units); the boxes and the gaps between blocks grow from these with the room.
PAD = 0.12  # the least room around a number in its box, and between a sign and a box
TIE = 0.25  # the least height of a tie from a word down to its row's header
GAP = 0.1  # the least gap between two blocks
MAX_GAP = 0.7  # the most a gap grows to, sharing out spare height
ROOMY = 0.15  # what a row's box leaves its gap to grow by, if it can
BOX_SHAPE = 0.6  # a box is at most this tall for its width
BOX_GROWTH = 1.0  # a box is at most this much wider than its widest number
NAME_STEP = 1.1 / 60  # between baselines of a name's lines, per unit of type size


def sentence_words(items: list[str], sizes: tuple[int, ...], width: float) -> VGroup:
    """The sentence, one Text per word (so it indexes by word), at the largest of ``sizes``
    that keeps it on one line within ``width`` (scene units), else on balanced lines at
    the last size: a flat group either way."""
    for size in sizes:
        for buff in (style.GAP, style.GAP * 0.6, style.GAP * 0.4):
            row = word_row(items, size, style.MUTED, buff=buff)
            if row.width <= width:
                return row
    lines = [word_row(line.split(" "), sizes[-1], style.MUTED, buff=style.GAP * 0.6)
             for line in balanced_lines(items, sizes[-1], width)]
    stack_lines(lines, sizes[-1] / 60 * 1.3, aligned_edge=ORIGIN)
    return VGroup(*(w for line in lines for w in line))


def spread(xs: list[float], widths: list[float], gap: float, low: float,
           high: float) -> list[float]:
    """Centres (scene units) as near ``xs`` as things ``widths`` wide can stand, ``gap``
    apart and within ``low`` .. ``high``."""
    order = sorted(range(len(xs)), key=xs.__getitem__)
    out = list(xs)
    edge = low
    for i in order:
        out[i] = max(out[i], edge + widths[i] / 2)
        edge = out[i] + widths[i] / 2 + gap
    edge = high
    for i in reversed(order):
        out[i] = min(out[i], edge - widths[i] / 2)
        edge = out[i] - widths[i] / 2 - gap
    return out


@dataclass(frozen=True)
class Table:
    """How the rows are set: the feature names left of the rows in a column
    ``names_width`` wide (0: each name on a line over its row), numbers at ``size`` in
    boxes ``box`` by ``box_height``, a row ``pitch`` below the last at least; all in
    scene units."""

    size: int
    names: list[list[str]]  # each feature's name, on its lines
    names_width: float
    over: float  # the height a name takes over its row's box
    box: float
    box_height: float
    pitch: float

    @property
    def area(self) -> float:
        return self.box * self.box_height


@dataclass
class Parts:
    """The scene's parts, placed where they stand when they first appear; the scene moves
    the sentence right by ``shift`` (scene units) when the rows come in, and the rows to
    the x of ``final``, their headers to ``heads``, when they meet."""

    sentence: VGroup
    intro: VGroup
    features: VGroup
    ties: VGroup
    asks: Text
    offers: Text
    term: Text
    query: NumberColumn
    key: NumberColumn
    products: NumberColumn
    signs: VGroup
    rule: Line
    total: Text
    name: Text
    note: VGroup
    shift: float
    final: list[float]
    heads: list[float]


def tables(n: dict, frame: Frame, room: float) -> list[Table]:
    """Every way the three rows could be set in ``room`` (the height left them, scene
    units) and the frame's width: the numbers at body size, else the number size;
    the names beside the rows (on one line, or two) or each over its row. Only
    those whose boxes hold their numbers; if none fits the height, the least
    boxes that do (the layout check then says what overflows)."""
    t = frame.type
    left, right, _, _ = frame.area()
    texts = [decimal(x) for x in (*n["query"], *n["key"], *n["products"])]
    line = text_height("Thp", t.label)
    sign = max(text_width(s, t.label) for s in "×=") + 2 * PAD
    one = [[f] for f in n["features"]]
    two = [balanced_lines(f, t.label, 0.5 * text_width(f, t.label) + line)
           for f in n["features"]]
    found, cramped = [], []
    for size in (t.body, t.number):
        widest = max(text_width(x, size) for x in texts)
        digits = text_height(decimal(0.0), size)
        for names, beside in ((one, True), (two, True), (one, False)):
            width = max(text_width(x, t.label) for name in names for x in name)
            free = right - left - (width + style.GAP if beside else 0.0)
            box = min(widest + BOX_GROWTH, (free - 2 * sign) / 3)
            over = 0.0 if beside else line + 0.08
            block = (max(map(len, names)) - 1) * NAME_STEP * t.label + line
            # each row leaves its gap room to grow, if its box still holds its number
            per_row = (room + GAP) / 3 - over - GAP
            box_height = min(BOX_SHAPE * box, per_row - ROOMY)
            if box_height < digits + PAD:
                box_height = min(BOX_SHAPE * box, per_row)
            pitch = max(over + box_height, block if beside else 0.0) + GAP
            table = Table(size, names, width if beside else 0.0, over, box,
                          max(box_height, digits + PAD), pitch)
            if box >= widest + PAD and box_height >= digits + PAD \
                    and 3 * pitch - GAP <= room + 1e-6:
                found.append(table)
            elif size == t.number and box >= widest + PAD:
                cramped.append(table)  # if nothing fits: boxes that hold their numbers
        if found:
            return found
    return cramped

def lay_out(n: dict, frame: Frame) -> Parts:
    """Every part, placed for this frame: the rows as large as its room allows."""
    t = frame.type
    left, right, bottom, top = frame.area()
    reader_i, top_i = n["reader_index"], n["top_index"]

    # ---- the parts
    sentence = sentence_words(n["words"], (t.body, t.label), right - left)
    reader_word, top_word = sentence[reader_i], sentence[top_i]
    asks = words(_("asks for"), t.label, style.QUERY)
    offers = words(_("offers"), t.label, style.KEY)
    term = words(_("products"), t.label)
    headers = [asks, offers, term]
    total = words(decimal(n["top_match"]), t.body, style.INK)
    name = words("q · k  =", t.body, t2c={"q": style.QUERY, "k": style.KEY})
    note = wrapped(_(NOTE), t.label, right - left, style.MUTED)
    intro = centred_lines([line for part in _(INTRO).split("\n")
                           for line in balanced_lines(part, t.heading, right - left)],
                          t.heading)

    # ---- the rows: the largest boxes the room leaves them
    # Top to bottom: the sentence, its ties, the headers, a gap, the rows, a gap, the
    # rule, a gap, the sum, a gap, the note.
    line = text_height("Thp", t.label)
    fixed = (sentence.height + TIE + line + max(total.height, name.height) + note.height
             + 4 * GAP)
    table = max(tables(n, frame, top - bottom - fixed), key=lambda x: x.area)
    beside = table.names_width > 0
    features = VGroup(*(stack_lines([words(x, t.label, style.MUTED) for x in lines],
                                    NAME_STEP * t.label) for lines in table.names))
    # the height left over, shared out among the seven gaps, and what remains around
    spare = top - bottom - fixed - (3 * table.pitch - GAP)
    grow = min(MAX_GAP - GAP, max(0.0, spare / 7))
    gap = GAP + grow
    sentence.move_to([frame.centre()[0], top - max(0.0, spare - 7 * grow) / 2, 0],
                     aligned_edge=UP)
    headers_top = sentence.get_bottom()[1] - TIE - grow
    for header in headers:
        header.move_to(UP * headers_top, aligned_edge=UP)
    align_baselines(headers)
    step = table.pitch + grow
    columns_top = headers_top - line - gap - table.over

    def column(values, color, fill=0.12):
        return NumberColumn([decimal(x) for x in values], color, table.size, table.box,
                            table.box_height, step, fill_opacity=fill)

    query, key = column(n["query"], style.QUERY), column(n["key"], style.KEY)
    products = column(n["products"], style.INK, 0.06)
    for col in (query, key, products):
        col.move_to(UP * columns_top, aligned_edge=UP)

    # The rows right of the names; the three columns spread over that room, with
    # a sign's width at least between them, centred if the boxes could grow no more.
    rows_left = left + table.names_width + (style.GAP if beside else 0.0)
    reach = [max(table.box, h.width) for h in headers]
    sign = (right - rows_left - 3 * table.box) / 2
    sign = min(sign, 2 * table.box)
    middle = (rows_left + right) / 2
    final = [middle - table.box - sign, middle, middle + table.box + sign]
    heads = spread(final, [h.width for h in headers], style.GAP, left, right)
    for label, box in zip(features, query.get_boxes()):
        label.set_x(left, LEFT)
        if beside:  # the name's lines centred on its row
            mid = (label.get_top()[1] + baseline(label[-1])) / 2
            label.shift(UP * (box.get_y() - mid))
        else:  # the name on its own line, just over its row's box
            descent = baseline(label[0]) - label.get_bottom()[1]
            label.shift(UP * (box.get_top()[1] + 0.08 + descent - baseline(label[0])))

    # Before the rows meet, each stands under its own word, clear of the names.
    table_x = min(max((rows_left + right) / 2, left + sentence.width / 2),
                  right - sentence.width / 2)
    shift = table_x - sentence.get_x()
    under = spread([reader_word.get_x() + shift, top_word.get_x() + shift], reach[:2],
                   2 * style.GAP, rows_left, right)
    for mob, x in ((query, under[0]), (asks, under[0]), (key, under[1]),
                   (offers, under[1])):
        mob.set_x(x)
    # A tie runs from its word to its header, starting under the sentence's last line
    # that stands below the word, so it crosses no word.
    def tie(word, header, color) -> Line:
        under = min(w.get_bottom()[1] for w in sentence
                    if abs(w.get_x() - word.get_x()) < (w.width + word.width) / 2)
        return Line([word.get_x() + shift, under - 0.08, 0], header.get_top() + UP * 0.08,
                    color=color, stroke_width=2)

    ties = VGroup(tie(reader_word, asks, style.QUERY), tie(top_word, offers, style.KEY))
    products.set_x(final[2])
    term.set_x(heads[2])
    signs = VGroup()
    for i in range(len(n["products"])):
        y = query.get_boxes()[i].get_y()
        signs.add(words("×", t.label, style.MUTED).move_to([(final[0] + final[1]) / 2, y, 0]),
                  words("=", t.label, style.MUTED).move_to([(final[1] + final[2]) / 2, y, 0]))
    boxes = products.get_boxes()
    rule = Line(boxes.get_corner(DOWN + LEFT), boxes.get_corner(DOWN + RIGHT),
                color=style.INK, stroke_width=2).shift(DOWN * gap)
    total.move_to(UP * (rule.get_y() - gap), aligned_edge=UP).set_x(final[2])
    name.next_to(total, LEFT, buff=style.GAP)
    # "q" hangs below the line and "·" floats above it: sit the "k" on the baseline.
    name.shift(UP * (baseline(total) - name[2].get_bottom()[1]))
    note.move_to(UP * (VGroup(total, name).get_bottom()[1] - gap), aligned_edge=UP)
    note.set_x(frame.centre()[0])
    intro.move_to([frame.centre()[0], (sentence.get_bottom()[1] + bottom) / 2, 0])
    return Parts(sentence, intro, features, ties, asks, offers, term, query, key,
                 products, signs, rule, total, name, note, shift, final, heads)


def closing_sentence(n: dict, frame: Frame) -> VGroup:
    """The sentence as AskAndOffer ends on it, over its rows, the reader's word in the
    query's colour and its top word in the key's: what the next scene opens with."""
    p = lay_out(n, frame)
    p.sentence.shift(RIGHT * p.shift)
    p.sentence[n["reader_index"]].set_color(style.QUERY)
    p.sentence[n["top_index"]].set_color(style.KEY)
    return p.sentence


def from_grid(grid: dict) -> dict:
    """AskAndOffer's numbers as the grid's ledger section holds them (the same words,
    features and products; the reader's query and its top word's key among all the
    words'), for a scene of that section to draw what AskAndOffer drew."""
    return {**grid, "query": grid["queries"][grid["reader_index"]],
            "key": grid["keys"][grid["top_index"]]}
