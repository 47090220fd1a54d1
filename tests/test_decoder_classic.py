"""The classic decoder scene: the context vector is the encoder's last state (its numbers
shown), the decoder writes what the ledger says it writes from that one vector, and the
bars show how much of each word the vector still holds."""

from __future__ import annotations

import pytest

from production import narration
from production.qualities import QUALITIES
from scenes import style
from scenes.decoder.chapter import CHAPTER
from scenes.numbers import decimal, percent, percent_figure
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("decoder")

WHITE_DOG = "decoder.sentence=the white dog runs"
OTHER = "decoder.sentence=the black dog sleeps"
FRAME = 1 / QUALITIES["preview"].fps


def ledger(*sets: str) -> dict:
    return CHAPTER.ledger.section("classic", CHAPTER.ledger.parse_settings(list(sets)))


def build(build_scene, *sets, **kwargs):
    return build_scene("OneVectorToUnroll", *sets, chapter="decoder", **kwargs)


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_the_context_vector_is_the_last_state(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    last = n["encoder_states"][-1]
    assert scene.context.values == pytest.approx(last)
    for value in last:
        assert decimal(value) in scene.shown["last"]
    assert "context" in scene.shown["last"] and "vector" in scene.shown["last"]


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,), (OTHER,)], ids=["default", "white", "other"])
def test_it_writes_what_the_ledger_says_from_one_vector(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    written = scene.decoder.get_written()
    assert [w.original_text for w in written] == n["classic_written"]
    assert [w.original_text for w in scene.decoder.get_target()] == n["target"]
    for word, right in zip(written, n["classic_right"]):
        assert word.get_color() == (style.GOOD if right else style.BAD)
    shown = scene.shown["unroll"]
    assert shown.count(n["classic_written"][0]) >= n["classic_written"].count(
        n["classic_written"][0])
    # one vector cannot write the sentence: it repeats its last word
    assert n["classic_written"] != n["target"]
    assert set(n["classic_written"]) == {n["target"][-1]}
    # every step is fed a copy of the same vector
    for copy in scene.decoder.contexts:
        assert copy.values == pytest.approx(n["encoder_states"][-1])


@pytest.mark.parametrize("sets", [(), (WHITE_DOG,)], ids=["default", "white"])
def test_the_bars_show_what_the_vector_still_holds(build_scene, sets):
    scene = build(build_scene, *sets)
    n = ledger(*sets)
    for word, kept in zip(n["source"], n["kept"]):
        assert word in scene.shown["kept"]
        assert percent(kept) in scene.shown["kept"]
    widths = [bar.width for bar in scene.kept.get_bars()]
    assert widths.index(max(widths)) == len(n["source"]) - 1
    assert any(str(n["size"]) in text for text in scene.shown["bottleneck"])


def test_another_sentence_changes_what_it_writes(build_scene):
    default, white = build(build_scene), build(build_scene, WHITE_DOG)
    assert "court" in white.shown["unroll"] and "court" not in default.shown["unroll"]
    assert percent(ledger(WHITE_DOG)["kept"][0]) in white.shown["kept"]


def test_the_narration_says_the_ledgers_words_and_shares():
    for sets in [(), (WHITE_DOG,)]:
        n = ledger(*sets)
        script = narration.script_for(CHAPTER, CHAPTER.by_name()["OneVectorToUnroll"],
                                      CHAPTER.ledger.parse_settings(list(sets)))
        assert ", ".join(n["classic_written"]) in script["unroll"]
        assert f"fills {percent_figure(n['kept'][-1])} percent" in script["kept"]
        assert f"down to {percent_figure(n['kept'][0])} percent" in script["kept"]
        assert f"one vector of {n['size']} numbers" in script["bottleneck"]


@pytest.mark.parametrize("sets,frame", tiered([((WHITE_DOG,), "wide")],
                                              [[(OTHER,), "tall"], [(OTHER,), "square"]]))
def test_other_sentences_lay_out_cleanly(build_scene, sets, frame):
    assert_clean(build(build_scene, *sets, layout=frame))


def test_the_written_words_come_in_on_their_mark(build_scene):
    at = 9.5
    scene = build(build_scene, mark_times={"unroll": {"written": at}})
    assert not scene.timing_problems
    (mark, beat, target, reached), = scene.mark_log
    assert (mark, beat) == ("written", "unroll")
    start = {b.name: b.start for b in scene.beat_log}["unroll"]
    assert target == pytest.approx(start + at)
    assert abs(reached - target) <= FRAME
    starting = [texts for when, texts in scene.play_log if abs(when - reached) < 1e-6]
    assert starting and list(starting[0]) == ledger()["classic_written"]
