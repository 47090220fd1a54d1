"""One film: where a scene opens with what the scene before it left (its ``opens_with``),
the cut between the two cannot be seen. The first scene's last frame is the second's first
frame, to the pixel, while each scene is still drawn (and cached) on its own."""

from __future__ import annotations

import numpy as np
import pytest
from manim import DOWN, FadeIn, Square, VGroup

from production.chapters import discover
from production.paths import ROOT
from scenes import style
from scenes.attention.chapter import SCENES_IN_ORDER
from scenes.base import ChapterScene, words

pytestmark = pytest.mark.builds(param="chapter")

#: (chapter, first scene, second scene) wherever the second opens with the first's element
JOINS = [(name, a, b) for name, chapter in discover("scenes", ROOT / "scenes").items()
         for a, b in zip(chapter.scenes, chapter.scenes[1:]) if b.opens_with]

#: a colour channel may differ by this much where an edge's anti-aliasing rounds the
#: other way; more than that is a different drawing
ROUNDING = 8


def different(first, second) -> np.ndarray:
    """Where two RGB frames differ by more than rounding: a boolean per pixel."""
    a, b = np.asarray(first, dtype=int), np.asarray(second, dtype=int)
    assert a.shape == b.shape
    return np.abs(a - b).max(axis=2) > ROUNDING


def drawn(frame) -> float:
    """The share of a frame's pixels that are not the background."""
    background = np.array(style.BACKGROUND.to_int_rgb())
    return float((np.abs(np.asarray(frame, dtype=int) - background).max(axis=2)
                  > ROUNDING).mean())


def test_at_least_six_of_the_chapters_joins_carry_something_over():
    carried = [b for b in SCENES_IN_ORDER[1:] if b.opens_with]
    assert len(carried) >= 6, [b.__name__ for b in carried]


@pytest.mark.parametrize("chapter, before, after", JOINS,
                         ids=[f"{a.__name__}-{b.__name__}" for _, a, b in JOINS])
def test_the_cut_cannot_be_seen(build_scene, chapter, before, after):
    closing = build_scene(before.__name__, chapter=chapter).closing
    opening = build_scene(after.__name__, chapter=chapter).opening
    # the second scene opens on something ("the sentence"), not on an empty frame
    assert drawn(opening) > 0.002, f"{after.__name__} opens on an empty frame"
    # and on what the first left, where it left it: at most a few edge pixels differ
    # (0.02 % of the frame: eighty pixels at 854x480)
    changed = different(closing, opening)
    assert changed.mean() < 0.0002, (
        f"{before.__name__}'s last frame and {after.__name__}'s first differ in "
        f"{changed.sum()} pixels, around {np.argwhere(changed).mean(axis=0).round()}")


class _Handing(ChapterScene):
    """A square and two words; the scene ends on the square alone."""

    beat_seconds = {"one": 1.0, "two": 2.0}

    def construct(self) -> None:
        square = Square(2, color=style.INK)
        label = words("stays", 36).next_to(square, DOWN)
        other = words("leaves", 36).to_edge(DOWN)
        group = VGroup(square, label)
        self.beat("one")
        self.play(FadeIn(group), FadeIn(other), run_time=0.5)
        self.beat("two")
        self.wait(0.5)
        self.hand_over(square)


def test_a_hand_over_checks_the_whole_frame_then_ends_on_what_it_keeps(build_scene, tmp_path):
    scene = build_scene(_Handing)
    # the beat's checks saw everything...
    assert sorted(scene.shown["two"]) == ["leaves", "stays"]
    # ...in time, and the beat still lasted its length
    assert [round(b.end - b.start, 6) for b in scene.beat_log] == [1.0, 2.0]
    assert not scene.timing_problems
    # the last frame holds the square alone: the words (one of them inside the square's
    # own group) left, and stay gone
    kept = build_scene(_KeepsOnly).closing
    assert not different(scene.closing, kept).any()
    assert drawn(scene.closing) > 0.002


class _KeepsOnly(ChapterScene):
    """The square _Handing keeps, alone, where it stands."""

    beat_seconds = {"one": 1.0}

    def construct(self) -> None:
        self.beat("one")
        self.add(Square(2, color=style.INK))
        self.wait(0.5)
