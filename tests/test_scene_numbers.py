"""One formatter per kind of number: every scene writes its numbers through scenes.numbers."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from scenes.numbers import (
    decimal,
    factor,
    factor_figure,
    out_of,
    percent,
    percent_figure,
    power_of_ten,
    setting,
    short,
    whole_percent,
)

SCENES = Path(__file__).resolve().parents[1] / "scenes"


@pytest.mark.parametrize("share, places, small, text", [
    (0.5643, 0, False, "56%"), (1.0, 0, False, "100%"), (0.0, 0, False, "0%"),
    (0.004, 0, False, "0%"), (0.125, 1, False, "12.5%"), (0.5, 1, False, "50%"),
    (0.9, 2, False, "90%"), (0.7049, 0, True, "70%"), (0.0026, 0, True, "0.3%"),
    (0.00049, 0, True, "0.05%"), (0.0, 0, True, "0%"), (1e-7, 0, True, "<0.01%"),
])
def test_percent(share, places, small, text):
    assert percent(share, places, small=small) == text
    assert percent_figure(share, places, small=small) + "%" == text


def test_a_percent_has_its_sign_straight_after_the_number():
    """As the lessons write them (56%), never "56 %"; the narration says "56 percent"."""
    assert whole_percent(99) == "99%"
    assert percent_figure(0.91) == "91"


def test_whole_percents_round_as_the_ledger_does():
    import numpy as np

    for share in np.linspace(0, 1, 2001):
        assert percent(share) == whole_percent(int(np.rint(share * 100)))


def test_decimals():
    assert decimal(0.7400092) == "0.74"
    assert decimal(1.0, 3) == "1.000"
    assert decimal(-0.001) == "0.00" and decimal(-0.0) == "0.00" and decimal(-0.25) == "-0.25"
    assert decimal(2.87e56) == "2.87×10⁵⁶"
    assert decimal(3.2e-5, low=0.01) == "3.20×10⁻⁵"
    assert decimal(3.2e-5) == "0.00"
    assert decimal(0.0, low=0.01) == "0.00"
    assert power_of_ten(64.8, 1) == "6.5×10¹"
    with pytest.raises(ValueError):
        decimal(math.inf)


def test_short_settings_factors_and_counts():
    assert [short(x) for x in (0.8, 0.15, 3.6, 4.0, 0.1)] == ["0.8", "0.15", "3.6", "4.0", "0.1"]
    assert [setting(x) for x in (4.0, 0.25, 1e6, 1300.0000000000002)] == \
        ["4", "0.25", "1,000,000", "1,300"]
    assert [factor(x) for x in (1.5, 2.25, 1.0, 3.0)] == ["1.5×", "2.25×", "1×", "3×"]
    assert factor_figure(1.5) == "1.5"
    assert out_of(32, 60) == "32/60"


# A format spec in an f-string ({x:.2f}, {x:g}), a "%" written by hand, or a rounding.
FORMATTING = re.compile(r"\{[^{}]*:[^{}]*[0-9,.][^{}]*[efg%]\}|\{[^{}]*:,?g\}|\} ?%| %\"|round\(")


def test_scenes_format_numbers_only_through_scenes_numbers():
    """A scene that formats a number itself would drift from the chapter's one style."""
    offenders = []
    for path in sorted(SCENES.rglob("*.py")):
        if path.name in ("numbers.py", "base.py"):  # base.py formats only its own messages
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if FORMATTING.search(line):
                offenders.append(f"{path.relative_to(SCENES)}:{i}: {line.strip()}")
    assert offenders == []
