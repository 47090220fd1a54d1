"""`python render.py numbers`: the ledger as JSON, and its error cases (the command
called in process: it exits before drawing)."""

from __future__ import annotations

import json
import math

import pytest

from tests.conftest import Ran, run_command


def run_numbers(*sets: str) -> Ran:
    args = ["numbers"]
    for s in sets:
        args += ["--set", s]
    return run_command(*args)


@pytest.fixture(scope="module")
def ledger():
    out = run_numbers()
    assert out.code == 0, out.err
    return json.loads(out.out)


def test_a_key_per_section(ledger):
    for key in ("bottleneck", "grid", "spotlight", "potion", "assembly", "open_book"):
        assert key in ledger


def test_seed_figures_in_the_ledger(ledger):
    s = ledger["spotlight"]
    assert f"{s['total']:.1f}" == "64.8"
    assert [round(x * 100) for x in s["shares"]] == [3, 56, 2, 38]
    assert round(s["lookback_rule"]["ate"]["shares"][1] * 100) == 91
    g = ledger["grid"]
    assert (g["top_word"], f"{g['top_weight']:.2f}", f"{g['top_match']:.2f}") == ("cat", "0.74",
                                                                                  "1.30")
    assert f"{g['spread_bits']:.2f}" == "1.55"
    b = ledger["bottleneck"]
    assert (b["room"], b["length"], b["squeeze"]) == (40, 60, 1.5)
    assert len(b["recovery"]) == 60
    assert ledger["assembly"]["predicted"] == "tired"


def test_set_changes_what_is_computed():
    out = run_numbers("spotlight.sharpness=1", "bottleneck.length=20", "grid.sentence=the dog sat "
                      "on the mat it slept")
    assert out.code == 0, out.err
    d = json.loads(out.out)
    assert d["spotlight"]["sharpness"] == 1.0
    assert max(d["spotlight"]["shares"]) < 0.4
    assert all(d["bottleneck"]["recovered"]) and len(d["bottleneck"]["recovery"]) == 20
    assert d["grid"]["top_word"] == "dog"


@pytest.mark.parametrize("setting,named", [
    ("bottleneck.room=0", "bottleneck.room"),
    ("bottleneck.length=-4", "bottleneck.length"),
    ("bottleneck.length=2.5", "bottleneck.length"),
    ("spotlight.sharpness=nan", "spotlight.sharpness"),
    ("spotlight.sharpness=inf", "spotlight.sharpness"),
    ("spotlight.sharpness=lots", "spotlight.sharpness"),
    ("spotlight.sharpness=1000", "spotlight.sharpness"),
    ("spotlight.asker=dog", "spotlight.asker"),
    ("spotlight.lookback=maybe", "spotlight.lookback"),
    ("grid.sentence=the cow sat", "grid.sentence"),
    ("grid.reader=dog", "grid.reader"),
    ("grid.sharpness=0", "grid.sharpness"),
    ("squeeze.room=3", "squeeze"),
    ("spotlight.colour=red", "spotlight.colour"),
    ("no-equals-sign", "SECTION.PARAM=VALUE"),
])
def test_bad_settings_exit_2_with_one_line_and_no_stdout(setting, named):
    out = run_numbers(setting)
    assert out.code == 2
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1
    assert named in lines[0]


def strict_json(text: str):
    """json.loads that refuses NaN and Infinity, which are not JSON."""
    def refuse(constant):
        raise ValueError(f"{constant} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_a_huge_spotlight_sharpness_is_refused_with_the_allowed_range():
    out = run_numbers("spotlight.sharpness=1000")
    assert (out.code, out.out) == (2, "")
    assert "at most 750" in out.err


def test_the_largest_allowed_sharpnesses_print_standard_json():
    out = run_numbers("spotlight.sharpness=750", "spotlight.lookback=true",
                      "spotlight.asker=cat", "grid.sharpness=1000000",
                      "potion.sharpness=1000000")
    assert out.code == 0, out.err
    numbers = strict_json(out.out)
    assert numbers["spotlight"]["lookback_rule"]["ate"]["total"] > 1e290  # e^(750 x 0.9)


def test_the_spotlight_cap_keeps_every_exponential_a_number():
    """The cap comes from the hand trace: e^(sharpness x score) for the largest score of
    any asker must fit a float, with the total of four of them."""
    from core import ledger as core_ledger
    from core import spotlight

    cap = core_ledger.SPOTLIGHT_MAX_SHARPNESS
    assert core_ledger.parse_settings([f"spotlight.sharpness={cap}"])
    with pytest.raises(core_ledger.SettingError):
        core_ledger.parse_settings([f"spotlight.sharpness={cap + 1}"])
    for asker in spotlight.WORDS:
        for lookback in (False, True):
            t = spotlight.trace(asker, cap, lookback)
            assert all(math.isfinite(x) for x in (*t.exponentials, t.total)), (asker, lookback)
    # and not far under the point where they stop being numbers
    assert not math.isfinite(spotlight.trace("ate", 1.1 * cap).total)
