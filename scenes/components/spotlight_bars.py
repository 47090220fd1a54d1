"""The bar shots' stage (:class:`BarShot`): the lamp at the top of the area, the words
under it across the area's width, their bars down to its bottom, the budget at their
side, and the shot's own part (the sharpness dial, the look-back box); and how the light
moves from one setting, or one asker, to the next.

Where the room is wider than tall, the budget stands as a column at the right of the
bars; where it is taller than wide, it lies as a bar under them. The shot's own part
takes a column at the left when there is room for it, and a line under the bars
otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    FadeIn,
    FadeOut,
    FadeTransform,
    Mobject,
    ReplacementTransform,
    VGroup,
)

from production.language import _
from scenes import style
from scenes.base import align_baselines, quoted, words
from scenes.components.spotlight import ShareBars, SpotlightStage, caption_parts
from scenes.components.spotlight_shot import (
    BAR_SHARE,
    GAP,
    MAX_COLUMN,
    SpotlightShot,
    height,
)
from scenes.lines import text_width
from scenes.numbers import percent, setting

#: how far the lamp hangs above the words, as a share of the area's height, and the
#: least and most that may be (scene units); the hand trace's is
#: :data:`scenes.components.spotlight_trace.TRACE_RISE`
RISE = (0.18, 1.0, 2.0)


@dataclass
class Light:
    """What is on stage in a bar shot: the words and lamp, the bars, the budget's total,
    the texts that change, and the shot's own part (``beside``: in a column at the left)."""

    stage: SpotlightStage
    bars: ShareBars
    total: VGroup
    percents: VGroup
    caption: VGroup
    side: Mobject
    beside: bool


class BarShot(SpotlightShot):
    """A spotlight shot of bars: the light shared out under the words, the budget beside."""

    def asks(self, stage: SpotlightStage, word: str, asker: int) -> VGroup:
        """The lamp's caption for the bar shots: '“cat” asks'."""
        left, right = self.area()[:2]
        parts = caption_parts(_("{word} asks"), {"word": (quoted(word), style.INK)})
        return stage.make_caption(parts, asker, size=self.sizes.label, bounds=(left, right))

    def light(self, names: Sequence[str], asker: int, shares: Sequence[float],
              visible: Sequence[bool] | None = None, *,
              side: Callable[[bool], Mobject]) -> Light:
        """The stage for the bar shots, laid out for the frame: the lamp at the top of
        the area, the words under it across the area's width, their bars down to its
        bottom, and the budget column at their right (where the room is taller than
        wide, a budget bar under them instead).

        ``side(beside)`` makes the shot's own part: for a column of its own at the
        left of the words (True), taken when the columns still have room for a full
        bar's percent, or for a line under everything else (False).
        """
        s = self.sizes
        left, right, bottom, top = self.area()
        width, room = self.frame().room()
        below = not self.frame().across  # no room at the right: the budget lies under the bars
        count = len(names) + (0 if below else 1)
        part = side(True)
        beside = width - part.width - GAP >= count * (text_width(percent(1.0), s.number) + GAP)
        if not beside:
            part = side(False)
        start = left + (part.width + GAP if beside else 0.0)
        column = min((right - start) / count, MAX_COLUMN)
        start += ((right - start) - count * column) / 2  # centred, when the columns are capped

        stage = SpotlightStage(names, asker, shares=shares, rise=self.rise(RISE, room),
                               column=column, word_size=s.body)
        self.hang(stage, start, 0.0)
        caption = self.asks(stage, names[asker], asker)
        self.to_top(stage, caption)

        # the tracks from under a full bar's percent down to what stands below them: the
        # budget bar and its total (measured on bars of height 1), and the shot's part
        def make_bars(full: float) -> tuple[ShareBars, VGroup]:
            bars = ShareBars(stage, shares, height=full, width=BAR_SHARE * column, apart=0.0,
                             below=below, text_size=s.label, value_size=s.number)
            return bars, bars.make_total_label(_("total"), percent(self.numbers["exact_total"]))

        trial, label = make_bars(1.0)
        under = trial.get_tracks().get_bottom()[1] - min(trial.get_bottom()[1],
                                                         label.get_bottom()[1])
        under += 0.0 if beside else 2 * GAP + part.height
        tracks_top = stage.get_words().get_bottom()[1] - height(s.number) - 0.12 - GAP
        bars, total = make_bars(tracks_top - bottom - under)
        shift = UP * (tracks_top - bars.get_tracks().get_top()[1])
        bars.shift(shift)
        self.inside(total.shift(shift))
        if beside:
            part.next_to((start - GAP, 0, 0), LEFT, buff=0)
            part.align_to(stage.get_words(), UP)
        else:
            lowest = min(bars.get_bottom()[1], total.get_bottom()[1])
            part.move_to(self.centre(), coor_mask=RIGHT)
            part.shift(UP * (lowest - 2 * GAP - part.get_top()[1]))

        percents = self.percent_labels(bars, shares, visible, column)
        hidden = [False] * len(names) if visible is None else [not v for v in visible]
        for word, dark in zip(stage.get_words(), hidden):
            word.set_opacity(0.3 if dark else 1.0)
        return Light(stage, bars, total, percents, caption, part, beside)

    @staticmethod
    def on_stage(lit: Light) -> list[Mobject]:
        """What a bar shot shows but its own part, back to front: beams, words, lamp,
        caption, bars, percents and total."""
        stage = lit.stage
        return [stage.get_beams(), stage.get_words(), stage.get_lamp(), lit.caption,
                lit.bars, lit.percents, lit.total]

    def moves(self, stage: SpotlightStage, caption: VGroup, lit: Light) -> list:
        """Animations that carry a stage on screen (beams, words, lamp and caption) into
        ``lit``'s: the caption's texts move along, a word it changes fading into the new
        one on the way, and what it loses fades."""
        new = lit.stage
        anims = [ReplacementTransform(stage.get_beams(), new.get_beams()),
                 ReplacementTransform(stage.get_words(), new.get_words()),
                 ReplacementTransform(stage.get_lamp(), new.get_lamp())]
        for k, part in enumerate(lit.caption):
            if k >= len(caption):
                anims.append(FadeIn(part))
            elif caption[k].original_text == part.original_text:
                anims.append(ReplacementTransform(caption[k], part))
            else:  # another word: the one fades into the other as it moves
                anims.append(FadeTransform(caption[k], part))
        anims += [FadeOut(old) for old in caption[len(lit.caption):]]
        return anims

    def relight(self, lit: Light, names: Sequence[str], shares: Sequence[float], *,
                asker: int | None = None, visible: Sequence[bool] | None = None,
                extra: Sequence = (), held: Sequence[int] = (), run_time: float) -> None:
        """The light moves to new shares (and the lamp to a new asker): beams, bars, texts.

        The percents of the words in ``held`` (indices) stay off screen, for the scene
        to bring in later; they are in ``lit.percents`` all the same.
        """
        stage, bars = lit.stage, lit.bars
        percents = self.percent_labels(bars, shares, visible, stage.column)
        shown = VGroup(*(p for i, p in enumerate(percents) if i not in held))
        anims = [bars.make_shares_animation(shares),
                 FadeOut(lit.percents), FadeIn(shown), *extra]
        dimmed = None if visible is None else [not v for v in visible]
        moving = asker is not None and asker != stage.asker
        if moving:
            caption = self.asks(stage, names[asker], asker)
            anims += [FadeOut(lit.caption), FadeIn(caption)]
            lit.caption = caption
        anims.append(stage.make_light_animation(shares, asker, dimmed))
        self.play(*anims, run_time=run_time)
        lit.percents = percents

    def settle(self, lit: Light, names: Sequence[str], shares: Sequence[float],
               asker: int) -> None:
        """``lit`` as :meth:`relight` to ``shares`` with ``asker`` asking leaves it, at once
        (for a stage not yet on screen)."""
        stage, bars = lit.stage, lit.bars
        stage.asker = asker
        stage.get_lamp().move_to(stage.lamp_point(asker))
        stage.get_beams().become(stage.make_beams(shares))
        bars.get_bars().become(bars.make_bars(shares))
        bars.get_segments().become(bars.make_segments(shares))
        lit.caption = self.asks(stage, names[asker], asker)
        lit.percents = self.percent_labels(bars, shares, None, stage.column)

    def dial_light(self) -> Light:
        """The sharpness sweep's stage: the asker's light at the sweep's first sharpness,
        the dial at the left of the words or under the bars (SharpnessDial's, and what
        LookBackRule opens on)."""
        n = self.numbers
        names = n["words"]
        first = n["sharpness_sweep"][0]
        return self.light(names, names.index(n["asker"]), first["shares"],
                          side=lambda beside: self.dial(first["sharpness"], beside))

    def dial(self, sharpness: float, beside: bool) -> VGroup:
        """The dial: its name and its setting, under the name (``beside``, in a column
        at the left) or after it on its baseline."""
        s = self.sizes
        name = words(_("sharpness"), s.label, style.MUTED)
        value = words(setting(sharpness), s.heading, style.INK)
        if beside:
            value.next_to(name, DOWN, buff=0.2).align_to(name, RIGHT)
        else:
            value.next_to(name, RIGHT, buff=0.25)
            align_baselines([name, value])
        return VGroup(name, value)
