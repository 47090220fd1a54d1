"""The fixture chapter (tests/fixture/): its numbers are its model's, its scenes lay out
cleanly in every frame, and it renders whole at the test quality."""

from __future__ import annotations

import json

import numpy as np
import pytest

from production.qualities import QUALITIES
from scenes.numbers import decimal
from tests.fixture import numbers
from tests.fixture.chapter import CHAPTER


def test_the_weights_add_up_to_one_and_follow_the_scores():
    for sharpness in (0.5, 1.0, 8.0):
        shares = numbers.weights(numbers.SCORES, sharpness)
        assert shares.sum() == pytest.approx(1.0, abs=1e-12)
        assert list(np.argsort(-shares)) == list(np.argsort(-np.asarray(numbers.SCORES)))


@pytest.mark.parametrize("frame", ["wide", "tall", "square"])
def test_its_scenes_show_the_ledgers_numbers_and_lay_out_cleanly(build_scene, frame):
    shown = CHAPTER.ledger.compute(CHAPTER.ledger.parse_settings([]))["shares"]
    scores = build_scene("Scores", layout=frame, chapter="fixture")
    weights = build_scene("Weights", layout=frame, chapter="fixture")
    for scene in (scores, weights):
        assert scene.layout_problems == [] and scene.timing_problems == []
    assert [decimal(s) for s in shown["scores"]] == scores.shown["scores"][-3:]
    for w in shown["weights"]:
        assert decimal(w) in weights.shown["weights"]
    assert f"add up to {decimal(shown['total'])}" in " ".join(weights.shown["weights"])


def test_it_renders_whole_at_the_test_quality(fixture_bundle):
    manifest = json.loads((fixture_bundle / "manifest.json").read_text())
    assert [s["name"] for s in manifest["scenes"]] == ["Scores", "Weights"]
    width, height, fps = QUALITIES["test"].size
    assert manifest["quality"] == {"name": "test", "width": width, "height": height,
                                   "frame_rate": fps}
    assert (fixture_bundle / "chapter.mp4").stat().st_size > 0
