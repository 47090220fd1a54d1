"""The three frames (wide, tall, square): their areas, type scales and flow; the burned
captions' band where the frames keep room for it; and the one text-fitting module."""

from __future__ import annotations

import itertools

import pytest

from production.drawing import frame_size
from production.outputs.burned import BANDS
from scenes.base import ChapterScene
from scenes.frame import FRAMES, SQUARE, TALL, WIDE, frame_named
from scenes.lines import balanced_lines, breakable, text_width, wrapped


@pytest.mark.parametrize("frame", FRAMES.values(), ids=list(FRAMES))
def test_the_area_is_inside_the_frame_and_keeps_its_margin(frame):
    left, right, bottom, top = frame.area()
    assert -frame.width / 2 + frame.margin <= left < right <= frame.width / 2 - frame.margin
    assert -frame.height / 2 + frame.margin <= bottom < top <= frame.height / 2 - frame.margin
    assert top <= frame.height / 2 - frame.safe_top + 1e-9
    assert bottom >= -frame.height / 2 + frame.safe_bottom + frame.caption_band - 1e-9


@pytest.mark.parametrize("frame", FRAMES.values(), ids=list(FRAMES))
def test_the_type_scale_runs_from_title_down_to_its_minimum(frame):
    scale = frame.type
    assert scale.title > scale.heading > scale.body >= scale.label >= scale.minimum
    assert scale.number >= scale.minimum
    assert min(scale.sizes()) == scale.minimum


def test_the_flow_follows_the_room():
    assert (WIDE.flow, TALL.flow, SQUARE.flow) == ("across", "down", "across")


def test_a_frame_that_is_not_one_is_named_with_those_there_are():
    with pytest.raises(ValueError, match="'round'.*wide, tall, square"):
        frame_named("round")
    with pytest.raises(ValueError, match="'round'"):
        ChapterScene.made_for(layout="round")


@pytest.mark.parametrize("name", ["wide", "tall", "square"])
def test_pixels_and_scene_units_have_the_same_shape(name):
    """The encoder's frame and the scene's frame have one aspect ratio."""
    frame = FRAMES[name]
    for quality in ("preview", "publish"):
        width, height, _ = frame_size(quality, name)
        assert width / height == pytest.approx(frame.width / frame.height, rel=0.01)


@pytest.mark.parametrize("name", ["tall", "square"])
def test_the_burned_captions_sit_in_the_band_the_frame_keeps_free(name):
    """Two lines of burned captions (libass sizes a font by its line's height: ascender
    plus descender) fit between the zone the apps draw over and the bottom of the
    pictures' area."""
    frame, band = FRAMES[name], BANDS[name]
    width, height, _ = frame_size("publish", name)
    px = height / frame.height  # pixels per scene unit
    captions_bottom = band.bottom * height
    captions_top = captions_bottom + 2 * band.font * width
    assert captions_bottom >= frame.safe_bottom * px
    pictures_bottom = (frame.area()[2] + frame.height / 2) * px
    assert captions_top <= pictures_bottom


TEXT = "the chapter asks how a machine decides where to look at every step"


def test_balanced_lines_fit_the_width_in_as_few_lines_as_can():
    size = WIDE.type.body
    width = text_width(TEXT, size) * 0.4  # two lines cannot hold it, three can
    lines = balanced_lines(TEXT, size, width)
    assert " ".join(lines) == TEXT
    assert all(text_width(line, size) <= width for line in lines)
    pieces = TEXT.split()
    fewer = [[" ".join(pieces[a:b]) for a, b in zip((0, cut), (cut, len(pieces)))]
             for cut in range(1, len(pieces))]
    # (any line wider than the width: measured until one is, the same as the widest)
    assert all(any(text_width(line, size) > width for line in two) for two in fewer)
    assert len(lines) == 3


def test_balanced_lines_break_where_the_longest_line_is_shortest():
    size = WIDE.type.body
    pieces = TEXT.split()
    lines = balanced_lines(TEXT, size, text_width(TEXT, size) * 0.4)
    longest = max(text_width(line, size) for line in lines)
    for a, b in itertools.combinations(range(1, len(pieces)), 2):
        other = [" ".join(pieces[i:j]) for i, j in zip((0, a, b), (a, b, len(pieces)))]
        # the widest line of the other breaks is at least as wide: some line is (each one
        # set only until one is, as setting text is what takes the time)
        assert any(text_width(line, size) >= longest - 1e-9 for line in other), other


def test_markup_breaks_only_outside_its_tags():
    text = 'a <span foreground="#fff">bold claim</span> here'
    assert breakable(text) == ["a", '<span foreground="#fff">bold claim</span>', "here"]
    lines = balanced_lines(text, 36, 0.1, rich=True)  # narrower than any piece
    assert lines == breakable(text)


def test_wrapped_text_is_centred_lines_inside_the_width():
    block = wrapped(TEXT, TALL.type.body, TALL.room()[0])
    assert len(block) > 1 and block.width <= TALL.room()[0] + 1e-6
    middles = [line.get_x() for line in block]
    assert max(middles) - min(middles) < 1e-6
