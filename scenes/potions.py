"""The alchemist's potions: query, key and value as recipe, tag and potion.

Every word of "Sarah lies still on the bed, feeling ___" brings a bottle with
a tag on it (its key) and a potion inside (its value). The alchemist of one
word holds a recipe (its query), pours from every bottle in proportion to how
well its tag matches the recipe, and ends with one full flask. Then the
chemistry: the feed-forward step distils the last word's flask, and the final
layer turns it into a chance for every word of a small vocabulary.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
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
    markup,
    quoted,
    row_label,
    stack_lines,
    tint,
    words,
)
from scenes.components.bar_list import BarList, swap_in_group
from scenes.components.bottle import Bottle, Flask, Tag
from scenes.numbers import decimal, percent, setting

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


# ------------------------------------------------------------------ formatting


def two_lines(text: str) -> list[str]:
    """A label broken at the space nearest its middle (a tag is narrow)."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    if not spaces:
        return [text]
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return [text[:cut], text[cut + 1:]]


def shown_ingredients(mix: dict[str, float]) -> list[str]:
    """The ingredients a bar list shows: the largest few, then the tracked ones."""
    names = sorted(mix, key=lambda name: -mix[name])[:TOP]
    return names + [t for t in TRACKED if t in mix and t not in names]


def written_next(last_word: str, predicted: str) -> str:
    """The markup of the heading once the next word is written: the prompt's last
    word, then the predicted word in bold: '… feeling tired'."""
    return f"\u2026 {last_word} {tint(f'<b>{predicted}</b>', style.GOOD)}"


def heading(text: str) -> VGroup:
    """A scene heading (Pango markup) at the top of the frame."""
    return markup(text, style.HEADING).to_edge(UP, buff=style.EDGE)


def retitle(scene: ChapterScene, old, new, run_time: float):
    """The heading cross-fades to ``new``."""
    scene.play(FadeOut(old, shift=UP * 0.15), FadeIn(new, shift=UP * 0.15), run_time=run_time)
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


class PotionMixing(ChapterScene):
    """Bottles with tags and potions; one alchemist pours his flask; order and look-back."""

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
        for key, bottle in zip(n["keys"], bottles):
            leading = features[max(range(len(key)), key=lambda i: key[i])]
            tags.add(tag(leading, pitch - 0.2).set_x(bottle.get_x()))
        tags.next_to(names, DOWN, buff=0.15)
        tags.set_x(bottles.get_x())
        potion_row = row_label("potion\n(value)", style.VALUE, ROW_NAME).set_y(bottles.get_y())
        tag_row = row_label("tag\n(key)", style.KEY, ROW_NAME).set_y(tags.get_y())
        slot_y = bottles.get_top()[1] + 0.3
        floor = tags.get_bottom()[1]  # the lower area starts below the tags

        # The viewer sees a bottle for every word: a potion inside, a tag outside.
        b = self.beat("bottles")
        title = heading("A bottle for every word")
        self.play(FadeIn(title), run_time=b.part(0.1))
        self.play(LaggedStart(*(FadeIn(VGroup(bt, nm), shift=UP * 0.15)
                                for bt, nm in zip(bottles, names)), lag_ratio=0.1),
                  FadeIn(potion_row), run_time=b.part(0.3))
        self.play(LaggedStart(*(FadeIn(t, shift=DOWN * 0.1) for t in tags), lag_ratio=0.08),
                  FadeIn(tag_row), run_time=b.part(0.2))
        inside = n["values"][ai]
        contents = sorted((i for i in range(len(inside)) if inside[i] > 0),
                          key=lambda i: -inside[i])
        potion_line = markup(
            f"the potion of {tint(quoted(asker), style.VALUE)}:  "
            + "  \u00b7  ".join(f"{ingredients[i]} {percent(inside[i], small=True)}"
                                 for i in contents),
            style.SMALL,
        ).next_to(tags, DOWN, buff=0.6).set_x(0)
        self.play(FadeIn(potion_line, shift=UP * 0.1), run_time=b.part(0.15))

        # The viewer sees the alchemist of "lies" with his recipe and an empty flask,
        # and how well each tag matches the recipe.
        b = self.beat("recipe")
        title = retitle(self, title, heading(
            f"The alchemist of {tint(quoted(asker), style.QUERY)} reads every tag"), b.part(0.1))
        wanted = [f for f, q in zip(features, n["queries"][ai]) if q > 0]
        lines = VGroup(
            words("recipe (query)", style.MIN_FONT_SIZE, style.QUERY),
            *(words(f, style.MIN_FONT_SIZE) for f in wanted),
            words(f"sharpness {setting(n['sharpness'])}", style.MIN_FONT_SIZE, style.MUTED),
        )
        stack_lines(lines, RECIPE_STEP)
        for line in lines[1:-1]:  # the wanted features, indented under the title
            line.shift(RIGHT * 0.3)
        card = RoundedRectangle(corner_radius=0.12, width=lines.width + 0.4,
                                height=lines.height + 0.3, stroke_color=style.QUERY,
                                stroke_width=2).set_fill(style.QUERY, opacity=0.06)
        recipe = VGroup(card, lines.move_to(card))
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
        title = retitle(self, title, heading("He pours in proportion to the match"), b.part(0.1))
        pour_row = row_label("pour", style.WEIGHT, ROW_NAME, beside=matches[0])
        swaps = []
        for i, share in enumerate(n["pour"]):
            label = words(percent(share, small=True), style.MIN_FONT_SIZE, style.WEIGHT)
            label.move_to(matches[i])
            align_baselines([matches[i], label])
            swaps.append(swap_in_group(matches, i, label))
        shares = matches  # the same row now holds the pour shares
        self.play(*swaps, FadeOut(match_row), FadeIn(pour_row), run_time=b.part(0.15))
        pours = [bt.make_pour_animation(flask, share) for bt, share in zip(bottles, n["pour"])]
        self.cue("pour")
        self.play(LaggedStart(*pours, lag_ratio=0.25), run_time=b.part(0.45))
        full = words(percent(sum(n["pour"]), small=True), style.LABEL)
        full.next_to(flask, RIGHT, buff=0.25)
        full_note = words("full", style.MIN_FONT_SIZE, style.MUTED).next_to(full, DOWN,
                                                                          buff=0.1)
        self.play(FadeIn(VGroup(full, full_note), shift=LEFT * 0.1), run_time=b.part(0.1))

        # The viewer sees the pours mix into one potion, and what is in it.
        b = self.beat("mixture")
        mix = n["mixture"]
        shown = shown_ingredients(mix)
        bars = BarList(shown, [mix[s] for s in shown],
                       [percent(mix[s], small=True) for s in shown],
                       max_width=1.5)
        bars_title = words("in the flask", style.MIN_FONT_SIZE, style.MUTED)
        # right-aligned, leaving room for the title that overhangs the percents
        bars.to_edge(RIGHT, buff=style.EDGE + 1.05).align_to(flask, UP).shift(DOWN * 0.55)
        bars_title.next_to(bars.get_texts(), UP, buff=0.25).align_to(bars.get_texts(), LEFT)
        title = retitle(self, title, heading(
            f"In context: more {tint(quoted(TRACKED[0]), style.VALUE)} than "
            f"{tint(quoted(TRACKED[1]), style.VALUE)}"), b.part(0.1))
        self.play(flask.make_mix_animation(), run_time=b.part(0.15))
        self.play(FadeIn(bars_title), bars.make_grow_animation(), run_time=b.part(0.35))

        # The viewer sees the bottles shuffled and poured again into a second
        # flask: the same potion, ingredient for ingredient.
        b = self.beat("shuffle")
        title = retitle(self, title, heading("Shuffle the bottles: the same flask"), b.part(0.08))
        order = n["shuffled_words"]
        self.play(FadeOut(shares), FadeOut(pour_row), FadeOut(recipe),
                  FadeOut(VGroup(full, full_note)), run_time=b.part(0.06))
        slots = [bt.get_x() for bt in bottles]
        used: list[int] = []
        targets = []
        for i in range(len(sentence)):
            j = next(k for k, w in enumerate(order) if w == sentence[i] and k not in used)
            used.append(j)
            targets.append(slots[j])
        columns = list(zip(bottles, names, tags))
        self._lift(columns, b.part(0.12),
                   flask.animate.next_to(recipe.get_left(), RIGHT, buff=0).align_to(flask, UP),
                   bars.animate.shift(LEFT * 1.8), bars_title.animate.shift(LEFT * 1.8))
        for bottle in bottles:  # full again while out of sight, for the second pour
            bottle.set_level(1.0).fade_to(0)
        self._set_down(columns, targets, b.part(0.12))
        again = Flask(height=1.45).move_to(flask).next_to(flask, RIGHT, buff=0.9)
        in_order = words("in order", style.MIN_FONT_SIZE, style.MUTED)
        shuffled = words("shuffled", style.MIN_FONT_SIZE, style.MUTED)
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
            label = words(percent(after[name.original_text], small=True), style.MIN_FONT_SIZE,
                          style.GOOD)
            label.move_to(text).align_to(text, LEFT).shift(RIGHT * 1.7)
            align_baselines([text, label])
            column.add(label)
        order_head = words("in order", style.MIN_FONT_SIZE, style.MUTED)
        order_head.move_to(bars_title, aligned_edge=LEFT)
        shuffle_head = words("shuffled", style.MIN_FONT_SIZE, style.GOOD)
        shuffle_head.next_to(column, UP, buff=0.25).align_to(column, LEFT)
        align_baselines([order_head, shuffle_head])
        self.play(again.make_mix_animation(), FadeOut(bars_title), FadeIn(order_head),
                  FadeIn(shuffle_head), LaggedStart(*(FadeIn(c) for c in column),
                                                     lag_ratio=0.1),
                  run_time=b.part(0.15))

        # The viewer sees the words back in order and, under them, what each
        # word pours when it may look only at itself and the words before it.
        b = self.beat("lookback")
        title = retitle(self, title, heading("Each word looks only back"),
                        b.part(0.1))
        self.play(FadeOut(VGroup(flask, again, in_order, shuffled, bars, column, order_head,
                                 shuffle_head, tags, tag_row)), run_time=b.part(0.06))
        columns = list(zip(bottles, names))
        self._lift(columns, b.part(0.06))
        for bottle, name in columns:  # back to plain and full while out of sight
            bottle.set_glass_color(style.MUTED).set_level(1.0).fade_to(0)
            name.set_color(style.INK).set_opacity(0)
        self._set_down(columns, slots, b.part(0.06))
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

    def _set_down(self, columns, xs, run_time: float) -> None:
        """The lifted columns come down at the x positions ``xs``, left to right."""
        for column, x in zip(columns, xs):
            for m in column:
                m.set_x(x)
        placed = sorted(zip(xs, columns), key=lambda pair: pair[0])
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
                if j <= i:
                    cell.set_stroke(width=0).set_fill(style.WEIGHT, 0.06 + 0.42 * share)
                    label = words(percent(share, small=True), style.MIN_FONT_SIZE)
                    row.add(cell, label.move_to(cell))
                else:
                    row.add(cell.set_stroke(style.FAINT, 1.5))
            texts = [m for m in row if isinstance(m, Text)]
            align_baselines(texts)
            reader = row_label(sentence[i], style.MUTED, ROW_NAME, beside=texts[0])
            rows.add(row)
            readers.add(reader)
        return rows, readers


class ChemistryAndAssembly(ChapterScene):
    """The feed-forward step distils the last flask; the final layer picks the next word."""

    section = "assembly"
    title = "Chemistry, then the final layer"
    beat_seconds = {
        "flask": 8.0,
        "distil": 11.0,
        "assembly": 8.0,
        "vocabulary": 10.0,
        "predicted": 7.0,
    }
    marks = {"predicted": ("predicted",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Words the narration names, from the same ledger as the pictures."""
        n = numbers
        first, second, third = n["ranking"][:3]
        return {"last_word": n["last_word"], "first": first, "second": second, "third": third,
                "predicted": n["predicted"]}

    def construct(self) -> None:
        n = self.numbers
        word = n["last_word"]
        flask_mix = n["last_flask"]
        distilled = n["distilled"]
        names = list(flask_mix)

        # The viewer sees the last word's flask and everything in it.
        b = self.beat("flask")
        title = heading(f"The flask of {tint(quoted(word), style.QUERY)}")
        # one scale for before and after, so a longer bar is more of that ingredient
        scale = max(*flask_mix.values(), *distilled.values())
        before = BarList(names, [flask_mix[k] for k in names],
                         [decimal(flask_mix[k]) for k in names], max_width=1.1, scale=scale,
                         row_step=ROW_STEP)
        before_head = words("in the flask", style.MIN_FONT_SIZE, style.MUTED)
        before.to_edge(LEFT, buff=style.EDGE).set_y(-0.15)
        before_head.next_to(before, UP, buff=0.3).align_to(before.get_bars(), LEFT)
        flask = Flask(filled=1.0)
        flask.next_to(before, RIGHT, buff=2.0)
        flask_name = words(word, style.SMALL, style.QUERY).next_to(flask, DOWN, buff=0.15)
        self.play(FadeIn(title), FadeIn(flask), FadeIn(flask_name), run_time=b.part(0.2))
        self.play(FadeIn(before_head), before.make_grow_animation(lag_ratio=0.08),
                  run_time=b.part(0.4))

        # The viewer sees the still: hidden units read the flask, and a
        # stronger "tired" comes out while "dishonest" is dropped.
        b = self.beat("distil")
        title = retitle(self, title, heading("Chemistry: the feed-forward step"), b.part(0.1))
        units = VGroup()
        for unit, value in n["hidden"].items():
            color = style.INK if value > 0 else style.MUTED
            units.add(VGroup(words(unit, style.MIN_FONT_SIZE, color),
                             words(decimal(value), style.MIN_FONT_SIZE, color)))
        for unit in units:
            unit[1].next_to(unit[0], RIGHT, buff=0.3)
            align_baselines(unit)
        stack_lines(units, 0.6, aligned_edge=RIGHT)
        still_head = words("hidden units", style.MIN_FONT_SIZE, style.MUTED)
        still_body = VGroup(still_head, units).arrange(DOWN, buff=0.4)
        still = RoundedRectangle(corner_radius=0.15, width=still_body.width + 0.4,
                                 height=still_body.height + 0.5, stroke_color=style.MUTED,
                                 stroke_width=2)
        still_group = VGroup(still, still_body.move_to(still))
        after = BarList(names, [distilled[k] for k in names],
                        [decimal(distilled[k]) for k in names],
                        max_width=1.1, scale=scale, row_step=ROW_STEP, color=style.GOOD,
                        show_names=[i for i, k in enumerate(names)  # the rows to follow
                                    if distilled[k] > 0 or k in TRACKED])
        after.to_edge(RIGHT, buff=style.EDGE)
        after.shift(UP * (before.get_names()[0].get_y() - after.get_names()[0].get_y()))
        for i, k in enumerate(names):
            if distilled[k] == 0:  # dropped: drawn as a faint stub with a muted zero
                after.get_bars()[i].set_fill(style.MUTED)
                after.get_texts()[i].set_color(style.MUTED)
                after.get_names()[i].set_color(style.MUTED)
        after_head = words("after the step", style.MIN_FONT_SIZE, style.MUTED)
        after_head.next_to(after, UP, buff=0.3).align_to(after, RIGHT)
        align_baselines([before_head, after_head])
        gap_mid = (before.get_right()[0] + after.get_left()[0]) / 2
        still_group.move_to((gap_mid, before.get_y(), 0))
        into = Arrow(before.get_right(), still.get_left(), buff=0.2, color=style.MUTED,
                     stroke_width=3, max_tip_length_to_length_ratio=0.3)
        out = Arrow(still.get_right(), after.get_left(), buff=0.2, color=style.MUTED,
                    stroke_width=3, max_tip_length_to_length_ratio=0.3)
        self.play(FadeOut(flask), FadeOut(flask_name), FadeIn(still_group), GrowArrow(into),
                  run_time=b.part(0.2))
        self.play(GrowArrow(out), FadeIn(after_head), after.make_grow_animation(lag_ratio=0.08),
                  run_time=b.part(0.35))
        marks = VGroup()
        for k, color in zip(TRACKED, (style.GOOD, style.BAD)):
            i = names.index(k)
            for row in (before.get_row(i), after.get_row(i)):
                marks.add(RoundedRectangle(corner_radius=0.08, width=row.width + 0.2,
                                           height=ROW_STEP - 0.04, stroke_color=color,
                                           stroke_width=2).move_to(row))
        self.play(FadeIn(marks), run_time=b.part(0.15))

        # The viewer sees the flasks of all the words stacked in order, the
        # last one going into the final layer.
        b = self.beat("assembly")
        title = retitle(self, title, heading("The last flask goes to the final layer"),
                        b.part(0.1))
        self.play(FadeOut(VGroup(before, before_head, still_group, into, out, after, after_head,
                                 marks)), run_time=b.part(0.15))
        others = VGroup(*(self._full_flask(style.MUTED, 0.35) for _ in range(3)))
        last = self._full_flask(style.QUERY, 1.0)
        dots = words("\u22ee", style.BODY, style.MUTED)
        stack = VGroup(*others, dots, last).arrange(DOWN, buff=0.2)
        stack.to_edge(LEFT, buff=style.EDGE + 0.3).set_y(0.1)
        last_name = words(word, style.SMALL, style.QUERY).next_to(last, RIGHT, buff=0.2)
        layer = VGroup(words("final layer", style.SMALL), words("+ softmax", style.SMALL))
        layer.arrange(DOWN, buff=0.15)
        box = RoundedRectangle(corner_radius=0.15, width=layer.width + 0.6,
                               height=layer.height + 0.6, stroke_color=style.INK,
                               stroke_width=2)
        final = VGroup(box, layer.move_to(box)).next_to(last_name, RIGHT, buff=0.8)
        final.set_y(0.1)
        feed = Arrow(last_name.get_right(), box.get_left(), buff=0.15, color=style.QUERY,
                     stroke_width=4, tip_length=0.2)
        # the other flasks are presented too, but the layer leans on the last one
        side = VGroup(*(Line(f.get_right() + RIGHT * 0.1, box.get_left() + LEFT * 0.05,
                             color=style.FAINT, stroke_width=2) for f in others))
        self.play(LaggedStart(*(FadeIn(f, shift=DOWN * 0.1) for f in stack), lag_ratio=0.15),
                  FadeIn(last_name), run_time=b.part(0.3))
        self.play(FadeIn(final), FadeIn(side), GrowArrow(feed), run_time=b.part(0.2))

        # The viewer sees a chance for every word of the vocabulary, most likely first.
        b = self.beat("vocabulary")
        title = retitle(self, title, heading("A chance for every word it knows"), b.part(0.1))
        probs = n["probabilities"]
        ranking = n["ranking"]
        chart = BarList(ranking, [probs[w] for w in ranking],
                        [percent(probs[w], small=True) for w in ranking],
                        color=style.WEIGHT, max_width=2.8, row_step=0.46)
        chart.next_to(box, RIGHT, buff=1.2).set_y(0.1)
        chart.to_edge(RIGHT, buff=style.EDGE)
        to_chart = Arrow(box.get_right(), chart.get_left(), buff=0.15, color=style.MUTED,
                         stroke_width=3, tip_length=0.18)
        self.play(GrowArrow(to_chart), chart.make_grow_animation(lag_ratio=0.1),
                  run_time=b.part(0.5))

        # The viewer sees the winner picked, then put after the prompt as the voice says it.
        b = self.beat("predicted")
        winner = chart.get_row(ranking.index(n["predicted"]))
        ring = RoundedRectangle(corner_radius=0.08, width=winner.width + 0.25,
                                height=winner.height + 0.15, stroke_color=style.GOOD,
                                stroke_width=3).move_to(winner)
        # The old heading leaves first: the new one comes in alone, on the word.
        self.play(FadeIn(ring), FadeOut(title, shift=UP * 0.15), run_time=b.part(0.15))
        self.at("predicted")  # the word is written after the prompt as the voice says it
        title = heading(written_next(word, n["predicted"]))
        self.play(FadeIn(title, shift=UP * 0.15), run_time=min(b.part(0.15), self.time_left()))

    @staticmethod
    def _full_flask(color, opacity: float) -> Flask:
        """A small full flask in a glass colour (the stacked flasks of the assembly)."""
        flask = Flask(filled=1.0, glass=color)
        flask.get_layers().set_fill(opacity=opacity)
        return flask.scale(SMALL_FLASK)


__all__ = ["ChemistryAndAssembly", "PotionMixing", "written_next"]
