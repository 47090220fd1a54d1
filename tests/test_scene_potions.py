"""The potion scenes show the ledger's numbers, keep their layout, and follow --set values."""

from __future__ import annotations

import pytest

from scenes.attention.assembly import ChemistryAndAssembly
from scenes.attention.potions import PotionMixing
from scenes.numbers import percent
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("attention")

SCENES = {"PotionMixing": PotionMixing, "ChemistryAndAssembly": ChemistryAndAssembly}
SHARPER = "potion.sharpness=1"  # a --set that changes every share on screen


@pytest.fixture
def built(build_scene):
    """Build a scene of this file by name, with --set items."""
    return build_scene


def whole(fraction: float) -> str:
    """A share of at least 1%, as the chapter writes it: '70%'."""
    assert fraction >= 0.01
    return f"{round(100 * fraction)}%"


# ------------------------------------------------------------------ formatting


@pytest.mark.parametrize("fraction, text", [
    (1.0, "100%"), (0.7049, "70%"), (0.0626, "6%"), (0.0026, "0.3%"),
    (0.00049, "0.05%"), (0.0, "0%"), (1e-7, "<0.01%"),
])
def test_percent_keeps_small_shares_readable(fraction, text):
    assert percent(fraction, small=True) == text


# ------------------------------------------------------------------ every beat


@pytest.mark.parametrize("name", list(SCENES))
@pytest.mark.parametrize("sets", tiered([(), (SHARPER,)], [("potion.sharpness=1000000",)]))
def test_layout_and_timing_hold(built, name, sets):
    scene = built(name, *sets)
    assert_clean(scene)
    total = sum(SCENES[name].beat_seconds.values())
    assert 30 <= total <= 60
    for record in scene.beat_log:
        assert 4 <= record.end - record.start <= 12


def test_titles_fit_the_chapter_list():
    for scene in SCENES.values():
        assert 0 < len(scene.title) <= 49


# ------------------------------------------------------------------ the pour


@pytest.mark.parametrize("sets", [(), (SHARPER,)])
def test_matches_then_pour_shares_are_on_screen(built, sets):
    scene = built("PotionMixing", *sets)
    n = scene.numbers
    for m in n["matches"]:
        assert f"{m:.1f}" in scene.shown["recipe"]
    for share in n["pour"]:
        if share >= 0.01:
            assert whole(share) in scene.shown["pour"]
    assert "100%" in scene.shown["pour"]  # the flask is exactly full
    assert f"sharpness {n['sharpness']:.0f}" in scene.shown["recipe"]


def test_pour_shares_follow_the_sharpness(built):
    sharp, soft = built("PotionMixing"), built("PotionMixing", SHARPER)
    assert sharp.numbers["pour"] != soft.numbers["pour"]
    bed = sharp.numbers["words"].index("bed")
    assert whole(sharp.numbers["pour"][bed]) in sharp.shown["pour"]
    assert whole(soft.numbers["pour"][bed]) in soft.shown["pour"]
    assert whole(sharp.numbers["pour"][bed]) not in soft.shown["pour"]


@pytest.mark.parametrize("sets", [(), (SHARPER,)])
def test_the_mixture_shows_its_largest_ingredients_and_the_pinch(built, sets):
    scene = built("PotionMixing", *sets)
    mix = scene.numbers["mixture"]
    shown = scene.shown["mixture"]
    largest = max(mix, key=mix.get)
    assert largest in shown and whole(mix[largest]) in shown
    assert "dishonest" in shown and whole(mix["dishonest"]) in shown
    assert mix["tired"] > mix["dishonest"]  # what the beat's heading says


def test_a_shuffled_flask_shows_the_same_numbers_twice(built):
    scene = built("PotionMixing")
    n = scene.numbers
    ingredients = n["value_ingredients"]
    ordered = dict(zip(ingredients, n["flasks"][n["words"].index(n["asker"])]))
    shuffled = dict(zip(ingredients, n["shuffled_flasks"][n["shuffled_words"].index(n["asker"])]))
    shown = scene.shown["shuffle"]
    for name in ("tired", "dishonest"):
        assert name in shown
        assert whole(ordered[name]) == whole(shuffled[name])
        assert shown.count(whole(shuffled[name])) >= 2  # in order, and shuffled
    assert n["shuffled_words"] != n["words"]


@pytest.mark.parametrize("sets", [(), (SHARPER,)])
def test_lookback_shows_only_the_visible_shares(built, sets):
    scene = built("PotionMixing", *sets)
    n = scene.numbers
    shown = scene.shown["lookback"]
    row = n["masked_grid"][n["words"].index("still")]
    for share in row:
        if share >= 0.01:
            assert whole(share) in shown
    assert n["masked_grid"][0][0] == 1.0 and "100%" in shown
    cells = [t for t in shown if t.endswith("%")]
    words = len(n["words"])
    assert len(cells) == words * (words + 1) // 2  # the hidden half carries no numbers


# ------------------------------------------------------------------ the assembly


@pytest.mark.parametrize("sets", [(), (SHARPER,)])
def test_the_still_distils_tired_and_drops_dishonest(built, sets):
    scene = built("ChemistryAndAssembly", *sets)
    n = scene.numbers
    for value in n["hidden"].values():
        assert f"{value:.2f}" in scene.shown["distil"]
    assert f"{n['last_flask']['tired']:.2f}" in scene.shown["flask"]
    assert f"{n['distilled']['tired']:.2f}" in scene.shown["distil"]
    assert n["distilled"]["dishonest"] == 0 and "0.00" in scene.shown["distil"]


@pytest.mark.parametrize("sets", [(), (SHARPER,)])
def test_the_vocabulary_chart_shows_every_word_and_its_chance(built, sets):
    scene = built("ChemistryAndAssembly", *sets)
    n = scene.numbers
    shown = scene.shown["vocabulary"]
    for word in n["vocabulary"]:
        assert word in shown
    assert whole(n["probabilities"][n["predicted"]]) in shown
    for word in ("müde", "fatigué", "cansado"):
        p = n["probabilities"][word]
        assert p < 0.01
        assert f"{100 * p:.2f}%" in shown  # near zero, but still written down
    assert any(n["predicted"] in text for text in scene.shown["predicted"])


def test_the_chances_follow_the_sharpness(built):
    sharp, soft = built("ChemistryAndAssembly"), built("ChemistryAndAssembly", SHARPER)
    p_sharp = sharp.numbers["probabilities"]["tired"]
    p_soft = soft.numbers["probabilities"]["tired"]
    assert whole(p_sharp) != whole(p_soft)
    assert whole(p_sharp) in sharp.shown["vocabulary"]
    assert whole(p_soft) in soft.shown["vocabulary"]
    assert whole(p_sharp) not in soft.shown["vocabulary"]


# ------------------------------------------------------------------ components


def test_a_pour_moves_the_share_from_bottle_to_flask():
    from scenes.components.bottle import Bottle, Flask

    bottle, flask = Bottle(), Flask()
    pours = [bottle.make_pour_animation(flask, 0.3), bottle.make_pour_animation(flask, 0.5)]
    assert bottle.get_level() == pytest.approx(0.2)
    assert flask.get_level() == pytest.approx(0.8)
    for pour in pours:
        pour.begin()
        pour.finish()
    # liquid heights are proportional to the levels (straight-walled bodies)
    full = Bottle().get_liquid().height
    assert bottle.get_liquid().height == pytest.approx(0.2 * full, rel=0.02)
    bands = sorted(band.height for band in flask.get_layers())
    assert bands[1] / bands[0] == pytest.approx(0.8 / 0.3, rel=0.02)
    flask.make_empty_animation()
    assert flask.get_level() == 0.0


def test_a_faded_bottle_comes_back_with_its_potion():
    from scenes.components.bottle import Bottle

    bottle = Bottle(level=0.6)
    bottle.fade_to(0)
    assert bottle.get_liquid().get_fill_opacity() == 0
    assert bottle.get_glass().get_fill_opacity() == 0
    bottle.fade_to(1)
    assert bottle.get_liquid().get_fill_opacity() == 1
    assert bottle.get_glass().get_fill_opacity() == 0  # glass stays unfilled
    assert bottle.get_level() == 0.6
