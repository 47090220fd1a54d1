"""MatchIsTheWeight shows the ledger's grid panel, changes one word, and follows --set."""

from __future__ import annotations

import functools

import pytest

from scenes.attention.weight_grid import MatchIsTheWeight
from scenes.components.weight_grid_layout import panel_rows
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("attention")

DOG_RUG = ("grid.sentence=the dog sat on the rug it slept", "grid.sharpness=3")
TWELVE = ("grid.sentence=the bird sat under the sofa the cat purred on a rug",
          "grid.reader=bird")
SETTINGS = tiered([(), DOG_RUG], [("grid.sharpness=3",), ("grid.swap=mat:sofa",), TWELVE,
                                 ("grid.sentence=she slept", "grid.reader=she")])


@pytest.fixture
def built(build_scene):
    """MatchIsTheWeight built with the given --set items."""
    return functools.partial(build_scene, "MatchIsTheWeight")


def panel(grid: dict) -> list[str]:
    """The panel as the scene formats it: weights 2 decimals, row total 3, spread 2."""
    return [grid["reader"], grid["top_word"], f"{grid['top_weight']:.2f}",
            f"{grid['row_total']:.3f}", f"{grid['spread_bits']:.2f}"]


def test_the_seed_panel_is_on_screen(built):
    """Seed 000: reading "it", most weight to "cat", 0.74, row total 1.000, spread 1.55 bits."""
    shown = built().shown["panel"]
    for text in ("it", "cat", "0.74", "1.000", "1.55"):
        assert text in shown


def test_panel_formats_match_the_issue(built):
    rows = panel_rows(built().numbers)
    assert [value for _, value, _ in rows] == panel(built().numbers)


@pytest.mark.parametrize("sets", SETTINGS)
def test_panel_and_words_come_from_the_ledger(built, sets):
    scene = built(*sets)
    n = scene.numbers
    before = scene.shown["panel"]
    for text in (*panel(n), *n["words"], *n["tags"]):
        assert text in before
    after = scene.shown["moved"]
    for text in (*panel(n["changed"]), *n["changed"]["words"], *n["changed"]["tags"]):
        assert text in after


@pytest.mark.parametrize("sets", SETTINGS)
def test_changing_one_word_changes_every_panel_number_that_moved(built, sets):
    scene = built(*sets)
    n = scene.numbers
    old, new = n["swap"]
    assert f"{old}  →  {new}" in scene.shown["swap"]
    after = scene.shown["moved"]
    # The sentence is shown three times (over the grid, down it, along it).
    assert after.count(new) >= 3 * n["changed"]["words"].count(new)
    for was, now in zip(panel(n), panel(n["changed"])):
        if was != now and was not in n["changed"]["words"]:
            assert was not in after
            assert now in after


def test_numbers_follow_the_settings(built):
    default, changed = built(), built(*DOG_RUG)
    assert panel(default.numbers) != panel(changed.numbers)
    assert "0.74" not in changed.shown["panel"]
    assert f"{changed.numbers['top_weight']:.2f}" in changed.shown["panel"]
    assert "rug" in changed.shown["panel"] and "mat" not in changed.shown["panel"]


@pytest.mark.parametrize("sets", SETTINGS)
def test_layout_and_timing(built, sets):
    scene = built(*sets)
    assert_clean(scene)
    assert 20 <= sum(MatchIsTheWeight.beat_seconds.values()) <= 45
