"""The spotlight shots show the ledger's numbers, follow --set, and keep their layout."""

from __future__ import annotations

import math

import pytest

from scenes.attention.spotlight import LookBackRule, SharpnessDial
from scenes.attention.spotlight_budget import SpotlightBudget
from scenes.components.spotlight_shot import APART, pair, pair_2, split_power, tenths
from scenes.components.spotlight_table import spread
from scenes.numbers import percent, power_of_ten, setting, short
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("attention")

SHOTS = {cls.__name__: cls for cls in (SpotlightBudget, SharpnessDial, LookBackRule)}
SETTINGS = tiered([(), ("spotlight.sharpness=8",)],
                  [("spotlight.asker=cat",), ("spotlight.lookback=true",),
                   ("spotlight.sharpness=750", "spotlight.asker=fish", "spotlight.lookback=true")])


@pytest.fixture
def built(build_scene):
    """Build a scene of this file by name, with --set items."""
    return build_scene


# ------------------------------------------------------------------ formatting
def test_formatting_as_a_person_writes_it():
    assert percent(0.5643) == "56%"
    assert percent(1.0) == "100%"
    assert short(0.8) == "0.8"
    assert short(0.15) == "0.15"
    assert short(4.0) == "4.0"
    assert setting(4.0) == "4" and setting(0.25) == "0.25" and setting(750.0) == "750"
    assert tenths(36.598) == "36.6"
    assert pair((0.9, 0.2)) == "[0.9, 0.2]"
    assert pair_2((0.8197, 0.1748)) == "[0.82, 0.17]"
    assert power_of_ten(3.2e12, 1) == "3.2×10¹²"
    assert tenths(3.2e12) == "3.2×10¹²"
    assert short(900000.0) == "9.0×10⁵"
    with pytest.raises(ValueError):
        tenths(math.inf)


# ------------------------------------------------------------------ layout and timing
@pytest.mark.parametrize("sets", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
@pytest.mark.parametrize("name", list(SHOTS))
def test_layout_and_timing_are_clean(built, name, sets):
    scene = built(name, *sets)
    assert_clean(scene)


#: settings far past the lesson's, where the hand trace's figures are widest
EXTREME = ("spotlight.sharpness=750", "spotlight.asker=fish", "spotlight.lookback=true")
EXTREMES = tiered([("tall", EXTREME)], [["square", EXTREME], ["tall", ("spotlight.sharpness=8",)],
                                        ["square", ("spotlight.sharpness=8",)]])


@pytest.mark.parametrize("layout, sets", EXTREMES)
def test_the_hand_trace_holds_in_narrow_frames_at_extreme_settings(built, layout, sets):
    scene = built("SpotlightBudget", *sets, layout=layout)
    assert_clean(scene)
    # every exponential and the total still on screen: whole, or its mantissa over its power
    n, shown = scene.numbers, scene.shown["shares"]
    for x in (*n["exponentials"], n["total"]):
        assert tenths(x) in shown or all(part in shown for part in split_power(tenths(x)))


def test_a_crowded_row_spreads_as_little_as_it_must():
    # room enough: every text at its column
    assert spread([0, 1, 2], [0.5, 0.5, 0.5], -5, 5) == ([0, 1, 2], True)
    # a wide middle text pushes its neighbours apart, evenly, and no further
    xs, fits = spread([0, 1, 2], [0.5, 1.5, 0.5], -5, 5)
    assert fits
    assert xs[1] - xs[0] == pytest.approx(1.0 + APART) == xs[2] - xs[1]
    assert xs[1] == pytest.approx(1)
    # held inside the bounds
    xs, fits = spread([0, 1], [1.0, 1.0], 0, 5)
    assert fits and xs[0] == pytest.approx(0.5)
    # too wide for the room
    assert not spread([0, 1, 2], [1.5, 1.5, 1.5], 0, 3)[1]
    assert split_power("1.4×10²⁹³") == ["1.4×", "10²⁹³"] and split_power("64.8") == ["64.8"]


def test_the_section_runs_40_to_80_seconds():
    total = sum(sum(cls.beat_seconds.values()) for cls in SHOTS.values())
    assert 40 <= total <= 80
    for cls in SHOTS.values():
        assert cls.section == "spotlight"
        assert 0 < len(cls.title) <= 49
        assert all(4 <= s <= 12 for s in cls.beat_seconds.values())


# ------------------------------------------------------------------ the hand trace
def test_hand_trace_shows_the_seed_figures_from_the_ledger(built):
    scene = built("SpotlightBudget")
    n = scene.numbers
    shares = scene.shown["shares"]
    # the lesson's figures (seed 001): total 64.8, shares 3/56/2/38 %, 99 % by rounding
    assert tenths(n["total"]) == "64.8"
    assert "64.8" in shares
    assert [f"{p}%" for p in n["shares_percent"]] == ["3%", "56%", "2%", "38%"]
    for text in ("3%", "56%", "2%", "38%", "99%"):
        assert text in shares
    assert any("99%" in t and "100%" in t for t in shares)  # why they add to 99 %
    for x in n["scores"]:
        assert short(x) in scene.shown["trace"]
    for x in n["exponentials"]:
        assert tenths(x) in scene.shown["trace"]
    assert f"sharpen × {setting(n['sharpness'])}" in scene.shown["trace"]
    assert "sharpen × 4" in scene.shown["trace"]


def test_stage_shows_budget_question_and_labels(built):
    scene = built("SpotlightBudget")
    n = scene.numbers
    stage = scene.shown["stage"]
    assert f"{n['budget_points']} points" in stage
    assert pair(n["question"]) in stage
    for label in n["labels"]:
        assert pair(label) in stage
    light = scene.shown["light"]
    for share in n["shares"]:
        assert percent(share) in light
    assert percent(n["exact_total"]) in light


def test_blend_shows_the_summary_mostly_about_things(built):
    scene = built("SpotlightBudget")
    n = scene.numbers
    blend = scene.shown["blend"]
    assert pair_2(n["summary"]) in blend
    thing, action = n["summary"]
    assert thing > action  # "ate" ends up mostly about things
    assert f"{thing:.2f}" in blend and f"{action:.2f}" in blend


def test_sharpness_eight_changes_the_trace(built):
    default, sharp = built("SpotlightBudget"), built("SpotlightBudget", "spotlight.sharpness=8")
    n = sharp.numbers
    assert n["sharpness"] == 8.0
    assert tenths(n["total"]) in sharp.shown["shares"]
    assert "64.8" not in sharp.shown["shares"]
    assert "sharpen × 8" in sharp.shown["trace"]
    assert "sharpen × 8" not in default.shown["trace"]
    shown = [f"{p}%" for p in n["shares_percent"]]
    assert all(s in sharp.shown["shares"] for s in shown)
    assert shown != [f"{p}%" for p in default.numbers["shares_percent"]]
    assert pair_2(n["summary"]) in sharp.shown["blend"]
    assert pair_2(n["summary"]) not in default.shown["blend"]


def test_cat_asking_changes_question_and_shares(built):
    scene = built("SpotlightBudget", "spotlight.asker=cat")
    n = scene.numbers
    assert n["asker"] == "cat"
    assert "“cat”" in scene.shown["stage"]
    assert pair(n["question"]) in scene.shown["stage"]
    assert pair(n["question"]) not in built("SpotlightBudget").shown["stage"]
    assert tenths(n["total"]) in scene.shown["shares"]
    for p in n["shares_percent"]:
        assert f"{p}%" in scene.shown["shares"]


def test_lookback_hides_fish_in_the_trace(built):
    scene = built("SpotlightBudget", "spotlight.lookback=true")
    n = scene.numbers
    assert n["visible"][-1] is False
    assert "hidden" in scene.shown["light"]
    assert "hidden" in scene.shown["trace"]
    assert "hidden" not in built("SpotlightBudget").shown["trace"]
    assert "91%" in scene.shown["shares"]  # the lesson: 91 % on "cat"
    assert tenths(n["total"]) in scene.shown["shares"]


# ------------------------------------------------------------------ the sharpness dial
def test_sweep_ends_at_the_sharpest_setting_with_a_full_budget(built):
    scene = built("SharpnessDial")
    n = scene.numbers
    last = n["sharpness_sweep"][-1]
    sweep = scene.shown["sweep"]
    assert setting(last["sharpness"]) in sweep
    for share in last["shares"]:
        assert percent(share) in sweep
    assert percent(n["exact_total"]) in sweep
    assert [s["sharpness"] for s in n["sharpness_sweep"]] == [1.0, 4.0, 8.0]


def test_sharpness_one_is_nearly_even_on_screen_data(built):
    n = built("SharpnessDial").numbers
    soft = n["sharpness_sweep"][0]["shares"]
    assert max(soft) - min(soft) < 0.25  # the lesson: at 1.0 the bars are nearly even


def test_askers_end_with_the_last_word_at_the_set_sharpness(built):
    for sets in ((), ("spotlight.sharpness=8",)):
        scene = built("SharpnessDial", *sets)
        n = scene.numbers
        last = n["words"][-1]
        askers = scene.shown["askers"]
        assert f"“{last}”" in askers
        assert setting(n["sharpness"]) in askers
        for share in n["askers"][last]:
            assert percent(share) in askers
    default = built("SharpnessDial").numbers["askers"]["fish"]
    sharp = built("SharpnessDial", "spotlight.sharpness=8").numbers["askers"]["fish"]
    assert [percent(s) for s in default] != [percent(s) for s in sharp]


# ------------------------------------------------------------------ the look-back rule
def test_lookback_moves_ate_light_to_cat(built):
    scene = built("LookBackRule")
    rule = scene.numbers["lookback_rule"]["ate"]
    hide = scene.shown["hide"]
    assert round(100 * rule["shares"][1]) == 91
    for share, seen in zip(rule["shares"], rule["visible"]):
        assert (percent(share) if seen else "hidden") in hide
    assert "38%" not in hide  # fish's share from the hand trace is gone


def test_the_alone_gives_itself_everything(built):
    scene = built("LookBackRule")
    rule = scene.numbers["lookback_rule"]["the"]
    alone = scene.shown["alone"]
    assert percent(rule["shares"][0]) == "100%"
    assert "“the”" in alone
    assert alone.count("hidden") == rule["visible"].count(False) == 3


def test_lookback_rule_follows_the_asker(built):
    scene = built("LookBackRule", "spotlight.asker=cat")
    rule = scene.numbers["lookback_rule"]["cat"]
    hide = scene.shown["hide"]
    assert "“cat”" in hide
    for share, seen in zip(rule["shares"], rule["visible"]):
        assert (percent(share) if seen else "hidden") in hide
    assert "91%" not in hide
