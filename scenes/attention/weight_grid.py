"""The match is the weight: the whole grid of weights, one row read out, one word changed.

Where its parts stand is :mod:`scenes.components.weight_grid_layout`'s to say: the
formula scene opens on the reader's row where this one leaves it, laid out the same way.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    Mobject,
    ReplacementTransform,
)

from production.language import N_
from scenes import core_words, style
from scenes.base import ChapterScene, words
from scenes.components.match_layout import closing_sentence, from_grid
from scenes.components.readout_panel import (
    Readout,
    make_text_swap_animation,
    put_in_place_of,
)
from scenes.components.tagged_sentence import WeightArcs
from scenes.components.weight_grid import WeightGrid
from scenes.components.weight_grid_layout import lay_out, panel_rows, row_marks
from scenes.numbers import decimal


class MatchIsTheWeight(ChapterScene):
    """Every word's row of weights, the reader's row as arcs and a panel, then one word
    changed and put back."""

    relabel = staticmethod(core_words.shown)

    section = "grid"
    title = N_("The match is the weight")
    opens_with = "the sentence"
    beat_seconds = {"grid": 8.0, "row": 8.0, "panel": 9.0, "swap": 6.0, "moved": 9.0,
                    "back": 5.0}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n, new = numbers, numbers["changed"]
        return {"reader": n["reader"], "top_word": n["top_word"],
                "top_weight": decimal(n["top_weight"]), "spread": decimal(n["spread_bits"]),
                "old": n["swap"][0], "new": n["swap"][1], "new_reader": new["reader"],
                "new_top": new["top_word"], "new_weight": decimal(new["top_weight"])}

    def construct(self) -> None:
        n = self.numbers
        after = n["changed"]
        reader, top = n["reader_index"], n["top_index"]
        p = lay_out(n, self.frame())
        sentence, arcs, grid, panel = p.sentence, p.arcs, p.grid, p.panel
        # The sentence where AskAndOffer left it, its two words still in their colours.
        carried = closing_sentence(from_grid(n), self.frame())
        self.add(carried)

        # The viewer sees the sentence rise over the grid and take its tags, then the grid
        # fill in row by row.
        b = self.beat("grid")
        self.play(ReplacementTransform(carried, sentence.get_words()),
                  FadeIn(sentence.get_tags(), shift=DOWN * 0.1), run_time=b.part(0.2))
        self.remove(sentence.get_words(), sentence.get_tags())
        self.add(sentence)
        self.play(grid.make_fill_animation(), run_time=b.part(0.4))
        self.play(FadeIn(p.legend), FadeIn(p.scale), run_time=b.part(0.2))

        # The viewer sees the reader's row picked out, and the same row drawn as arcs.
        b = self.beat("row")
        row_box, top_box = row_marks(grid.get_row(reader), grid.get_cell(reader, top))
        self.play(Create(row_box), grid.get_row_label(reader).animate.set_color(style.QUERY),
                  sentence.get_word(reader).animate.set_color(style.QUERY), run_time=b.part(0.2))
        self.play(LaggedStart(*(Create(a) for a in arcs), lag_ratio=0.06), run_time=b.part(0.4))
        self.play(Create(top_box), run_time=b.part(0.15))

        # The viewer sees the reader's panel: who reads, where most weight goes, and how much.
        b = self.beat("panel")
        self.play(FadeOut(p.legend), run_time=b.part(0.1))
        self.cue("tick")
        self.play(LaggedStart(*(FadeIn(panel.get_line(i), shift=LEFT * 0.15)
                                for i in range(len(panel.get_values()))), lag_ratio=0.35),
                  run_time=b.part(0.55))

        # The viewer sees one word of the sentence changed, everywhere it stands.
        b = self.beat("swap")
        self.play(FadeOut(p.scale), FadeIn(p.note, shift=UP * 0.15), run_time=b.part(0.2))
        self.play(sentence.make_change_animation(after["words"], after["tags"]),
                  grid.make_labels_animation(after["words"]), run_time=b.part(0.35))

        # The viewer sees every cell, every arc and every panel number move to the new values.
        b = self.beat("moved")
        self.play(*self.make_values_animations(grid, arcs, panel, row_box, top_box, after),
                  run_time=b.part(0.4))

        # The viewer sees the old word put back, and every number return to what it was.
        b = self.beat("back")
        swaps = []
        for i, text in zip(range(-len(p.back), 0), p.back):
            was = p.note[i]
            if was.original_text != text:
                now = put_in_place_of(words(text, was.font_size, was.get_color()), was,
                                      edge=None)
                p.note.submobjects[i] = now
                swaps.append(make_text_swap_animation(was, now))
        self.play(sentence.make_change_animation(n["words"], n["tags"]),
                  grid.make_labels_animation(n["words"]), *swaps, run_time=b.part(0.25))
        self.play(*self.make_values_animations(grid, arcs, panel, row_box, top_box, n),
                  run_time=b.part(0.35))
        # The reader's row stays: the formula for one of its weights opens with it.
        self.hand_over(grid.get_row_label(reader), grid.get_row(reader), row_box, top_box)

    @staticmethod
    def make_values_animations(grid: WeightGrid, arcs: WeightArcs, panel: Readout,
                               row_box: Mobject, top_box: Mobject, version: dict) -> list:
        """Every cell, arc and panel number moving to ``version``'s (the grid's numbers for
        one version of the sentence), and the outlines to its reader's row and top cell."""
        reader = version["reader_index"]
        return [
            grid.make_weights_animation(version["weights"]),
            arcs.make_weights_animation(reader, version["weights"][reader]),
            panel.make_values_animation([value for _, value, _ in panel_rows(version)]),
            row_box.animate.move_to(grid.get_row(reader)),
            top_box.animate.move_to(grid.get_cell(reader, version["top_index"])),
        ]
