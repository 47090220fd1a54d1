"""What the spotlight shots share: how they write their numbers, how they measure a line
of figures, and :class:`SpotlightShot`, the stage every one of them stands on (its ledger
section, what its narration names, and the layout helpers all three use).

The hand trace is laid out in :mod:`scenes.components.spotlight_table` (its columns and how
a row's figures stand in them) and :mod:`scenes.components.spotlight_trace` (its stage and
rows); the bar shots in :mod:`scenes.components.spotlight_bars`.
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, UP, Mobject, VGroup

from production.language import N_, _, separator
from scenes import style
from scenes.base import ChapterScene
from scenes.components.spotlight import ShareBars, SpotlightStage
from scenes.frame import TypeScale
from scenes.lines import text_height, text_width
from scenes.numbers import decimal, percent, percent_figure, short

#: between neighbouring parts (scene units)
GAP = 0.25
#: the least room between two labels or values side by side (scene units)
APART = 0.15
#: the widest a word's column gets (scene units): wider, the beams thin out
MAX_COLUMN = 2.6
#: a bar is this share of its column's width
BAR_SHARE = 0.47
#: what a hidden word's cell says, and, where that would crowd a hidden neighbour's, a dash
HIDDEN, DASH = N_("hidden"), "\u2014"


# ------------------------------------------------------------------ formatting
def tenths(x: float) -> str:
    """Exponentials and their total to one decimal, as in the hand trace: 36.6, 64.8."""
    return decimal(x, 1)


def pair(values: Sequence[float]) -> str:
    """A label or a question, [thing, action]: '[0.9, 0.2]'."""
    return "[" + separator().join(short(v) for v in values) + "]"


def pair_2(values: Sequence[float]) -> str:
    """The new summary, [thing, action], to two decimals: '[0.82, 0.17]'."""
    return "[" + separator().join(decimal(v) for v in values) + "]"


def top_share(shares: Sequence[float]) -> int:
    """The index of the largest share (the first, if several are equal)."""
    return max(range(len(shares)), key=shares.__getitem__)


def split_power(text: str) -> list[str]:
    """A power of ten as two lines, its mantissa over its power: '1.4×10²⁹³' ->
    ['1.4×', '10²⁹³']; any other text as one."""
    mantissa, times, power = text.partition("\u00d7")
    return [mantissa + times, power] if times else [text]


# ------------------------------------------------------------------ measuring
def widest(texts: Sequence[str], size: int) -> float:
    """The width of the widest of ``texts`` at ``size`` (scene units)."""
    return max(text_width(t, size) for t in texts)


def height(size: int) -> float:
    """The height of a line of figures at ``size``, from the top of a digit to the
    bottom of a comma (scene units)."""
    return text_height("0,", size)


def line_step(size: int) -> float:
    """From a line of figures at ``size`` to the next, baseline to baseline (scene units)."""
    return height(size) + 0.12


def second_line(size: int) -> float:
    """From a row's figures at ``size`` down to its second line, baseline to baseline
    (scene units): figures hang nothing under the line."""
    return text_height("0", size) + 0.12


# ------------------------------------------------------------------ the shared stage
class SpotlightShot(ChapterScene):
    """The stage every spotlight shot stands on; subclasses tell the story."""

    section = "spotlight"

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers the narration names, from the same ledger as the pictures."""
        n = numbers
        back = n["lookback_rule"][n["asker"]]
        top = top_share(back["shares"])
        return {
            "asker": n["asker"],
            "budget": str(n["budget_points"]),
            "total": tenths(n["total"]),
            # in word order, one slot (and one mark) each: share_1 is the first word's
            **{f"share_{k}": str(p) for k, p in enumerate(n["shares_percent"], 1)},
            "rounded": str(n["rounded_total_percent"]),
            "top_word": n["top_word"],
            "back_top_word": n["words"][top],
            "back_top_percent": percent_figure(back["shares"][top]),
            "first_word": n["words"][0],
        }

    # ------------------------------------------------------------- layout
    @property
    def sizes(self) -> TypeScale:
        """The frame's type scale: every text here takes one of its sizes."""
        return self.frame().type

    @staticmethod
    def rise(share_min_max: tuple[float, float, float], room: float) -> float:
        """How far the lamp hangs above the words for an area ``room`` units high."""
        share, least, most = share_min_max
        return min(max(share * room, least), most)

    @staticmethod
    def hang(stage: SpotlightStage, left: float, lamp_y: float) -> SpotlightStage:
        """The word columns from x = ``left``, the lamp at height ``lamp_y``."""
        return stage.shift(RIGHT * (left - stage.get_cells().get_left()[0])
                           + UP * (lamp_y - stage.get_lamp().get_y()))

    def to_top(self, stage: SpotlightStage, caption: VGroup) -> None:
        """Lamp and caption moved up together until the higher touches the area's top."""
        highest = max(stage.get_lamp().get_top()[1], caption.get_top()[1])
        shift = UP * (self.area()[3] - highest)
        stage.shift(shift)
        caption.shift(shift)

    def inside(self, mobject: Mobject) -> Mobject:
        """``mobject`` moved left or right, as little as it takes, into the area."""
        left, right, _, _ = self.area()
        return mobject.shift(RIGHT * (min(0.0, right - mobject.get_right()[0])
                                      + max(0.0, left - mobject.get_left()[0])))

    def percent_labels(self, bars: ShareBars, shares: Sequence[float],
                       visible: Sequence[bool] | None, column: float) -> VGroup:
        """Each bar's share in percent above it, or 'hidden' for a word out of sight (in
        columns too narrow for two, every other one a line higher than its neighbour)."""
        s = self.sizes
        visible = visible if visible is not None else [True] * len(shares)
        texts = [percent(x) if v else _(HIDDEN) for x, v in zip(shares, visible)]
        colors = [style.WEIGHT if v else style.MUTED for v in visible]
        sizes = [s.number if v else s.minimum for v in visible]
        labels = bars.make_percent_labels(texts, shares, colors, sizes)
        if text_width(_(HIDDEN), s.minimum) + APART > column:
            for i in range(1, len(labels)):
                raised = labels[i - 1].get_y() > labels[i].get_y() + 0.01
                if not visible[i] and not visible[i - 1] and not raised:
                    labels[i].shift(UP * 1.3 * height(s.minimum))
        return labels
