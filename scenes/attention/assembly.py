"""Chemistry, then the final layer: the feed-forward step distils the last word's flask,
and the final layer turns it into a chance for every word of a small vocabulary.

One layout for every frame, measured from the frame's room (see :meth:`_still_layout`
and :meth:`_chart_layout`): the flask's list, the still and the list after it stand in a
row when the row fits the width, otherwise the still stands over the two lists; the
chart of chances stands right of the final layer, or under it, or alone when neither
leaves it room. Type comes from the frame's scale, the largest size that fits.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    FadeTransform,
    GrowArrow,
    LaggedStart,
    Line,
    Mobject,
    ReplacementTransform,
    RoundedRectangle,
    VGroup,
)

from production.language import N_, _
from scenes import core_words, style
from scenes.base import ChapterScene, align_baselines, quoted, stack_lines, tint, words
from scenes.components.bar_list import INSIDE, BarList
from scenes.components.bottle import Flask
from scenes.components.potion_layout import (
    GAP,
    TRACKED,
    Room,
    centred_in,
    heading,
    retitle,
    room_under,
    shown_ingredients,
    written_heading,
    written_next,
)
from scenes.components.potion_lookback import last_bottle
from scenes.components.spacing import closest, reach
from scenes.lines import text_height, text_width
from scenes.numbers import decimal, percent

#: the longest a bar may be (scene units): longer bars say no more
LONGEST_BAR = 3.0
#: the shortest a bar may be for a list to stand beside something else (scene units)
SHORTEST_BAR = 1.2
#: the widest step between rows of a list (scene units)
WIDEST_STEP = 1.0
#: the length of an arrow between two parts standing side by side (scene units)
ARROW = 0.8


@dataclass
class StillLayout:
    """The flask's list, the still and the list after it, placed for one frame."""

    before: BarList
    before_head: Mobject
    after: BarList
    after_head: Mobject
    still: VGroup  # the box and what it holds
    into: Arrow
    out: Arrow
    flask: Flask  # where the still will stand
    flask_name: Mobject
    step: float  # between rows of the lists


@dataclass
class ChartLayout:
    """The chart of chances, and where the final layer stands beside it."""

    chart: BarList
    box_place: Mobject | None  # a copy of the layer where it moves to; None: it leaves
    arrow: Arrow | None


class ChemistryAndAssembly(ChapterScene):
    """The feed-forward step distils the last flask; the final layer picks the next word."""

    relabel = staticmethod(core_words.shown)

    section = "assembly"
    title = N_("Chemistry, then the final layer")
    opens_with = "the bottle of feeling"
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

    def headings(self) -> dict[str, str]:
        """The heading of every beat (Pango markup)."""
        n = self.numbers
        return {
            "flask": _("The flask of {word}").format(
                word=tint(quoted(n["last_word"]), style.QUERY)),
            "distil": _("The feed-forward step"),
            "assembly": _("The last flask goes to the final layer"),
            "vocabulary": _("A chance for each word"),
            "predicted": written_next(n["last_word"], n["predicted"]),
        }

    # ------------------------------------------------------------- the still
    def _still(self, size: int, name_over: bool) -> VGroup:
        """The still: its hidden units with their values in a box, under their name
        (``name_over``) or right of it."""
        units = VGroup()
        for unit, value in self.numbers["hidden"].items():
            color = style.INK if value > 0 else style.MUTED
            pair = VGroup(words(unit, size, color), words(decimal(value), size, color))
            pair[1].next_to(pair[0], RIGHT, buff=0.3)
            align_baselines(pair)
            units.add(pair)
        stack_lines(units, closest([u[0] for u in units]) + 0.08, aligned_edge=RIGHT)
        name = words(_("hidden units"), size, style.MUTED)
        body = VGroup(name, units).arrange(DOWN if name_over else RIGHT, buff=0.3)
        box = RoundedRectangle(corner_radius=0.15, width=body.width + 0.4,
                               height=body.height + 0.35, stroke_color=style.MUTED,
                               stroke_width=2)
        return VGroup(box, body.move_to(box))

    def _lists(self, rows: list[str], size: int, bar: float, step: float
               ) -> tuple[BarList, BarList]:
        """The flask's list and the list after the step, on one scale, so a longer bar is
        more of that ingredient; the second names no row (it stands level with the first)."""
        n = self.numbers
        flask, distilled = n["last_flask"], n["distilled"]
        scale = max(*(flask[k] for k in rows), *(distilled[k] for k in rows))
        before = BarList(rows, [flask[k] for k in rows], [decimal(flask[k]) for k in rows],
                         max_width=bar, scale=scale, row_step=step, size=size)
        after = BarList(rows, [distilled[k] for k in rows], [decimal(distilled[k]) for k in rows],
                        max_width=bar, scale=scale, row_step=step, color=style.GOOD, size=size,
                        show_names=[])
        for i, k in enumerate(rows):
            if distilled[k] == 0:  # dropped: drawn as a faint stub with a muted zero
                after.get_bars()[i].set_fill(style.MUTED)
                after.get_texts()[i].set_color(style.MUTED)
        return before, after

    def _still_layout(self, room: Room) -> StillLayout:
        """The two lists and the still, as large as the room lets them be: in a row
        (list, still, list) if the row fits the width with bars of a useful length, else
        the still over the two lists standing side by side. The flask stands where the
        still will."""
        n = self.numbers
        rows = shown_ingredients(n["last_flask"], n["distilled"])
        left, right, bottom, top = room
        width, height = right - left, top - bottom
        scale = self.frame().type
        values = [decimal(v) for k in rows for v in (n["last_flask"][k], n["distilled"][k])]
        for size in (scale.label, scale.minimum):
            names = [words(k, size) for k in rows]
            name_w = max(m.width for m in names)
            value_w = max(text_width(v, size) for v in values)
            head_h = text_height(_("in the flask"), size) + GAP
            low = closest(names)
            # in a row: list, arrow, still, arrow, list without names
            still = self._still(size, name_over=True)
            fixed = name_w + 2 * (2 * INSIDE + value_w) + 2 * ARROW + still.width + 0.8
            bar = min(LONGEST_BAR, (width - fixed) / 2)
            step = min(WIDEST_STEP, (height - head_h - reach(names)) / (len(rows) - 1))
            if bar >= SHORTEST_BAR and step >= low and still.height <= height:
                return self._in_a_row(room, rows, size, bar, step, still)
            # the still over the lists, under the names of the lists if there is room
            still = self._still(size, name_over=False)
            bar = min(LONGEST_BAR,
                      (width - name_w - 2 * (2 * INSIDE + value_w) - GAP - 0.4) / 2)
            rows_h = height - still.height - 2 * GAP - reach(names)
            step = min(WIDEST_STEP, (rows_h - head_h) / (len(rows) - 1))
            heads = step >= low
            if not heads:
                step = min(WIDEST_STEP, rows_h / (len(rows) - 1))
            if bar >= SHORTEST_BAR / 2 and step >= low or size == scale.minimum:
                return self._still_over(room, rows, size, bar, max(step, low), still, heads)
        raise AssertionError("unreachable")

    def _in_a_row(self, room: Room, rows, size, bar, step, still) -> StillLayout:
        before, after = self._lists(rows, size, bar, step)
        before_head = words(_("in the flask"), size, style.MUTED)
        after_head = words(_("after the step"), size, style.MUTED)
        before_head.next_to(before, UP, buff=GAP).align_to(before.get_bars(), LEFT)
        into_x = before.get_right()[0] + 0.2
        still.move_to((into_x + ARROW + still.width / 2, before.get_y(), 0))
        after.shift(RIGHT * (still.get_right()[0] + ARROW + 0.2 - after.get_bar_left()))
        after.shift(UP * (before.get_names()[0].get_y() - after.get_names()[0].get_y()))
        after_head.next_to(after, UP, buff=GAP).align_to(after.get_bars(), LEFT)
        align_baselines([before_head, after_head])
        centred_in(VGroup(before, before_head, still, after, after_head), room)
        # the flask stands alone right of its list, where the still and the list after it
        # will stand, as large as that room allows
        flask_name = words(self.numbers["last_word"], size, style.QUERY)
        free = after.get_right()[0] - before.get_right()[0] - 2 * ARROW
        flask = Flask(filled=1.0).scale_to_fit_height(
            min(before.height - flask_name.height, free * 1.1))
        flask.move_to(((before.get_right()[0] + after.get_right()[0]) / 2, before.get_y(), 0))
        flask_name.next_to(flask, DOWN, buff=0.15)
        into = Arrow(before.get_right(), still.get_left(), buff=0.2, color=style.MUTED,
                     stroke_width=3, max_tip_length_to_length_ratio=0.3)
        out = Arrow(still.get_right(), after.get_left(), buff=0.2, color=style.MUTED,
                    stroke_width=3, max_tip_length_to_length_ratio=0.3)
        return StillLayout(before, before_head, after, after_head, still, into, out, flask,
                           flask_name, step)

    def _still_over(self, room: Room, rows, size, bar, step, still, heads: bool
                    ) -> StillLayout:
        """The still at the top of the room, the two lists under it side by side; the
        names of the lists (if ``heads``) over them at the room's sides."""
        left, right, _bottom, top = room
        before, after = self._lists(rows, size, bar, step)
        after.shift(RIGHT * (before.get_texts().get_right()[0] + GAP - after.get_bar_left()))
        after.shift(UP * (before.get_names()[0].get_y() - after.get_names()[0].get_y()))
        lists = VGroup(before, after)
        still.move_to(((left + right) / 2, top, 0), aligned_edge=UP)
        lists.set_x((left + right) / 2)
        lists.shift(UP * (still.get_bottom()[1] - 2 * GAP - before.get_top()[1]))
        if heads:
            before_head = words(_("in the flask"), size, style.MUTED)
            after_head = words(_("after the step"), size, style.MUTED)
            before_head.move_to((left, still.get_bottom()[1] - 2 * GAP, 0),
                                aligned_edge=LEFT + UP)
            after_head.move_to((right, 0, 0), aligned_edge=RIGHT)
            align_baselines([before_head, after_head])
            lists.shift(DOWN * (before_head.height + GAP))
            start, end = before_head.get_right(), after_head.get_left()
        else:  # the arrows run up from the flask's values and down into the ones after it
            before_head, after_head = VGroup(), VGroup()
            start = before.get_texts().get_top() + UP * 0.05
            end = after.get_texts().get_top() + UP * 0.05
        middle = (start[0] + end[0]) / 2
        into = Arrow(start, (middle - 0.2, still.get_bottom()[1], 0), buff=0.1,
                     color=style.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.3)
        out = Arrow((middle + 0.2, still.get_bottom()[1], 0), end, buff=0.1,
                    color=style.MUTED, stroke_width=3, max_tip_length_to_length_ratio=0.3)
        # the flask stands right of its list, as large as the room there allows (the list
        # after the step comes when it has gone)
        flask_name = words(self.numbers["last_word"], size, style.QUERY)
        x0, y0 = before.get_right()[0] + 2 * GAP, before.get_bottom()[1]
        flask = Flask(filled=1.0).scale_to_fit_height(
            min(top - y0 - flask_name.height - 0.15, (right - x0) / 0.85, 3.5))
        flask_name.next_to(flask, DOWN, buff=0.15)
        VGroup(flask, flask_name).move_to(((x0 + right) / 2, (y0 + top) / 2, 0))
        return StillLayout(before, before_head, after, after_head, still, into, out, flask,
                           flask_name, step)

    # ------------------------------------------------------------- the final layer
    def _assembly_layout(self, room: Room):
        """The flasks of every word in a column, the last named and fed into the final
        layer right of them; the flasks as tall as the room allows."""
        size = self.frame().type.label
        left, right, bottom, top = room
        layer = VGroup(words(_("final layer"), size), words(_("+ softmax"), size))
        layer.arrange(DOWN, buff=0.15)
        box = RoundedRectangle(corner_radius=0.15, width=layer.width + 0.6,
                               height=layer.height + 0.6, stroke_color=style.INK,
                               stroke_width=2)
        final = VGroup(box, layer.move_to(box))
        dots = words("\u22ee", self.frame().type.body, style.MUTED)
        last_name = words(self.numbers["last_word"], size, style.QUERY)
        # four flasks and the dots in the column, each flask no wider than the room leaves
        each = (top - bottom - dots.height - 4 * 0.2) / 4
        others = VGroup(*(_full_flask(style.MUTED, 0.35, each) for _ in range(3)))
        last = _full_flask(style.QUERY, 1.0, each)
        stack = VGroup(*others, dots, last).arrange(DOWN, buff=0.2)
        last_name.next_to(last, RIGHT, buff=0.2)
        final.next_to(VGroup(stack, last_name), RIGHT, buff=ARROW).set_y(stack.get_y())
        picture = centred_in(VGroup(stack, last_name, final), room)
        slack = right - picture.get_right()[0]
        if slack > 0.6:  # spread out: the layer takes the room's right part
            final.shift(RIGHT * min(slack, 2 * ARROW + 1.0))
            centred_in(picture, room)
        feed = Arrow(last_name.get_right(), box.get_left(), buff=0.15, color=style.QUERY,
                     stroke_width=4, tip_length=0.2)
        # the other flasks are presented too, but the layer leans on the last one
        side = VGroup(*(Line(f.get_right() + RIGHT * 0.1, box.get_left() + LEFT * 0.05,
                             color=style.FAINT, stroke_width=2) for f in others))
        return stack, last_name, final, feed, side

    def _chart_layout(self, room: Room, final: Mobject) -> ChartLayout:
        """The chart of chances, as large as the room lets it be: right of the final layer
        if the bars keep a useful length there, else under it, else alone (the layer
        leaves)."""
        n = self.numbers
        left, right, bottom, top = room
        width, height = right - left, top - bottom
        ranking, probs = n["ranking"], n["probabilities"]
        texts = [percent(probs[w], small=True) for w in ranking]
        scale = self.frame().type
        for size, keep in ((scale.label, True), (scale.minimum, True), (scale.label, False),
                           (scale.minimum, False)):
            names = [words(w, size) for w in ranking]
            fixed = max(m.width for m in names) + 2 * INSIDE + max(
                text_width(t, size) for t in texts)
            low = closest(names)
            place = final.copy()
            beside = width - place.width - ARROW - fixed
            down = height - place.height - ARROW / 2 - reach(names)
            if keep and beside >= 2 * SHORTEST_BAR and \
                    (height - reach(names)) / (len(names) - 1) >= low:
                bar, step = min(LONGEST_BAR, beside), (height - reach(names)) / (len(names) - 1)
                chart = self._chart(size, bar, min(WIDEST_STEP, step))
                chart.next_to(place, RIGHT, buff=ARROW)
                centred_in(VGroup(place, chart), room)
                arrow = Arrow(place.get_right(), chart.get_left(), buff=0.15,
                              color=style.MUTED, stroke_width=3, tip_length=0.18)
                return ChartLayout(chart, place, arrow)
            if keep and down / (len(names) - 1) >= low and width - fixed >= SHORTEST_BAR:
                chart = self._chart(size, min(LONGEST_BAR, width - fixed),
                                    min(WIDEST_STEP, down / (len(names) - 1)))
                VGroup(place, chart).arrange(DOWN, buff=ARROW / 2)
                centred_in(VGroup(place, chart), room)
                arrow = Arrow(place.get_bottom(), chart.get_top(), buff=0.1,
                              color=style.MUTED, stroke_width=3, tip_length=0.18)
                return ChartLayout(chart, place, arrow)
            step = (height - reach(names)) / (len(names) - 1)
            if not keep and (step >= low or size == scale.minimum):
                chart = self._chart(size, min(LONGEST_BAR, width - fixed),
                                    min(WIDEST_STEP, max(step, low)))
                return ChartLayout(centred_in(chart, room), None, None)
        raise AssertionError("unreachable")

    def _chart(self, size: int, bar: float, step: float) -> BarList:
        n = self.numbers
        ranking, probs = n["ranking"], n["probabilities"]
        return BarList(ranking, [probs[w] for w in ranking],
                       [percent(probs[w], small=True) for w in ranking],
                       color=style.WEIGHT, max_width=bar, row_step=step, size=size)

    # ------------------------------------------------------------- beats
    def construct(self) -> None:
        n = self.numbers
        titles = self.headings()
        s = self._still_layout(room_under(self, (titles["flask"], titles["distil"])))

        # The viewer sees the last word's bottle where the look-back left it, over the
        # grid's last column...
        bottle, name = last_bottle(self, n["words"])
        self.add(bottle, name)

        # ...open and grow into its flask, and everything in that flask.
        b = self.beat("flask")
        title = heading(self, titles["flask"])
        self.play(FadeIn(title), FadeTransform(bottle, s.flask),
                  ReplacementTransform(name, s.flask_name), run_time=b.part(0.25))
        self.play(FadeIn(s.before_head), s.before.make_grow_animation(lag_ratio=0.08),
                  run_time=b.part(0.35))

        # The viewer sees the still: hidden units read the flask, and a
        # stronger "tired" comes out while "dishonest" is dropped.
        b = self.beat("distil")
        title = retitle(self, title, heading(self, titles["distil"]), b.part(0.1))
        self.play(FadeOut(s.flask), FadeOut(s.flask_name), FadeIn(s.still), GrowArrow(s.into),
                  run_time=b.part(0.2))
        self.play(GrowArrow(s.out), FadeIn(s.after_head),
                  s.after.make_grow_animation(lag_ratio=0.08), run_time=b.part(0.35))
        marks = VGroup()
        rows = [name.original_text for name in s.before.get_names()]
        for k, color in zip(TRACKED, (style.GOOD, style.BAD)):
            i = rows.index(k)
            for row in (s.before.get_row(i), s.after.get_row(i)):
                marks.add(RoundedRectangle(corner_radius=0.08, width=row.width + 0.2,
                                           height=s.step - 0.04, stroke_color=color,
                                           stroke_width=2).move_to(row))
        self.play(FadeIn(marks), run_time=b.part(0.15))

        # The viewer sees the flasks of all the words stacked in order, the
        # last one going into the final layer.
        b = self.beat("assembly")
        title = retitle(self, title, heading(self, titles["assembly"]), b.part(0.1))
        self.play(FadeOut(VGroup(s.before, s.before_head, s.still, s.into, s.out, s.after,
                                 s.after_head, marks)), run_time=b.part(0.15))
        stack, last_name, final, feed, side = self._assembly_layout(
            room_under(self, (titles["assembly"],)))
        self.play(LaggedStart(*(FadeIn(f, shift=DOWN * 0.1) for f in stack), lag_ratio=0.15),
                  FadeIn(last_name), run_time=b.part(0.3))
        self.play(FadeIn(final), FadeIn(side), GrowArrow(feed), run_time=b.part(0.2))

        # The viewer sees a chance for every word of the vocabulary, most likely first;
        # the flasks have done their part and leave, the layer stands beside the chart.
        b = self.beat("vocabulary")
        c = self._chart_layout(room_under(self, (titles["vocabulary"], titles["predicted"])),
                               final)
        leaving = VGroup(stack, last_name, feed, side, *(() if c.box_place else (final,)))
        moving = (final.animate.move_to(c.box_place),) if c.box_place else ()
        title = retitle(self, title, heading(self, titles["vocabulary"]), b.part(0.1),
                        FadeOut(leaving), *moving)
        self.play(*((GrowArrow(c.arrow),) if c.arrow else ()),
                  c.chart.make_grow_animation(lag_ratio=0.1), run_time=b.part(0.5))

        # The viewer sees the winner picked, then put after the prompt as the voice says it.
        b = self.beat("predicted")
        winner = c.chart.get_row(n["ranking"].index(n["predicted"]))
        ring = RoundedRectangle(corner_radius=0.08, width=winner.width + 0.25,
                                height=winner.height + 0.15, stroke_color=style.GOOD,
                                stroke_width=3).move_to(winner)
        # The old heading leaves first: the new one comes in alone, on the word.
        self.play(FadeIn(ring), FadeOut(title, shift=UP * 0.15), run_time=b.part(0.15))
        self.at("predicted")  # the word is written after the prompt as the voice says it
        title = written_heading(self, n["last_word"], n["predicted"])
        self.play(FadeIn(title, shift=UP * 0.15), run_time=min(b.part(0.15), self.time_left()))
        # The written words stay: the next scene opens with them.
        self.hand_over(title)


def _full_flask(color, opacity: float, height: float) -> Flask:
    """A full flask in a glass colour, at most ``height`` tall (the stacked flasks)."""
    flask = Flask(filled=1.0, glass=color)
    flask.get_layers().set_fill(opacity=opacity)
    return flask.scale_to_fit_height(min(height, 1.6))


__all__ = ["ChemistryAndAssembly"]
