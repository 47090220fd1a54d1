"""`python render.py numbers`: the ledger as JSON, and its error cases."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from render import ROOT


def run_numbers(*sets: str) -> subprocess.CompletedProcess:
    args = [sys.executable, "render.py", "numbers"]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def ledger():
    out = run_numbers()
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


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
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
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
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert named in lines[0]
