"""Bookmarks: a scene starts an animation when the voice starts the marked word.

Each use is checked with real speech (the default Piper voice, through the speech
cache) and real word timings: the mark sits on the word that says the number, the
scene reaches it at that word's onset, and the animation that shows the number starts
within one frame of it. The fixture chapter's mark is checked in the default tier; the
attention chapter's, whose scenes take long to build, in the system tier. Marks that are
malformed, missing or waited for by no scene are one-line errors naming file and line.
"""

from __future__ import annotations

import dataclasses
import functools
import shutil
from pathlib import Path

import pytest

from core import ledger
from production import cache, chapters, narration
from production.narration import marks, spoken
from production.qualities import QUALITIES
from scenes.attention.chapter import CHAPTER
from scenes.attention.formula import weight_result
from scenes.components.potion_layout import written_next
from scenes.components.spotlight_shot import tenths, top_share
from scenes.numbers import decimal, factor, factor_figure, percent, percent_figure, whole_percent
from tests.conftest import Ran, chapter_module, run_command
from tests.fixture.chapter import CHAPTER as FIXTURE

FRAME = 1 / QUALITIES["preview"].fps

#: the attention chapter's marks: (scene, beat, mark)
USES = [
    ("SpotlightBudget", "trace", "total"),
    *(("SpotlightBudget", "shares", f"share_{k}")
      for k in range(1, len(ledger.section("spotlight", None)["shares_percent"]) + 1)),
    ("LookBackRule", "hide", "back_top_percent"),
    ("OneAttentionWeight", "weight", "weight"),
    ("SqueezeTheRow", "rule", "squeeze"),
    ("ChemistryAndAssembly", "predicted", "predicted"),
]


def said_and_shown(chapter: str, mark: str) -> tuple[str, str]:
    """The written word the voice says at a chapter's mark, and a text on screen that the
    animation starting at the mark brings in: from the ledger, worked out when a test
    asks (the bottleneck's numbers take seconds, too long to work out while collecting)."""
    if chapter == "fixture":  # its one mark, "total"
        total = decimal(FIXTURE.ledger.section("shares")["total"])
        return total, f"the weights add up to {total}"
    spotlight = ledger.section("spotlight", None)
    if mark == "total":
        return tenths(spotlight["total"]), tenths(spotlight["total"])
    if mark.startswith("share_"):
        share = spotlight["shares_percent"][int(mark.removeprefix("share_")) - 1]
        return str(share), whole_percent(share)
    if mark == "back_top_percent":
        lookback = spotlight["lookback_rule"][spotlight["asker"]]
        top = lookback["shares"][top_share(lookback["shares"])]
        return percent_figure(top), percent(top)
    if mark == "weight":
        weight = ledger.section("formula", None)["weight"]
        return decimal(weight), weight_result(weight)
    if mark == "squeeze":
        squeeze = ledger.section("bottleneck", None)["squeeze"]
        return factor_figure(squeeze), factor(squeeze)
    assert mark == "predicted", mark
    assembly = ledger.section("assembly", None)
    return assembly["predicted"], written_next(assembly["last_word"], assembly["predicted"])


@pytest.fixture(scope="module")
def spoken_scenes():
    """A scene of a chapter spoken by the default voice: its passages, its beats' lengths
    and its marks' times (each scene once)."""
    @functools.cache
    def speak(chapter: str, name: str) -> tuple:
        book = chapters.load(chapter_module(chapter))
        scene_class = book.by_name()[name]
        passages = cache.speech(book, scene_class, {}, narration.DEFAULT_VOICE)
        lengths = narration.beat_lengths(scene_class.beat_seconds, passages)
        return passages, lengths, narration.mark_times(book, scene_class, {}, passages, lengths)

    return speak


@pytest.mark.parametrize("chapter,scene,beat,mark", [
    pytest.param("fixture", "Weights", "weights", "total", id="fixture-Weights-total"),
    *(pytest.param("attention", *use, id=f"{use[0]}-{use[2]}", marks=pytest.mark.system)
      for use in USES),
])
def test_the_animation_starts_on_the_marked_word(build_scene, spoken_scenes, chapter,
                                                 scene, beat, mark):
    word, shown = said_and_shown(chapter, mark)
    passages, lengths, times = spoken_scenes(chapter, scene)
    passage = next(p for p in passages if p.beat == beat)
    index = dict(passage.marks)[mark]
    # The mark is on the word that says the number (as written, trailing punctuation
    # and quotes aside).
    assert passage.text.split()[index].rstrip(".,;:").strip('"') == word
    # Its time is the onset of the first spoken word of it.
    first, last = spoken.spans(passage.text)[index]
    assert first < last
    assert times[beat][mark] == pytest.approx(narration.LEAD_IN + passage.words[first].start)

    drawn = build_scene(scene, durations=lengths, mark_times=times, chapter=chapter)
    assert not drawn.timing_problems, drawn.timing_problems
    start = {b.name: b.start for b in drawn.beat_log}[beat]
    onset = start + narration.LEAD_IN + passage.words[first].start
    reached = [m for m in drawn.mark_log if m[0] == mark and m[1] == beat]
    assert len(reached) == 1
    # The scene went on within one frame of the onset...
    assert abs(reached[0][3] - onset) <= FRAME
    # ...and the animation that shows the number starts there.
    starting = [texts for when, texts in drawn.play_log if abs(when - onset) <= FRAME]
    assert any(shown in texts for texts in starting), (shown, starting)
    # Not before it in this beat (an earlier beat may have shown the same figure, as the
    # spotlight's bars show the shares before the trace reads them out).
    earlier = [texts for when, texts in drawn.play_log if start <= when < onset - FRAME]
    assert not any(shown in texts for texts in earlier), "shown before the voice says it"


@pytest.mark.parametrize("book", [CHAPTER, FIXTURE], ids=lambda book: book.name)
def test_every_mark_a_scene_lists_is_used_and_in_its_passage(book):
    for scene_class in book.scenes:
        found = narration.marked_script(book, scene_class, None)  # raises when they disagree
        for beat, names in scene_class.marks.items():
            assert set(names) == set(found[beat][1])
    assert len([m for sc in CHAPTER.scenes for b in sc.marks.values() for m in b]) >= len(USES)


# ----------------------------------------------------------------- the syntax


def test_a_mark_is_taken_out_and_points_at_its_word(tmp_path):
    text, found = marks.split("The exponentials add up to <total>64.8 in all.",
                              tmp_path / "x.txt", "trace")
    assert text == "The exponentials add up to 64.8 in all."
    assert found == {"total": 5}
    assert marks.split("A < b, and c <- d.", tmp_path / "x.txt", "b") == \
        ("A < b, and c <- d.", {})


@pytest.mark.parametrize("passage,message", [
    ("add up to <total 64.8", r"x\.txt:4: malformed mark '<total'"),
    ("add up to<total>64.8", r"x\.txt:4: mark <total> is glued to the word before it"),
    ("add up to 64.8 <total>", r"x\.txt:4: mark <total> has no word after it"),
    ("<a>add <a>up", r"x\.txt:4: mark <a> appears twice in \[trace\]"),
])
def test_a_malformed_mark_names_file_and_line(tmp_path, passage, message):
    path = tmp_path / "x.txt"
    path.write_text(f"[stage]\nFirst.\n[trace]\n{passage}\n", encoding="utf-8")
    with pytest.raises(marks.MarkError, match=message):
        marks.split(passage, path, "trace")


@pytest.mark.parametrize("passage, shown", [
    ("add up to <1st>64.8", "<1st>"),          # a name may not start with a digit
    ("add up to <über>64.8", "<über>"),        # nor hold a letter outside ASCII
    ("add up to \u2039über>64.8", "\u2039über>"),  # nor open with a typographic bracket
    ("add up to <total\u203a64.8", "<total\u203a"),
    ("add up to <to-tal>64.8", "<to-tal>"),
    ("add up to <>64.8", "<>"),
])
def test_what_looks_like_a_mark_with_a_name_that_is_no_identifier_is_refused(
        tmp_path, passage, shown):
    """Read aloud it would be "less than one st more than": refused instead, one line
    naming the file, the line, the text and what a mark's name may be."""
    path = tmp_path / "x.txt"
    path.write_text(f"[stage]\nFirst.\n[trace]\n{passage}\n", encoding="utf-8")
    with pytest.raises(marks.MarkError) as error:
        marks.split(passage, path, "trace")
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{path}:4: {shown!r} is not a mark: ")
    assert "a mark's name is an identifier" in message


@pytest.mark.parametrize("passage, said", [
    ("if a < b, then b > a", "if a less than b, then b more than a"),
    ("x <1 and y> 2", "x less than one and y more than two"),
    ("quoted \u2039like this\u203a here", "quoted \u2039like this\u203a here"),
])
def test_angle_brackets_that_are_not_mark_shaped_are_read_as_before(tmp_path, passage, said):
    """A comparison (spaces inside) or typographic quotes are no mark: kept, and said."""
    from production.narration import spoken

    assert marks.split(passage, tmp_path / "x.txt", "b") == (passage, {})
    assert spoken.speakable(passage) == said


@pytest.fixture
def passages(tmp_path, monkeypatch) -> Path:
    """The attention chapter's narration copied into the test's folder, and the chapter
    the command finds (its module's CHAPTER) reading it from there: a test edits a
    passage without touching the project, and calls the command in process."""
    import scenes.attention.chapter as module

    texts = tmp_path / "narration"
    shutil.copytree(CHAPTER.narration, texts)
    monkeypatch.setattr(module, "CHAPTER", dataclasses.replace(CHAPTER, narration=texts))
    return texts


def _render(out: Path, *args: str) -> Ran:
    """`render.py render SpotlightBudget ARGS` in process (at the test quality, should it
    ever get as far as drawing)."""
    return run_command("render", "SpotlightBudget", *args, "--quality", "test",
                       "--out", str(out))


def test_a_mark_the_scene_waits_for_but_the_passage_lacks(passages, tmp_path):
    path = passages / "SpotlightBudget.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines.index("[trace]") + 1
    path.write_text("\n".join(line.replace("<total>", "") for line in lines) + "\n",
                    encoding="utf-8")
    done = _render(tmp_path / "out", "--no-narration")
    assert done.code == 2
    assert done.err.strip().splitlines() == [
        f"render.py: error: {path}:{header}: [trace] has no mark <total>, which "
        f"SpotlightBudget waits for; {marks.RULE}"]
    assert not (tmp_path / "out").exists()


def test_a_mark_no_scene_waits_for(passages, tmp_path):
    path = passages / "SpotlightBudget.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("[light]") + 1
    lines[at] = "It can put <all>all of the light on one word."
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _render(tmp_path / "out", "--no-narration")
    assert done.code == 2
    assert done.err.strip().splitlines() == [
        f"render.py: error: {path}:{at + 1}: mark <all> in [light] is not one "
        f"SpotlightBudget waits for there (it waits for: none)"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("chapter,scene,mark", [
    ("fixture", "Weights", "total"),
    pytest.param("attention", "SpotlightBudget", "total", marks=pytest.mark.system),
])
def test_without_speech_a_mark_falls_where_its_word_sits(build_scene, chapter, scene, mark):
    drawn = build_scene(scene, chapter=chapter)
    assert not drawn.timing_problems
    (_, beat, target, went_on), = [m for m in drawn.mark_log if m[0] == mark]
    start, end = next((b.start, b.end) for b in drawn.beat_log if b.name == beat)
    assert start + narration.LEAD_IN < target < end - narration.TAIL
    assert abs(went_on - target) <= FRAME


def test_a_malformed_mark_stops_the_render_before_anything_is_drawn(passages, tmp_path):
    path = passages / "SpotlightBudget.txt"
    text = path.read_text(encoding="utf-8").replace("<total>", "<total ")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if "<total " in x)) + 1
    done = _render(tmp_path / "out")
    assert done.code == 2
    assert done.err.strip().splitlines() == [
        f"render.py: error: {path}:{line}: malformed mark '<total': {marks.RULE}"]
    assert not (tmp_path / "out").exists()


def test_a_mark_with_a_bad_name_stops_the_render_before_anything_is_drawn(passages,
                                                                          tmp_path):
    path = passages / "SpotlightBudget.txt"
    text = path.read_text(encoding="utf-8").replace("<total>", "<1total>")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if "<1total>" in x)) + 1
    done = _render(tmp_path / "out")
    assert done.code == 2
    said, = done.err.strip().splitlines()
    assert said.startswith(f"render.py: error: {path}:{line}: '<1total>' is not a mark: ")
    assert not (tmp_path / "out").exists()
