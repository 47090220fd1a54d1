"""The decoder chapter's end card: its three lines, each as the voice begins it, then
the credits of the render, drawn by the end-card component both chapters can share."""

from __future__ import annotations

import tempfile
from importlib import metadata
from pathlib import Path

import pytest

from production import voices
from production.drawing import construct_scene
from scenes.attention.chapter import CHAPTER as ATTENTION
from scenes.attention.end_card import EndCard
from scenes.components.end_card import CreditsBlock, LearnedLines
from scenes.decoder.chapter import CHAPTER
from scenes.decoder.end_card import LEARNED, MARKS, DecoderEndCard
from scenes.frame import FRAMES
from tests.scene_harness import assert_clean


def drawn(credits: dict[str, str] | None, layout: str = "wide", chapter=CHAPTER,
          scene=DecoderEndCard, mark_times=None):
    with tempfile.TemporaryDirectory() as media:
        return construct_scene(chapter, scene, "preview", {}, Path(media), video=False,
                               layout=layout, credits=credits, mark_times=mark_times)


def said(scene, beat: str) -> str:
    return " ".join(scene.shown[beat])


@pytest.mark.parametrize("layout", list(FRAMES))
def test_the_chapter_in_three_lines_then_the_credits(layout):
    scene = drawn(voices.credits(voices.Piper()), layout)
    assert_clean(scene)
    assert said(scene, "learned") == " ".join(LEARNED)
    credits = said(scene, "credits")
    assert "en_US-joe-medium" in credits and "CC0" in credits
    assert f"Manim Community {metadata.version('manim')}" in credits
    assert f"numpy {metadata.version('numpy')}" in credits


def test_the_credits_name_the_voice_the_render_spoke_with():
    credits = said(drawn(voices.credits(voices.Espeak())), "credits")
    assert "espeak-ng" in credits and "joe" not in credits
    with pytest.raises(ValueError, match="DecoderEndCard needs its credits"):
        drawn(None)


def test_each_line_comes_in_as_the_voice_begins_it():
    times = {"learned": dict(zip(MARKS, (1.5, 3.5, 6.0)))}
    scene = drawn(voices.credits(voices.Espeak()), mark_times=times)
    assert not scene.timing_problems
    start = next(b.start for b in scene.beat_log if b.name == "learned")
    frame = 1 / 15
    for line, mark in zip(LEARNED, MARKS):
        (at,) = [m[3] for m in scene.mark_log if m[0] == mark]
        assert at == pytest.approx(start + times["learned"][mark], abs=frame)
        # the line's first words come in at its mark, and not before
        first = line.split()[0]
        assert any(any(t.startswith(first) for t in texts)
                   for when, texts in scene.play_log if abs(when - at) <= frame)
        assert not any(line.split()[-1] in " ".join(texts)
                       for when, texts in scene.play_log if when < at - frame)


@pytest.mark.parametrize("layout", list(FRAMES))
def test_the_component_draws_the_attention_end_cards_credits_as_it_does(layout):
    """What both chapters share: the same credits, in the same lines at the same size."""
    credits = voices.credits(voices.Piper())
    attention = drawn(credits, layout, ATTENTION, EndCard)
    block = CreditsBlock.for_frame(credits, FRAMES[layout])
    texts = [t for t in block.get_family() if hasattr(t, "original_text")]
    assert [t.original_text for t in texts] == attention.shown["credits"]
    lines = LearnedLines.for_frame(("a", "b"), FRAMES[layout])
    assert lines.get_lines()[-1][0].get_color() != lines.get_lines()[0][0].get_color()


def test_the_end_card_closes_the_chapter():
    assert CHAPTER.scenes[-1] is DecoderEndCard
    assert DecoderEndCard.section == "decoder_end"
