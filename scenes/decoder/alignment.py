"""The alignment: every step's weights stacked into one table, the French words down its
side and the English along its top. Nobody writes it down; it sits on the diagonal for
a pair that translates word for word and leaves it for ours; drawn as lines, its rows are
the shortcuts from every step of the output to the whole input."""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    UP,
    Create,
    FadeIn,
    FadeOut,
    ReplacementTransform,
    SurroundingRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, quoted, words
from scenes.components.shortcuts import Shortcuts
from scenes.components.spaced_sentence import SpacedSentence
from scenes.components.weight_table import WeightTable
from scenes.lines import wrapped
from scenes.numbers import decimal

GAP = style.GAP  # between blocks (scene units)
LARGEST_CELL = 2.0  # the table's cells at most this wide (scene units)
#: what the scene says under its pictures, beat by beat ("straight": the word-for-word
#: pair's table, "ours": ours again)
CAPTIONS = {
    "grid": N_("every step's weights, a row per French word"),
    "learned": N_("the alignment: learned, never given"),
    "straight": N_("word for word: on the diagonal"),
    "ours": N_("ours leaves the diagonal"),
    "shortcuts": N_("shortcuts: every step reaches the whole sentence"),
}


def crossing(n: dict) -> tuple[int, int]:
    """The rows that leave the diagonal: the first to read ahead of its place and the
    first to look back (the ledger's)."""
    return n["ahead"], n["back"]


def callout(n: dict) -> str:
    """The looking-back row's strongest weight, with the two words: '“noir” → “black” 0.87'."""
    _, back = crossing(n)
    read = n["reads"][back]
    return (f"{quoted(n['target'][back])} \u2192 {quoted(n['source'][read])}  "
            f"{decimal(n['alignment'][back][read])}")


@dataclass
class Parts:
    """The scene's parts, each placed where it first appears."""

    table: WeightTable  # ours, its weights written in it
    straight: WeightTable  # the word-for-word pair's, drawn as ours is, where ours is
    again: WeightTable  # ours once more, to come back to
    captions: dict[str, VGroup]
    callout: VGroup
    english: SpacedSentence  # along the top: the next scene opens with it
    french: SpacedSentence
    shortcuts: Shortcuts


class TheAlignment(ChapterScene):
    """Every step's weights stacked into the alignment, learned; the diagonal a
    word-for-word pair keeps and ours leaves; the rows as shortcuts to the whole input."""

    section = "alignment"
    title = N_("The alignment of the two sentences")
    beat_seconds = {"grid": 13.0, "learned": 12.0, "diagonal": 14.0, "shortcuts": 15.0}
    marks = {"learned": ("weight",), "diagonal": ("leaves",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Words and the weight the narration names, from the ledger the pictures use."""
        n = numbers
        ahead, back = crossing(n)
        return {"back_fr": n["target"][back], "back_en": n["source"][n["reads"][back]],
                "back_weight": decimal(n["alignment"][back][n["reads"][back]]),
                "ahead_fr": n["target"][ahead], "ahead_en": n["source"][n["reads"][ahead]],
                "straight_en": " ".join(n["straight"]["source"]),
                "straight_fr": " ".join(n["straight"]["target"])}

    # ------------------------------------------------------------- layout
    def lay_out(self) -> Parts:
        """The table as large as the room allows, its captions under it, the two in the
        middle of the room (the word-for-word pair's table drawn as ours is, where ours
        is); then the English along the top, the shortcuts' caption at the foot, the French
        over it and the shortcuts between them."""
        n, frame = self.numbers, self.frame()
        kind = frame.type
        left, right, bottom, top = self.area()
        width = right - left
        centre_x = self.centre()[0]

        line = VGroup(words(callout(n), kind.number, style.WEIGHT))
        captions = {beat: wrapped(_(text), kind.body, width, style.MUTED)
                    for beat, text in CAPTIONS.items()}
        captions["learned"] = VGroup(captions["learned"], line).arrange(DOWN, buff=0.15)
        callout_line = captions["learned"][1]
        # the table with its captions under it, in the middle of the room
        foot = max(c.height for beat, c in captions.items() if beat != "shortcuts")
        table = WeightTable.fit(n["alignment"], n["target"], n["source"], width,
                                top - bottom - foot - GAP,
                                label_sizes=(kind.label, kind.minimum), largest=LARGEST_CELL,
                                number_sizes=(kind.number, kind.minimum))
        drop = (top - bottom - table.height - GAP - foot) / 2
        table.move_to([centre_x, top - drop, 0], aligned_edge=UP)
        for caption in captions.values():
            caption.move_to([centre_x, table.get_bottom()[1] - GAP - foot / 2, 0])
        shortcuts_caption = captions["shortcuts"]
        shortcuts_caption.move_to([centre_x, bottom, 0], aligned_edge=DOWN)
        straight = n["straight"]

        english = SpacedSentence.along_top(frame, n["source"])
        french = SpacedSentence(n["target"], english.size, style.WRITER, english.xs, 0.0)
        french.shift(UP * (shortcuts_caption.get_top()[1] + GAP - french.get_bottom()[1]))
        shortcuts = Shortcuts(french, english, n["alignment"])
        return Parts(table, table.like(straight["alignment"], straight["target"],
                                       straight["source"]),
                     table.like(n["alignment"], n["target"], n["source"]), captions,
                     callout_line, english, french, shortcuts)

    # ------------------------------------------------------------- the scene
    def construct(self) -> None:
        n = self.numbers
        p = self.lay_out()
        table, captions = p.table, p.captions

        # The viewer sees the weights of every step stacked, row after row, into one table.
        b = self.beat("grid")
        self.play(FadeIn(captions["grid"]), run_time=b.part(0.1))
        self.play(table.make_fill_animation(), run_time=b.part(0.55))

        # The viewer sees each row's strongest weight boxed: the alignment, which nobody
        # wrote; then the looking-back row's weight called out as the voice reads it.
        b = self.beat("learned")
        boxes = VGroup(*(SurroundingRectangle(table.get_cell(i, j), buff=0.0,
                                              color=style.INK, stroke_width=4)
                         for i, j in enumerate(n["reads"])))
        self.play(FadeOut(captions["grid"]), FadeIn(captions["learned"][0]),
                  run_time=b.part(0.15))
        self.play(Create(boxes, lag_ratio=0.3), run_time=b.part(0.3))
        self.at("weight")
        _, back = crossing(n)
        self.play(FadeIn(p.callout, shift=UP * 0.1),
                  boxes[back].animate.set_color(style.WRITER).set_stroke(width=6),
                  run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees a word-for-word pair's table in place of ours, its bright cells
        # on the diagonal; then ours again, two of its rows off it.
        b = self.beat("diagonal")
        self.play(FadeOut(boxes), FadeOut(captions["learned"]), run_time=b.part(0.1))
        self.play(ReplacementTransform(table, p.straight), FadeIn(captions["straight"]),
                  run_time=b.part(0.15))
        diagonal = p.straight.make_diagonal()
        self.play(Create(diagonal), run_time=b.part(0.1))
        self.at("leaves")
        # (a sentence that translates word for word has no row off the diagonal)
        off = VGroup(*(SurroundingRectangle(p.again.get_cell(i, n["reads"][i]), buff=0.0,
                                            color=style.WRITER, stroke_width=5)
                       for i in (n["ahead"], n["back"]) if i is not None))
        self.play(ReplacementTransform(p.straight, p.again),
                  diagonal.animate.become(p.again.make_diagonal()),
                  FadeOut(captions["straight"]), FadeIn(captions["ours"]),
                  run_time=min(b.part(0.15), self.time_left()))
        if len(off):
            self.play(Create(off), run_time=min(b.part(0.1), self.time_left()))

        # The viewer sees our table's rows become lines: from every French word back to
        # every English word, as bright as its weight.
        b = self.beat("shortcuts")
        ours = p.again
        self.play(FadeOut(VGroup(diagonal, off, ours.get_cells(), ours.get_numbers())),
                  FadeOut(captions["ours"]), run_time=b.part(0.1))
        self.play(ReplacementTransform(ours.get_column_labels(), p.english),
                  ReplacementTransform(ours.get_row_labels(), p.french),
                  run_time=b.part(0.15))
        self.play(p.shortcuts.make_paths_animation(), FadeIn(captions["shortcuts"]),
                  run_time=b.part(0.15))
        self.play(p.shortcuts.make_links_animation(), run_time=b.part(0.3))
        # The English sentence stays where it stands: the next scene opens with it.
        self.hand_over(p.english)
