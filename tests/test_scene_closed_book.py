"""SqueezeTheRow and OnePieceAtATime show the ledger's numbers and words, and follow --set."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from manim import config

from core.ledger import parse_settings
from production import narration
from scenes.attention.chapter import CHAPTER
from scenes.attention.closed_book import OnePieceAtATime, SqueezeTheRow
from scenes.base import visible_texts
from scenes.numbers import factor, out_of
from tests.scene_harness import assert_clean, tiered

pytestmark = pytest.mark.builds("attention")


class RecordingSqueeze(SqueezeTheRow):
    """SqueezeTheRow that notes the visible texts at every wait (each sweep step holds on one)."""

    def wait(self, *args, **kwargs):
        self.seen_at_waits = getattr(self, "seen_at_waits", [])
        self.seen_at_waits.append([t.original_text for t in visible_texts(self.mobjects)])
        return super().wait(*args, **kwargs)


@pytest.fixture
def build(build_scene):
    """A closed-book scene class built with the given --set items.

    RecordingSqueeze has no narration of its own, so its mark falls where it does in
    SqueezeTheRow's passage (estimated from its letters, as in a silent render).
    """
    def built(scene, *sets):
        if scene is not RecordingSqueeze:
            return build_scene(scene, *sets)
        times = narration.mark_times(CHAPTER, SqueezeTheRow, parse_settings(list(sets)), [],
                                     SqueezeTheRow.beat_seconds)
        return build_scene(scene, *sets, mark_times=times)
    return built


SQUEEZE_SETS = tiered([(), ("bottleneck.room=30", "bottleneck.length=45")],
                      [("bottleneck.length=90",), ("bottleneck.room=20",)])


def test_formats():
    assert factor(1.5) == "1.5×"
    assert factor(2.25) == "2.25×"
    assert factor(1.0) == "1×"
    assert out_of(12, 20) == "12/20"


@pytest.mark.parametrize("sets", SQUEEZE_SETS)
def test_squeeze_layout_and_timing(build, sets):
    scene = build(RecordingSqueeze, *sets)
    assert_clean(scene)


@pytest.mark.parametrize("sets", SQUEEZE_SETS)
def test_squeeze_panel_shows_the_ledger(build, sets):
    scene = build(RecordingSqueeze, *sets)
    n = scene.numbers
    first = scene.shown["row"]
    assert str(n["room"]) in first
    assert str(n["length"]) in first
    assert factor(n["squeeze"]) in first
    marks = scene.shown["marks"]
    assert out_of(n["recovered_count"], n["length"]) in marks
    for recovered, total in n["third_counts"]:
        assert out_of(recovered, total) in marks


@pytest.mark.parametrize("sets", SQUEEZE_SETS)
def test_every_sweep_step_is_shown_whole(build, sets):
    scene = build(RecordingSqueeze, *sets)
    sweep = scene.numbers["sweep"]
    assert len(sweep) >= 2
    for s in sweep:
        want = Counter([str(s["room"]), str(s["length"]), factor(s["squeeze"]),
                        out_of(s["recovered_count"], s["length"])]
                       + [out_of(*c) for c in s["third_counts"]])
        assert any(not want - Counter(seen) for seen in scene.seen_at_waits), s["length"]


def test_settings_change_what_is_shown(build):
    default = build(RecordingSqueeze)
    longer = build(RecordingSqueeze, "bottleneck.length=90")
    smaller = build(RecordingSqueeze, "bottleneck.room=20")
    assert "60" in default.shown["row"] and "60" not in longer.shown["row"]
    assert "90" in longer.shown["row"]
    assert longer.numbers["squeeze"] != default.numbers["squeeze"]
    assert factor(longer.numbers["squeeze"]) in longer.shown["row"]
    assert factor(default.numbers["squeeze"]) not in longer.shown["row"]
    assert "20" in smaller.shown["row"] and "40" not in smaller.shown["row"]


@pytest.mark.parametrize("sets", SQUEEZE_SETS)
def test_the_throat_is_the_room_drawn_to_scale(build, sets):
    scene = build(RecordingSqueeze, *sets)
    n = scene.numbers
    assert len(scene.throat.get_slots()) == n["room"]
    # The last row drawn is the sweep's longest; it and the throat share one unit per number.
    row = scene.rows["in"][0]
    longest = n["sweep"][-1]["length"]
    assert len(row) == longest
    pitch = (row[-1].get_x() - row[0].get_x()) / (longest - 1)
    assert scene.throat.get_frame().width == pytest.approx(n["room"] * pitch, rel=1e-3)
    assert row.get_left()[0] >= -config.frame_width / 2
    assert row.get_right()[0] <= config.frame_width / 2


def test_ninety_cells_fit_across_the_frame(build):
    scene = build(RecordingSqueeze, "bottleneck.length=90")
    assert any(s["length"] == 90 for s in scene.numbers["sweep"])
    row = scene.rows["in"][0]
    assert len(row) == max(s["length"] for s in scene.numbers["sweep"])
    assert row.get_left()[0] >= -config.frame_width / 2
    assert row.get_right()[0] <= config.frame_width / 2


def test_output_cells_fade_with_recovery_and_colour_by_recovered(build):
    from scenes import style

    scene = build(RecordingSqueeze)
    last = scene.numbers["sweep"][-1]
    cells = scene.rows["out"][0]
    opacities = np.array([c.get_fill_opacity() for c in cells])
    assert np.argsort(opacities, kind="stable").tolist() == np.argsort(
        np.array(last["recovery"]), kind="stable").tolist()
    for cell, ok in zip(cells, last["recovered"]):
        want = style.GOOD if ok else style.BAD
        assert cell.get_fill_color().to_hex().lower() == want.to_hex().lower()


def test_the_rule_is_stated(build):
    scene = build(RecordingSqueeze)
    rule = [t for t in scene.shown["rule"] if "least" in t]
    assert rule and "at least 90% of" in rule[0]  # the chapter's percent, the ledger's value
    assert "at least 90 % of" in scene.numbers["rule"]


# ------------------------------------------------------------------ writing

WRITING_SETS = tiered([(), ("seq2seq.length=1",)], [("seq2seq.length=12",), ("seq2seq.length=32",)])


@pytest.mark.parametrize("sets", WRITING_SETS)
def test_writing_layout_and_timing(build, sets):
    scene = build(OnePieceAtATime, *sets)
    assert_clean(scene)


@pytest.mark.parametrize("sets", WRITING_SETS)
def test_every_written_word_reaches_the_tape_and_comes_back_round(build, sets):
    scene = build(OnePieceAtATime, *sets)
    written = scene.numbers["output"]
    shown = Counter(scene.shown["rest"])
    assert not Counter(written) - shown
    # The last word written is the writer's next input, sitting in its input slot.
    assert scene.slot_word.original_text == written[-1]
    assert np.allclose(scene.slot_word.get_center(), scene.machine.in_slot, atol=0.05)


def test_writing_shows_the_sentence_read_and_follows_settings(build):
    default = build(OnePieceAtATime)
    other = build(OnePieceAtATime, "seq2seq.length=12")
    assert len(other.numbers["input"]) == 12
    assert default.numbers["input"] != other.numbers["input"]
    assert not Counter(default.numbers["input"]) - Counter(default.shown["setup"])
    assert not Counter(other.numbers["output"]) - Counter(other.shown["rest"])
    # Words arrive one by one: after the first beat only the first word has been written.
    first = Counter(default.shown["first"]) - Counter(default.shown["setup"])
    assert first[default.numbers["output"][0]] >= 1
    assert sum(first.values()) <= 3  # the word on the tape, in the slot, and the loop caption
