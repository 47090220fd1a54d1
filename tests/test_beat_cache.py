"""The beat cache (production/beat_cache.py): a scene drawn again after an edit draws only
the beats whose pictures changed, and writes the same bytes as one drawn whole."""

from __future__ import annotations

import hashlib
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim import DOWN, LEFT, RIGHT, UP, Circle, FadeIn, FadeOut, Square, VGroup, Write

from production import beat_cache, chapters
from production.drawing import construct_scene
from production.run import summary
from scenes import style
from scenes.base import ChapterScene, words

QUALITY = "preview"  # 15 fps


class ThreeBeats(ChapterScene):
    """A square, a circle beside it, a word under them: a beat each."""

    section = "shares"
    beat_seconds = {"square": 1.0, "circle": 1.0, "word": 1.0}
    word = "weights"
    circle_time = 0.5

    def construct(self) -> None:
        square = Square(1.2, color=style.KEY).shift(LEFT * 2)
        circle = Circle(0.6, color=style.WEIGHT).shift(RIGHT * 2)
        b = self.beat("square")
        self.play(FadeIn(square, shift=UP * 0.2), run_time=b.part(0.4))
        b = self.beat("circle")
        self.play(FadeIn(circle), run_time=b.part(self.circle_time))
        self.play(VGroup(square, circle).animate.shift(UP * 0.5), run_time=b.part(0.3))
        b = self.beat("word")
        self.play(Write(words(self.word).shift(DOWN * 1.5)), run_time=b.part(0.4))
        self.play(FadeOut(square), run_time=b.part(0.2))


class NewWord(ThreeBeats):
    """The same scene with another word in its last beat (an edit to one line)."""

    word = "shares"


class SlowCircle(ThreeBeats):
    """The same scene with the circle's fade slower (an edit in the middle beat)."""

    circle_time = 0.6


def draw(scene: type[ChapterScene], cache: Path, monkeypatch: pytest.MonkeyPatch,
         work: Path, durations: dict[str, float] | None = None) -> tuple[str, Any]:
    """Draw ``scene`` with the beat cache in ``cache``: the silent video's SHA-256 and
    the renderer (its plays drawn and reused)."""
    monkeypatch.setenv("EXPLAINER_CACHE", str(cache))
    chapter = chapters.load("tests.fixture.chapter")
    built = construct_scene(chapter, scene, QUALITY, None, work, video=True,
                            durations=durations)
    movie = Path(built.renderer.file_writer.movie_file_path)
    return hashlib.sha256(movie.read_bytes()).hexdigest(), built.renderer


@pytest.fixture
def warm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str]:
    """A cache holding ThreeBeats' segments; the SHA-256 of its video."""
    cache = tmp_path / "cache"
    digest, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "first")
    assert renderer.reused == [] and beat_cache.beats_drawn(renderer) == list(
        ThreeBeats.beat_seconds)
    return cache, digest


def test_the_same_scene_again_draws_nothing_and_writes_the_same_bytes(warm, tmp_path,
                                                                      monkeypatch):
    cache, digest = warm
    again, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "again")
    assert renderer.drawn == []
    assert len(renderer.reused) >= 5  # every play, the beats' closing waits included
    assert again == digest


@pytest.mark.parametrize("edited, redrawn", [(NewWord, ["word"]), (SlowCircle, ["circle"])])
def test_an_edit_redraws_its_beat_alone_and_equals_a_cold_render(warm, tmp_path, monkeypatch,
                                                                 edited, redrawn):
    cache, digest = warm
    after, renderer = draw(edited, cache, monkeypatch, tmp_path / "edited")
    assert beat_cache.beats_drawn(renderer) == redrawn
    cold, cold_renderer = draw(edited, tmp_path / "cold", monkeypatch, tmp_path / "cold-work")
    assert cold_renderer.reused == []
    assert after == cold != digest


def test_a_longer_passage_redraws_its_beat_and_shifts_the_later_ones(warm, tmp_path,
                                                                      monkeypatch):
    """Narration that grows the first beat moves the later beats in time; their pictures
    are the same, so they are not drawn again."""
    cache, _ = warm
    longer = {"square": 1.6, "circle": 1.0, "word": 1.0}
    after, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "longer", longer)
    assert beat_cache.beats_drawn(renderer) == ["square"]
    assert renderer.reused  # the circle's and the word's plays
    cold, _ = draw(ThreeBeats, tmp_path / "cold", monkeypatch, tmp_path / "cold-work", longer)
    assert after == cold


def test_a_damaged_segment_is_drawn_again(warm, tmp_path, monkeypatch):
    cache, digest = warm
    kept = sorted((cache / "segments").glob(f"*{beat_cache.SUFFIX}"))
    assert kept
    data = bytearray(kept[0].read_bytes())
    data[-1] ^= 0xFF
    kept[0].write_bytes(bytes(data))
    again, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "again")
    assert len(renderer.drawn) == 1
    assert again == digest


def test_a_segment_copied_over_anothers_is_drawn_again(warm, tmp_path, monkeypatch):
    """Each kept segment carries the key it was made for: one copied over another's
    (whole, its own digest right) is not joined in the other's place, which would give
    a scene of the wrong length; it is drawn again and replaced."""
    cache, digest = warm
    kept = sorted((cache / "segments").glob(f"*{beat_cache.SUFFIX}"),
                  key=lambda p: p.stat().st_size)
    small, large = kept[0], kept[-1]
    assert small.read_bytes()[64:] != large.read_bytes()[64:]
    large.write_bytes(small.read_bytes())
    again, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "again")
    assert len(renderer.drawn) == 1
    assert again == digest
    assert beat_cache.Store(cache / "segments").read(large.name.removesuffix(
        beat_cache.SUFFIX)) is not None  # replaced by the segment drawn again


def test_a_segment_is_encoded_on_one_thread(warm):
    """x264 left to choose took a thread per core (so other bytes on another machine) and
    split pictures into slices analysed on two threads, which gave other bytes for the
    same frames now and then on a busy machine. What it wrote in the stream says how it
    ran."""
    cache, _ = warm
    kept = sorted((cache / "segments").glob(f"*{beat_cache.SUFFIX}"))
    for entry in kept:
        options = x264_options(entry.read_bytes())
        assert options["threads"] == "1", entry.name
        assert options["sliced_threads"] == "0", entry.name


def x264_options(stream: bytes) -> dict[str, str]:
    """The options x264 writes into the stream it encodes (its SEI: "... options: a=1 b=2")."""
    start = stream.index(b"options: ") + len(b"options: ")
    text = stream[start:stream.index(b"\0", start)].decode()
    return dict(item.split("=", 1) for item in text.split() if "=" in item)


def test_a_cache_that_cannot_be_written_still_renders(tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache folder should be")
    digest, renderer = draw(ThreeBeats, blocked, monkeypatch, tmp_path / "work")
    assert renderer.reused == []
    cold, _ = draw(ThreeBeats, tmp_path / "cold", monkeypatch, tmp_path / "cold-work")
    assert digest == cold


# ----------------------------------------------------------------- the fingerprint


def key_of(root: Any, media: str = "/media/here") -> str:
    return beat_cache.key_of(root, media)


def test_equal_objects_have_equal_fingerprints_however_they_are_shared():
    shared = np.arange(6.0)
    one = {"a": shared, "b": shared.copy(), "name": "x" * 3}
    other = {"a": np.arange(6.0), "b": np.arange(6.0), "name": "xxx"}
    assert key_of([one]) == key_of([other])


def test_every_drawn_value_counts():
    base = Square(1.0)
    for change in (lambda m: m.shift(RIGHT * 1e-9), lambda m: m.set_fill(opacity=0.5),
                   lambda m: m.set_stroke(width=5), lambda m: m.set_z_index(1)):
        changed = base.copy()
        change(changed)
        assert key_of([changed]) != key_of([base.copy()])


def test_what_differs_from_run_to_run_does_not_count():
    originals = Square(1.0), Square(1.0)
    first, second = originals[0].copy(), originals[1].copy()
    assert first.original_id != second.original_id  # where each copy's original lay
    assert key_of([first]) == key_of([second])
    assert key_of(["/media/here/texts/abc.svg"]) == key_of(["/media/there/texts/abc.svg"],
                                                            "/media/there")


def test_a_function_counts_by_what_it_computes():
    def ramp(scale: float) -> Any:
        return lambda t: scale * t

    assert key_of([ramp(1.0)]) == key_of([ramp(1.0)])
    assert key_of([ramp(1.0)]) != key_of([ramp(2.0)])
    assert key_of([lambda t: t]) != key_of([lambda t: t * t])


def test_records_of_objects_count_by_their_fields():
    """A structured array of objects (how LaggedStart keeps its timings): each record is
    made anew as it is read, so a walk that named objects by where they lie would take a
    later record for an earlier one."""
    kinds = np.dtype([("what", "O"), ("start", "<f8")])
    one = np.array([(types.SimpleNamespace(n=1), 0.0), (types.SimpleNamespace(n=2), 0.5)],
                   dtype=kinds)
    two = np.array([(types.SimpleNamespace(n=1), 0.0), (types.SimpleNamespace(n=3), 0.5)],
                   dtype=kinds)
    assert key_of([one]) != key_of([two])


def test_text_cannot_pass_for_the_walks_own_marks():
    assert key_of([["dict", 0]]) != key_of([{}])
    assert key_of(["array", "<f8", (0,)]) != key_of([np.zeros(0)])


def test_a_mobject_shared_by_an_animation_is_the_same_as_a_copy_on_screen():
    """What counts is what is drawn: an animation's mobject met again on screen is named,
    not written twice, and the two keys differ from one whose animation moves another."""
    square = Square(1.0)
    shared = key_of([[FadeIn(square)], [square]])
    other = key_of([[FadeIn(Square(1.0))], [Square(1.0)]])
    assert shared != other  # the fade moves the square on screen, or one beside it
    assert shared == key_of([[FadeIn(twin := Square(1.0))], [twin]])


# ----------------------------------------------------------------- the summary


def test_the_summary_counts_the_beats_drawn():
    plan = types.SimpleNamespace(workers=2, beats={"A": (2, 7), "B": (0, 3)})
    line = summary(2, 14, [1024, 2048], plan, 0.0)
    assert line.startswith("rendered 2 of 14 scenes (2 of 10 beats) in ")


# ----------------------------------------------------------------- beats as jobs


def test_beats_drawn_by_jobs_of_their_own_join_into_the_same_bytes(warm, tmp_path,
                                                                    monkeypatch):
    """Each beat drawn alone (as a worker's job does) fills the cache; the scene's own job
    then draws nothing and writes what a scene drawn whole writes."""
    _, digest = warm
    cache = tmp_path / "by-beats"
    monkeypatch.setenv("EXPLAINER_CACHE", str(cache))
    chapter = chapters.load("tests.fixture.chapter")
    drew = {}
    for beat in ThreeBeats.beat_seconds:
        scene = construct_scene(chapter, ThreeBeats, QUALITY, None, tmp_path / beat,
                                video=True, beats=frozenset({beat}))
        drew[beat] = beat_cache.beats_drawn(scene.renderer)
        assert not Path(scene.renderer.file_writer.movie_file_path).exists()  # no video
    assert drew == {beat: [beat] for beat in ThreeBeats.beat_seconds}
    joined, renderer = draw(ThreeBeats, cache, monkeypatch, tmp_path / "joined")
    assert renderer.drawn == [] and joined == digest


def test_runs_of_beats_are_about_as_long_as_asked():
    from production.beat_jobs import runs

    beats = {"a": 10.0, "b": 10.0, "c": 10.0, "d": 10.0}
    assert runs(beats, 20.0) == [("a", "b"), ("c", "d")]
    assert runs(beats, 40.0) == [("a", "b", "c", "d")]
    assert runs(beats, 5.0) == [("a",), ("b",), ("c",), ("d",)]
    assert runs({"long": 30.0, "x": 5.0, "y": 5.0}, 20.0) == [("long",), ("x", "y")]


def scene_of(name: str, beats: dict[str, float]) -> type:
    return type(name, (), {"__name__": name, "beat_seconds": beats})


def test_auto_cuts_only_a_scene_that_would_bound_the_render():
    from production.beat_jobs import cut

    long = scene_of("Long", {"a": 30.0, "b": 30.0, "c": 30.0})
    short = [scene_of(f"S{i}", {"a": 10.0}) for i in range(3)]
    chosen = [long, *short]
    seconds = {"Long": 90.0, **{s.__name__: 10.0 for s in short}}

    def plan(unit: str, workers: int) -> types.SimpleNamespace:
        return types.SimpleNamespace(job_unit=unit, workers=workers, cluster=None,
                                     passages={}, seconds=seconds)

    assert cut(plan("auto", 1), chosen) == {}  # one worker: nothing to gain
    assert cut(plan("auto", 2), chosen) == {}  # 90 s of 120 s over 2: not 3 x 60 s
    assert cut(plan("auto", 4), chosen) == {}  # nor 3 x 30 s
    assert cut(plan("auto", 8), chosen) == {"Long": [("a",), ("b",), ("c",)]}
    assert cut(plan("scene", 8), chosen) == {}
    assert cut(plan("beat", 1), chosen) == {"Long": [("a",), ("b",), ("c",)]}


def test_a_job_unit_it_does_not_take_is_one_line(run_command):
    ran = run_command("render", "TitleCard", "--job-unit", "play", "--dry-run")
    assert ran.code == 2
    assert ran.err.strip() == "render.py: error: --job-unit 'play': must be one of auto, " \
                              "scene, beat"


@pytest.mark.system
def test_an_edited_scene_from_the_command_equals_a_cold_render_of_the_edit(project, tmp_path):
    """SpotlightBudget rendered, its last beat edited (one line), rendered again: one beat
    drawn, and the MP4 (picture and sound) and captions are the bytes of a cold render of
    the edited source in a cache of its own."""
    from tests.conftest import TEST_QUALITY, render_in, seed_speech

    args = ["render", "SpotlightBudget", "--quality", TEST_QUALITY, "--out"]
    first = render_in(project, *args, str(tmp_path / "first"))
    assert first.returncode == 0, first.stderr[-2000:]
    source = project / "scenes" / "attention" / "spotlight_budget.py"
    text = source.read_text()
    edited = text.replace("lag_ratio=0.1),", "lag_ratio=0.15),")
    assert edited != text
    source.write_text(edited)
    again = render_in(project, *args, str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr[-2000:]
    assert "(rendered 1 of 5 beats)" in again.stdout, again.stdout
    assert "rendered 1 of 1 scenes (1 of 5 beats)" in again.stdout
    cold = render_in(project, *args, str(tmp_path / "cold"),
                     env={"EXPLAINER_CACHE": str(seed_speech(tmp_path / "cold-cache"))})
    assert cold.returncode == 0, cold.stderr[-2000:]
    assert "(5 of 5 beats)" in cold.stdout
    for name in ("SpotlightBudget.mp4", "SpotlightBudget.srt", "SpotlightBudget.vtt"):
        made = (tmp_path / "again" / "scenes" / name).read_bytes()
        assert made == (tmp_path / "cold" / "scenes" / name).read_bytes(), name
    assert (tmp_path / "first" / "scenes" / "SpotlightBudget.mp4").read_bytes() != \
        (tmp_path / "again" / "scenes" / "SpotlightBudget.mp4").read_bytes()
