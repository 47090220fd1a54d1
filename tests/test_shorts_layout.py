"""Every scene laid out for a short's tall 9:16 frame: the same layout checks as the
chapter at the end of every beat (inside the frame, no overlap, no text under the size a
phone needs), plus the safe zones: nothing in the top 10 % or the bottom 20 % where the
apps draw their buttons, nor in the band the captions are burned into."""

from __future__ import annotations

import pytest
from manim import Square, config, tempconfig

from scenes import style
from scenes.attention.chapter import CHAPTER
from scenes.base import layout_problems, unsafe, words


@pytest.mark.parametrize("name", [s.__name__ for s in CHAPTER.scenes])
def test_every_beat_fits_the_tall_frame(build_scene, name):
    scene = build_scene(name, layout="tall")
    assert scene.layout_problems == []
    assert [b.name for b in scene.beat_log] == list(scene.beat_seconds)
    assert scene.timing_problems == []


@pytest.mark.parametrize("name", [s.__name__ for s in CHAPTER.scenes])
def test_the_tall_layout_shows_the_same_words_and_numbers(build_scene, name):
    """One scene, two layouts: every number the wide frame shows is shown tall too."""
    wide, tall = build_scene(name), build_scene(name, layout="tall")
    numbers = {beat: sorted(w for t in texts for w in t.split() if any(c.isdigit() for c in w))
               for beat, texts in wide.shown.items()}
    assert {beat: sorted(w for t in texts for w in t.split() if any(c.isdigit() for c in w))
            for beat, texts in tall.shown.items()} == numbers


def test_the_safe_zones_are_where_the_apps_draw():
    with tempconfig({"frame_width": style.TALL_WIDTH, "frame_height": style.TALL_HEIGHT}):
        half = config.frame_height / 2
        safe = (-3.5, 3.5, -half + style.SAFE_BOTTOM + style.CAPTION_BAND,
                half - style.SAFE_TOP)
        low = Square(0.5).move_to([0, -half + 0.1 * 2 * half, 0])  # 10 % up: under buttons
        high = words("top", style.BODY).move_to([0, half - 0.05 * 2 * half, 0])
        band = Square(0.5).move_to([0, -half + style.SAFE_BOTTOM + 0.5, 0])
        clear = Square(0.5).move_to([0, 0, 0])
        assert len(unsafe([low, high, band, clear], "here", safe)) == 3
        assert unsafe([clear], "here", safe) == []
        small = words("tiny", style.MIN_FONT_SIZE)
        assert any("too small" in p for p in layout_problems(
            [small], "here", min_size=style.TALL_MIN_FONT_SIZE))
