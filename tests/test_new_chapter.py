"""`render.py new NAME`: a chapter to start from, that renders at once and passes its own
test; a name that is taken or not allowed is one line, exit 2, and nothing written.

What `new` writes and refuses is the default tier (the refusals called in process, in a
copy of the project); the new chapter's own test run and its render through the command
are the system tier."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest

from production import paths
from production.paths import ROOT
from production.qualities import QUALITIES
from tests.conftest import TEST_QUALITY, copy_project, run_command

NAME = "decoder_steps"
TITLE = 'Inside the "decoder", one step at a time'


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if "__pycache__" not in p.parts and ".cache" not in p.parts)


def command(project: Path, *args: str):
    """``python ARGS`` run in ``project`` as its own process (its render.py's project)."""
    return subprocess.run([sys.executable, *args], cwd=project, capture_output=True,
                          text=True, env=dict(os.environ), timeout=900)


@pytest.fixture
def with_tests(tmp_path: Path, monkeypatch) -> Path:
    """A copy of the project with its tests' harness (conftest.py) beside the code; the
    command called in process (`run_command`) writes there, not into the project the
    tests run from."""
    project = copy_project(tmp_path / "project")
    (project / "tests").mkdir()
    for name in ("__init__.py", "conftest.py"):
        shutil.copy2(ROOT / "tests" / name, project / "tests" / name)
    monkeypatch.setattr(paths, "ROOT", project)
    return project


def make_chapter(project: Path) -> subprocess.CompletedProcess:
    """`render.py new decoder_steps --title ...` as a real process in ``project``: the
    project it writes into is the one its render.py belongs to (no Manim to import)."""
    return command(project, "render.py", "new", NAME, "--title", TITLE)


def test_a_new_chapter_is_written_last_in_the_course_and_listed(with_tests: Path):
    project = with_tests
    made = make_chapter(project)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[:4] == [f"wrote scenes/{NAME}/",
                                            f"wrote core/{NAME}.py",
                                            f"wrote tests/test_chapter_{NAME}.py",
                                            "wrote scenes/course.txt"]
    # last in the course
    assert (project / "scenes" / "course.txt").read_text().split()[-1] == NAME
    listed = command(project, "render.py", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    found = {c["name"]: c for c in json.loads(listed.stdout)["chapters"]}
    assert found[NAME]["title"] == TITLE
    assert found[NAME]["scenes"] == ["FirstLook"]
    assert not (ROOT / "scenes" / NAME).exists()  # the copy's, not the tests' project


@pytest.mark.system
def test_a_new_chapter_renders_at_once_and_passes_its_test(with_tests: Path,
                                                           speech_cache: Path, monkeypatch):
    project = with_tests
    monkeypatch.setenv("EXPLAINER_CACHE", str(speech_cache))  # the session's speech
    made = make_chapter(project)
    assert made.returncode == 0, made.stderr

    # its own test passes (and is more than one test: the model, every frame)
    tested = command(project, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                     f"tests/test_chapter_{NAME}.py")
    assert tested.returncode == 0, tested.stdout[-2000:]
    assert "4 passed" in tested.stdout

    # and it renders, narrated, through the command
    rendered = command(project, "render.py", "render", "--chapter", NAME,
                       "--quality", TEST_QUALITY, "--out", "out")
    assert rendered.returncode == 0, rendered.stderr[-2000:]
    with av.open(str(project / "out" / "chapter.mp4")) as video:
        assert video.streams.video[0].height == QUALITIES[TEST_QUALITY].height
        assert video.streams.audio
        seconds = video.duration / av.time_base
    manifest = json.loads((project / "out" / "manifest.json").read_text())
    assert manifest["title"] == TITLE
    assert [s["name"] for s in manifest["scenes"]] == ["FirstLook"]
    # the ledger's total, said as the narration's last word
    assert manifest["scenes"][0]["words"][-1]["word"] == "1.00."
    assert 8 < seconds < 30


@pytest.mark.parametrize("name, says", [
    ("attention", "is taken: scenes/attention exists"),
    ("ledger", "is taken: core/ledger.py exists"),
    ("Decoder", "cannot name a chapter"),
    ("2nd", "cannot name a chapter"),
    ("with-dash", "cannot name a chapter"),
    ("import", "cannot name a chapter"),
    ("steps\n", "cannot name a chapter"),  # a name ending in a line break
    ("base", "would shadow the module scenes.base (scenes/base.py)"),
    ("lines", "would shadow the module scenes.lines (scenes/lines.py)"),
    ("components", "is taken: scenes/components exists"),
    ("ledgers", "is taken: core/ledgers.py exists"),
    ("np", "would shadow the name np, which its generated core.py imports"),
    ("construct_scene", "would shadow the name construct_scene, which its generated test.py"),
])
def test_a_taken_or_bad_name_is_one_line_and_writes_nothing(with_tests: Path, name, says):
    before = listing(with_tests)
    made = run_command("new", name)
    assert made.code == 2
    lines = made.err.splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("render.py: error: new:")
    assert made.out == ""
    assert listing(with_tests) == before


def test_a_title_too_long_is_refused(with_tests: Path):
    before = listing(with_tests)
    made = run_command("new", "long_one", "--title", "x" * 81)
    assert made.code == 2 and "a title is 1 to 80 characters" in made.err
    assert listing(with_tests) == before
    assert not (ROOT / "scenes" / "long_one").exists()
