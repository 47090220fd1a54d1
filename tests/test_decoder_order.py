"""TowardTransformers: the recurrence as a chain of states; the chain taken out, the
decoder's weights follow the words wherever they stand; a position added to each word.
It opens with the English sentence where TheAlignment left it."""

from __future__ import annotations

import numpy as np
import pytest

from core import recurrent
from scenes.base import quoted
from scenes.decoder.alignment import TheAlignment
from scenes.decoder.chapter import CHAPTER, SCENES_IN_ORDER
from scenes.decoder.order import TowardTransformers
from scenes.numbers import decimal
from tests.scene_harness import assert_clean
from tests.test_joins import different, drawn

pytestmark = pytest.mark.builds("decoder")

LEDGER = CHAPTER.ledger
WHITE_DOG = "decoder.sentence=the white dog runs"


def numbers(*sets: str) -> dict:
    return LEDGER.section("order", LEDGER.parse_settings(list(sets)))


def test_the_ledger_gives_each_words_own_state_its_place_and_the_word_looked_for():
    n = numbers()
    model = recurrent.build_model()
    for word, alone in zip(n["source"], n["alone"]):
        assert np.allclose(alone, recurrent.encode([word], model)[0])
    assert n["positions"] == list(range(1, len(n["source"]) + 1))
    assert n["source"][n["sought"]] == "cat"
    assert [n["source"][i] for i in n["backwards_order"]] == n["backwards"]
    assert n["in_order"] == pytest.approx(n["reversed"])


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,)], ids=["defaults", "white dog"])
def test_every_weight_state_and_position_comes_from_the_ledger(build_scene, sets):
    scene = build_scene("TowardTransformers", *sets, chapter="decoder")
    assert_clean(scene)
    n = scene.numbers
    k = n["sought"]
    assert [w for w in scene.shown["chain"] if w in n["source"]] == n["source"]
    for weight in n["in_order"]:
        assert decimal(weight) in scene.shown["attention"]
    for weight in n["reversed"]:
        assert decimal(weight) in scene.shown["reversed"]
    # ...the same weight, wherever the word looked for stands, says the caption
    assert quoted(n["source"][k]) in " ".join(scene.shown["reversed"])
    for place in n["positions"]:
        assert str(place) in scene.shown["position"]
    # each word's state: in the chain the encoder's, once the chain is cut its own
    parts = scene.lay_out()
    for column, state, alone in zip(parts.columns, n["encoder_states"], n["alone"]):
        assert column.state.values == state and column.alone.values == alone
    # the first French word and the class looked for, in the attention beat's caption
    said = " ".join(scene.shown["attention"])
    assert quoted(n["target"][0]) in said and n["looking_for"] in said


def test_another_sentence_draws_cleanly_in_the_square_frame(build_scene):
    assert_clean(build_scene("TowardTransformers", "decoder.sentence=the black dog sleeps",
                             chapter="decoder", layout="square"))


def test_another_sentence_changes_what_is_said():
    said = TowardTransformers.spoken(numbers())
    other = TowardTransformers.spoken(numbers(WHITE_DOG))
    assert (said["sought"], other["sought"]) == ("cat", "dog")
    n = numbers(WHITE_DOG)
    assert other["weight"] == decimal(n["in_order"][n["sought"]]) == other["weight_reversed"]
    assert (said["place_before"], said["place_here"]) == ("3", "2")


def test_the_marks_land_with_their_numbers(build_scene):
    times = {"attention": {"weight": 12.0}, "reversed": {"same": 4.0},
             "position": {"place": 8.0}}
    scene = build_scene("TowardTransformers", chapter="decoder", mark_times=times)
    assert not scene.timing_problems
    start = {b.name: b.start for b in scene.beat_log}
    frame = 1 / 15
    assert len(scene.mark_log) == 3
    for mark, beat, target, reached in scene.mark_log:
        assert target == pytest.approx(start[beat] + times[beat][mark])
        assert abs(reached - target) <= frame
    n = scene.numbers
    at = {m[0]: m[3] for m in scene.mark_log}
    weight = decimal(n["in_order"][n["sought"]])
    played = {when: texts for when, texts in scene.play_log}
    # the weights come in as the voice reads the noun's, not before
    assert any(weight in texts for when, texts in played.items()
               if abs(when - at["weight"]) <= frame)
    assert not any(weight in texts for when, texts in played.items()
                   if when < at["weight"] - frame)
    # the positions come in as the voice names the first
    place = str(n["positions"][n["backwards_order"].index(n["sought"])])
    assert any(place in texts for when, texts in played.items()
               if abs(when - at["place"]) <= frame)


@pytest.mark.parametrize("frame", ["wide", "tall"])
def test_it_opens_with_the_english_sentence_where_the_alignment_left_it(build_scene, frame):
    assert SCENES_IN_ORDER.index(TowardTransformers) == \
        SCENES_IN_ORDER.index(TheAlignment) + 1
    assert TowardTransformers.opens_with
    closing = build_scene("TheAlignment", chapter="decoder", layout=frame).closing
    opening = build_scene("TowardTransformers", chapter="decoder", layout=frame).opening
    assert drawn(opening) > 0.002
    assert different(closing, opening).mean() < 0.0002
