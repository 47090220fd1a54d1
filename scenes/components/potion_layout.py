"""What the potion scenes share: the ingredients a list follows, headings that fit the
frame, and the measurements their layouts are made of.

A layout here is measured, never chosen by the frame's name: a heading takes as many
lines as the frame's width needs, and the room under the tallest of a scene's headings
is where its pictures go, so they stand still while the headings change.
"""

from __future__ import annotations

from collections.abc import Iterable

from manim import UP, FadeIn, FadeOut, Mobject, VGroup

from scenes import style
from scenes.base import ChapterScene, drawn_characters, tint
from scenes.components.bottle import Bottle, Tag
from scenes.lines import wrapped

#: the ingredients the story follows: what "lies" means in this sentence, and
#: what it does not; a bar list always shows them, besides its largest rows
TRACKED = ("tired", "dishonest")
#: how many of the largest ingredients a bar list of a flask shows
TOP = 3
#: from a heading to the picture under it, and between neighbouring parts (scene units)
GAP = 0.3

Room = tuple[float, float, float, float]  # left, right, bottom, top (scene units)


def shown_ingredients(mix: dict[str, float], *also: dict[str, float]) -> list[str]:
    """The ingredients a bar list shows, largest first: the largest few, then the tracked
    ones, then any that ``also`` (another mix of the same ingredients) holds."""
    names = sorted(mix, key=lambda name: -mix[name])[:TOP]
    names += [t for t in TRACKED if t in mix and t not in names]
    for other in also:
        names += [k for k in sorted(mix, key=lambda name: -mix[name])
                  if other.get(k, 0) > 0 and k not in names]
    return names


def written_next(last_word: str, predicted: str) -> str:
    """The markup of the heading once the next word is written: the prompt's last
    word, then the predicted word in bold: '… feeling tired'."""
    return f"\u2026 {last_word} {tint(f'<b>{predicted}</b>', style.GOOD)}"


def written_heading(scene: ChapterScene, last_word: str, predicted: str) -> VGroup:
    """The heading once the next word is written ('… feeling tired'): ChemistryAndAssembly
    ends on it, and TheMisreading opens with it where it was left."""
    return heading(scene, written_next(last_word, predicted))


def glyphs(lines: VGroup, word: str) -> VGroup:
    """The glyphs that draw the last ``word`` in ``lines`` (texts one under another, as
    :func:`heading` sets them), to move them on their own."""
    pairs = [(c, g) for line in lines for c, g in zip(drawn_characters(line), line.submobjects)]
    start = "".join(c for c, _ in pairs).rindex(word)
    return VGroup(*(g for _, g in pairs[start:start + len(word)]))


def heading(scene: ChapterScene, text: str) -> VGroup:
    """A heading (Pango markup) at the top of the frame's room, on as many lines as its
    width needs."""
    left, right, _, top = scene.area()
    size = scene.frame().type.heading
    lines = wrapped(text, size, right - left, rich=True)
    if lines.width > right - left:  # a line measured word by word came out a shade wider
        lines = wrapped(text, size, right - left - (lines.width - (right - left)) - 0.05,
                        rich=True)
    return lines.move_to((scene.centre()[0], top, 0), aligned_edge=UP)


def room_under(scene: ChapterScene, texts: Iterable[str]) -> Room:
    """The room under the tallest of the headings ``texts``: where the pictures go."""
    left, right, bottom, _ = scene.area()
    return left, right, bottom, min(heading(scene, t).get_bottom()[1] for t in texts) - GAP


def retitle(scene: ChapterScene, old, new, run_time: float, *also):
    """The heading cross-fades to ``new`` (with the animations ``also``)."""
    scene.play(FadeOut(old, shift=UP * 0.15), FadeIn(new, shift=UP * 0.15), *also,
               run_time=run_time)
    return new


def fade(m, opacity: float, shift):
    """An animation: ``m`` fades to ``opacity`` while moving by ``shift``; bottles and
    tags keep their glass unfilled and their card tinted (their own ``fade_to``)."""
    if isinstance(m, (Bottle, Tag)):
        return m.animate.fade_to(opacity).shift(shift)
    return m.animate.set_opacity(opacity).shift(shift)


def centred_in(m: Mobject, room: Room) -> Mobject:
    """``m`` moved to the middle of ``room``."""
    left, right, bottom, top = room
    return m.move_to(((left + right) / 2, (bottom + top) / 2, 0))


__all__ = ["GAP", "TOP", "TRACKED", "Room", "centred_in", "fade", "glyphs", "heading",
           "retitle", "room_under", "shown_ingredients", "written_heading", "written_next"]
