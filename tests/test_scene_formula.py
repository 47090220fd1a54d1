"""OneAttentionWeight writes the formulas without TeX and shows the ledger's worked numbers."""

from __future__ import annotations

import functools
import math
import re
from pathlib import Path

import pytest

from scenes.attention.formula import OneAttentionWeight
from tests.scene_harness import assert_clean, shown_anywhere, tiered

pytestmark = pytest.mark.builds("attention")

SHARP = ("grid.sentence=the dog sat on the rug it slept", "grid.sharpness=3")
HUGE = ("grid.sharpness=100",)  # e^(s·match) too large to write with 2 decimals
SHIFTED = ("grid.sharpness=1000",)  # the ledger shifts the exponentials to keep them finite
SETTINGS = tiered([(), SHARP, HUGE, SHIFTED],
                  [("grid.sharpness=0.25",), ("grid.reader=the",),
                   ("grid.sentence=a bird lay under the sofa the cat purred on it",
                    "grid.reader=bird"),
                   ("grid.sentence=the cat purred under the sofa", "grid.reader=purred")])


@pytest.fixture
def built(build_scene):
    """OneAttentionWeight built with the given --set items."""
    return functools.partial(build_scene, "OneAttentionWeight")


def plain(text: str) -> str:
    """What a markup string reads as: tags dropped."""
    return re.sub(r"<[^>]+>", "", text)


def shown(scene, beat: str | None = None) -> list[str]:
    texts = shown_anywhere(scene) if beat is None else scene.shown[beat]
    return [plain(t) for t in texts]


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def two_places(x: float) -> str:
    """A number as the scene writes it: two decimals, or 2.87×10⁵⁶ when out of that range."""
    if x == 0 or 0.01 <= abs(x) < 1e4:
        return f"{x:.2f}"
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPT)}"


def as_set(x: float) -> str:
    """A --set value (the sharpness) or the shift of the exponent, as the chapter writes
    them: whole numbers with thousands separators, others as short as exact."""
    return f"{x:,.0f}" if x == int(x) else f"{x:,g}"


def contains_run(texts: list[str], run: list[str]) -> bool:
    """Whether ``run`` appears in ``texts`` as consecutive items, in order."""
    return any(texts[i:i + len(run)] == run for i in range(len(texts) - len(run) + 1))


def exponent(n: dict, body: str) -> str:
    """The exponent of e as written: "s · " only when the sharpness is not 1, "− shift" if any."""
    times = f"{as_set(n['sharpness'])} · " if n["sharpness"] != 1.0 else ""
    shift = f" − {as_set(n['exp_shift'])}" if n["exp_shift"] else ""
    return f"{times}{body}{shift}"


def test_the_seed_example_is_worked(built):
    """Seed 000: "it" looks at "cat", match 1.30, weight 0.74, the row adds up to 1.000."""
    last = shown(built(), "softmax")
    assert contains_run(last, ["1.50", "0.40", "0.00"])  # what "it" asks for
    assert contains_run(last, ["0.80", "0.25", "0.00"])  # what "cat" offers
    assert "match(it, cat) = 1.30" in last
    e_match = f"{math.exp(1.30):.2f}"  # e^1.30, worked out here, not read from the ledger
    assert f"e1.30 = {e_match}" in last
    row = [line for line in last if line.startswith("Σn ematch(it, n) = ")]
    assert len(row) == 1
    total = float(row[0].rsplit(" ", 1)[1])
    # the division, then its result (a text of its own, shown as the voice says it)
    assert contains_run(last, [f"w(it, cat) = {e_match} / {total:.2f}", "= 0.74"])
    assert float(e_match) / total == pytest.approx(0.74, abs=0.005)
    assert "shares that add up to 1.000." in last


@pytest.mark.parametrize("sets", SETTINGS)
def test_query_and_key_rows_come_from_the_ledger(built, sets):
    scene = built(*sets)
    n = scene.numbers
    for beat in ("match", "softmax"):
        texts = shown(scene, beat)
        assert contains_run(texts, [f"“{n['reader']}” asks for"]
                            + [f"{x:.2f}".replace("-0.00", "0.00") for x in n["query"]])
        assert contains_run(texts, [f"“{n['top_word']}” offers"]
                            + [f"{x:.2f}".replace("-0.00", "0.00") for x in n["key"]])


@pytest.mark.parametrize("sets", SETTINGS)
def test_worked_numbers_come_from_the_ledger(built, sets):
    scene = built(*sets)
    n = scene.numbers
    reader, top = n["reader"], n["top_word"]
    numerator, denominator = two_places(n["numerator"]), two_places(n["denominator"])
    weight, match = f"{n['weight']:.2f}", f"{n['match']:.2f}"
    for beat in ("weight", "softmax"):
        last = shown(scene, beat)
        assert f"e{exponent(n, match)} = {numerator}" in last
        assert f"Σn e{exponent(n, f'match({reader}, n)')} = {denominator}" in last
        one_line = [f"w({reader}, {top}) = {numerator} / {denominator}", f"= {weight}"]
        stacked = [f"w({reader}, {top}) =", numerator, denominator, f"= {weight}"]
        assert contains_run(last, one_line) or contains_run(last, stacked)
    last = shown(scene, "softmax")
    assert f"match({reader}, {top}) = {n['match']:.2f}" in last
    assert f"shares that add up to {n['row_total']:.3f}." in last


@pytest.mark.parametrize("sets", SETTINGS)
def test_the_ledger_division_is_the_weight(built, sets):
    """The numbers written as a division really divide to the weight shown."""
    n = built(*sets).numbers
    assert n["numerator"] / n["denominator"] == pytest.approx(n["weight"], rel=1e-9)
    shifted = [math.exp(n["sharpness"] * m - n["exp_shift"]) for m in n["row_matches"]]
    assert n["denominator"] == pytest.approx(sum(shifted), rel=1e-9)


def test_the_division_is_not_shown_before_its_beat(built):
    scene = built()
    n = scene.numbers
    before = " ".join(shown(scene, "names"))
    assert f"= {n['numerator']:.2f}" not in before
    assert f"= {n['denominator']:.2f}" not in before


def test_formulas_are_written_and_named(built):
    last = shown(built(), "softmax")
    assert "match(i, j) = qi · kj" in last
    assert "wij =" in last
    assert "ematch(i, j)" in last and "Σn ematch(i, n)" in last
    text = " ".join(last)
    for name in ("query", "key", "softmax", "add up to"):
        assert name in text


def test_sharpness_is_shown_only_when_it_is_not_one(built):
    plain_one = " ".join(shown(built(), "softmax"))
    assert "s · match" not in plain_one
    assert "here it is 1." in plain_one
    sharp = built(*SHARP)
    assert sharp.numbers["sharpness"] == 3
    text = " ".join(shown(sharp, "softmax"))
    assert "es · match(i, j)" in text and "Σn es · match(i, n)" in text
    assert "s = 3 is the sharpness" in text
    assert f"e3 · {sharp.numbers['match']:.2f} = " in text


def test_numbers_follow_the_settings(built):
    default, changed = built(), built(*SHARP)
    d, c = default.numbers, changed.numbers
    assert c["top_word"] == "dog"
    assert f"{c['weight']:.2f}" != f"{d['weight']:.2f}"
    assert f"{c['numerator']:.2f}" != f"{d['numerator']:.2f}"
    assert f"{c['denominator']:.2f}" != f"{d['denominator']:.2f}"
    assert c["key"] != d["key"]
    assert not contains_run(shown(changed), ["w(it, cat) = 3.67 / 4.96", "= 0.74"])
    worked = [f"w(it, dog) = {c['numerator']:.2f} / {c['denominator']:.2f}",
              f"= {c['weight']:.2f}"]
    assert contains_run(shown(changed, "softmax"), worked)
    assert f"match(it, dog) = {c['match']:.2f}" in shown(changed, "softmax")
    assert contains_run(shown(changed, "match"), [f"{x:.2f}" for x in c["key"]])
    assert not contains_run(shown(changed, "match"), [f"{x:.2f}" for x in d["key"]])
    assert shown(default, "softmax") != shown(changed, "softmax")


def test_huge_exponentials_are_written_with_a_power_of_ten(built):
    n = built(*HUGE).numbers
    assert n["exp_shift"] == 0 and n["numerator"] > 1e50
    text = " ".join(shown(built(*HUGE), "weight"))
    assert f"= {two_places(n['numerator'])}" in text
    assert "×10" in two_places(n["numerator"])


def test_shifted_exponentials_say_so(built):
    n = built(*SHIFTED).numbers
    assert n["exp_shift"] > 0
    text = " ".join(shown(built(*SHIFTED), "weight"))
    shift = as_set(n["exp_shift"])
    assert shift == "1,300"
    assert f"e1,000 · {n['match']:.2f} − {shift} = {n['numerator']:.2f}" in text
    assert f"match(it, n) − {shift} = {n['denominator']:.2f}" in text


def test_no_tex_anywhere():
    source = Path(__file__).parents[1].joinpath("scenes", "attention", "formula.py").read_text()
    for name in ("MathTex", "Tex(", "DecimalNumber", "Integer(", "Variable("):
        assert name not in source


@pytest.mark.parametrize("sets", SETTINGS)
def test_layout_and_timing(built, sets):
    scene = built(*sets)
    assert_clean(scene)
    assert 20 <= sum(OneAttentionWeight.beat_seconds.values()) <= 45
