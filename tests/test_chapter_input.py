"""The chapter is an input: production/ never imports scenes/, a chapter written in a
folder of its own renders through the same pipeline, and a scene's cache key covers
exactly the code that scene runs."""

from __future__ import annotations

import ast
import dataclasses
import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import av
import pytest

from production import cache, chapters, files, pipeline, run
from production.paths import ROOT
from production.qualities import QUALITIES
from tests.conftest import TEST_QUALITY, copy_project
from tests.test_extending import ToneVoice

# ----------------------------------------------------------------- the layers


def imported_modules(path: Path) -> set[str]:
    """Every module a file names in an import statement, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_nothing_under_production_imports_scenes():
    files = sorted((ROOT / "production").rglob("*.py"))
    assert len(files) > 20
    offenders = {str(p.relative_to(ROOT)): sorted(m for m in imported_modules(p)
                                                  if m == "scenes" or m.startswith("scenes."))
                 for p in files}
    assert {p: m for p, m in offenders.items() if m} == {}


def test_the_import_reader_sees_an_import_of_scenes(tmp_path):
    """The check above can fail: an import of scenes inside a function is found."""
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from scenes.attention.chapter import CHAPTER\n")
    assert "scenes.attention.chapter" in imported_modules(sneaky)


# ----------------------------------------------------------------- a chapter of its own

SCENE = '''
from manim import FadeIn

from scenes.base import ChapterScene, words
from {package}.shared import caption


class {name}(ChapterScene):
    section = "{section}"
    title = "{title}"
    beat_seconds = {{"show": 1.0, "hold": 0.6}}

    @classmethod
    def spoken(cls, numbers):
        return {{"total": f"{{numbers['total']:.1f}}"}}

    def construct(self) -> None:
        # The viewer sees the total.
        b = self.beat("show")
        self.play(FadeIn(words(caption(self.numbers["total"]))), run_time=b.part(0.5))

        # The viewer sees it held.
        self.beat("hold")
'''

CHAPTER = '''
from pathlib import Path

from core.ledgers import Ledger, Param, number
from production.chapters import Chapter
from {package}.budget import CountTheBudget
from {package}.share import CountTheShare

HERE = Path(__file__).resolve().parent
LEDGER = Ledger(
    {{"budget": {{"scale": Param(1.0, number(0), "a number above 0")}}}},
    {{"budget": lambda s: {{"total": 64.8 * s["budget"]["scale"]}},
      "share": lambda s: {{"total": 0.56}}}})
CHAPTER = Chapter(name="{name}", title="Budgets", scenes=(CountTheBudget, CountTheShare),
                  ledger=LEDGER, narration=HERE / "narration", recordings=HERE / "voice",
                  thumbnail=("CountTheBudget", "show"), module=__name__)
'''


def write_chapter(root: Path, package: str = "books", name: str = "budgets") -> Path:
    """A chapter folder ``root/package/name/``: two scene files sharing a helper module,
    their narration, a ledger of two sections, and chapter.py."""
    folder = root / package / name
    (folder / "narration").mkdir(parents=True)
    (root / package / "__init__.py").write_text("")
    (folder / "__init__.py").write_text("")
    dotted = f"{package}.{name}"
    (folder / "shared.py").write_text("def caption(total):\n    return f'total {total:.1f}'\n")
    for module, scene, section in (("budget", "CountTheBudget", "budget"),
                                   ("share", "CountTheShare", "share")):
        (folder / f"{module}.py").write_text(textwrap.dedent(SCENE).format(
            package=dotted, name=scene, section=section, title=scene))
        (folder / "narration" / f"{scene}.txt").write_text(
            "[show]\nThe total is {total}.\n\n[hold]\nThat is all.\n")
    (folder / "chapter.py").write_text(textwrap.dedent(CHAPTER).format(package=dotted,
                                                                        name=name))
    return folder


@pytest.fixture
def own_chapter(tmp_path, monkeypatch):
    """A chapter written in the test's own folder, importable, with its own cache."""
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "cache"))
    folder = write_chapter(tmp_path / "code")
    yield folder
    for module in [m for m in sys.modules if m == "books" or m.startswith("books.")]:
        del sys.modules[module]


def test_a_chapter_in_a_folder_of_its_own_is_found_and_fits_together(own_chapter):
    found = chapters.discover("books", own_chapter.parent)
    assert list(found) == ["budgets"]
    chapter = found["budgets"]
    assert [s.__name__ for s in chapter.scenes] == ["CountTheBudget", "CountTheShare"]
    assert chapters.problems(chapter) == []
    assert chapter.roots() == (own_chapter.parent.parent,)
    assert chapter.ledger.parse_settings(["budget.scale=2"])["budget"] == {"scale": 2.0}
    with pytest.raises(chapters.UsageError,
                       match="--chapter 'x': unknown chapter; chapters: budgets"):
        chapters.pick(found, "x")


def test_a_chapter_in_a_folder_of_its_own_renders_through_the_pipeline(own_chapter, tmp_path,
                                                                         capsys):
    chapter = chapters.discover("books", own_chapter.parent)["budgets"]
    plan = pipeline.plan(chapter, scenes=[], quality=TEST_QUALITY, settings=["budget.scale=2"],
                         out=str(tmp_path / "out"), default_out=tmp_path / "out", jobs=2,
                         voice=ToneVoice())
    assert all(stored is None for stored in plan.stored.values())
    results, peaks = pipeline.ensure_scenes(plan)
    assert len(peaks) == 2
    for scene in chapter.scenes:
        result = results[scene.__name__]
        assert result.folder.parent == tmp_path / "cache" / "scenes"
        with av.open(str(result.video)) as video:
            assert video.streams.video[0].height == QUALITIES[TEST_QUALITY].height
            assert video.streams.audio
        assert result.seconds == pytest.approx(sum(
            max(s, 0.4 + p.seconds + 0.8) for s, p in
            zip(scene.beat_seconds.values(), result.passages)),
            abs=1 / QUALITIES[TEST_QUALITY].fps)  # a frame
    # The ledger at the render's settings is what the narration says.
    assert results["CountTheBudget"].passages[0].text == "The total is 129.6."
    again = pipeline.plan(chapter, scenes=[], quality=TEST_QUALITY, settings=["budget.scale=2"],
                          out=str(tmp_path / "out"), default_out=tmp_path / "out",
                          voice=ToneVoice())
    assert all(stored is not None for stored in again.stored.values())
    again.close()

    # An output of its own, through the one run sequence (README, Extending, "An output").
    class Durations(run.Output):
        folder = "durations"

        def dry_run(self, plan):
            return [f"would list {sc.__name__}" for sc in plan.chosen]

        def make(self, plan):
            results, peaks = pipeline.ensure_scenes(plan)
            listed = {name: round(r.seconds, 3) for name, r in results.items()}
            files.write_text(plan.out / "durations.json", json.dumps(listed))
            return run.Made(peaks, len(plan.chosen), [f"listed {len(listed)} scenes"])

    request = run.Request(chapter, quality=TEST_QUALITY, settings=["budget.scale=2"],
                          out=str(tmp_path / "listed"), voice=ToneVoice())
    assert run.run(Durations(), request) == 0
    listed = json.loads((tmp_path / "listed" / "durations.json").read_text())
    assert listed == {name: round(r.seconds, 3) for name, r in results.items()}
    printed = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"nothing to render: all 2 scenes cached \(\d+\.\d s\)", printed[-2])
    assert printed[-1] == "listed 2 scenes"
    assert run.run(Durations(), dataclasses.replace(request, dry_run=True)) == 0
    assert capsys.readouterr().out.splitlines() == ["would list CountTheBudget",
                                                    "would list CountTheShare"]
    # One scene's file edited: that scene is drawn again, the other comes from the cache.
    with open(own_chapter / "budget.py", "a") as f:
        f.write("# an edit\n")
    edited = pipeline.plan(chapter, scenes=[], quality=TEST_QUALITY, settings=["budget.scale=2"],
                           out=str(tmp_path / "out"), default_out=tmp_path / "out",
                           voice=ToneVoice())
    assert {n: s is None for n, s in edited.stored.items()} == {"CountTheBudget": True,
                                                                "CountTheShare": False}
    edited.close()


# ----------------------------------------------------------------- what a key covers


def code_keys(chapter: chapters.Chapter) -> dict[str, str]:
    return {s.__name__: cache.scene_code(chapter, s) for s in chapter.scenes}


def test_editing_one_scene_file_changes_only_its_scene_key(own_chapter):
    chapter = chapters.discover("books", own_chapter.parent)["budgets"]
    before = code_keys(chapter)
    assert before["CountTheBudget"] != before["CountTheShare"]
    with open(own_chapter / "budget.py", "a") as f:
        f.write("# a comment\n")
    after = code_keys(chapter)
    assert after["CountTheBudget"] != before["CountTheBudget"]
    assert after["CountTheShare"] == before["CountTheShare"]
    # A helper both import changes both.
    with open(own_chapter / "shared.py", "a") as f:
        f.write("# another\n")
    both = code_keys(chapter)
    assert both["CountTheBudget"] != after["CountTheBudget"]
    assert both["CountTheShare"] != after["CountTheShare"]


@pytest.fixture
def project_copy(tmp_path, monkeypatch):
    """core/, scenes/ and production/ copied, imported from the copy."""
    for part in ("core", "scenes", "production"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def attention_code(root: Path) -> dict[str, str]:
    """Every attention scene's code hash, the files read from ``root``."""
    from scenes.attention.chapter import CHAPTER

    return {s.__name__: cache.code_fingerprint((s.__module__, *cache.DRAWING), (root,))
            for s in CHAPTER.scenes}


def test_what_each_edit_redraws_in_the_attention_chapter(project_copy):
    def edit(*relative: str) -> dict[str, str]:
        for name in relative:
            with open(project_copy / name, "a") as f:
                f.write("# an edit\n")
        return attention_code(project_copy)

    from scenes.attention.chapter import CHAPTER

    start = attention_code(project_copy)
    files = {s.__name__: s.__module__ for s in CHAPTER.scenes}
    # scenes share a key's code exactly when they share a file
    assert {(a, b) for a in start for b in start if start[a] == start[b]} == \
        {(a, b) for a in files for b in files if files[a] == files[b]}
    changed = edit("scenes/attention/misreading.py")
    assert {n for n in start if changed[n] != start[n]} == {"TheMisreading"}
    outputs = [f"production/outputs/{name}.py" for name in
               ("shorts", "slides", "video", "sweep", "deck_html", "bundle")]
    # edited together: an edit that reached a scene's code would change its key whatever
    # else was edited beside it
    unread = edit(*outputs, "production/run.py", "production/pipeline.py",
                  "scenes/attention/chapter.py")
    assert unread == changed, [n for n in start if unread[n] != changed[n]]
    component = edit("scenes/components/bottle.py")
    # the potion scenes draw bottles, and TheMisreading opens on the potion scene's written
    # heading (components/potion_layout.py, beside the bottles); no other scene's code
    # reaches bottle.py
    assert {n for n in start if component[n] != unread[n]} == {
        "PotionMixing", "ChemistryAndAssembly", "TheMisreading"}
    drawing = edit("production/drawing.py")
    assert all(drawing[n] != component[n] for n in start)
    base = edit("scenes/base.py")
    assert all(base[n] != drawing[n] for n in start)


def test_what_an_output_makes_from_a_scene_is_keyed_by_that_output_code(project_copy):
    """The slides' transparent clips and the finished shorts are cached beside the scene:
    their key is the scene's and the code of the output that makes them, so editing the
    slides code makes the clips again (and not the shorts), and the other way round."""
    from production.outputs import shorts, slides

    def keys() -> dict[str, str]:
        return {variant: cache.variant_key("0" * 24, pipeline.VARIANTS[variant], (project_copy,))
                for variant in (slides.ALPHA, shorts.variant(True), shorts.variant(False))}

    start = keys()
    assert len(set(start.values())) == 1 + 1  # the shorts' two variants share their code
    with open(project_copy / "production" / "outputs" / "slides.py", "a") as f:
        f.write("# an edit\n")
    after = keys()
    assert after[slides.ALPHA] != start[slides.ALPHA]
    assert after[shorts.variant(True)] == start[shorts.variant(True)]
    with open(project_copy / "production" / "outputs" / "shorts.py", "a") as f:
        f.write("# an edit\n")
    last = keys()
    assert last[shorts.variant(False)] != after[shorts.variant(False)]
    assert last[slides.ALPHA] == after[slides.ALPHA]



@pytest.mark.parametrize("source, says", [
    ("x = (\n", r"books/broken/chapter.py:1: SyntaxError: '\(' was never closed"),
    ("from books.nothing import X\n", r"ModuleNotFoundError: No module named 'books.nothing'"),
    ("raise ValueError('no ledger yet')\n", r"broken/chapter.py:1: ValueError: no ledger yet"),
    ("CHAPTER = 3\n", r"books.broken.chapter defines no CHAPTER"),
])
def test_a_chapter_that_does_not_import_is_set_aside_and_named(own_chapter, source, says):
    broken = own_chapter.parent / "broken"
    broken.mkdir()
    (broken / "__init__.py").write_text("")
    (broken / "chapter.py").write_text(source)
    found = chapters.discover("books", own_chapter.parent)
    assert list(found) == ["budgets"]  # the other chapter still works
    assert list(found.broken) == ["broken"]
    line = found.broken["broken"]
    assert "\n" not in line and "books/broken/chapter.py does not import (" in line
    assert re.search(says, line), line
    with pytest.raises(chapters.UsageError, match=re.escape(f"--chapter 'broken': {line}")):
        chapters.pick(found, "broken")
    assert f"broken: not listed: {line}" in chapters.listing(found)
    assert json.loads(chapters.listing(found, as_json=True))["broken"] == [
        {"folder": "broken", "error": line}]


def test_two_folders_giving_one_chapter_name_are_refused_naming_both(own_chapter):
    twin = own_chapter.parent / "twin"
    twin.mkdir()
    (twin / "__init__.py").write_text("")
    (twin / "chapter.py").write_text("from books.budgets.chapter import CHAPTER  # noqa\n")
    with pytest.raises(chapters.UsageError, match=r"two chapters are named 'budgets': \S*"
                       r"books/budgets and \S*books/twin; rename one"):
        chapters.discover("books", own_chapter.parent)


@pytest.mark.system
def test_a_broken_chapter_folder_leaves_the_other_chapters_commands_working(tmp_path):
    """In a copy of the project, as real processes: `list` names the broken folder, a
    command about it is one line, a command about another chapter works."""
    project = copy_project(tmp_path / "project")
    broken = project / "scenes" / "half_done"
    broken.mkdir()
    (broken / "__init__.py").write_text("")
    (broken / "chapter.py").write_text("from scenes.half_done.first import Scene\n")

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "render.py", *args], cwd=project,
                              capture_output=True, text=True, timeout=300)

    listed = run("list")
    assert listed.returncode == 0 and listed.stderr == ""
    assert "attention: " in listed.stdout and "decoder: " in listed.stdout
    assert "half_done: not listed: scenes/half_done/chapter.py does not import " \
           "(scenes/half_done/chapter.py:1: ModuleNotFoundError" in listed.stdout
    about = run("numbers", "--chapter", "half_done")
    assert about.returncode == 2 and len(about.stderr.splitlines()) == 1
    assert about.stderr.startswith("render.py: error: --chapter 'half_done': scenes/")
    other = run("numbers", "--chapter", "decoder")
    assert other.returncode == 0 and json.loads(other.stdout)
