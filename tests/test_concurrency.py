"""Two renders at once into one output folder and one cache: real processes, started together.

A render locks its output folder (flock on the folder itself) after its arguments
are checked and before it writes anything there; a second render waits with one
line naming the first, then takes the scenes the first one left in the cache.
On a copy of the fixture project at the test quality.
"""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import av

from production.written import RECORD
from tests.cache_seeds import SCENES, seed_scenes
from tests.conftest import TEST_QUALITY, Ran


def render(project: Path, out: Path, *args: str) -> subprocess.Popen:
    """``render.py render ARGS`` in ``project``, into ``out``, caching in the test's cache
    (EXPLAINER_CACHE, set by copy_fixture_project)."""
    return subprocess.Popen(
        [sys.executable, "render.py", "render", *args, "--chapter", "fixture", "--quality",
         TEST_QUALITY, "--out", str(out), "--jobs", "1"],
        cwd=project, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def seconds(path: Path) -> float:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = sum(1 for _ in container.decode(stream))
        return frames / float(stream.average_rate)


WAITING = re.compile(r"^render\.py: waiting for another render writing into (.+) \(pid (\d+)\)$")


def test_two_renders_into_one_folder_both_succeed(tmp_path, copy_fixture_project,
                                                  fixture_bundle):
    project, out = copy_fixture_project, tmp_path / "out"
    cache = project / ".cache"
    seed_scenes(cache, fixture_bundle, ["Weights"])  # one scene cached, the other to draw
    procs = [render(project, out, *SCENES) for _ in range(2)]
    results = [(p.pid, *p.communicate(timeout=900), p.returncode) for p in procs]
    for pid, _, stderr, code in results:
        assert code == 0, f"pid {pid}: {stderr[-3000:]}"

    # one of them waited for the other, said so in one line, and then rendered nothing
    waits = [(pid, WAITING.match(line)) for pid, _, stderr, _ in results
             for line in stderr.splitlines() if WAITING.match(line)]
    assert len(waits) == 1, [r[2] for r in results]
    waiter, said = waits[0]
    (other,) = [pid for pid, *_ in results if pid != waiter]
    assert Path(said.group(1)) == out and int(said.group(2)) == other
    other_stdout = next(stdout for pid, stdout, *_ in results if pid == other)
    assert "Scores: " in other_stdout and "(rendered)" in other_stdout
    waiter_stdout = next(stdout for pid, stdout, *_ in results if pid == waiter)
    for name in SCENES:
        assert f"{name}: " in waiter_stdout
    assert "(rendered)" not in waiter_stdout and "nothing to render" in waiter_stdout

    for name in SCENES:
        assert seconds(out / "scenes" / f"{name}.mp4") > 1.0
        assert (out / "scenes" / f"{name}.srt").read_text(encoding="utf-8").strip()
    assert [p.name for p in out.rglob("*") if p.name.startswith(".")] == [RECORD]
    assert not [p for p in (cache / "scenes").iterdir() if p.name.startswith(".")]


def test_a_render_waits_for_the_lock_and_a_bad_argument_never_does(tmp_path, run_command,
                                                                   copy_fixture_project):
    out = tmp_path / "out"
    out.mkdir()
    held = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)  # as another render holding the folder would
    try:
        # In process: one that waited would block on the lock here (a flock held through
        # another descriptor), so it runs in a thread that must be done in seconds.
        refused: list[Ran] = []
        command = threading.Thread(daemon=True, target=lambda: refused.append(run_command(
            "render", "TitleCard", "--quality", "ultra", "--out", str(out))))
        command.start()
        command.join(timeout=60)
        assert not command.is_alive(), "a render with a bad argument waited for the lock"
        (bad,) = refused
        assert bad.code == 2 and "--quality" in bad.err

        proc = render(copy_fixture_project, out, "Scores")
        line = proc.stderr.readline().rstrip("\n")
        said = WAITING.match(line)
        assert said, line
        assert Path(said.group(1)) == out and int(said.group(2)) == os.getpid()
        time.sleep(3.0)
        assert proc.poll() is None
        assert list(out.iterdir()) == []  # nothing written while it waits
    finally:
        os.close(held)
    stdout, stderr = proc.communicate(timeout=600)
    assert proc.returncode == 0, stderr
    assert "Scores: " in stdout and "(rendered)" in stdout
    assert seconds(out / "scenes" / "Scores.mp4") > 1.0
