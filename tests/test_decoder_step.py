"""AverageAndWrite shows the ledger's first step (the weights it averages, the French
words' probabilities and the word written), opens where ScoreEveryState ends, follows
--set, and brings the context and the word in on their marks."""

from __future__ import annotations

import pytest

from production.qualities import QUALITIES
from scenes.components.decoder_step import probability_text, weight_text
from scenes.decoder.chapter import CHAPTER
from scenes.numbers import percent_figure
from tests.scene_harness import assert_clean
from tests.test_joins import different, drawn

pytestmark = pytest.mark.builds("decoder")

FRAME = 1 / QUALITIES["preview"].fps
WHITE_DOG = "decoder.sentence=the white dog runs"
MARKS = {"average": {"context": 9.0}, "output": {"word": 7.0}}


def section(*sets: str) -> dict:
    ledger = CHAPTER.ledger
    return ledger.compute(ledger.parse_settings(list(sets)))["step"]


def build(build_scene, *sets: str, **kwargs):
    return build_scene("AverageAndWrite", *sets, chapter="decoder", **kwargs)


def test_the_average_the_output_and_the_word_written(build_scene):
    scene = build(build_scene)
    n = section()
    first = n["first"]
    assert all(weight_text(w) in scene.shown["average"] for w in first["weights"])
    assert "context" in scene.shown["average"] and "new state" in scene.shown["join"]
    # every French word with its probability, most likely first
    output = scene.shown["output"]
    assert sorted(n["ranking"]) == sorted(n["vocabulary"])
    for word, p in zip(n["ranking"], n["ranked_probabilities"]):
        assert word in output and probability_text(p) in output
    assert n["ranking"][0] == first["word"] == n["written"][0]
    # the new state goes on as the next step's previous state, and the word stays written
    assert {"previous", first["word"], *n["source"]} <= set(scene.shown["onward"])


def test_another_sentence_changes_what_is_shown_and_the_marks_land(build_scene):
    scene = build(build_scene, WHITE_DOG, mark_times=MARKS)
    assert_clean(scene)
    n, default = section(WHITE_DOG), section()
    assert n["ranked_probabilities"] != default["ranked_probabilities"]
    for p in n["ranked_probabilities"]:
        assert probability_text(p) in scene.shown["output"]
    assert "dog" in scene.shown["average"] and "black" not in scene.shown["average"]
    starts = {b.name: b.start for b in scene.beat_log}
    shows = {"context": "context", "word": n["first"]["word"]}
    for beat, marks in MARKS.items():
        for mark, after in marks.items():
            onset = starts[beat] + after
            reached = [m for m in scene.mark_log if m[:2] == (mark, beat)]
            assert len(reached) == 1 and abs(reached[0][3] - onset) <= FRAME
            starting = [texts for when, texts in scene.play_log if abs(when - onset) <= FRAME]
            assert any(shows[mark] in texts for texts in starting), (mark, starting)
            earlier = [texts for when, texts in scene.play_log
                       if starts[beat] <= when < onset - FRAME]
            assert not any(shows[mark] in texts for texts in earlier)


def test_the_narration_says_the_ledgers_word_and_probability():
    n = section()
    said = CHAPTER.by_name()["AverageAndWrite"].spoken(n)
    assert said["word"] == n["first"]["word"]
    assert said["probability"] == percent_figure(max(n["first"]["probabilities"]), 1)
    assert said["top_word"] == n["source"][n["top"]]


@pytest.mark.parametrize("frame", ["wide", "tall", "square"])
def test_it_opens_where_the_scores_end(build_scene, frame):
    closing = build_scene("ScoreEveryState", layout=frame, chapter="decoder").closing
    opening = build(build_scene, layout=frame).opening
    assert drawn(opening) > 0.002
    assert different(closing, opening).mean() < 0.0002
