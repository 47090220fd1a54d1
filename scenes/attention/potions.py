"""The alchemist's potions: query, key and value as recipe, tag and potion.

Every word of "Sarah lies still on the bed, feeling ___" brings a bottle with
a tag on it (its key) and a potion inside (its value). The alchemist of one
word holds a recipe (its query), pours from every bottle in proportion to how
well its tag matches the recipe, and ends with one full flask.

One scene for every frame: :mod:`scenes.components.potion_bench` lays the parts out for
the frame's room (the shelf in columns or rows, the bench under or beside it), and
:meth:`PotionMixing.construct` animates them the same way in every frame. The next
scene, the chemistry and the final layer, lives in :mod:`scenes.attention.assembly`.
"""

from __future__ import annotations

from manim import (
    DOWN,
    UP,
    AnimationGroup,
    FadeIn,
    FadeOut,
    LaggedStart,
    RoundedRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import core_words, style
from scenes.base import ChapterScene, quoted, tint, words
from scenes.components.bar_list import swap_in_group
from scenes.components.potion_bench import Bench, lay_out
from scenes.components.potion_layout import TRACKED, fade, heading, retitle
from scenes.components.potion_lookback import CLOSED_BOTTLE, CLOSED_NAME, LOOKBACK_HEADING
from scenes.numbers import percent

#: how far a column rises when it is picked up to be shuffled (scene units)
LIFT = 0.35


class PotionMixing(ChapterScene):
    """Bottles with tags and potions; one alchemist pours his flask; order and look-back."""

    relabel = staticmethod(core_words.shown)

    section = "potion"
    title = N_("The alchemist's potions: query, key, value")
    beat_seconds = {
        "bottles": 7.0,
        "recipe": 8.0,
        "pour": 10.0,
        "mixture": 8.0,
        "shuffle": 11.0,
        "lookback": 10.0,
    }

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Words the narration names, from the same ledger as the pictures."""
        n = numbers
        top = max(range(len(n["pour"])), key=n["pour"].__getitem__)
        return {"asker": n["asker"], "top_word": n["words"][top],
                "first_ingredient": max(n["mixture"], key=n["mixture"].get)}

    def headings(self) -> dict[str, str]:
        """The heading of every beat (Pango markup), short enough for one line of a
        square frame."""
        asker = tint(quoted(self.numbers["asker"]), style.QUERY)
        return {
            "bottles": _("A bottle for every word"),
            "recipe": _("{word} reads every tag").format(word=asker),
            "pour": _("He pours by the match"),
            "mixture": _("In context: {ingredient}").format(
                ingredient=tint(quoted(TRACKED[0]), style.VALUE)),
            "shuffle": _("Shuffle: the same flask"),
            "lookback": _(LOOKBACK_HEADING),
        }

    def construct(self) -> None:
        n = self.numbers
        sentence = n["words"]
        ai = sentence.index(n["asker"])
        titles = self.headings()
        lay: Bench = lay_out(self, titles.values())
        shelf = lay.shelf
        bottles, names, tags = shelf.bottles, shelf.names, shelf.tags
        number_size = shelf.number_size

        # The viewer sees a bottle for every word, close up: a potion inside, a tag outside.
        parts = shelf.parts()
        home = [(m.height, m.get_center()) for m in parts]
        for m, close in zip(parts, lay.close_up):
            m.scale(close.height / m.height).move_to(close)
        b = self.beat("bottles")
        title = heading(self, titles["bottles"])
        self.play(FadeIn(title), run_time=b.part(0.1))
        self.play(LaggedStart(*(FadeIn(VGroup(bt, nm), shift=UP * 0.15)
                                for bt, nm in zip(bottles, names)), lag_ratio=0.1),
                  FadeIn(shelf.potion_name), run_time=b.part(0.25))
        # what is in one potion, where the tags will stand; then the tags
        self.play(FadeIn(lay.potion_line, shift=UP * 0.1), run_time=b.part(0.1))
        self.wait(b.part(0.2))
        self.play(FadeOut(lay.potion_line), run_time=b.part(0.08))
        self.play(LaggedStart(*(FadeIn(t, shift=DOWN * 0.1) for t in tags), lag_ratio=0.08),
                  FadeIn(shelf.tag_name), run_time=b.part(0.2))

        # The viewer sees the alchemist of "lies" with his recipe, and how well each tag
        # matches it.
        # The shelf steps back to the top of the room to make way for the bench.
        b = self.beat("recipe")
        title = retitle(self, title, heading(self, titles["recipe"]), b.part(0.12),
                        *(m.animate.scale(height / m.height).move_to(centre)
                          for m, (height, centre) in zip(parts, home)))
        matches = VGroup(*(shelf.number(words(text, number_size), i)
                           for i, text in enumerate(lay.match_texts)))
        match_name = shelf.number_name(words(_("match"), shelf.size, style.MUTED))
        self.play(names[ai].animate.set_color(style.QUERY),
                  bottles[ai].animate.set_glass_color(style.QUERY), run_time=b.part(0.1))
        self.play(FadeIn(lay.recipe, shift=UP * 0.1), *self._leave("recipe", lay),
                  run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(m, shift=DOWN * 0.1) for m in matches), lag_ratio=0.1),
                  FadeIn(match_name), run_time=b.part(0.3))

        # The viewer sees each match become a share of the flask, and the pours
        # that fill it exactly to the top.
        b = self.beat("pour")
        flask = lay.flask
        title = retitle(self, title, heading(self, titles["pour"]), b.part(0.1),
                        *self._leave("pour", lay), FadeIn(flask))
        pour_name = shelf.number_name(words(_("pour"), shelf.size, style.WEIGHT))
        swaps = []
        for i, share in enumerate(n["pour"]):
            label = shelf.number(words(percent(share, small=True), number_size, style.WEIGHT),
                                 i)
            swaps.append(swap_in_group(matches, i, label))
        shares = matches  # the same slots now hold the pour shares
        self.play(*swaps, FadeOut(match_name), FadeIn(pour_name), run_time=b.part(0.15))
        pours = [bt.make_pour_animation(flask, share) for bt, share in zip(bottles, n["pour"])]
        self.cue("pour")
        self.play(LaggedStart(*pours, lag_ratio=0.25), run_time=b.part(0.45))
        self.play(FadeIn(lay.full, shift=DOWN * 0.1), run_time=b.part(0.1))

        # The viewer sees the pours mix into one potion, and what is in it.
        b = self.beat("mixture")
        title = retitle(self, title, heading(self, titles["mixture"]), b.part(0.1),
                        *self._leave("mixture", lay))
        self.play(flask.make_mix_animation(), run_time=b.part(0.15))
        self.play(FadeIn(lay.bars_title), lay.bars.make_grow_animation(), run_time=b.part(0.35))

        # The viewer sees the bottles shuffled and poured again into a second
        # flask: the same potion, ingredient for ingredient.
        b = self.beat("shuffle")
        title = retitle(self, title, heading(self, titles["shuffle"]), b.part(0.08),
                        *self._leave("shuffle", lay),
                        FadeOut(VGroup(shares, pour_name, lay.full)))
        columns = [list(column) for column in (zip(bottles, names, tags) if lay.tags_shuffle
                                               else zip(bottles, names))]
        places = [shelf.moved(column, i, j) for i, (column, j)
                  in enumerate(zip(columns, lay.moves))]
        places = [[p + lay.shuffle_shift for p in place] for place in places]
        self._lift(columns, b.part(0.12),
                   flask.animate.scale_to_fit_height(lay.flask_after_height).move_to(
                       lay.flask_after),
                   FadeOut(lay.bars.get_bars()), FadeOut(lay.bars_title),
                   lay.bars.get_names().animate.shift(lay.table_shift),
                   lay.bars.get_texts().animate.shift(lay.table_shift + lay.texts_shift))
        for bottle in bottles:  # full again while out of sight, for the second pour
            bottle.set_level(1.0).fade_to(0)
        self._set_down(columns, places, b.part(0.12))
        again = lay.again
        self.play(FadeIn(again), FadeIn(lay.in_order), FadeIn(lay.shuffled),
                  run_time=b.part(0.08))
        self.play(LaggedStart(*(bt.make_pour_animation(again, share)
                                for bt, share in zip(bottles, n["pour"])), lag_ratio=0.15),
                  run_time=b.part(0.2))
        self.play(again.make_mix_animation(), FadeIn(lay.order_head),
                  FadeIn(lay.shuffle_head), LaggedStart(*(FadeIn(c) for c in lay.column),
                                                        lag_ratio=0.1),
                  run_time=b.part(0.15))

        # The viewer sees the words back in order and, under them, what each
        # word pours when it may look only at itself and the words before it.
        b = self.beat("lookback")
        title = retitle(self, title, heading(self, titles["lookback"]), b.part(0.1))
        self.play(FadeOut(VGroup(flask, again, lay.in_order, lay.shuffled,
                                 lay.bars.get_names(), lay.bars.get_texts(), lay.column,
                                 lay.order_head, lay.shuffle_head)),
                  *self._leave("lookback", lay), run_time=b.part(0.06))
        columns = list(zip(bottles, names))
        self._lift(columns, b.part(0.06))
        back = lay.lookback
        for bottle, name in columns:  # back to plain and full while out of sight
            bottle.scale_to_fit_height(back.bottle_height)
            bottle.set_glass_color(style.MUTED).set_level(1.0).fade_to(0)
            name.scale(back.size / shelf.size).set_color(style.INK).set_opacity(0)
        self._set_down(columns, list(zip(back.bottles, back.names)), b.part(0.06))
        grid = lay.grid
        self.play(LaggedStart(*(FadeIn(VGroup(r, row), shift=DOWN * 0.05)
                                for r, row in zip(grid.get_readers(), grid.get_rows())),
                              lag_ratio=0.12), run_time=b.part(0.3))
        ri = sentence.index(lay.reader)
        row = VGroup(grid.get_readers()[ri], grid.get_rows()[ri])
        frame = RoundedRectangle(corner_radius=0.08, width=row.width + 0.25,
                                 height=row.height + 0.12, stroke_color=style.QUERY,
                                 stroke_width=2).move_to(row)
        later = range(ri + 1, len(sentence))
        self.play(FadeIn(frame), FadeIn(lay.reader_line),
                  grid.get_readers()[ri].animate.set_color(style.QUERY),
                  names[ri].animate.set_color(style.QUERY),
                  *(bottles[j].animate.fade_to(CLOSED_BOTTLE) for j in later),
                  *(names[j].animate.set_opacity(CLOSED_NAME) for j in later),
                  run_time=b.part(0.15))
        # The last word's bottle stays: the next scene opens with it.
        self.hand_over(VGroup(bottles[-1], names[-1]))

    # ------------------------------------------------------------- moving
    @staticmethod
    def _leave(beat: str, lay: Bench) -> list:
        """What leaves at ``beat`` to make room (the layout says)."""
        return [FadeOut(m) for m in lay.leaving.get(beat, ())]

    def _lift(self, columns, run_time: float, *also) -> None:
        """The columns (bottle, name, tag...) rise a little and fade away, in order.

        Shuffling by fading rather than sliding: seven columns sliding through
        each other to reverse their order would meet in a heap in the middle.
        """
        self.play(LaggedStart(*(AnimationGroup(*(fade(m, 0, UP * LIFT) for m in column))
                                for column in columns), lag_ratio=0.08),
                  *also, run_time=run_time)

    def _set_down(self, columns, places, run_time: float) -> None:
        """The lifted columns come down where each part's centre goes (``places``), in
        reading order: top to bottom, then left to right."""
        for column, place in zip(columns, places):
            for m, centre in zip(column, place):
                m.move_to(centre + UP * LIFT)
        # rows by height to a hundredth of a unit (the same row to the eye), then across
        placed = sorted(zip(places, columns), key=lambda pair: (-(pair[0][0][1] // 0.01),
                                                                pair[0][0][0]))
        self.play(LaggedStart(*(AnimationGroup(*(fade(m, 1, DOWN * LIFT) for m in column))
                                for _, column in placed), lag_ratio=0.08),
                  run_time=run_time)


__all__ = ["PotionMixing"]
