"""ScoreEveryState shows the ledger's first step (every state's score, its weight and
their total), follows --set, and brings each number in on its mark."""

from __future__ import annotations

import pytest

from production.qualities import QUALITIES
from scenes.components.decoder_step import weight_text
from scenes.decoder.chapter import CHAPTER
from scenes.numbers import decimal
from tests.scene_harness import assert_clean

pytestmark = pytest.mark.builds("decoder")

FRAME = 1 / QUALITIES["preview"].fps
WHITE_DOG = "decoder.sentence=the white dog runs"
#: seconds from each beat's start to its mark, later than the letters would put them
MARKS = {"score": {"top_score": 7.5}, "softmax": {"total": 8.0}}


def section(*sets: str) -> dict:
    """The ledger's section, worked out here (not taken from the scene)."""
    ledger = CHAPTER.ledger
    return ledger.compute(ledger.parse_settings(list(sets)))["scores"]


def build(build_scene, *sets: str, **kwargs):
    return build_scene("ScoreEveryState", *sets, chapter="decoder", **kwargs)


def test_every_state_is_scored_and_weighed_and_the_weights_add_up_to_one(build_scene):
    scene = build(build_scene)
    n = section()
    first = n["first"]
    assert n["weight_total"] == pytest.approx(1.0)
    for word in n["source"]:
        assert word in scene.shown["keep"]
    assert "previous" in scene.shown["previous"]
    scores = [decimal(s) for s in first["scores"]]
    assert all(s in scene.shown["score"] for s in scores)
    assert not any(s in scene.shown["previous"] for s in scores)  # not before they are made
    shown = scene.shown["softmax"]
    assert all(weight_text(w) in shown for w in first["weights"])
    assert weight_text(n["weight_total"]) in shown
    # the best score takes the largest weight
    assert max(first["weights"]) == first["weights"][n["top"]]
    assert first["scores"][n["top"]] == max(first["scores"])


def test_another_sentence_changes_what_is_shown_and_the_marks_land(build_scene):
    scene = build(build_scene, WHITE_DOG, mark_times=MARKS)
    assert_clean(scene)
    n, default = section(WHITE_DOG), section()
    assert "dog" in scene.shown["softmax"] and "cat" not in scene.shown["softmax"]
    assert all(weight_text(w) in scene.shown["softmax"] for w in n["first"]["weights"])
    assert n["first"]["scores"] != default["first"]["scores"]
    assert all(decimal(s) in scene.shown["score"] for s in n["first"]["scores"])
    starts = {b.name: b.start for b in scene.beat_log}
    shows = {"top_score": decimal(n["first"]["scores"][n["top"]]),
             "total": weight_text(n["weight_total"])}
    for beat, marks in MARKS.items():
        for mark, after in marks.items():
            onset = starts[beat] + after
            reached = [m for m in scene.mark_log if m[:2] == (mark, beat)]
            assert len(reached) == 1 and abs(reached[0][3] - onset) <= FRAME
            starting = [texts for when, texts in scene.play_log if abs(when - onset) <= FRAME]
            assert any(shows[mark] in texts for texts in starting), (mark, starting)


def test_the_narration_says_the_ledgers_numbers():
    n = section("decoder.sharpness=1")
    said = CHAPTER.by_name()["ScoreEveryState"].spoken(n)
    assert said["top_word"] == n["source"][n["top"]]
    assert said["top_score"] == decimal(n["first"]["scores"][n["top"]])
    assert said["top_weight"] == weight_text(n["first"]["weights"][n["top"]])
    assert said["top_weight"] != CHAPTER.by_name()["ScoreEveryState"].spoken(
        section())["top_weight"]
