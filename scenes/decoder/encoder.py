"""The encoder reads one word at a time: at every step a word and the state before go into
the same cell, and a new hidden state comes out; each state holds its own word most."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, words
from scenes.components.encoder_row import EncoderRow, HoldBars, state_row
from scenes.components.readout_panel import make_text_swap_animation
from scenes.components.sentence_pair import (
    WORD_SHARE,
    columns,
    pair_rows,
    size_for,
    word_line,
)
from scenes.lines import text_height, wrapped
from scenes.numbers import percent, percent_figure

#: what the caption over the encoder says, beat by beat
CAPTIONS = {
    "inputs": N_("a word and the state before make a new state"),
    "steps": N_("the same cell, the same weights W, at every step"),
    "holds": N_("how much of each word so far a state holds"),
    "row": N_("one hidden state per word"),
}


class TheEncoderReads(ChapterScene):
    """The encoder unrolled over the sentence, one column per word, one cell reused;
    bars of what each state holds; then the row of states it leaves."""

    section = "encoder"
    title = N_("The encoder reads one word at a time")
    opens_with = "the English sentence"
    beat_seconds = {"inputs": 16.0, "steps": 12.0, "holds": 13.5, "row": 15.0}
    marks = {"inputs": ("size",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers and words the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"size": str(n["size"]), "last_word": n["source"][-1],
                "last_holds": percent_figure(n["holds"][-1][-1])}

    def construct(self) -> None:
        n = self.numbers
        frame = self.frame()
        kind = frame.type
        opening = self.opening_line()
        captions, row, holds = self.lay_out()
        self.row, self.holds = row, holds  # for tests: what is drawn
        leaves = state_row(frame, n["encoder_states"], n["source"])
        size = words(_("{size} numbers").format(size=n["size"]), kind.label, style.READER)
        size.next_to(row.get_strips()[0], RIGHT, buff=style.GAP)
        self.add(opening)

        # The viewer sees the sentence come down to the foot of the frame; over its first
        # word, the cell; the word and the (empty) state before go in, a hidden state comes
        # out, and its size is named as the voice says it.
        b = self.beat("inputs")
        self.play(*(ReplacementTransform(a, w) for a, w in zip(opening, row.get_words())),
                  FadeIn(captions["inputs"]), run_time=b.part(0.15))
        first = row.get_step(0)
        self.play(FadeIn(first[2]), GrowArrow(first[0]), GrowArrow(first[1]),
                  run_time=b.part(0.15))
        self.play(GrowArrow(first[3]), FadeIn(first[4], shift=UP * 0.2),
                  run_time=b.part(0.15))
        self.at("size")
        self.play(FadeIn(size, shift=LEFT * 0.2), run_time=min(b.part(0.1), self.time_left()))

        # The viewer sees the same cell copied along the sentence, each step taking the next
        # word and the state before, and leaving a state of its own.
        b = self.beat("steps")
        self.play(make_text_swap_animation(captions["inputs"], captions["steps"]),
                  run_time=b.part(0.1))
        count = len(n["source"])
        for i in range(1, count):
            step = row.get_step(i)
            self.play(GrowArrow(step[0]), TransformFromCopy(row.get_boxes()[i - 1], step[2]),
                      GrowArrow(step[1]), *([FadeOut(size)] if i == 1 else []),
                      run_time=b.part(0.35 / (count - 1)))
            self.play(GrowArrow(step[3]), FadeIn(step[4], shift=UP * 0.2),
                      run_time=b.part(0.35 / (count - 1)))

        # The viewer sees the cells go; under each state, a bar per word read so far: the
        # newest word's bar the tallest, with its share; the older words' bars short.
        b = self.beat("holds")
        self.play(make_text_swap_animation(captions["steps"], captions["holds"]),
                  FadeOut(row.get_wiring()), run_time=b.part(0.15))
        self.play(LaggedStart(*(LaggedStart(*(GrowFromEdge(bar, DOWN) for bar in h.get_bars()),
                                            FadeIn(h.get_text()), lag_ratio=0.2)
                                for h in holds), lag_ratio=0.3), run_time=b.part(0.5))

        # The viewer sees the bars and the caption go; the states and their words gather
        # into one row: what the encoder leaves.
        b = self.beat("row")
        self.play(FadeOut(captions["holds"]), FadeOut(holds), run_time=b.part(0.2))
        self.play(*(ReplacementTransform(a, w) for a, w in zip(row.get_strips(),
                                                                 leaves.get_strips())),
                  *(ReplacementTransform(a, w) for a, w in zip(row.get_words(),
                                                                 leaves.get_words())),
                  run_time=b.part(0.3))
        self.hand_over(leaves)

    def opening_line(self) -> VGroup:
        """The English sentence where the question left it (the same layout, built from
        this scene's numbers)."""
        n = self.numbers
        rows = pair_rows(self.frame(), n["source"], n["target"])
        return word_line(n["source"], rows.xs, rows.english, rows.size, style.INK)

    def lay_out(self) -> tuple[dict[str, VGroup], EncoderRow, VGroup]:
        """The caption across the top of the room; under it, a column per word across the
        whole width: the state over the cell over the word, the cell's place later taken by
        the bars of what the state holds, its share over them. The states' squares take
        the height the rest leaves (at most a third of a column wide); the columns stand
        in the middle of the height under the caption."""
        n = self.numbers
        kind = self.frame().type
        left, right, bottom, top = self.area()
        width = right - left
        captions = {beat: wrapped(_(text), kind.label, 0.95 * width, style.MUTED)
                    for beat, text in CAPTIONS.items()}
        caption_height = max(c.height for c in captions.values())
        for c in captions.values():
            c.move_to([self.centre()[0], top - caption_height / 2, 0])
        count = len(n["source"])
        xs = columns(left, right, count)
        pitch = width / count
        size = size_for(n["source"], WORD_SHARE * pitch, (kind.heading, kind.body, kind.label))
        word_height = text_height("Thy", size)
        share_height = text_height(percent(0.96), kind.number)
        under_caption = top - caption_height - style.GAP
        # between the words and the states: the cells and their arrows, later the bars;
        # what the states' largest squares leave, within bounds
        largest = 0.45
        between = min(max(under_caption - bottom - word_height - n["size"] * largest, 1.6),
                      2.6)
        box = (min(0.6 * pitch, 2.0), 0.8)
        reach = (between - box[1]) / 2
        bar_height = between - 0.12 - 0.3 - share_height
        cell = min(largest, pitch / 3,
                   (under_caption - bottom - between - word_height) / n["size"])
        row = EncoderRow(n["encoder_states"], n["source"], xs, 0.0, size=size,
                         label_size=kind.label, cell=cell, box=box, reach=reach)
        block = between + word_height + n["size"] * cell
        row.shift(UP * ((bottom + under_caption - block) / 2 - row.get_bottom()[1]))
        holds = VGroup(*(
            HoldBars(shares, percent(shares[-1]),
                     [x, row.get_words().get_top()[1] + 0.12, 0],
                     width=min(0.3, 0.7 * pitch / (1.25 * count)), height=bar_height,
                     size=kind.number)
            for shares, x in zip(n["holds"], xs)))
        return captions, row, holds
