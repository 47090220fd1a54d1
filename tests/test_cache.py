"""The content cache and interruption safety, on a copy of the fixture project at the test
quality: a second run renders nothing (and prunes what no render used lately), one changed
passage renders one scene again, and a killed render leaves no partial file behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import av
import pytest

from production import cache
from production.written import RECORD
from tests.cache_seeds import SCENES, said, seed_scenes
from tests.conftest import TEST_QUALITY, render_in

DAY = 86400
#: the passage the tests change, and what it becomes
BEFORE, AFTER = "Each score becomes a weight", "Every score turns into a weight"


def render(project: Path, *args: str) -> subprocess.CompletedProcess:
    return render_in(project, "render", "--chapter", "fixture", "--quality", TEST_QUALITY,
                     "--out", "out", *args)


def change_the_weights_passage(project: Path) -> None:
    script = project / "scenes" / "fixture" / "narration" / "Weights.txt"
    assert BEFORE in script.read_text()
    script.write_text(script.read_text().replace(BEFORE, AFTER))


def captioned(srt: Path) -> str:
    """The captions' words, their lines joined (a cue may wrap a sentence)."""
    return " ".join(line for line in srt.read_text(encoding="utf-8").splitlines()
                    if line and not line.isdigit() and "-->" not in line)


@pytest.fixture
def warm_project(copy_fixture_project, fixture_bundle) -> Path:
    """A copy of the fixture project whose cache holds the session's renders of both
    scenes (as a first run would have left it)."""
    seed_scenes(copy_fixture_project / ".cache", fixture_bundle)
    return copy_fixture_project


def test_a_second_run_renders_nothing_and_prunes_what_no_render_used(warm_project):
    scenes = warm_project / ".cache" / "scenes"
    long_ago = time.time() - (cache.KEEP_DAYS + 1) * DAY
    used = sorted(scenes.iterdir())
    for entry in used:  # last used long ago: this run uses them again
        os.utime(entry, (long_ago, long_ago))
    stale = scenes / ("f" * 24)  # a scene of an older version, used by no run since
    stale.mkdir()
    cache.write_record(stale, "scene.json", {"name": "Scores"}, [], stale.name)
    os.utime(stale, (long_ago, long_ago))

    again = render(warm_project, *SCENES)
    assert again.returncode == 0, again.stderr[-2000:]
    assert said(again.stdout, "rendered") == []
    assert said(again.stdout, "cached") == list(SCENES)
    assert "nothing to render" in again.stdout
    assert sorted(scenes.iterdir()) == used  # the stale entry pruned, the used ones kept


def test_one_changed_passage_renders_that_scene_alone_again(warm_project):
    change_the_weights_passage(warm_project)
    again = render(warm_project, *SCENES)
    assert again.returncode == 0, again.stderr[-2000:]
    assert said(again.stdout, "rendered") == ["Weights"]
    assert said(again.stdout, "cached") == ["Scores"]
    assert f"{AFTER}, and the weights add up to 1.00." in captioned(
        warm_project / "out" / "scenes" / "Weights.srt")


@pytest.mark.system
def test_second_run_renders_nothing_and_one_changed_passage_one_scene(copy_fixture_project):
    project = copy_fixture_project  # a cold cache of scenes (the session's speech in it)
    first = render(project, *SCENES)
    assert first.returncode == 0, first.stderr[-2000:]
    assert sorted(said(first.stdout, "rendered")) == sorted(SCENES)

    second = render(project, *SCENES)
    assert second.returncode == 0
    assert said(second.stdout, "rendered") == []
    assert "nothing to render" in second.stdout

    change_the_weights_passage(project)
    third = render(project, *SCENES)
    assert third.returncode == 0
    assert said(third.stdout, "rendered") == ["Weights"]
    assert f"{AFTER}, and the weights add up to 1.00." in captioned(
        project / "out" / "scenes" / "Weights.srt")


@pytest.mark.system
def test_a_killed_render_leaves_no_partial_files_and_the_next_run_completes(
        copy_fixture_project):
    project = copy_fixture_project
    args = [sys.executable, "render.py", "render", *SCENES, "--chapter", "fixture",
            "--quality", TEST_QUALITY, "--out", "out", "--jobs", "1"]
    proc = subprocess.Popen(args, cwd=project, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    store = project / ".cache" / "scenes"

    def mid_way() -> bool:
        """One scene finished and stored, the next one's build folder made."""
        found = [p for p in store.iterdir()] if store.is_dir() else []
        return any((p / "scene.json").exists() for p in found if not p.name.startswith(".")) \
            and any(p.name.startswith(".") for p in found)

    deadline = time.monotonic() + 300
    try:
        while not mid_way():  # kill it once one scene is finished, mid-way through the next
            assert proc.poll() is None, "the render ended before it was killed"
            assert time.monotonic() < deadline, "no scene was finished in time"
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    out = project / "out"
    if out.exists():
        for path in out.rglob("*"):
            # hidden: only the record of what the project wrote there (production/written.py)
            assert not path.name.startswith(".") or path.name == RECORD, \
                f"partial file left: {path}"
            if path.suffix == ".mp4":
                with av.open(str(path)) as container:
                    assert sum(1 for _ in container.decode(video=0)) > 0

    again = render(project, *SCENES, "--jobs", "1")
    assert again.returncode == 0, again.stderr[-2000:]
    assert "(cached)" in again.stdout
    for name in SCENES:
        assert (out / "scenes" / f"{name}.mp4").exists()
    assert [p.name for p in out.rglob("*") if p.name.startswith(".")] == [RECORD]
