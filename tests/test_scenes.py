"""Every scene constructs; every beat keeps its layout and its length."""

from __future__ import annotations

import pytest

from scenes.attention.chapter import SCENES_IN_ORDER

pytestmark = pytest.mark.builds("attention")

NAMES = [scene.__name__ for scene in SCENES_IN_ORDER]


def test_scene_names_are_unique_and_titled():
    assert len(set(NAMES)) == len(NAMES)
    for scene in SCENES_IN_ORDER:
        assert 0 < len(scene.title) <= 49
        assert scene.beat_seconds, f"{scene.__name__} has no beats"


@pytest.mark.parametrize("name", NAMES)
def test_every_beat_plays_in_order_for_its_length(build_scene, name):
    scene = build_scene(name)
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(type(scene).beat_seconds)
    for record in scene.beat_log:
        expected = type(scene).beat_seconds[record.name]
        assert record.end - record.start == pytest.approx(expected, abs=1 / 15 + 1e-6)


@pytest.mark.parametrize("name", NAMES)
def test_no_text_leaves_the_frame_overlaps_or_is_too_small(build_scene, name):
    scene = build_scene(name)
    assert scene.layout_problems == []


def test_longer_beats_stretch_the_scene(build_scene):
    scene_class = SCENES_IN_ORDER[1]
    longer = {b: s + 2.0 for b, s in scene_class.beat_seconds.items()}
    scene = build_scene(scene_class.__name__, durations=longer)
    assert scene.timing_problems == []
    assert scene_class.durations is None  # the render's lengths went to its own subclass
    assert scene.renderer.time == pytest.approx(sum(longer.values()), abs=0.2)


def test_sound_cues_mark_the_pour_and_the_landing_weights(build_scene):
    assert [kind for kind, _ in build_scene("PotionMixing").cues] == ["pour"]
    assert "tick" in [kind for kind, _ in build_scene("SpotlightBudget").cues]
    for name in ("PotionMixing", "SpotlightBudget", "MatchIsTheWeight"):
        scene = build_scene(name)
        assert all(0 <= at <= scene.renderer.time for _, at in scene.cues)
