"""TheAlignment: every step's weights stacked into the alignment, the word-for-word pair on
the diagonal and ours off it, the rows drawn as shortcuts; all from the ledger."""

from __future__ import annotations

import numpy as np
import pytest

from core import recurrent
from scenes.base import quoted
from scenes.decoder.alignment import CAPTIONS, TheAlignment, callout, crossing
from scenes.decoder.chapter import CHAPTER
from scenes.numbers import decimal
from tests.scene_harness import assert_clean

pytestmark = pytest.mark.builds("decoder")

LEDGER = CHAPTER.ledger
WHITE_DOG = "decoder.sentence=the white dog runs"


def numbers(*sets: str) -> dict:
    return LEDGER.section("alignment", LEDGER.parse_settings(list(sets)))


def test_the_ledger_names_each_rows_strongest_word_and_the_rows_off_the_diagonal():
    n = numbers()
    alignment = np.array(n["alignment"])
    assert n["reads"] == list(alignment.argmax(axis=1))
    # "chat" reads ahead of its place, "noir" looks back behind it
    assert n["reads"][n["ahead"]] > n["ahead"] and n["reads"][n["back"]] < n["back"]
    assert (n["target"][n["ahead"]], n["target"][n["back"]]) == ("chat", "noir")
    straight = np.array(n["straight"]["alignment"])
    assert n["straight"]["reads"] == list(straight.argmax(axis=1)) == [0, 1, 2]
    assert crossing(n) == (n["ahead"], n["back"])


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,)], ids=["defaults", "white dog"])
def test_the_table_shows_every_weight_and_both_sentences(build_scene, sets):
    scene = build_scene("TheAlignment", *sets, chapter="decoder")
    assert_clean(scene)
    n = scene.numbers
    shown = scene.shown["grid"]
    for row in n["alignment"]:
        for weight in row:
            assert decimal(weight) in shown
    for word in (*n["source"], *n["target"]):
        assert word in shown
    # the looking-back row's weight is called out, with its two words
    assert callout(n) in scene.shown["learned"]
    back = n["back"]
    assert quoted(n["target"][back]) in callout(n)
    assert decimal(n["alignment"][back][n["reads"][back]]) in callout(n)
    # the word-for-word pair's table (shown mid-beat) is drawn as ours is, with its own
    # weights and words
    parts = scene.lay_out()
    straight = parts.straight
    assert (straight.cell_width, straight.number_size) == \
        (parts.table.cell_width, parts.table.number_size)
    assert [t.original_text for t in straight.get_row_labels()] == n["straight"]["target"]
    assert [t.original_text for t in straight.get_column_labels()] == n["straight"]["source"]
    assert [t.original_text for row in straight.get_numbers() for t in row] == \
        [decimal(w) for row in n["straight"]["alignment"] for w in row]
    # the shortcuts: both sentences, one bright line per pair, as strong as its weight
    assert sorted(scene.shown["shortcuts"]) == sorted([*n["source"], *n["target"],
                                                       CAPTIONS["shortcuts"]])
    links = parts.shortcuts.get_links()
    assert np.array([[line.get_stroke_opacity() for line in row] for row in links]) == \
        pytest.approx(np.array(n["alignment"]))


def test_another_sentence_changes_what_is_shown_and_said():
    default, other = numbers(), numbers(WHITE_DOG)
    assert other["target"] == recurrent.french(("the", "white", "dog", "runs"))
    said, said_other = TheAlignment.spoken(default), TheAlignment.spoken(other)
    assert (said["back_fr"], said["back_en"], said["ahead_en"]) == ("noir", "black", "cat")
    assert (said_other["back_fr"], said_other["back_en"], said_other["ahead_en"]) == \
        ("blanc", "white", "dog")
    assert said_other["back_weight"] == decimal(other["alignment"][2][1])
    assert callout(other) != callout(default)


def test_another_sentence_draws_cleanly_in_the_tall_frame(build_scene):
    assert_clean(build_scene("TheAlignment", "decoder.sentence=the black dog sleeps",
                             chapter="decoder", layout="tall"))


def test_the_marks_land_with_their_words(build_scene):
    times = {"learned": {"weight": 9.0}, "diagonal": {"leaves": 8.5}}
    scene = build_scene("TheAlignment", chapter="decoder", mark_times=times)
    assert not scene.timing_problems
    start = {b.name: b.start for b in scene.beat_log}
    frame = 1 / 15
    for mark, beat, target, reached in scene.mark_log:
        assert target == pytest.approx(start[beat] + times[beat][mark])
        assert abs(reached - target) <= frame
    # the callout comes in as the voice reads its weight, and not before
    (_, _, _, at), = [m for m in scene.mark_log if m[0] == "weight"]
    text = callout(scene.numbers)
    assert any(text in texts for when, texts in scene.play_log if abs(when - at) <= frame)
    assert not any(text in texts for when, texts in scene.play_log if when < at - frame)
