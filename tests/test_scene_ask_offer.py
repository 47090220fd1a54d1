"""AskAndOffer shows the ledger's query, key, products and match, and follows --set."""

from __future__ import annotations

import functools

import pytest

from scenes.attention.ask_offer import AskAndOffer
from scenes.numbers import decimal
from tests.scene_harness import assert_clean, shown_anywhere, tiered

pytestmark = pytest.mark.builds("attention")

DOG_RUG = ("grid.sentence=the dog sat on the rug it slept", "grid.sharpness=3")
SETTINGS = tiered([(), DOG_RUG], [("grid.sentence=the cat it slept",),
                                 ("grid.sentence=a bird lay under the sofa the cat purred on it",
                                  "grid.reader=bird")])


@pytest.fixture
def built(build_scene):
    """AskAndOffer built with the given --set items."""
    return functools.partial(build_scene, "AskAndOffer")


def test_the_seed_example_is_on_screen(built):
    """Seed 000: "it" asks for something that acts, "cat" offers it, q . k = 1.30."""
    scene = built()
    last = scene.shown["sum"]
    assert scene.numbers["reader"] == "it" and scene.numbers["top_word"] == "cat"
    assert "1.30" in last
    assert {"1.50", "0.40", "0.80", "0.25", "1.20", "0.10"} <= set(last)


@pytest.mark.parametrize("sets", SETTINGS)
def test_every_number_comes_from_the_ledger(built, sets):
    scene = built(*sets)
    n = scene.numbers
    assert [decimal(x) for x in n["query"]] == scene.shown["asks"][-3:]
    offers = scene.shown["offers"]
    assert [decimal(x) for x in n["key"]] == offers[-3:]
    last = scene.shown["sum"]
    for x in (*n["products"], n["top_match"]):
        assert decimal(x) in last
    for word in (*n["words"], *n["features"]):
        assert word in last


def test_numbers_follow_the_settings(built):
    default, changed = built(), built(*DOG_RUG)
    assert changed.numbers["top_word"] == "dog"
    before, after = decimal(default.numbers["top_match"]), decimal(changed.numbers["top_match"])
    assert before != after
    assert after in changed.shown["sum"] and before not in shown_anywhere(changed)
    assert [decimal(x) for x in changed.numbers["key"]] != [decimal(x) for x in
                                                           default.numbers["key"]]
    assert "dog" in changed.shown["sum"] and "cat" not in changed.shown["sum"]


def test_no_negative_zero_is_shown():
    assert decimal(-0.0) == "0.00" and decimal(-0.001) == "0.00" and decimal(-0.25) == "-0.25"


@pytest.mark.parametrize("sets", SETTINGS)
def test_layout_and_timing(built, sets):
    scene = built(*sets)
    assert_clean(scene)
    assert 20 <= sum(AskAndOffer.beat_seconds.values()) <= 45
