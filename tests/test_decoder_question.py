"""The question scene shows the ledger's sentence pair, links each French word to the
English word the ledger says it reads, follows --set, and brings the French in on its mark."""

from __future__ import annotations

import pytest

from production.qualities import QUALITIES
from scenes import style
from scenes.decoder.chapter import CHAPTER
from scenes.decoder.question import QUESTION
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("decoder")

WHITE_DOG = "decoder.sentence=the white dog runs"
OTHER = "decoder.sentence=the black dog sleeps"
FRAME = 1 / QUALITIES["preview"].fps


def ledger(*sets: str) -> dict:
    return CHAPTER.ledger.section("question", CHAPTER.ledger.parse_settings(list(sets)))


def build(build_scene, *sets, **kwargs):
    return build_scene("DecoderQuestion", *sets, chapter="decoder", **kwargs)


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_it_shows_both_sentences_and_the_question(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    assert scene.numbers["source"] == n["source"]
    shown = scene.shown["question"]
    for word in (*n["source"], *n["target"]):
        assert word in shown
    assert " ".join(t for t in shown if t not in n["source"] + n["target"]) \
        .replace("  ", " ") == QUESTION


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_each_link_runs_from_a_french_word_to_the_english_word_it_reads(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    pair = scene.pair
    assert len(pair.get_links()) == len(n["target"])
    for i, link in enumerate(pair.get_links()):
        start, end = link.get_start(), link.get_end()
        assert start[0] == pytest.approx(pair.get_french()[i].get_x())
        assert end[0] == pytest.approx(pair.get_english()[n["reads"][i]].get_x())
        crossing = link.get_color() == style.WEIGHT
        assert crossing == n["crossing"][i]


def test_the_ledger_says_which_words_cross():
    # "noir" reads "black", which stands before "cat": the two links cross
    n = ledger()
    assert n["reads"] == [0, 2, 1, 3]
    assert n["crossing"] == [False, True, True, False]


def test_another_sentence_changes_the_words(build_scene):
    default, white = build(build_scene), build(build_scene, WHITE_DOG)
    assert "chien" in white.shown["question"] and "chien" not in default.shown["question"]
    assert "black" in default.shown["question"] and "black" not in white.shown["question"]


@pytest.mark.parametrize("sets,frame", tiered([((WHITE_DOG,), "wide")],
                                              [[(OTHER,), "tall"], [(OTHER,), "square"]]))
def test_other_sentences_lay_out_cleanly(build_scene, sets, frame):
    assert_clean(build(build_scene, *sets, layout=frame))


def test_the_french_comes_in_on_its_mark(build_scene):
    at = 3.0
    scene = build(build_scene, mark_times={"question": {"french": at}})
    assert not scene.timing_problems
    start = scene.beat_log[0].start
    (mark, beat, target, reached), = scene.mark_log
    assert (mark, beat) == ("french", "question")
    assert target == pytest.approx(start + at)
    assert abs(reached - target) <= FRAME
    french = ledger()["target"]
    starting = [texts for when, texts in scene.play_log if abs(when - reached) < 1e-6]
    assert starting and set(french) <= set(starting[0])
    earlier = [t for when, texts in scene.play_log if when < reached - 1e-6 for t in texts]
    assert not set(french) & set(earlier)


def test_the_scene_fits_in_eight_seconds():
    scene = CHAPTER.by_name()["DecoderQuestion"]
    assert sum(scene.beat_seconds.values()) <= 8
