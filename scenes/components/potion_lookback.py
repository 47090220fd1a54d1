"""Where the look-back grid of the potion scenes stands under its heading, and every
word's bottle and name over its column (:func:`lookback_places`): PotionMixing ends on
it, and ChemistryAndAssembly opens with the last word's bottle where PotionMixing left
it (:func:`last_bottle`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import VGroup

from production.language import N_, _
from scenes.base import ChapterScene, baseline, words
from scenes.components.potion_layout import GAP, room_under
from scenes.components.shelf import BOTTLE_HEIGHT, BOTTLE_WIDTH, shelf_bottle
from scenes.components.spacing import closest, reach
from scenes.lines import text_height, text_width
from scenes.numbers import percent

#: the reader whose look-back row is picked out: "still" sees only the words
#: before it and itself
LOOKBACK_READER = "still"
#: the look-back beat's heading: the grid stands in the room under it
LOOKBACK_HEADING = N_("Each word looks back")
#: how much of a bottle and of its name shows once they are closed to the reader
CLOSED_BOTTLE, CLOSED_NAME = 0.25, 0.35


@dataclass
class Lookback:
    """Where the look-back grid stands under its heading, and every word's bottle and name
    over its column: the same in PotionMixing, which ends on it, and in the scene after,
    which opens with the last word's bottle where PotionMixing left it."""

    bottles: list[np.ndarray]  # each bottle's centre
    names: list[np.ndarray]  # each name's centre
    bottle_height: float
    size: int  # of the names and of the readers
    number_size: int  # of the shares in the cells
    xs: list[float]  # the columns' centres
    pitch: float  # from a column to the next
    top: float  # the grid's first row's top
    step: float  # from a row to the next
    reader_right: float | None  # the readers' right edge, None where they are not named
    numbered: bool  # every seen cell writes its share; else none, and the reader's go under it


def lookback_places(scene: ChapterScene, sentence: list[str]) -> Lookback:
    """The look-back grid, as large as the room under its heading allows: a column per
    word, the readers named at the left if the columns leave room, the bottles over the
    columns and their names under them (on two staggered lines if one is too narrow)."""
    scale = scene.frame().type
    left, right, bottom, top = room_under(scene, (_(LOOKBACK_HEADING),))
    width, count = right - left, len(sentence)
    size = scale.label
    names = [words(w, size) for w in sentence]
    reader_w = max(m.width for m in names) + 0.15
    available = width - 0.3  # a margin for the frame round the reader's row
    for number, readers in ((scale.number, True), (scale.minimum, True),
                            (scale.number, False), (scale.minimum, False)):
        cell = text_width("00%", number) + 0.16  # a percent with a margin round it
        if (available - reader_w * readers) / count >= cell:
            numbered = True
            break
    else:  # too narrow for every share: only the reader's row writes them
        number, readers, numbered = scale.minimum, False, False
    pitch = (available - reader_w * readers) / count
    whole = text_width(percent(1.0), number)  # the first cell's, the widest
    if numbered and whole > pitch - 0.08:  # it may overhang its cell, not the room
        pitch = (available - reader_w * readers - whole / 2) / (count - 0.5)
    first = (left + right) / 2 - (count * pitch - reader_w * readers) / 2 + pitch / 2
    xs = [first + pitch * j for j in range(count)]
    staggered = max(m.width for m in names) + 0.1 > pitch
    name_step = closest(names) + 0.1
    names_h = name_step * (2 if staggered else 1) + 0.1
    # the least step between the rows: a line of shares, or a thin band of shade; without
    # shares, the reader's are written under the grid, on two lines at most
    line = text_height(percent(0.0), number) + 0.2 if numbered else 0.3
    note = 0.0 if numbered else closest([words("Hg", size)] * 2) + reach([names[0]]) + GAP
    bottle_h = max(0.4, min(0.7 * pitch * BOTTLE_HEIGHT / BOTTLE_WIDTH, 1.2,
                            top - bottom - note - names_h - 0.15
                            - count * max(line, 0.55 if numbered else 0.45)))
    cap = text_height("H", size)  # from a baseline to the top of a capital
    bottles, places = [], []
    for j, name in enumerate(names):
        bottles.append(np.array([xs[j], top - bottle_h / 2, 0]))
        line_y = top - bottle_h - 0.1 - cap - (name_step * (j % 2) if staggered else 0)
        x = min(max(xs[j], left + name.width / 2), right - name.width / 2)
        places.append(np.array([x, line_y + name.get_y() - baseline(name), 0]))
    grid_top = top - bottle_h - 0.1 - names_h - 0.05
    step = max(line, min(0.8, (grid_top - bottom - note) / count))
    return Lookback(bottles, places, bottle_h, size, number, xs, pitch, grid_top, step,
                    xs[0] - pitch / 2 - 0.1 if readers else None, numbered)


def last_bottle(scene: ChapterScene, sentence: list[str]) -> VGroup:
    """The last word's bottle and name as the look-back leaves them: over the grid's last
    column, full, and closed (faded) if the word comes after the reader's."""
    places = lookback_places(scene, sentence)
    j = len(sentence) - 1
    bottle = shelf_bottle(places.bottle_height).move_to(places.bottles[j])
    name = words(sentence[j], places.size).move_to(places.names[j])
    if j > sentence.index(LOOKBACK_READER):
        bottle.fade_to(CLOSED_BOTTLE)
        name.set_opacity(CLOSED_NAME)
    return VGroup(bottle, name)


__all__ = ["CLOSED_BOTTLE", "CLOSED_NAME", "LOOKBACK_HEADING", "LOOKBACK_READER", "Lookback",
           "last_bottle", "lookback_places"]
