"""The end card: the chapter in three lines, then credits naming the voice the render
spoke with, its licence, and the tools with their versions."""

from __future__ import annotations

import tempfile
from importlib import metadata
from pathlib import Path

import pytest

from production import voices
from production.drawing import construct_scene
from scenes.attention.chapter import CHAPTER
from scenes.attention.end_card import LEARNED, EndCard
from tests.scene_harness import assert_clean

pytestmark = pytest.mark.builds("attention")


def drawn(credits: dict[str, str] | None, layout: str = "wide"):
    with tempfile.TemporaryDirectory() as media:
        return construct_scene(CHAPTER, EndCard, "preview", {}, Path(media), video=False,
                               layout=layout, credits=credits)


def said(scene, beat: str) -> str:
    """What a beat shows, its lines joined as one text."""
    return " ".join(scene.shown[beat])


@pytest.mark.parametrize("layout", ["wide", "tall", "square"])
def test_the_chapter_in_three_lines_then_the_credits(layout):
    scene = drawn(voices.credits(voices.Piper()), layout)
    assert_clean(scene)
    assert said(scene, "learned") == " ".join(LEARNED)  # no next chapter given
    credits = said(scene, "credits")
    assert "en_US-joe-medium" in credits and "CC0" in credits and "GPL-3.0-or-later" in credits
    assert f"Manim Community {metadata.version('manim')}" in credits
    assert f"numpy {metadata.version('numpy')}" in credits


def test_the_credits_name_the_voice_the_render_spoke_with():
    credits = said(drawn(voices.credits(voices.Espeak())), "credits")
    assert "espeak-ng" in credits and "joe" not in credits and "CC0" not in credits
    assert "no narration" in said(drawn(voices.credits(None)), "credits")


def test_an_end_card_without_its_credits_says_so():
    with pytest.raises(ValueError, match="EndCard needs its credits"):
        drawn(None)


def test_the_end_card_closes_the_chapter():
    assert CHAPTER.scenes[-1] is EndCard


def test_the_end_card_names_the_next_chapter_of_the_course(build_scene):
    from production.chapters import course, discover
    from production.paths import ROOT

    ordered = course(discover("scenes", ROOT / "scenes"))
    after = ordered[[c.name for c in ordered].index("attention") + 1]
    assert CHAPTER.next_title() == after.title
    for layout in ("wide", "tall", "square"):
        scene = build_scene("EndCard", layout=layout)
        assert_clean(scene)
        assert said(scene, "learned") == " ".join(LEARNED) + f" next: {after.title}"
    # the last chapter's names none
    assert ordered[-1].next_title() == ""
    last = drawn(voices.credits(voices.Piper(), ordered[-1].next_title()))
    assert said(last, "learned") == " ".join(LEARNED)
