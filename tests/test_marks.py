"""Bookmarks: a scene starts an animation when the voice starts the marked word.

Each use is checked with real speech (the default Piper voice, through the speech
cache) and real word timings: the mark sits on the word that says the number, the
scene reaches it at that word's onset, and the animation that shows the number starts
within one frame of it. Marks that are malformed, missing or waited for by no scene are
one-line errors naming file and line.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core import ledger
from production import cache, narration
from production.narration import marks, spoken
from production.qualities import QUALITIES
from scenes.attention.chapter import CHAPTER
from scenes.attention.formula import weight_result
from scenes.attention.potions import written_next
from scenes.attention.spotlight import tenths, top_share
from scenes.numbers import decimal, factor, factor_figure, percent, percent_figure, whole_percent

FRAME = 1 / QUALITIES["preview"].fps

_SPOTLIGHT = ledger.section("spotlight", None)
_LOOKBACK = _SPOTLIGHT["lookback_rule"][_SPOTLIGHT["asker"]]
_BACK_TOP = _LOOKBACK["shares"][top_share(_LOOKBACK["shares"])]
_WEIGHT = ledger.section("formula", None)["weight"]
_SQUEEZE = ledger.section("bottleneck", None)["squeeze"]
_ASSEMBLY = ledger.section("assembly", None)

#: (scene, beat, mark, the written word the voice says there, a text on screen that
#: the animation starting at the mark brings in)
USES = [
    ("SpotlightBudget", "trace", "total", tenths(_SPOTLIGHT["total"]),
     tenths(_SPOTLIGHT["total"])),
    *(("SpotlightBudget", "shares", f"share_{k}", str(p), whole_percent(p))
      for k, p in enumerate(_SPOTLIGHT["shares_percent"], 1)),
    ("LookBackRule", "hide", "back_top_percent", percent_figure(_BACK_TOP), percent(_BACK_TOP)),
    ("OneAttentionWeight", "weight", "weight", decimal(_WEIGHT), weight_result(_WEIGHT)),
    ("SqueezeTheRow", "rule", "squeeze", factor_figure(_SQUEEZE), factor(_SQUEEZE)),
    ("ChemistryAndAssembly", "predicted", "predicted", _ASSEMBLY["predicted"],
     written_next(_ASSEMBLY["last_word"], _ASSEMBLY["predicted"])),
]


@pytest.fixture(scope="module")
def spoken_scenes():
    """Each scene with a mark, spoken by the default voice, and drawn at those timings."""
    built = {}
    for name in sorted({use[0] for use in USES}):
        scene_class = CHAPTER.by_name()[name]
        passages = cache.speech(CHAPTER, scene_class, {}, narration.DEFAULT_VOICE)
        lengths = narration.beat_lengths(scene_class.beat_seconds, passages)
        built[name] = passages, lengths, narration.mark_times(CHAPTER, scene_class, {}, passages,
                                                              lengths)
    return built


@pytest.mark.parametrize("scene,beat,mark,word,shown", USES,
                         ids=[f"{u[0]}-{u[2]}" for u in USES])
def test_the_animation_starts_on_the_marked_word(build_scene, spoken_scenes,
                                                 scene, beat, mark, word, shown):
    passages, lengths, times = spoken_scenes[scene]
    passage = next(p for p in passages if p.beat == beat)
    index = dict(passage.marks)[mark]
    # The mark is on the word that says the number (as written, trailing punctuation
    # and quotes aside).
    assert passage.text.split()[index].rstrip(".,;:").strip('"') == word
    # Its time is the onset of the first spoken word of it.
    first, last = spoken.spans(passage.text)[index]
    assert first < last
    assert times[beat][mark] == pytest.approx(narration.LEAD_IN + passage.words[first].start)

    drawn = build_scene(scene, durations=lengths, mark_times=times)
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


def test_every_mark_a_scene_lists_is_used_and_in_its_passage():
    for scene_class in CHAPTER.scenes:
        found = narration.marked_script(CHAPTER, scene_class, None)  # raises when they disagree
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


def _render(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=project,
                          capture_output=True, text=True, timeout=600)


def test_a_mark_the_scene_waits_for_but_the_passage_lacks(project):
    path = project / "scenes" / "attention" / "narration" / "SpotlightBudget.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines.index("[trace]") + 1
    path.write_text("\n".join(line.replace("<total>", "") for line in lines) + "\n",
                    encoding="utf-8")
    done = _render(project, "render", "SpotlightBudget", "--no-narration", "--out",
                   str(project / "out"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"render.py: error: {path}:{header}: [trace] has no mark <total>, which "
        f"SpotlightBudget waits for; {marks.RULE}"]
    assert not (project / "out").exists()


def test_a_mark_no_scene_waits_for(project):
    path = project / "scenes" / "attention" / "narration" / "SpotlightBudget.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("[light]") + 1
    lines[at] = "It can put <all>all of the light on one word."
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _render(project, "render", "SpotlightBudget", "--no-narration", "--out",
                   str(project / "out"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"render.py: error: {path}:{at + 1}: mark <all> in [light] is not one "
        f"SpotlightBudget waits for there (it waits for: none)"]
    assert not (project / "out").exists()


def test_without_speech_a_mark_falls_where_its_word_sits(build_scene):
    drawn = build_scene("SpotlightBudget")
    assert not drawn.timing_problems
    (mark, beat, target, went_on), = [m for m in drawn.mark_log if m[0] == "total"]
    start, end = next((b.start, b.end) for b in drawn.beat_log if b.name == beat)
    assert start + narration.LEAD_IN < target < end - narration.TAIL
    assert abs(went_on - target) <= FRAME


def test_a_malformed_mark_stops_the_render_before_anything_is_drawn(project):
    path = project / "scenes" / "attention" / "narration" / "SpotlightBudget.txt"
    text = path.read_text(encoding="utf-8").replace("<total>", "<total ")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if "<total " in x)) + 1
    done = _render(project, "render", "SpotlightBudget", "--out", str(project / "out"))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"render.py: error: {path}:{line}: malformed mark '<total': {marks.RULE}"]
    assert not (project / "out").exists()


def test_a_mark_with_a_bad_name_stops_the_render_before_anything_is_drawn(project):
    path = project / "scenes" / "attention" / "narration" / "SpotlightBudget.txt"
    text = path.read_text(encoding="utf-8").replace("<total>", "<1total>")
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if "<1total>" in x)) + 1
    done = _render(project, "render", "SpotlightBudget", "--out", str(project / "out"))
    assert done.returncode == 2
    said, = done.stderr.strip().splitlines()
    assert said.startswith(f"render.py: error: {path}:{line}: '<1total>' is not a mark: ")
    assert not (project / "out").exists()
