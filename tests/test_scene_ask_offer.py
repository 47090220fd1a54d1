"""AskAndOffer shows the ledger's query, key, products and match, and follows --set.

The scene is not in scenes.SCENES_IN_ORDER yet, so it is built here directly
when tests.scene_harness cannot look it up by name.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest

from core.ledger import parse_settings
from production.drawing import construct_scene
from scenes.ask_offer import AskAndOffer, number
from tests.scene_harness import built_scene, shown_anywhere

DOG_RUG = ("grid.sentence=the dog sat on the rug it slept", "grid.sharpness=3")
SETTINGS = [(), DOG_RUG, ("grid.sentence=the cat it slept",),
            ("grid.sentence=a bird lay under the sofa the cat purred on it", "grid.reader=bird")]


@functools.cache
def built(*sets: str):
    from scenes import SCENES_BY_NAME

    if "AskAndOffer" in SCENES_BY_NAME:
        return built_scene("AskAndOffer", *sets)
    with tempfile.TemporaryDirectory() as media:
        return construct_scene(AskAndOffer, "preview", parse_settings(sets), Path(media),
                               video=False)


def test_the_seed_example_is_on_screen():
    """Seed 000: "it" asks for something that acts, "cat" offers it, q . k = 1.30."""
    scene = built()
    last = scene.shown["sum"]
    assert scene.numbers["reader"] == "it" and scene.numbers["top_word"] == "cat"
    assert "1.30" in last
    assert {"1.50", "0.40", "0.80", "0.25", "1.20", "0.10"} <= set(last)


@pytest.mark.parametrize("sets", SETTINGS)
def test_every_number_comes_from_the_ledger(sets):
    scene = built(*sets)
    n = scene.numbers
    assert [number(x) for x in n["query"]] == scene.shown["asks"][-3:]
    offers = scene.shown["offers"]
    assert [number(x) for x in n["key"]] == offers[-3:]
    last = scene.shown["sum"]
    for x in (*n["products"], n["top_match"]):
        assert number(x) in last
    for word in (*n["words"], *n["features"]):
        assert word in last


def test_numbers_follow_the_settings():
    default, changed = built(), built(*DOG_RUG)
    assert changed.numbers["top_word"] == "dog"
    before, after = number(default.numbers["top_match"]), number(changed.numbers["top_match"])
    assert before != after
    assert after in changed.shown["sum"] and before not in shown_anywhere(changed)
    assert [number(x) for x in changed.numbers["key"]] != [number(x) for x in
                                                           default.numbers["key"]]
    assert "dog" in changed.shown["sum"] and "cat" not in changed.shown["sum"]


def test_no_negative_zero_is_shown():
    assert number(-0.0) == "0.00" and number(-0.001) == "0.00" and number(-0.25) == "-0.25"


@pytest.mark.parametrize("sets", SETTINGS)
def test_layout_and_timing(sets):
    scene = built(*sets)
    assert scene.layout_problems == []
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(AskAndOffer.beat_seconds)
    assert 20 <= sum(AskAndOffer.beat_seconds.values()) <= 45
