"""The encoder scene draws the ledger's hidden states, one cell reused along the sentence,
and what each state holds of every word read so far; it opens on the English sentence
where the question left it and hands its row of states to the next scene."""

from __future__ import annotations

import numpy as np
import pytest

from production import narration
from production.qualities import QUALITIES
from scenes.decoder.chapter import CHAPTER
from scenes.numbers import percent, percent_figure
from tests.scene_harness import assert_clean, tiered
from tests.test_joins import different, drawn

pytestmark = pytest.mark.builds("decoder")

WHITE_DOG = "decoder.sentence=the white dog runs"
OTHER = "decoder.sentence=the black dog sleeps"
FRAME = 1 / QUALITIES["preview"].fps


def ledger(*sets: str) -> dict:
    return CHAPTER.ledger.section("encoder", CHAPTER.ledger.parse_settings(list(sets)))


def build(build_scene, *sets, **kwargs):
    return build_scene("TheEncoderReads", *sets, chapter="decoder", **kwargs)


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_every_state_is_the_ledgers(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    strips = scene.row.get_strips()
    assert len(strips) == len(n["source"])
    for strip, state in zip(strips, n["encoder_states"]):
        assert strip.values == pytest.approx(state)
        assert len(strip.get_cells()) == n["size"]
    for word in n["source"]:
        assert word in scene.shown["inputs"]
    assert f"{n['size']} numbers" in scene.shown["inputs"]


def test_one_cell_the_same_at_every_step(build_scene):
    scene = build(build_scene)
    boxes = scene.row.get_boxes()
    assert len(boxes) == len(ledger()["source"])
    # the same cell copied along: one size, one name, in every column
    assert len({(round(b.width, 6), round(b.height, 6)) for b in boxes}) == 1
    assert {b[1].original_text for b in boxes} == {"W"}


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_each_state_holds_its_own_word_most(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    holds = scene.shown["holds"]
    for i, (shares, bars) in enumerate(zip(n["holds"], scene.holds)):
        assert len(shares) == len(bars.get_bars()) == i + 1
        assert percent(shares[-1]) in holds
        heights = [bar.height for bar in bars.get_bars()]
        assert int(np.argmax(heights)) == i  # the word just read
        assert int(np.argmax(shares)) == i
    # and the last state's shares are what the classic decoder is left with
    assert n["holds"][-1] == pytest.approx(
        CHAPTER.ledger.section("classic", CHAPTER.ledger.parse_settings(list(sets)))["kept"])


def test_another_sentence_changes_the_states(build_scene):
    default, white = build(build_scene), build(build_scene, WHITE_DOG)
    assert default.row.get_strips()[1].values != white.row.get_strips()[1].values
    assert "dog" in white.shown["inputs"] and "dog" not in default.shown["inputs"]


def test_the_narration_names_the_ledgers_share():
    for sets in [(), (WHITE_DOG,)]:
        n = ledger(*sets)
        script = narration.script_for(CHAPTER, CHAPTER.by_name()["TheEncoderReads"],
                                      CHAPTER.ledger.parse_settings(list(sets)))
        assert f"{n['source'][-1]} fills {percent_figure(n['holds'][-1][-1])} percent" \
            in script["holds"]
        assert f"a vector of {n['size']} numbers" in script["inputs"]


@pytest.mark.parametrize("sets,frame", tiered([((WHITE_DOG,), "wide")],
                                              [[(OTHER,), "tall"], [(OTHER,), "square"]]))
def test_other_sentences_lay_out_cleanly(build_scene, sets, frame):
    assert_clean(build(build_scene, *sets, layout=frame))


def test_the_size_comes_in_on_its_mark(build_scene):
    at = 13.0
    scene = build(build_scene, mark_times={"inputs": {"size": at}})
    assert not scene.timing_problems
    (mark, beat, target, reached), = scene.mark_log
    assert (mark, beat) == ("size", "inputs")
    assert target == pytest.approx(scene.beat_log[0].start + at)
    assert abs(reached - target) <= FRAME
    label = f"{ledger()['size']} numbers"
    starting = [texts for when, texts in scene.play_log if abs(when - reached) < 1e-6]
    assert starting and label in starting[0]
    assert not any(label in texts for when, texts in scene.play_log if when < reached - 1e-6)


@pytest.mark.parametrize("before,after", [("DecoderQuestion", "TheEncoderReads"),
                                          ("TheEncoderReads", "OneVectorToUnroll")])
@pytest.mark.parametrize("frame", ["wide", "tall"])
def test_the_cuts_around_it_cannot_be_seen(build_scene, before, after, frame):
    assert CHAPTER.by_name()[after].opens_with
    closing = build_scene(before, chapter="decoder", layout=frame).closing
    opening = build_scene(after, chapter="decoder", layout=frame).opening
    assert drawn(opening) > 0.002
    changed = different(closing, opening)
    assert changed.mean() < 0.0002, changed.sum()
