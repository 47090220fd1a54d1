"""The content cache and interruption safety, on a copy of the project (cold cache)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import av
import pytest


def render(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", "render", "--quality", "preview",
                           "--out", "out", *args], cwd=project, capture_output=True,
                          text=True, timeout=900)


def rendered_names(output: str) -> list[str]:
    return [line.split(":")[0] for line in output.splitlines() if line.endswith("(rendered)")]


@pytest.mark.slow
def test_second_run_renders_nothing_and_one_changed_passage_one_scene(project):
    first = render(project, "TitleCard", "TwoJobs")
    assert first.returncode == 0, first.stderr[-2000:]
    assert sorted(rendered_names(first.stdout)) == ["TitleCard", "TwoJobs"]

    second = render(project, "TitleCard", "TwoJobs")
    assert second.returncode == 0
    assert rendered_names(second.stdout) == []
    assert "nothing to render" in second.stdout

    script = project / "scenes" / "attention" / "narration" / "TwoJobs.txt"
    script.write_text(script.read_text().replace("Start with two jobs.",
                                                 "Begin with two separate jobs."))
    third = render(project, "TitleCard", "TwoJobs")
    assert third.returncode == 0
    assert rendered_names(third.stdout) == ["TwoJobs"]
    srt = (project / "out" / "scenes" / "TwoJobs.srt").read_text()
    assert "Begin with two separate jobs." in srt


@pytest.mark.slow
def test_a_killed_render_leaves_no_partial_files_and_the_next_run_completes(project):
    args = [sys.executable, "render.py", "render", "TitleCard", "TwoJobs", "TheMisreading",
            "--quality", "preview", "--out", "out", "--jobs", "1"]
    proc = subprocess.Popen(args, cwd=project, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    store = project / ".cache" / "scenes"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:  # kill it once one scene is finished, mid-way
        if store.is_dir() and any((p / "scene.json").exists() for p in store.iterdir()
                                  if not p.name.startswith(".")):
            break
        time.sleep(0.2)
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    out = project / "out"
    if out.exists():
        for path in out.rglob("*"):
            assert not path.name.startswith("."), f"partial file left: {path}"
            if path.suffix == ".mp4":
                with av.open(str(path)) as container:
                    assert sum(1 for _ in container.decode(video=0)) > 0

    again = render(project, "TitleCard", "TwoJobs", "TheMisreading", "--jobs", "1")
    assert again.returncode == 0, again.stderr[-2000:]
    assert "(cached)" in again.stdout
    for name in ("TitleCard", "TwoJobs", "TheMisreading"):
        assert (out / "scenes" / f"{name}.mp4").exists()
    assert not [p for p in out.rglob("*") if p.name.startswith(".")]
