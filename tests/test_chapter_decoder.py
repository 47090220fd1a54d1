"""The chapter "Inside the attention decoder, one step at a time": its ledger against
the model, and every scene laid out cleanly in every frame."""

from __future__ import annotations

import numpy as np
import pytest

from core import recurrent
from scenes.decoder.chapter import CHAPTER

pytestmark = pytest.mark.builds("decoder")

LEDGER = CHAPTER.ledger
FRAMES = ("wide", "tall", "square")


def numbers(*sets: str) -> dict:
    return LEDGER.compute(LEDGER.parse_settings(list(sets)))


def test_the_ledger_holds_the_models_translation():
    n = numbers()
    assert n["steps"]["source"] == ["the", "black", "cat", "sleeps"]
    assert n["steps"]["written"] == n["steps"]["target"] == ["le", "chat", "noir", "dort"]
    for step in n["steps"]["steps"]:
        assert sum(step["weights"]) == pytest.approx(1.0, abs=1e-12)
    # "noir" looks back at "black", behind the word before it
    alignment = np.array(n["alignment"]["alignment"])
    assert list(alignment.argmax(axis=1)) == [0, 2, 1, 3]
    straight = np.array(n["alignment"]["straight"]["alignment"])
    assert list(straight.argmax(axis=1)) == [0, 1, 2]
    # the classic decoder, given one vector, cannot write it
    assert n["classic"]["classic_written"] != n["classic"]["target"]
    # without recurrence the weights follow the words wherever they stand
    assert n["order"]["in_order"] == pytest.approx(n["order"]["reversed"])


def test_another_sentence_and_a_bad_one():
    n = numbers("decoder.sentence=the white dog runs")
    assert n["steps"]["written"] == recurrent.french(("the", "white", "dog", "runs")) \
        == ["le", "chien", "blanc", "court"]
    with pytest.raises(ValueError, match="decoder.sentence.*must be four words: the, then black"):
        numbers("decoder.sentence=the cat black sleeps")


@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize("scene", [s.__name__ for s in CHAPTER.scenes])
def test_every_scene_lays_out_cleanly_in_every_frame(build_scene, scene, frame):
    built = build_scene(scene, layout=frame, chapter="decoder")
    assert built.layout_problems == []
    assert built.timing_problems == []
    assert [b.name for b in built.beat_log] == list(built.beat_seconds)
