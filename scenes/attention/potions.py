"""The alchemist's potions: query, key and value as recipe, tag and potion.

Every word of "Sarah lies still on the bed, feeling ___" brings a bottle with
a tag on it (its key) and a potion inside (its value). The alchemist of one
word holds a recipe (its query), pours from every bottle in proportion to how
well its tag matches the recipe, and ends with one full flask. Then the
chemistry: the feed-forward step distils the last word's flask, and the final
layer turns it into a chance for every word of a small vocabulary.

On a tall (9:16) frame the shelf stands as a table, a row per word, and what
stands side by side on the wide frame is stacked (see TallShelf).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    RoundedRectangle,
    Text,
    VGroup,
    config,
)

from scenes import style
from scenes.base import (
    ChapterScene,
    align_baselines,
    baseline,
    markup,
    quoted,
    row_label,
    stack_lines,
    tint,
    words,
)
from scenes.components.bar_list import BarList, swap_in_group
from scenes.components.bottle import Bottle, Flask, Tag
from scenes.lines import balanced_lines, centred_lines, two_lines
from scenes.numbers import decimal, percent, setting
from scenes.attention.assembly import ChemistryAndAssembly  # noqa: F401  (its old home)

#: the ingredients the story follows: what "lies" means in this sentence, and
#: what it does not; a bar list always shows them, besides its largest rows
TRACKED = ("tired", "dishonest")
#: how many of the largest ingredients a bar list of a flask shows
TOP = 3
#: the reader whose look-back row is picked out: "still" sees only the words
#: before it and itself
LOOKBACK_READER = "still"
#: width of the column of row names left of the bottles (scene units), and their type size
HEADER_WIDTH = 1.35
ROW_NAME = style.MIN_FONT_SIZE
#: from one line of the recipe card to the next (scene units)
RECIPE_STEP = 0.42
#: from one row of ingredients to the next in the chemistry lists (scene units)
ROW_STEP = 0.43
#: how far a column rises when it is picked up to be shuffled (scene units)
LIFT = 0.35
#: scale of the small flasks that line up before the final layer
SMALL_FLASK = 0.42

# The tall frame (a short): a phone held upright needs the larger type everywhere.
TALL_TYPE = style.TALL_MIN_FONT_SIZE
#: a heading's type: two lines of it leave room for the picture
TALL_HEADING = style.BODY
#: scale of a bottle in the rows of the tall shelf, from one row to the next, and the
#: height of a tag's card there (scene units)
TALL_BOTTLE = 0.4
TALL_ROW = 0.52
TALL_TAG = 0.48
#: from one line of the recipe card to the next, tall
TALL_RECIPE_STEP = 0.46
#: scale of the flasks on the tall frame
TALL_FLASK = 0.75
#: from a value in order to the same value shuffled, in the tall bar list (scene units)
TALL_COLUMN = 2.0
#: scale of the small flasks before the final layer, tall
TALL_SMALL_FLASK = 0.35


# ------------------------------------------------------------------ formatting


def shown_ingredients(mix: dict[str, float]) -> list[str]:
    """The ingredients a bar list shows: the largest few, then the tracked ones."""
    names = sorted(mix, key=lambda name: -mix[name])[:TOP]
    return names + [t for t in TRACKED if t in mix and t not in names]


def written_next(last_word: str, predicted: str) -> str:
    """The markup of the heading once the next word is written: the prompt's last
    word, then the predicted word in bold: '… feeling tired'."""
    return f"\u2026 {last_word} {tint(f'<b>{predicted}</b>', style.GOOD)}"


def heading(text: str, scene: ChapterScene) -> Mobject:
    """A scene heading (Pango markup) at the top of the picture; tall, in smaller type on
    as many lines as it needs."""
    if not scene.tall:
        return markup(text, style.HEADING).to_edge(UP, buff=style.EDGE)
    left, right, _, top = scene.area()
    lines = balanced_lines(text, TALL_HEADING, right - left, rich=True)
    return centred_lines(lines, TALL_HEADING, rich=True).set_x(scene.centre()[0]).set_y(top, UP)


def heading_room() -> float:
    """How far below the top of the picture a heading of two lines ends, tall."""
    return centred_lines(["Hg", "Hg"], TALL_HEADING).height


def retitle(scene: ChapterScene, old, new, run_time: float, *also):
    """The heading cross-fades to ``new`` (with the animations ``also``)."""
    scene.play(FadeOut(old, shift=UP * 0.15), FadeIn(new, shift=UP * 0.15), *also,
               run_time=run_time)
    return new


# ------------------------------------------------------------------ pieces


def tag(text: str, width: float) -> Tag:
    """A key's tag with its leading feature on it, on two lines (a tag is narrow)."""
    return Tag(two_lines(text), width)


def fade(m, opacity: float, shift):
    """An animation: ``m`` fades to ``opacity`` while moving by ``shift``; bottles and
    tags keep their glass unfilled and their card tinted (their own ``fade_to``)."""
    if isinstance(m, (Bottle, Tag)):
        return m.animate.fade_to(opacity).shift(shift)
    return m.animate.set_opacity(opacity).shift(shift)


class TallShelf:
    """The shelf on a tall frame: a row per word, under a line naming the columns.

    Left to right a row holds the word's match (later its pour), its bottle, its name
    and its tag, all on the name's baseline; the names of the columns share one line
    above the rows, under the room of a two-line heading. Below ``lower`` (a y) the
    picture is free for the recipe, the flask and the bars.
    """

    def __init__(self, scene: ChapterScene, sentence: list[str], leading: list[str],
                 numbers: list[str], number_names: list[str]) -> None:
        size = TALL_TYPE
        self.left, self.right, self.bottom, top = scene.area()
        self.bottles = VGroup(*(Bottle(height=0.82, neck_height=0.24).scale(TALL_BOTTLE)
                                for _ in sentence))
        self.names = VGroup(*(words(w, size) for w in sentence))
        tag_width = max(words(t, size).width for t in leading) + 0.3
        self.tags = VGroup(*(Tag([t], tag_width, size=size, height=TALL_TAG) for t in leading))
        number_width = max(words(t, size).width for t in numbers)
        name_width = max(name.width for name in self.names)
        bottle_width = self.bottles[0].width
        gaps = (0.15, 0.12, 0.2)  # number | bottle | name | tag
        total = number_width + bottle_width + name_width + tag_width + sum(gaps)
        self.number_right = scene.centre()[0] - total / 2 + number_width
        bottle_x = self.number_right + gaps[0] + bottle_width / 2
        self.name_left = bottle_x + bottle_width / 2 + gaps[1]
        self.name_right = self.name_left + name_width
        tag_left = self.name_right + gaps[2]

        # The column names: the number column's at the left, then the potion's and the tag's.
        self.potion_name = words("potion (value)", size, style.VALUE)
        self.potion_name.set_y(top - heading_room() - 0.2, UP)
        widest = max(words(t, size).width for t in number_names)
        self.potion_name.set_x(max(bottle_x - bottle_width / 2, self.left + widest + 0.3), LEFT)
        self.tag_name = words("tag (key)", size, style.KEY)
        self.tag_name.set_x(max(tag_left, self.potion_name.get_right()[0] + 0.3), LEFT)
        align_baselines([self.potion_name, self.tag_name])

        # The rows: a bottle and a tag's card centred on the middle of the lower-case letters.
        self.middle = words("x", size).height / 2
        first = self.potion_name.get_bottom()[1] - 0.15 - TALL_TAG / 2 - self.middle
        self.rows = [first - TALL_ROW * i for i in range(len(sentence))]
        for y, bottle, name, tag_ in zip(self.rows, self.bottles, self.names, self.tags):
            bottle.move_to((bottle_x, y + self.middle, 0))
            name.move_to((self.name_left, 0, 0), aligned_edge=LEFT)
            name.shift(UP * (y - baseline(name)))
            label = tag_.get_label()  # on the row's baseline, whatever hangs below it
            label.shift(UP * (tag_.get_card().get_y() - self.middle - baseline(label[0])))
            tag_.move_to((tag_left, y + self.middle, 0), aligned_edge=LEFT)
        self.lower = self.rows[-1] + self.middle - TALL_TAG / 2 - 0.25

    def number(self, label: Text, i: int) -> Text:
        """``label`` in the number column of row ``i``."""
        label.move_to((self.number_right, 0, 0), aligned_edge=RIGHT)
        return label.shift(UP * (self.rows[i] - baseline(label)))

    def column_name(self, label: Text) -> Text:
        """``label`` names the number column, on the line of column names."""
        label.set_x(max(self.left, self.number_right - label.width), LEFT)
        align_baselines([self.potion_name, label])
        return label

    def beside_rows(self, m: Mobject) -> np.ndarray:
        """Where ``m`` is centred right of the names (against the right edge if it is wider
        than the room there), level with the middle of the rows."""
        room = self.name_right + 0.2
        x = (room + self.right) / 2 if m.width <= self.right - room else self.right - m.width / 2
        return np.array([x, (self.rows[0] + self.rows[-1]) / 2 + self.middle, 0.0])


class PotionMixing(ChapterScene):
    """Bottles with tags and potions; one alchemist pours his flask; order and look-back.

    Tall, the shelf is a table (TallShelf) with the recipe and the flask below it;
    there is no room below for the bars besides, so when they come (the mixture) the
    tags, whose matching is done, fade and the recipe moves up into their column.
    """

    section = "potion"
    title = "The alchemist's potions: query, key, value"
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

    def construct(self) -> None:
        n = self.numbers
        sentence = n["words"]
        asker = n["asker"]
        ai = sentence.index(asker)
        features = n["query_features"]
        ingredients = n["value_ingredients"]
        tall = self.tall
        fine = TALL_TYPE if tall else style.MIN_FONT_SIZE  # the smallest type on screen
        left_edge, right_edge, _, _ = self.area()
        centre_x = self.centre()[0]
        leading = [features[max(range(len(key)), key=lambda i: key[i])] for key in n["keys"]]

        if tall:
            shelf = TallShelf(self, sentence, leading,
                              [decimal(m, 1) for m in n["matches"]]
                              + [percent(s, small=True) for s in n["pour"]], ["match", "pour"])
            bottles, names, tags = shelf.bottles, shelf.names, shelf.tags
            potion_row, tag_row = shelf.potion_name, shelf.tag_name
        else:
            # The shelf: a column per word, right of a column of row names.
            left = -config.frame_width / 2 + style.EDGE + HEADER_WIDTH
            pitch = (config.frame_width / 2 - style.EDGE - left) / len(sentence)
            bottles = VGroup(*(Bottle(height=0.82, neck_height=0.24) for _ in sentence))
            bottles.arrange(RIGHT, buff=pitch - bottles[0].width)
            bottles.set_x(left + pitch * len(sentence) / 2).to_edge(UP, buff=1.7)
            names = VGroup(*(words(w, style.SMALL) for w in sentence))
            for name, bottle in zip(names, bottles):
                name.next_to(bottle, DOWN, buff=0.15)
            align_baselines(names)
            tags = VGroup()
            for lead, bottle in zip(leading, bottles):
                tags.add(tag(lead, pitch - 0.2).set_x(bottle.get_x()))
            tags.next_to(names, DOWN, buff=0.15)
            tags.set_x(bottles.get_x())
            potion_row = row_label("potion\n(value)", style.VALUE, ROW_NAME).set_y(bottles.get_y())
            tag_row = row_label("tag\n(key)", style.KEY, ROW_NAME).set_y(tags.get_y())
            slot_y = bottles.get_top()[1] + 0.3
            floor = tags.get_bottom()[1]  # the lower area starts below the tags

        # The viewer sees a bottle for every word: a potion inside, a tag outside.
        b = self.beat("bottles")
        title = heading("A bottle for every word", self)
        self.play(FadeIn(title), run_time=b.part(0.1))
        self.play(LaggedStart(*(FadeIn(VGroup(bt, nm), shift=UP * 0.15)
                                for bt, nm in zip(bottles, names)), lag_ratio=0.1),
                  FadeIn(potion_row), run_time=b.part(0.3))
        self.play(LaggedStart(*(FadeIn(t, shift=DOWN * 0.1) for t in tags), lag_ratio=0.08),
                  FadeIn(tag_row), run_time=b.part(0.2))
        inside = n["values"][ai]
        contents = sorted((i for i in range(len(inside)) if inside[i] > 0),
                          key=lambda i: -inside[i])
        opening = f"the potion of {tint(quoted(asker), style.VALUE)}:"
        parts = [f"{ingredients[i]} {percent(inside[i], small=True)}" for i in contents]
        if tall:  # the ingredients on as few lines as fit, under the opening
            potion_line = centred_lines(
                [opening, *balanced_lines(parts, fine, right_edge - left_edge, rich=True,
                                     sep="  \u00b7  ")], fine, rich=True)
            potion_line.set_x(centre_x).set_y(shelf.lower - 0.3, UP)
        else:
            potion_line = markup(opening + "  " + "  \u00b7  ".join(parts), style.SMALL)
            potion_line.next_to(tags, DOWN, buff=0.6).set_x(0)
        self.play(FadeIn(potion_line, shift=UP * 0.1), run_time=b.part(0.15))

        # The viewer sees the alchemist of "lies" with his recipe and an empty flask,
        # and how well each tag matches the recipe.
        b = self.beat("recipe")
        title = retitle(self, title, heading(
            f"The alchemist of {tint(quoted(asker), style.QUERY)} reads every tag", self),
            b.part(0.1))
        wanted = [f for f, q in zip(features, n["queries"][ai]) if q > 0]
        lines = VGroup(
            words("recipe (query)", fine, style.QUERY),
            *(words(f, fine) for f in wanted),
            words(f"sharpness {setting(n['sharpness'])}", fine, style.MUTED),
        )
        stack_lines(lines, TALL_RECIPE_STEP if tall else RECIPE_STEP)
        if not tall:  # the wanted features, indented under the title (tall has no room)
            for line in lines[1:-1]:
                line.shift(RIGHT * 0.3)
        card = RoundedRectangle(corner_radius=0.12, width=lines.width + (0.3 if tall else 0.4),
                                height=lines.height + 0.3, stroke_color=style.QUERY,
                                stroke_width=2).set_fill(style.QUERY, opacity=0.06)
        recipe = VGroup(card, lines.move_to(card))
        if tall:  # the flask, then the recipe, under the rows
            flask = Flask(height=1.45).scale(TALL_FLASK)
            VGroup(flask, recipe).arrange(RIGHT, buff=0.4, aligned_edge=UP).set_x(
                centre_x).set_y(shelf.lower, UP)
            matches = VGroup(*(shelf.number(words(decimal(m, 1), fine), i)
                               for i, m in enumerate(n["matches"])))
            match_row = shelf.column_name(words("match", fine, style.MUTED))
        else:
            recipe.next_to((-config.frame_width / 2 + style.EDGE, floor, 0), DOWN + RIGHT,
                           buff=0).shift(DOWN * 0.3)
            flask = Flask(height=1.45).next_to(recipe, RIGHT, buff=0.6).align_to(recipe, UP)
            matches = VGroup(*(words(decimal(m, 1), style.MIN_FONT_SIZE).move_to(
                (bt.get_x(), slot_y, 0)) for m, bt in zip(n["matches"], bottles)))
            align_baselines(matches)
            match_row = row_label("match", style.MUTED, ROW_NAME, beside=matches[0])
        self.play(FadeOut(potion_line), names[ai].animate.set_color(style.QUERY),
                  bottles[ai].animate.set_glass_color(style.QUERY),
                  run_time=b.part(0.1))
        self.play(FadeIn(recipe, shift=RIGHT * 0.2), FadeIn(flask), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(m, shift=DOWN * 0.1) for m in matches), lag_ratio=0.1),
                  FadeIn(match_row), run_time=b.part(0.3))

        # The viewer sees each match become a share of the flask, and the pours
        # that fill it exactly to the top.
        b = self.beat("pour")
        title = retitle(self, title, heading("He pours in proportion to the match", self),
                        b.part(0.1))
        pour_row = (shelf.column_name(words("pour", fine, style.WEIGHT)) if tall
                    else row_label("pour", style.WEIGHT, ROW_NAME, beside=matches[0]))
        swaps = []
        for i, share in enumerate(n["pour"]):
            label = words(percent(share, small=True), fine, style.WEIGHT)
            label.move_to(matches[i], aligned_edge=RIGHT if tall else ORIGIN)
            align_baselines([matches[i], label])
            swaps.append(swap_in_group(matches, i, label))
        shares = matches  # the same row now holds the pour shares
        self.play(*swaps, FadeOut(match_row), FadeIn(pour_row), run_time=b.part(0.15))
        pours = [bt.make_pour_animation(flask, share) for bt, share in zip(bottles, n["pour"])]
        self.cue("pour")
        self.play(LaggedStart(*pours, lag_ratio=0.25), run_time=b.part(0.45))
        full = words(percent(sum(n["pour"]), small=True), style.LABEL)
        full_note = words("full", fine, style.MUTED)
        if tall:  # under the flask: the recipe is beside it
            full.next_to(flask, DOWN, buff=0.15)
        else:
            full.next_to(flask, RIGHT, buff=0.25)
        full_note.next_to(full, DOWN, buff=0.1)
        self.play(FadeIn(VGroup(full, full_note), shift=LEFT * 0.1), run_time=b.part(0.1))

        # The viewer sees the pours mix into one potion, and what is in it.
        b = self.beat("mixture")
        mix = n["mixture"]
        shown = shown_ingredients(mix)
        bars = BarList(shown, [mix[s] for s in shown],
                       [percent(mix[s], small=True) for s in shown],
                       max_width=1.1 if tall else 1.5, size=fine)
        bars_title = words("in the flask", fine, style.MUTED)
        make_way = ()
        if tall:  # right of the flask, where the recipe was; the recipe moves up (see above)
            bars_title.next_to(bars, UP, buff=0.25).align_to(bars, LEFT)
            VGroup(bars_title, bars).set_x(right_edge, RIGHT).set_y(shelf.lower, UP)
            make_way = (*(fade(t, 0, ORIGIN) for t in tags), tag_row.animate.set_opacity(0),
                        recipe.animate.move_to(shelf.beside_rows(recipe)))
        else:
            # right-aligned, leaving room for the title that overhangs the percents
            bars.to_edge(RIGHT, buff=style.EDGE + 1.05).align_to(flask, UP).shift(DOWN * 0.55)
            bars_title.next_to(bars.get_texts(), UP, buff=0.25).align_to(bars.get_texts(), LEFT)
        title = retitle(self, title, heading(
            f"In context: more {tint(quoted(TRACKED[0]), style.VALUE)} than "
            f"{tint(quoted(TRACKED[1]), style.VALUE)}", self), b.part(0.1), *make_way)
        self.play(flask.make_mix_animation(), run_time=b.part(0.15))
        self.play(FadeIn(bars_title), bars.make_grow_animation(), run_time=b.part(0.35))

        # The viewer sees the bottles shuffled and poured again into a second
        # flask: the same potion, ingredient for ingredient.
        b = self.beat("shuffle")
        title = retitle(self, title, heading("Shuffle the bottles: the same flask", self),
                        b.part(0.08))
        order = n["shuffled_words"]
        self.play(FadeOut(shares), FadeOut(pour_row), FadeOut(recipe),
                  FadeOut(VGroup(full, full_note)), run_time=b.part(0.06))
        moves: list[int] = []  # each word's place in the shuffled order
        for i in range(len(sentence)):
            moves.append(next(k for k, w in enumerate(order)
                              if w == sentence[i] and k not in moves))
        in_order = words("in order", fine, style.MUTED)
        shuffled = words("shuffled", fine, style.MUTED)
        if tall:  # rows change places; the flasks stand right of the names, one above the other
            columns = list(zip(bottles, names))
            targets = [[m.get_center() + UP * (shelf.rows[j] - shelf.rows[i]) for m in column]
                       for i, (column, j) in enumerate(zip(columns, moves))]
            flask_x = (shelf.name_right + right_edge - in_order.width - 0.15) / 2
            flask_y = shelf.rows[0] + shelf.middle - (shelf.rows[0] - shelf.rows[-1]) / 4
            self._lift(columns, b.part(0.12), flask.animate.move_to((flask_x, flask_y, 0)),
                       bars.animate.set_x(left_edge, LEFT),
                       bars_title.animate.shift(LEFT * (bars.get_left()[0] - left_edge)))
        else:
            slots = [bt.get_x() for bt in bottles]
            targets = [slots[j] for j in moves]
            columns = list(zip(bottles, names, tags))
            self._lift(columns, b.part(0.12),
                       flask.animate.next_to(recipe.get_left(), RIGHT, buff=0).align_to(flask, UP),
                       bars.animate.shift(LEFT * 1.8), bars_title.animate.shift(LEFT * 1.8))
        for bottle in bottles:  # full again while out of sight, for the second pour
            bottle.set_level(1.0).fade_to(0)
        self._set_down(columns, targets, b.part(0.12))
        if tall:
            again = Flask(height=1.45).scale(TALL_FLASK).move_to(flask)
            again.shift(DOWN * (shelf.rows[0] - shelf.rows[-1]) / 2)
            in_order.next_to(flask, RIGHT, buff=0.15)
            shuffled.next_to(again, RIGHT, buff=0.15)
        else:
            again = Flask(height=1.45).move_to(flask).next_to(flask, RIGHT, buff=0.9)
            in_order.next_to(flask, DOWN, buff=0.15)
            shuffled.next_to(again, DOWN, buff=0.15)
            align_baselines([in_order, shuffled])
        self.play(FadeIn(again), FadeIn(in_order), FadeIn(shuffled), run_time=b.part(0.08))
        self.play(LaggedStart(*(bt.make_pour_animation(again, share)
                                for bt, share in zip(bottles, n["pour"])), lag_ratio=0.15),
                  run_time=b.part(0.2))
        si = order.index(asker)
        after = dict(zip(ingredients, n["shuffled_flasks"][si]))
        column = VGroup()
        for name, text in zip(bars.get_names(), bars.get_texts()):
            label = words(percent(after[name.original_text], small=True), fine, style.GOOD)
            label.move_to(text).align_to(text, LEFT).shift(RIGHT * (TALL_COLUMN if tall else 1.7))
            align_baselines([text, label])
            column.add(label)
        order_head = words("in order", fine, style.MUTED)
        shuffle_head = words("shuffled", fine, style.GOOD)
        if tall:  # each over its own column, ending with it (the heads are the wider)
            order_head.next_to(bars.get_texts(), UP, buff=0.25).align_to(bars.get_texts(), RIGHT)
            shuffle_head.next_to(column, UP, buff=0.25).align_to(column, RIGHT)
        else:
            order_head.move_to(bars_title, aligned_edge=LEFT)
            shuffle_head.next_to(column, UP, buff=0.25).align_to(column, LEFT)
        align_baselines([order_head, shuffle_head])
        self.play(again.make_mix_animation(), FadeOut(bars_title), FadeIn(order_head),
                  FadeIn(shuffle_head), LaggedStart(*(FadeIn(c) for c in column),
                                                     lag_ratio=0.1),
                  run_time=b.part(0.15))

        # The viewer sees the words back in order and, under them, what each
        # word pours when it may look only at itself and the words before it.
        b = self.beat("lookback")
        title = retitle(self, title, heading("Each word looks only back", self),
                        b.part(0.1))
        self.play(FadeOut(VGroup(flask, again, in_order, shuffled, bars, column, order_head,
                                 shuffle_head, tags, tag_row)), run_time=b.part(0.06))
        columns = list(zip(bottles, names))
        if tall:
            panels = LookbackPanels(self, sentence, potion_row.get_bottom()[1] - 0.15)
            places = panels.places(names)
        else:
            places = slots
        self._lift(columns, b.part(0.06))
        for bottle, name in columns:  # back to plain and full while out of sight
            bottle.set_glass_color(style.MUTED).set_level(1.0).fade_to(0)
            name.set_color(style.INK).set_opacity(0)
        self._set_down(columns, places, b.part(0.06))
        if tall:
            grid, readers = panels.build(n["masked_grid"])
        else:
            grid, readers = self._lookback_grid(n["masked_grid"], sentence, slots, pitch,
                                                names.get_bottom()[1] - 0.3)
        self.play(LaggedStart(*(FadeIn(VGroup(r, row), shift=DOWN * 0.05)
                                for r, row in zip(readers, grid)), lag_ratio=0.12),
                  run_time=b.part(0.3))
        ri = sentence.index(LOOKBACK_READER)
        row = VGroup(readers[ri], grid[ri])
        frame = RoundedRectangle(corner_radius=0.08, width=row.width + 0.25,
                                 height=row.height + 0.12, stroke_color=style.QUERY,
                                 stroke_width=2).move_to(row)
        later = range(ri + 1, len(sentence))
        self.play(FadeIn(frame), readers[ri].animate.set_color(style.QUERY),
                  *(bottles[j].animate.fade_to(0.25) for j in later),
                  *(names[j].animate.set_opacity(0.35) for j in later),
                  run_time=b.part(0.15))

    def _lift(self, columns, run_time: float, *also) -> None:
        """The columns (bottle, name, tag...) rise a little and fade away, left to right.

        Shuffling by fading rather than sliding: seven columns sliding through
        each other to reverse their order would meet in a heap in the middle.
        """
        self.play(LaggedStart(*(AnimationGroup(*(fade(m, 0, UP * LIFT) for m in column))
                                for column in columns), lag_ratio=0.08),
                  *also, run_time=run_time)

    def _set_down(self, columns, places, run_time: float) -> None:
        """The lifted columns come down in their ``places``, in reading order. On the wide
        shelf a place is an x, where every part of the column moves across; tall, it is
        where each part's centre goes."""
        for column, place in zip(columns, places):
            for k, m in enumerate(column):
                if self.tall:
                    m.move_to(place[k] + UP * LIFT)
                else:
                    m.set_x(place)

        def reading(pair):  # left to right; tall, top to bottom, then left to right
            return (-pair[0][0][1], pair[0][0][0]) if self.tall else pair[0]

        placed = sorted(zip(places, columns), key=reading)
        self.play(LaggedStart(*(AnimationGroup(*(fade(m, 1, DOWN * LIFT) for m in column))
                                for _, column in placed), lag_ratio=0.08),
                  run_time=run_time)

    @staticmethod
    def _lookback_grid(grid, sentence, xs, pitch, top):
        """Rows of look-back shares under the bottles: shaded cells with percents
        for the words a reader sees, empty outlines for the words after it."""
        rows, readers = VGroup(), VGroup()
        step = 0.47
        for i, shares in enumerate(grid):
            y = top - step * (i + 0.5)
            row = VGroup()
            for j, (x, share) in enumerate(zip(xs, shares)):
                cell = Rectangle(width=pitch - 0.12, height=step - 0.07).move_to((x, y, 0))
                row.add(*look_cell(cell, share, j <= i))
            texts = [m for m in row if isinstance(m, Text)]
            align_baselines(texts)
            reader = row_label(sentence[i], style.MUTED, ROW_NAME, beside=texts[0])
            rows.add(row)
            readers.add(reader)
        return rows, readers


def look_cell(cell: Rectangle, share: float, seen: bool, size: int = style.MIN_FONT_SIZE):
    """A cell of the look-back grid: shaded, with its percent, for a word the reader sees;
    an empty outline for a word after it."""
    if seen:
        cell.set_stroke(width=0).set_fill(style.WEIGHT, 0.06 + 0.42 * share)
        return cell, words(percent(share, small=True), size).move_to(cell)
    return (cell.set_stroke(style.FAINT, 1.5),)


class LookbackPanels:
    """The look-back grid on a tall frame, in two panels: seven columns of percents are
    wider than the frame. The first panel has every reader's row for the first words (a
    bottle and its name over each column), the second the rest of the columns, for the
    readers that see them (the others' cells there are all empty)."""

    def __init__(self, scene: ChapterScene, sentence: list[str], top: float) -> None:
        self.sentence = sentence
        self.split = (len(sentence) + 1) // 2
        self.size = TALL_TYPE
        left, right, bottom, _ = scene.area()
        # a margin left of the names, for the frame that picks out a reader's row
        self.reader_right = left + 0.13 + max(words(w, self.size).width for w in sentence)
        self.cells_left = self.reader_right + 0.15
        # each panel's columns share its width, less the same margin at the right
        width = right - 0.13 - self.cells_left
        self.pitches = [width / self.split, width / (len(sentence) - self.split)]
        bottle = Bottle(height=0.82, neck_height=0.24).scale(TALL_BOTTLE)
        self.bottle_height = bottle.height
        self.cap = words("H", self.size).height  # from a baseline to the top of a capital
        header = self.bottle_height + 0.06 + words("Hg", self.size).height + 0.12
        rows = len(sentence) + len(sentence) - self.split
        gap = 0.2  # between the panels
        low = 0.1  # below the last row, for the descenders of its reader's name
        self.step = min(0.5, (top - bottom - low - 2 * header - gap + 0.06 * 2) / rows)
        self.cell = self.step - 0.06
        # the top of each panel (its bottles) and of its first row of cells
        self.tops = [top, top - header - self.cell - (len(sentence) - 1) * self.step - gap]
        self.first = [t - header for t in self.tops]

    def _column(self, j: int) -> tuple[int, float]:
        """The panel of word ``j``'s column, and the x of its middle."""
        panel = 0 if j < self.split else 1
        return panel, self.cells_left + self.pitches[panel] * (j - panel * self.split + 0.5)

    def places(self, names: VGroup) -> list[list[np.ndarray]]:
        """Where each word's bottle and name (``names``) go: over its column, the name
        under the bottle."""
        places = []
        for j, name in enumerate(names):
            panel, x = self._column(j)
            y = self.tops[panel] - self.bottle_height / 2
            name_base = self.tops[panel] - self.bottle_height - 0.06 - self.cap
            places.append([np.array([x, y, 0.0]),
                           np.array([x, name_base + name.get_y() - baseline(name), 0.0])])
        return places

    def build(self, grid) -> tuple[VGroup, VGroup]:
        """Each reader's row (its cells in both panels, and its name again in the second)
        and its name in the first panel, as the wide grid gives them."""
        rows, readers = VGroup(), VGroup()
        for i, shares in enumerate(grid):
            row = VGroup()
            for panel in (0, 1):
                if panel and i < self.split:
                    continue  # this reader sees none of the second panel's words
                ys = self.first[panel] - self.cell / 2 - self.step * (i - panel * self.split)
                cells = VGroup()
                for j, share in enumerate(shares):
                    if self._column(j)[0] == panel:
                        cell = Rectangle(width=self.pitches[panel] - 0.07, height=self.cell)
                        cells.add(*look_cell(cell.move_to((self._column(j)[1], ys, 0)), share,
                                             j <= i, self.size))
                texts = [m for m in cells if isinstance(m, Text)]
                align_baselines(texts)
                name = row_label(self.sentence[i], style.MUTED, self.size, beside=texts[0])
                name.set_x(self.reader_right, RIGHT)
                if panel:
                    cells.add(name)
                else:
                    readers.add(name)
                row.add(cells)
            rows.add(row)
        return rows, readers


__all__ = ["ChemistryAndAssembly", "PotionMixing", "written_next"]
