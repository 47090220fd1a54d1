"""What each word asks for and what it offers: two short rows of numbers, and their match."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    VGroup,
    config,
)

from scenes import style
from scenes.base import (
    ChapterScene,
    align_baselines,
    baseline,
    stack_lines,
    word_row,
    words,
)
from scenes.components.number_column import BOX_HEIGHT, BOX_WIDTH, ROW_STEP, NumberColumn
from scenes.numbers import decimal

#: the sizes a sentence may take, largest first, before it is put on two lines
SENTENCE_SIZES = (style.LABEL, style.SMALL, style.MIN_FONT_SIZE)


def fitted_row(items: list[str], width: float) -> VGroup:
    """The sentence as a word_row at the largest size that fits ``width`` (scene units)."""
    for size in SENTENCE_SIZES:
        for buff in (style.GAP, style.GAP * 0.6):
            row = word_row(items, size, style.MUTED, buff=buff)
            if row.width <= width:
                return row
    return row


def lines_of_words(items: list[str], width: float) -> VGroup:
    """The sentence at LABEL size, one word per Text, on one line if it fits ``width``
    (scene units) and else on two; a flat group, so it indexes by word either way."""
    for buff in (style.GAP, style.GAP * 0.6):
        row = word_row(items, style.LABEL, style.MUTED, buff=buff)
        if row.width <= width:
            return row
    half = (len(items) + 1) // 2
    lines = [word_row(part, style.LABEL, style.MUTED, buff=style.GAP * 0.6)
             for part in (items[:half], items[half:])]
    stack_lines(lines, 0.5, aligned_edge=ORIGIN)
    return VGroup(*lines[0], *lines[1])


def spread_apart(xs: list[float], gap: float, low: float, high: float) -> list[float]:
    """Nudge x positions (scene units) apart until neighbours are ``gap`` apart, within bounds."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [min(max(x, low), high) for x in xs]
    for a, b in zip(order, order[1:]):
        if out[b] - out[a] < gap:
            middle = (out[a] + out[b]) / 2
            out[a], out[b] = middle - gap / 2, middle + gap / 2
    shift = max(0.0, out[order[-1]] - high) - max(0.0, low - out[order[0]])
    return [x - shift for x in out]


class AskAndOffer(ChapterScene):
    """What the reader asks for, what its top word offers, and their match term by term."""

    section = "ask_offer"
    title = "What each word asks for, and offers"
    beat_seconds = {"words": 6.0, "asks": 8.0, "offers": 8.0, "multiply": 9.0, "sum": 7.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"reader": n["reader"], "top_word": n["top_word"], "match": decimal(n["top_match"])}

    def construct(self) -> None:
        n = self.numbers
        reader_i, top_i = n["reader_index"], n["top_index"]
        half_w = config.frame_width / 2 - style.EDGE
        tall = self.tall
        # Tall, the headers and the row names take the phone's minimum type size.
        label_size = style.LABEL if tall else style.SMALL

        # The feature names label the rows; the sentence sits to their right if it fits.
        # Tall, the sentence spans the frame and each name stands over its row.
        features = VGroup(*(words(f, label_size, style.MUTED) for f in n["features"]))
        features.arrange(DOWN, aligned_edge=LEFT)
        if tall:
            right_of_labels = -half_w
            sentence = lines_of_words(n["words"], 2 * half_w)
            sentence.set_x(self.centre()[0]).to_edge(UP, buff=style.SAFE_TOP + 0.05)
        else:
            right_of_labels = -half_w + features.width + style.GAP
            sentence = fitted_row(n["words"], half_w - right_of_labels)
            if sentence.width <= half_w - right_of_labels:
                sentence.move_to(RIGHT * (right_of_labels + half_w) / 2)
            else:
                sentence = fitted_row(n["words"], 2 * half_w)
            sentence.to_edge(UP, buff=style.EDGE + 0.2)
        table_x = sentence.get_x()
        reader_word, top_word = sentence[reader_i], sentence[top_i]

        asks = words("asks for", label_size, style.QUERY)
        offers = words("offers", label_size, style.KEY)
        headers_y = sentence.get_bottom()[1] - (0.5 if tall else style.GAP * 2.5)
        for header in (asks, offers):
            header.move_to(UP * headers_y, aligned_edge=UP)
        align_baselines([asks, offers])
        # Tall, a row is its name's line and then its box, and the rows share out the
        # height the sum and its note leave them.
        label_room = max(f.height for f in features) + 0.1
        columns_top = headers_y - asks.height - (0.25 + label_room if tall else style.GAP)
        note_lines = ["Large when what is asked for lines up with what is offered."]
        if tall:
            note_lines = ["Large when what is asked for", "lines up with what is offered."]
        note = VGroup(*(words(line, style.LABEL, style.MUTED) for line in note_lines))
        note.arrange(DOWN, buff=style.LINE_GAP * 0.5)
        row_step = ROW_STEP
        if tall:
            rows = len(features)
            # under the boxes: the rule, "q · k = 1.30" and the note
            below = 0.2 + style.GAP + 0.6 + style.GAP + note.height
            room = columns_top - self.area()[2] - below - rows * BOX_HEIGHT
            gap = min(0.3, max(0.05, room / (rows - 1) - label_room))
            row_step = label_room + BOX_HEIGHT + gap
        query = NumberColumn([decimal(x) for x in n["query"]], style.QUERY, row_step=row_step)
        key = NumberColumn([decimal(x) for x in n["key"]], style.KEY, row_step=row_step)
        for column in (query, key):
            column.move_to(UP * columns_top, aligned_edge=UP)

        # Each column under its own word, kept clear of the labels and of each other.
        low = right_of_labels + BOX_WIDTH / 2 + (0 if tall else style.GAP)
        xq, xk = spread_apart([reader_word.get_x(), top_word.get_x()],
                              BOX_WIDTH + style.GAP * 2, low, half_w - BOX_WIDTH / 2)
        for mob, x in ((query, xq), (asks, xq), (key, xk), (offers, xk)):
            mob.set_x(x)
        if tall:
            # each name on its own line, just over its row's box, at the left margin
            descent = max(baseline(f) - f.get_bottom()[1] for f in features)
            for label, box in zip(features, query.get_boxes()):
                label.to_edge(LEFT, buff=style.EDGE)
                align_baselines([label], box.get_top()[1] + 0.1 + descent)
        else:
            features.to_edge(LEFT, buff=style.EDGE)
            for label, number_text in zip(features, query.get_numbers()):
                label.shift(UP * (baseline(number_text) - baseline(label)))
        # A tie runs from its word to its header; tall, from under the whole sentence,
        # which may take two lines.
        ties = VGroup(*(
            Line((sentence.get_bottom() + RIGHT * (word.get_x() - sentence.get_x()) if tall
                  else word.get_bottom()) + DOWN * 0.08,
                 header.get_top() + UP * 0.08, color=color, stroke_width=2)
            for word, header, color in ((reader_word, asks, style.QUERY),
                                        (top_word, offers, style.KEY))
        ))

        # The viewer sees the sentence, and that every word will carry two short rows.
        b = self.beat("words")
        sentence.set_x(self.centre()[0])
        intro_lines = ["Every word carries two short rows of numbers:",
                       "what it asks for, and what it offers."]
        if tall:
            intro_lines = ["Every word carries two", "short rows of numbers:",
                           "what it asks for,", "and what it offers."]
        intro_size = style.BODY
        if tall and all(words(line, style.HEADING).width <= 2 * half_w for line in intro_lines):
            intro_size = style.HEADING
        intro = VGroup(*(words(line, intro_size) for line in intro_lines))
        intro.arrange(DOWN, buff=style.LINE_GAP)
        intro.move_to(self.centre() if tall else DOWN * 0.3)
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.15) for w in sentence), lag_ratio=0.08),
                  run_time=b.part(0.35))
        self.play(FadeIn(intro, shift=UP * 0.15), run_time=b.part(0.25))

        # The viewer sees the reader's row: what "it" asks for, feature by feature.
        b = self.beat("asks")
        self.play(FadeOut(intro), sentence.animate.set_x(table_x), run_time=b.part(0.15))
        self.play(reader_word.animate.set_color(style.QUERY), run_time=b.part(0.1))
        self.play(Create(ties[0]), FadeIn(asks, shift=DOWN * 0.1), FadeIn(features),
                  run_time=b.part(0.2))
        self.play(query.make_fill_animation(), run_time=b.part(0.35))

        # The viewer sees the top word's row: what "cat" offers, on the same features.
        b = self.beat("offers")
        self.play(top_word.animate.set_color(style.KEY), Create(ties[1]),
                  FadeIn(offers, shift=DOWN * 0.1), run_time=b.part(0.25))
        self.play(key.make_fill_animation(), run_time=b.part(0.35))

        # The viewer sees the two rows side by side, multiplied feature by feature.
        b = self.beat("multiply")
        term = words("term by term", label_size)
        if tall:
            # The outer columns at the frame's edges, their headers just inside it; the
            # middle one where the gaps between the three headers come out equal.
            xq = -half_w + max(BOX_WIDTH, asks.width) / 2
            xp = half_w - max(BOX_WIDTH, term.width) / 2
            xk = (xq + asks.width / 2 + xp - term.width / 2) / 2
        else:
            step = BOX_WIDTH + 1.0
            xq = right_of_labels + style.GAP + BOX_WIDTH / 2
            xk, xp = xq + step, xq + 2 * step
        products = NumberColumn([decimal(x) for x in n["products"]], style.INK,
                                fill_opacity=0.06, row_step=row_step)
        products.move_to(query).set_x(xp)
        term.move_to(asks).set_x(products.get_x())
        align_baselines([asks, term])
        self.play(FadeOut(ties), query.animate.set_x(xq), asks.animate.set_x(xq),
                  key.animate.set_x(xk), offers.animate.set_x(xk),
                  run_time=b.part(0.3))
        signs = VGroup()
        for i in range(len(n["products"])):
            y = query.get_boxes()[i].get_y()
            signs.add(words("×", style.LABEL, style.MUTED).move_to([(xq + xk) / 2, y, 0]),
                      words("=", style.LABEL, style.MUTED).move_to([(xk + xp) / 2, y, 0]))
        self.play(FadeIn(signs), FadeIn(term), run_time=b.part(0.15))
        self.play(products.make_fill_animation(lag_ratio=0.4), run_time=b.part(0.35))

        # The viewer sees the products added up into one number: the match, q · k.
        b = self.beat("sum")
        boxes = products.get_boxes()
        rule = Line(boxes.get_corner(DOWN + LEFT), boxes.get_corner(DOWN + RIGHT),
                    color=style.INK, stroke_width=2).shift(DOWN * 0.2)
        total = words(decimal(n["top_match"]), style.BODY, style.INK)
        total.next_to(rule, DOWN, buff=style.GAP).set_x(products.get_x())
        name = words("q · k  =", style.BODY, t2c={"q": style.QUERY, "k": style.KEY})
        name.next_to(total, LEFT, buff=style.GAP)
        # "q" hangs below the line and "·" floats above it: sit the "k" on the baseline.
        name.shift(UP * (baseline(total) - name[2].get_bottom()[1]))
        note.next_to(VGroup(total, name), DOWN, buff=style.GAP * (1 if tall else 1.5))
        note.set_x(self.centre()[0])
        self.play(Create(rule), run_time=b.part(0.15))
        self.play(FadeIn(total, shift=DOWN * 0.15), FadeIn(name), run_time=b.part(0.25))
        self.play(FadeIn(note), run_time=b.part(0.2))
