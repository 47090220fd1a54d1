"""`render.py new NAME`: a chapter to start from, that renders at once and passes its own
test; a name that is taken or not allowed is one line, exit 2, and nothing written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest

from production.paths import ROOT


def listing(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")
                  if "__pycache__" not in p.parts and ".cache" not in p.parts)


def command(project: Path, *args: str, env: dict[str, str] | None = None):
    return subprocess.run([sys.executable, *args], cwd=project, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=900)


@pytest.fixture
def with_tests(project: Path) -> Path:
    """The project copy with its tests' harness (conftest.py) beside the code."""
    (project / "tests").mkdir()
    for name in ("__init__.py", "conftest.py"):
        shutil.copy2(ROOT / "tests" / name, project / "tests" / name)
    return project


def test_a_new_chapter_renders_at_once_and_passes_its_test(with_tests: Path):
    project = with_tests
    made = command(project, "render.py", "new", "decoder_steps",
                   "--title", 'Inside the "decoder", one step at a time')
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[:4] == ["wrote scenes/decoder_steps/",
                                            "wrote core/decoder_steps.py",
                                            "wrote tests/test_chapter_decoder_steps.py",
                                            "wrote scenes/course.txt"]
    # last in the course
    assert (project / "scenes" / "course.txt").read_text().split()[-1] == "decoder_steps"
    chapters = json.loads(command(project, "render.py", "list", "--json").stdout)["chapters"]
    found = {c["name"]: c for c in chapters}
    assert found["decoder_steps"]["title"] == 'Inside the "decoder", one step at a time'

    # its own test passes (and is more than one test: the model, every frame)
    tested = command(project, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                     "tests/test_chapter_decoder_steps.py")
    assert tested.returncode == 0, tested.stdout[-2000:]
    assert "4 passed" in tested.stdout

    # and it renders, narrated, through the command
    rendered = command(project, "render.py", "render", "--chapter", "decoder_steps",
                       "--quality", "preview", "--out", "out",
                       env={"EXPLAINER_CACHE": str(project / ".cache")})
    assert rendered.returncode == 0, rendered.stderr[-2000:]
    with av.open(str(project / "out" / "chapter.mp4")) as video:
        assert video.streams.video[0].height == 480 and video.streams.audio
        seconds = video.duration / av.time_base
    manifest = json.loads((project / "out" / "manifest.json").read_text())
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
])
def test_a_taken_or_bad_name_is_one_line_and_writes_nothing(with_tests: Path, name, says):
    before = listing(with_tests)
    made = command(with_tests, "render.py", "new", name)
    assert made.returncode == 2
    lines = made.stderr.splitlines()
    assert len(lines) == 1 and says in lines[0] and lines[0].startswith("render.py: error: new:")
    assert made.stdout == ""
    assert listing(with_tests) == before


def test_a_title_too_long_is_refused(with_tests: Path):
    before = listing(with_tests)
    made = command(with_tests, "render.py", "new", "long_one", "--title", "x" * 81)
    assert made.returncode == 2 and "a title is 1 to 80 characters" in made.stderr
    assert listing(with_tests) == before
