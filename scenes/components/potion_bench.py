"""Where the parts of PotionMixing stand, in whatever frame it is drawn for.

The shelf stands at the top of the room, in columns or in rows (:class:`Shelf` measures
which fits). The bench is the rest: under a shelf of columns, a wide strip where the
recipe, the flask and the list of what is in it stand side by side; beside and under a
shelf of rows, where the tags stand until the bench needs their room. What must make
room at a beat (the tags, the recipe) is listed in :attr:`Bench.leaving`, so the scene
animates every frame the same way. Where the look-back grid and the bottles over it
stand is :mod:`scenes.components.potion_lookback`'s to say: the scene after opens on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Mobject, RoundedRectangle, VGroup

from production.language import _
from scenes import style
from scenes.base import ChapterScene, align_baselines, quoted, stack_lines, tint, words
from scenes.components.bar_list import INSIDE, BarList
from scenes.components.bottle import Flask
from scenes.components.lookback import LookbackGrid
from scenes.components.potion_layout import GAP, room_under, shown_ingredients
from scenes.components.potion_lookback import LOOKBACK_READER, Lookback, lookback_places
from scenes.components.shelf import Shelf
from scenes.components.spacing import closest, reach
from scenes.lines import balanced_lines, centred_lines, text_height, text_width
from scenes.numbers import decimal, percent, setting

#: a flask's width for its height (the body and the lip)
FLASK_ASPECT = 0.92


@dataclass
class Bench:
    """Every part of PotionMixing, placed for one frame."""

    shelf: Shelf
    potion_line: Mobject
    match_texts: list[str]
    recipe: Mobject
    flask: Flask
    full: VGroup  # "100%" over "full", beside the flask
    bars: BarList
    bars_title: Mobject
    moves: list[int]  # each word's place in the shuffled order
    tags_shuffle: bool  # the tags are still on the shelf when it is shuffled
    shuffle_shift: np.ndarray  # where the shuffled shelf moves, besides changing places
    flask_after: np.ndarray  # where the first flask stands while the second is poured
    flask_after_height: float  # ... and how tall it is there
    again: Flask
    in_order: Mobject
    shuffled: Mobject
    table_shift: np.ndarray  # the names and values of the list move so
    texts_shift: np.ndarray  # ... and the values close up on the names
    column: VGroup  # the shuffled flask's values, beside the first's
    order_head: Mobject
    shuffle_head: Mobject
    grid: LookbackGrid
    reader_line: Mobject  # the reader's shares under the grid, where its cells hold none
    lookback: Lookback  # where the bottles and names stand over the grid
    close_up: list[Mobject] = field(default_factory=list)  # the shelf's parts, close up
    reader: str = LOOKBACK_READER
    leaving: dict[str, list[Mobject]] = field(default_factory=dict)


def lay_out(scene: ChapterScene, titles: Iterable[str]) -> Bench:
    """The parts of PotionMixing placed in ``scene``'s frame, under its headings."""
    n = scene.numbers
    scale = scene.frame().type
    room = room_under(scene, titles)
    left, right, bottom, top = room
    features = n["query_features"]
    leading = [features[max(range(len(key)), key=lambda i: key[i])] for key in n["keys"]]
    match_texts = [decimal(m, 1) for m in n["matches"]]
    pour_texts = [percent(s, small=True) for s in n["pour"]]
    bench = recipe_card(n, scale.minimum).height + 0.3  # the least the bench needs
    lookback = lookback_places(scene, n["words"])
    for label, number in ((scale.label, scale.number), (scale.minimum, scale.minimum)):
        shelf = Shelf(n["words"], leading, match_texts + pour_texts, (_("match"), _("pour")), room,
                      label=label, number=number, small=scale.minimum,
                      bottle_room=max(0.8, min(1.7, top - bottom - bench - 2.6)))
        parts = dict(shelf=shelf, match_texts=match_texts, moves=_moves(n), lookback=lookback,
                     **_close_up(n, shelf, room, scale.body))
        if shelf.columns:
            return _on_columns(scene, room, parts)
        laid = _on_rows(scene, room, parts)
        if laid is not None:
            return laid
    return _on_rows(scene, room, parts, force=True)


def _close_up(n: dict, shelf: Shelf, room, size: int) -> dict:
    """The shelf close up, its bottles the largest thing in the room, and what is in one
    potion where its tags will stand: under the names of a shelf of columns (at ``size``),
    right of the names of a shelf of rows."""
    left, right, _, _ = room
    close = shelf.close_up(room)
    count = shelf.count
    names, tags = VGroup(*close[count:2 * count]), VGroup(*close[2 * count:3 * count])
    if shelf.columns:
        line = potion_line(n, size, right - left)
        line.move_to(((left + right) / 2, tags.get_top()[1], 0), aligned_edge=UP)
    else:
        x0 = names.get_right()[0] + GAP
        line = potion_line(n, shelf.size, right - x0)
        line.move_to(((x0 + right) / 2, tags.get_top()[1], 0), aligned_edge=UP)
    return dict(close_up=close, potion_line=line)


def reader_line(n: dict, places: Lookback, room) -> VGroup:
    """Where the grid's cells are too narrow for their shares: the reader's, written under
    the grid ('“still” pours: Sarah 12% · lies 30% · still 58%'); else nothing."""
    if places.numbered:
        return VGroup()
    left, right = room[:2]
    ri = n["words"].index(LOOKBACK_READER)
    pours = [f"{w} {percent(share, small=True)}"
             for w, share in zip(n["words"][:ri + 1], n["masked_grid"][ri][:ri + 1])]
    pours[0] = _("{reader} pours: {share}").format(
        reader=tint(quoted(LOOKBACK_READER), style.QUERY), share=pours[0])
    lines = centred_lines(balanced_lines(pours, places.size, right - left, rich=True,
                                         sep="  \u00b7  "), places.size, rich=True)
    grid_bottom = places.top - places.step * len(n["words"])
    return lines.move_to(((left + right) / 2, grid_bottom - GAP, 0), aligned_edge=UP)


def _grid(n: dict, places: Lookback) -> LookbackGrid:
    """The look-back grid where ``places`` puts it."""
    return LookbackGrid(n["masked_grid"], n["words"], places.xs, places.pitch, places.top,
                        places.step, size=places.number_size,
                        reader_right=places.reader_right,
                        numbered=None if places.numbered else ())


# ------------------------------------------------------------------ the parts


def recipe_card(n: dict, size: int, width: float | None = None, *,
                most: float | None = None) -> VGroup:
    """The recipe (the query): its name, the features it wants, its sharpness, in a card.
    The features one a line under the name, the sharpness last (its figure on a line of
    its own if the card would be wider than ``most``); or with ``width``, the sharpness
    beside the name if it fits there, and the features on as few lines as fit the width."""
    ai = n["words"].index(n["asker"])
    wanted = [f for f, q in zip(n["query_features"], n["queries"][ai]) if q > 0]
    name = words(_("recipe (query)"), size, style.QUERY)
    figure = setting(n["sharpness"])
    sharpness = [words(_("sharpness {value}").format(value=figure), size, style.MUTED)]
    if width is None:
        features = [words(f, size) for f in wanted]
        if most is not None and sharpness[0].width + 0.3 > most:
            sharpness = [words(_("sharpness"), size, style.MUTED),
                         words(figure, size, style.MUTED)]
        lines = VGroup(name, *features, *sharpness)
        stack_lines(lines, closest(lines) + 0.04)
        for line in features:  # the wanted features, indented under the recipe's name
            line.shift(RIGHT * 0.3)
    else:
        middle = [words(line, size) for line in
                  balanced_lines(wanted, size, width - 0.3, sep=" \u00b7 ")]
        beside = sharpness[0].next_to(name, RIGHT, buff=0.5)
        align_baselines([name, beside])
        if VGroup(name, beside).width + 0.3 <= width:
            lines = VGroup(VGroup(name, beside), *middle)
        else:  # the sharpness on a line of its own, last
            lines = VGroup(name, *middle, beside)
        stack_lines(lines, closest([name, *middle, beside]) + 0.04)
    card = RoundedRectangle(corner_radius=0.12, width=lines.width + 0.3,
                            height=lines.height + 0.25, stroke_color=style.QUERY,
                            stroke_width=2).set_fill(style.QUERY, opacity=0.06)
    return VGroup(card, lines.move_to(card))


def potion_line(n: dict, size: int, width: float) -> VGroup:
    """What is in the asker's potion: on one line if it fits ``width``, else its opening
    over its ingredients on as few lines as fit."""
    ai = n["words"].index(n["asker"])
    inside = n["values"][ai]
    contents = sorted((i for i in range(len(inside)) if inside[i] > 0), key=lambda i: -inside[i])
    opening = _("the potion of {word}:").format(word=tint(quoted(n["asker"]), style.VALUE))
    parts = [f"{n['value_ingredients'][i]} {percent(inside[i], small=True)}" for i in contents]
    one = opening + "  " + "  \u00b7  ".join(parts)
    if centred_lines([one], size, rich=True).width <= width:
        return centred_lines([one], size, rich=True)
    return centred_lines([opening, *balanced_lines(parts, size, width, rich=True,
                                                   sep="  \u00b7  ")], size, rich=True)


def mixture_bars(n: dict, size: int, bar: float, step: float) -> tuple[BarList, Mobject]:
    """What is in the mixed flask: its largest ingredients and the tracked ones, and the
    list's name."""
    mix = n["mixture"]
    shown = shown_ingredients(mix)
    bars = BarList(shown, [mix[s] for s in shown], [percent(mix[s], small=True) for s in shown],
                   max_width=bar, row_step=step, size=size)
    return bars, words(_("in the flask"), size, style.MUTED)


def _moves(n: dict) -> list[int]:
    """Each word's place in the shuffled order."""
    moves: list[int] = []
    for word in n["words"]:
        moves.append(next(k for k, w in enumerate(n["shuffled_words"])
                          if w == word and k not in moves))
    return moves


def _flask(height: float) -> Flask:
    return Flask(height=1.45).scale_to_fit_height(height)


def _full(n: dict, scale) -> VGroup:
    full = words(percent(sum(n["pour"]), small=True), scale.number)
    note = words(_("full"), scale.minimum, style.MUTED)
    return VGroup(full, note).arrange(DOWN, buff=0.1)


def _shuffled_column(n: dict, bars: BarList, size: int, x: float) -> VGroup:
    """The shuffled flask's share of each ingredient the list shows, left-aligned at
    ``x`` on its rows."""
    si = n["shuffled_words"].index(n["asker"])
    after = dict(zip(n["value_ingredients"], n["shuffled_flasks"][si]))
    column = VGroup()
    for name in bars.get_names():
        label = words(percent(after[name.original_text], small=True), size, style.GOOD)
        label.move_to((x, 0, 0), aligned_edge=LEFT)
        align_baselines([name, label])
        column.add(label)
    return column


# ------------------------------------------------------------------ a shelf of columns


def _on_columns(scene: ChapterScene, room, parts: dict) -> Bench:
    """The shelf's columns across the top; under them a strip with the recipe, the flask
    and its list side by side. The tags stay until the look-back grid takes their room."""
    n = scene.numbers
    scale = scene.frame().type
    shelf: Shelf = parts["shelf"]
    left, right, bottom = room[:3]
    top = shelf.shelf_bottom() - GAP  # of the bench
    height = top - bottom
    recipe = recipe_card(n, scale.label)
    if recipe.height > height:
        recipe = recipe_card(n, scale.minimum)
    recipe.move_to((left, top, 0), aligned_edge=LEFT + UP)
    label_h = text_height(_("in order"), scale.label) + 0.15
    flask = _flask(min(height - label_h - 0.1, 2.6))
    flask.next_to(recipe, RIGHT, buff=0.6).align_to(recipe, UP)
    full = _full(n, scale).next_to(flask, RIGHT, buff=0.25)

    title_h = text_height(_("in the flask"), scale.label) + GAP
    rows = len(shown_ingredients(n["mixture"]))
    names = [words(k, scale.label) for k in shown_ingredients(n["mixture"])]
    step = max(closest(names), min(0.7, (height - title_h - reach(names)) / (rows - 1)))
    widest = max(m.width for m in names) + 2 * INSIDE + text_width(percent(1.0), scale.label)
    bar = min(3.0, right - full.get_right()[0] - 0.8 - widest)
    bars, bars_title = mixture_bars(n, scale.label, bar, step)
    bars.move_to((right, top - title_h, 0), aligned_edge=RIGHT + UP)
    bars_title.next_to(bars, UP, buff=GAP).align_to(bars.get_bars(), LEFT)
    if bars_title.get_right()[0] > right:
        bars_title.set_x(right, RIGHT)

    # shuffled: the two flasks side by side where the recipe was, each named under it;
    # the list loses its bars and gains a column, each under its name
    flask_after = flask.get_center() + LEFT * (flask.get_left()[0] - left)
    again = _flask(flask.height).move_to(flask_after).shift(RIGHT * (flask.width + 0.9))
    in_order = words(_("in order"), scale.label, style.MUTED)
    shuffled = words(_("shuffled"), scale.label, style.MUTED)
    in_order.move_to(flask_after).align_to(flask, DOWN).shift(DOWN * label_h)
    shuffled.next_to(again, DOWN, buff=0.15)
    align_baselines([in_order, shuffled])
    texts_shift = LEFT * (bar + INSIDE)
    order_head = words(_("in order"), scale.label, style.MUTED)
    shuffle_head = words(_("shuffled"), scale.label, style.GOOD)
    texts_left = bars.get_texts().get_left()[0] + texts_shift[0]
    order_head.move_to((texts_left, bars_title.get_y(), 0), aligned_edge=LEFT)
    x = texts_left + order_head.width + 0.5
    column = _shuffled_column(n, bars, scale.label, x)
    shuffle_head.move_to((x, 0, 0), aligned_edge=LEFT)
    align_baselines([order_head, shuffle_head])
    over = max(0.0, max(column.get_right()[0], shuffle_head.get_right()[0]) - right)
    table_shift = LEFT * over  # the list moves left as far as its new column needs
    for m in (column, order_head, shuffle_head):
        m.shift(table_shift)

    return Bench(
        recipe=recipe, flask=flask, full=full, bars=bars,
        bars_title=bars_title, tags_shuffle=True, shuffle_shift=np.zeros(3),
        flask_after=flask_after, again=again, in_order=in_order, shuffled=shuffled,
        table_shift=table_shift, texts_shift=texts_shift, column=column,
        order_head=order_head, shuffle_head=shuffle_head, grid=_grid(n, parts["lookback"]),
        reader_line=reader_line(n, parts["lookback"], room),
        flask_after_height=flask.height,
        leaving={"mixture": [recipe],
                 "lookback": [shelf.tags, shelf.tag_name, shelf.potion_name]}, **parts)


# ------------------------------------------------------------------ a shelf of rows


def _on_rows(scene: ChapterScene, room, parts: dict, force: bool = False) -> Bench | None:
    """The shelf's rows at the top. The potion's line stands where the tags will. The
    recipe goes under the rows if it fits there, and the flask where the tags stand (they
    leave for it); else the recipe goes where the tags stand (they leave for it earlier)
    and the flask under it. The list of what is in the flask takes the recipe's place as
    the recipe leaves. None if the parts do not fit (unless ``force``)."""
    n = scene.numbers
    scale = scene.frame().type
    shelf: Shelf = parts["shelf"]
    left, right, bottom = room[:3]
    width = right - left
    below = shelf.shelf_bottom() - GAP  # the top of the room under the rows
    low = below - bottom
    beside = shelf.name_right + GAP  # the left of the room where the tags stand
    rows_top = shelf.potion_name.get_top()[1]
    tags_top = shelf.tags.get_top()[1]  # under the names of the columns
    size = shelf.size
    leaving: dict[str, list[Mobject]] = {"lookback": [shelf.potion_name]}

    full = _full(n, scale)
    title_h = text_height(_("in the flask"), size) + GAP
    names = [words(k, size) for k in shown_ingredients(n["mixture"])]
    widest = max(m.width for m in names) + 2 * INSIDE + text_width(percent(1.0), size)

    def bars_in(x0: float, x1: float, y1: float, y0: float, titled: bool = True):
        """The list of the mixture in the box x0..x1, y0..y1 (its title over it if
        ``titled`` and there is room)."""
        step = max(closest(names), min(0.6, (y1 - y0 - title_h * titled - reach(names))
                                       / (len(names) - 1)))
        bars, bars_title = mixture_bars(n, size, max(0.3, min(2.5, x1 - x0 - widest)), step)
        bars.move_to((x0, y1 - title_h * titled, 0), aligned_edge=LEFT + UP)
        if bars.get_right()[0] > x1:  # its shortest bars, wider values (Spanish): closer
            bars.shift(LEFT * (bars.get_right()[0] - x1))
        bars_title.next_to(bars, UP, buff=GAP).align_to(bars.get_bars(), LEFT)
        if bars_title.get_right()[0] > x1:
            bars_title.set_x(x1, RIGHT)
        return bars, bars_title if titled else VGroup()

    column = recipe_card(n, size, most=right - beside)
    wide_card = recipe_card(n, size, width)
    if wide_card.height <= low:  # the recipe under the rows, the flask where the tags are
        recipe = wide_card.move_to(((left + right) / 2, below, 0), aligned_edge=UP)
        flask = _flask(min(2.0, (right - beside - full.width - 0.2) / FLASK_ASPECT))
        flask.move_to((beside, tags_top, 0), aligned_edge=LEFT + UP)
        full.next_to(flask, RIGHT, buff=0.2)
        leaving["pour"] = [shelf.tags, shelf.tag_name]
        leaving["mixture"] = [recipe]
        titled = reach(names) + (len(names) - 1) * closest(names) + title_h <= low
        bars, bars_title = bars_in(left, right, below, bottom, titled)
    else:  # the recipe where the tags are (they leave for it), the flask under it
        recipe = column.move_to((beside, tags_top, 0), aligned_edge=LEFT + UP)
        flask_room = recipe.get_bottom()[1] - GAP - bottom  # for the flask under it
        if (recipe.get_right()[0] > right + 1e-6 or flask_room < 0.8) and not force:
            return None
        leaving["recipe"] = [shelf.tags, shelf.tag_name]
        flask = _flask(min(1.6, flask_room, (right - beside - full.width - 0.2) / FLASK_ASPECT))
        flask.move_to((beside, recipe.get_bottom()[1] - GAP, 0), aligned_edge=LEFT + UP)
        full.next_to(flask, RIGHT, buff=0.2).align_to(flask, UP)
        leaving["mixture"] = [recipe]
        bars, bars_title = bars_in(beside, right, tags_top, recipe.get_bottom()[1])
    # shuffled: the shelf closes up into the numbers' column; in the room right of it the
    # two flasks stand over two columns of values, the list's names at their left
    label_h = text_height(_("in order"), size) + 0.15
    shift = LEFT * (shelf.bottles[0].get_left()[0] - left)
    x0 = shelf.name_right + shift[0] + GAP
    texts_shift = LEFT * (bars.max_width + INSIDE)
    names_w = bars.get_names().width
    value_w = max(t.width for t in bars.get_texts())
    pitch = max(value_w + 0.3, 1.0)
    table_left = max(x0, right - names_w - INSIDE - 2 * pitch)
    table_shift = RIGHT * (table_left - bars.get_names().get_left()[0])
    after_names_right = bars.get_names().get_right()[0] + table_shift[0]
    col1 = after_names_right + INSIDE
    col2 = col1 + pitch
    texts_shift = RIGHT * (col1 - bars.get_texts().get_left()[0] - table_shift[0])
    column = _shuffled_column(n, bars, size, col2)
    # wider values (a space before the percent sign, in Spanish): the second column and
    # the flask over it (as wide as the pitch less 0.1, centred over the values) close up
    # to stay in the frame
    fits = min(pitch - (column.get_right()[0] - right),
               (right - col1 - value_w / 2 + 0.05) / 1.5)
    if fits < pitch - 1e-6:
        pitch = fits
        col2 = col1 + pitch
        column = _shuffled_column(n, bars, size, col2)
    table_top = bars.get_top()[1]
    f_h = min(1.6, (pitch - 0.1) / FLASK_ASPECT)
    flask_after = np.array([col1 + value_w / 2, rows_top - label_h - f_h / 2, 0])
    again = _flask(f_h).move_to(flask_after + RIGHT * pitch)
    in_order = words(_("in order"), size, style.MUTED)
    shuffled = words(_("shuffled"), size, style.GOOD)
    in_order.next_to(flask_after + LEFT * again.width / 2, LEFT, buff=0.2)
    shuffled.next_to(again, UP, buff=0.1)
    if shuffled.get_right()[0] > right:
        shuffled.set_x(right, RIGHT)
    order_head, shuffle_head = VGroup(), VGroup()
    table_top_after = table_top + table_shift[1]
    drop = table_top_after - (flask_after[1] - f_h / 2 - GAP)  # the table under the flasks
    table_shift = table_shift + DOWN * drop
    column.shift(DOWN * drop)

    return Bench(
        recipe=recipe, flask=flask, full=full, bars=bars,
        bars_title=bars_title, tags_shuffle=False, shuffle_shift=shift,
        flask_after=flask_after, again=again, in_order=in_order, shuffled=shuffled,
        flask_after_height=f_h, table_shift=table_shift, texts_shift=texts_shift,
        column=column, order_head=order_head, shuffle_head=shuffle_head,
        grid=_grid(n, parts["lookback"]),
        reader_line=reader_line(n, parts["lookback"], room), leaving=leaving, **parts)


__all__ = ["Bench", "lay_out", "mixture_bars", "potion_line", "recipe_card"]

