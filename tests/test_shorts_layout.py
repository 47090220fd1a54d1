"""Every scene laid out for a short's tall 9:16 frame and a post's square 1:1 one: the
same layout checks as the chapter at the end of every beat (inside the frame, no
overlap, no text under the size a phone needs), plus the safe zones: nothing where the
apps draw their buttons, nor in the band the captions are burned into."""

from __future__ import annotations

import re

import pytest
from manim import Square, config, tempconfig

from scenes.attention.chapter import CHAPTER
from scenes.base import layout_problems, unsafe, words
from scenes.frame import TALL

pytestmark = pytest.mark.builds("attention")

SHORT_FRAMES = ("tall", "square")


@pytest.mark.parametrize("frame", SHORT_FRAMES)
@pytest.mark.parametrize("name", [s.__name__ for s in CHAPTER.scenes])
def test_every_beat_fits_the_frame(build_scene, name, frame):
    scene = build_scene(name, layout=frame)
    assert scene.layout_problems == []
    assert [b.name for b in scene.beat_log] == list(scene.beat_seconds)
    assert scene.timing_problems == []


@pytest.mark.parametrize("frame", SHORT_FRAMES)
@pytest.mark.parametrize("name", [s.__name__ for s in CHAPTER.scenes])
def test_every_frame_shows_the_same_numbers(build_scene, name, frame):
    """One scene, three frames: every number the wide frame shows is shown in the others."""
    wide, tall = build_scene(name), build_scene(name, layout=frame)

    def figures(shown):  # a vector may stand as a column: "[0.2," across, "[0.2" down
        return {beat: sorted(w.strip("[],") for t in texts
                             for w in re.sub(r"<[^>]+>", " ", t).split()
                             if any(c.isdigit() for c in w)) for beat, texts in shown.items()}

    narrow, full = figures(tall.shown), figures(wide.shown)
    if name == "PotionMixing":
        # the look-back grid, too narrow for a percent in every cell, shades them and
        # writes the reader's row under it: a part of the wide frame's figures
        shown, every = narrow.pop("lookback"), full.pop("lookback")
        assert shown and all(shown.count(f) <= every.count(f) for f in shown)
    assert narrow == full


def test_the_safe_zones_are_where_the_apps_draw():
    with tempconfig({"frame_width": TALL.width, "frame_height": TALL.height}):
        half = config.frame_height / 2
        safe = TALL.area()
        assert safe[2] == pytest.approx(-half + 0.2 * 2 * half + TALL.caption_band)
        assert safe[3] == pytest.approx(half - 0.1 * 2 * half)
        low = Square(0.5).move_to([0, -half + 0.1 * 2 * half, 0])  # 10 % up: under buttons
        high = words("top", TALL.type.body).move_to([0, half - 0.05 * 2 * half, 0])
        band = Square(0.5).move_to([0, -half + 0.2 * 2 * half + 0.5, 0])  # the captions
        clear = Square(0.5).move_to([0, 0, 0])
        assert len(unsafe([low, high, band, clear], "here", safe)) == 3
        assert unsafe([clear], "here", safe) == []
        small = words("tiny", TALL.type.minimum - 4)
        assert any("too small" in p for p in layout_problems(
            [small], "here", min_size=TALL.type.minimum))
