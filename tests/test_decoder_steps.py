"""EveryStepAfresh shows every later step's weights and the French growing word by word,
opens where AverageAndWrite ends, follows --set, and brings each word in on its mark."""

from __future__ import annotations

import pytest

from production.qualities import QUALITIES
from scenes.components.decoder_step import weight_text
from scenes.decoder.chapter import CHAPTER
from scenes.decoder.steps import STEP_BEATS
from tests.scene_harness import assert_clean
from tests.test_joins import different, drawn

pytestmark = pytest.mark.builds("decoder")

FRAME = 1 / QUALITIES["preview"].fps
WHITE_DOG = "decoder.sentence=the white dog runs"
MARKS = {beat: {f"{beat}_read": 3.0, beat: 6.5} for beat in STEP_BEATS}


def section(*sets: str) -> dict:
    ledger = CHAPTER.ledger
    return ledger.compute(ledger.parse_settings(list(sets)))["steps"]


def build(build_scene, *sets: str, **kwargs):
    return build_scene("EveryStepAfresh", *sets, chapter="decoder", **kwargs)


def test_every_step_weighs_afresh_and_the_french_grows(build_scene):
    scene = build(build_scene)
    n = section()
    assert n["reads"] == [0, 2, 1, 3]  # "chat" skips "black", "noir" looks back at it
    for k, beat in enumerate(STEP_BEATS, 1):
        shown = scene.shown[beat]
        assert all(weight_text(w) in shown for w in n["steps"][k]["weights"])
        # the French so far, and not the words still to come
        assert all(word in shown for word in n["written"][:k + 1])
        assert not any(word in shown for word in n["written"][k + 1:])
    assert set(scene.shown["grown"]) == {*n["source"], *n["written"]}


def test_another_sentence_changes_what_is_shown_and_the_marks_land(build_scene):
    scene = build(build_scene, WHITE_DOG, mark_times=MARKS)
    assert_clean(scene)
    n = section(WHITE_DOG)
    assert n["written"] == ["le", "chien", "blanc", "court"]
    assert set(scene.shown["grown"]) == {*n["source"], *n["written"]}
    for k, beat in enumerate(STEP_BEATS, 1):
        assert all(weight_text(w) in scene.shown[beat] for w in n["steps"][k]["weights"])
    starts = {b.name: b.start for b in scene.beat_log}
    for k, beat in enumerate(STEP_BEATS, 1):
        for mark, after in MARKS[beat].items():
            onset = starts[beat] + after
            reached = [m for m in scene.mark_log if m[:2] == (mark, beat)]
            assert len(reached) == 1 and abs(reached[0][3] - onset) <= FRAME
        # the French word comes in on its mark, and not before
        onset = starts[beat] + MARKS[beat][beat]
        starting = [texts for when, texts in scene.play_log if abs(when - onset) <= FRAME]
        assert any(n["written"][k] in texts for texts in starting)
        earlier = [texts for when, texts in scene.play_log
                   if starts[beat] <= when < onset - FRAME]
        assert not any(n["written"][k] in texts for texts in earlier)


def test_another_sentence_plays_every_beat(build_scene):
    scene = build(build_scene, "decoder.sentence=the black dog sleeps")
    assert_clean(scene)
    assert set(scene.shown["grown"]) == {"the", "black", "dog", "sleeps",
                                         "le", "chien", "noir", "dort"}


def test_the_narration_names_the_ledgers_words():
    n = section()
    said = CHAPTER.by_name()["EveryStepAfresh"].spoken(n)
    assert [said[f"{b}_word"] for b in STEP_BEATS] == n["written"][1:]
    assert [said[f"{b}_read"] for b in STEP_BEATS] == [n["source"][i] for i in n["reads"][1:]]
    assert said["second_skipped"] == "black"


@pytest.mark.parametrize("frame", ["wide", "tall", "square"])
def test_it_opens_where_the_step_scene_ends(build_scene, frame):
    closing = build_scene("AverageAndWrite", layout=frame, chapter="decoder").closing
    opening = build(build_scene, layout=frame).opening
    assert drawn(opening) > 0.002
    assert different(closing, opening).mean() < 0.0002
