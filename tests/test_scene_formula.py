"""OneAttentionWeight writes the formulas without TeX and shows the ledger's worked numbers.

The scene is not in scenes.SCENES_IN_ORDER yet, so it is built here directly
when tests.scene_harness cannot look it up by name.
"""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import pytest

from core.ledger import parse_settings
from render import construct_scene
from scenes.formula import OneAttentionWeight
from tests.scene_harness import built_scene, shown_anywhere

SHARP = ("grid.sentence=the dog sat on the rug it slept", "grid.sharpness=3")
SETTINGS = [(), SHARP, ("grid.sharpness=0.25",),
            ("grid.sentence=a bird lay under the sofa the cat purred on it", "grid.reader=bird")]


@functools.cache
def built(*sets: str):
    from scenes import SCENES_BY_NAME

    if "OneAttentionWeight" in SCENES_BY_NAME:
        return built_scene("OneAttentionWeight", *sets)
    with tempfile.TemporaryDirectory() as media:
        return construct_scene(OneAttentionWeight, "preview", parse_settings(sets), Path(media),
                               video=False)


def plain(text: str) -> str:
    """What a markup string reads as: tags dropped."""
    return re.sub(r"<[^>]+>", "", text)


def shown(scene, beat: str | None = None) -> list[str]:
    texts = shown_anywhere(scene) if beat is None else scene.shown[beat]
    return [plain(t) for t in texts]


def test_the_seed_example_is_worked():
    """Seed 000: match(it, cat) = 1.30, weight 0.74, the row adds up to 1.000."""
    last = shown(built(), "softmax")
    assert "match(it, cat) = 1.30" in last
    assert "w(it, cat) = 0.74" in last
    assert any(t.endswith("adds up to 1.000.") for t in last)


@pytest.mark.parametrize("sets", SETTINGS)
def test_worked_numbers_come_from_the_ledger(sets):
    scene = built(*sets)
    n = scene.numbers
    last = shown(scene, "softmax")
    assert f"match({n['reader']}, {n['top_word']}) = {n['match']:.2f}" in last
    assert f"w({n['reader']}, {n['top_word']}) = {n['weight']:.2f}" in last
    assert f"Row “{n['reader']}” adds up to {n['row_total']:.3f}." in last


def test_formulas_are_written_and_named():
    last = shown(built(), "softmax")
    assert "match(i, j) = qi · kj" in last
    assert "wij =" in last
    assert "ematch(i, j)" in last and "Σn ematch(i, n)" in last
    text = " ".join(last)
    for name in ("query", "key", "softmax", "add up to one"):
        assert name in text


def test_sharpness_is_shown_only_when_it_is_not_one():
    plain_one = " ".join(shown(built(), "softmax"))
    assert "s · match" not in plain_one
    assert "here it is 1." in plain_one
    sharp = built(*SHARP)
    assert sharp.numbers["sharpness"] == 3
    text = " ".join(shown(sharp, "softmax"))
    assert "es · match(i, j)" in text and "Σn es · match(i, n)" in text
    assert "s = 3 is the sharpness" in text


def test_numbers_follow_the_settings():
    default, changed = built(), built(*SHARP)
    assert f"{changed.numbers['weight']:.2f}" != "0.74"
    assert "w(it, cat) = 0.74" not in shown(changed)
    assert f"w(it, dog) = {changed.numbers['weight']:.2f}" in shown(changed, "softmax")
    assert f"match(it, dog) = {changed.numbers['match']:.2f}" in shown(changed, "softmax")
    assert shown(default, "softmax") != shown(changed, "softmax")


def test_no_tex_anywhere():
    source = Path(__file__).parents[1].joinpath("scenes", "formula.py").read_text()
    for name in ("MathTex", "Tex(", "DecimalNumber", "Integer(", "Variable("):
        assert name not in source


@pytest.mark.parametrize("sets", SETTINGS)
def test_layout_and_timing(sets):
    scene = built(*sets)
    assert scene.layout_problems == []
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(OneAttentionWeight.beat_seconds)
    assert 20 <= sum(OneAttentionWeight.beat_seconds.values()) <= 45
