"""Signals to a real render: Ctrl-C, SIGTERM, kill -9 of the main process or of a worker.

Every render test (the system tier) starts ``render.py`` at the test quality as a real
process with a private cache (cold, but for the session's speech; cold speech and all
where the signal comes while speaking), follows every process descended from it through
/proc (remembered by pid and start time, so a worker adopted by init after its parent
died is still followed), sends a real signal, and checks what is left: processes, exit
status, stderr, out/ and the cache. The worker pool's own handling of errors, deaths and
Ctrl-C is tested in process, in the default tier.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from production.chapters import load
from production.speaking import speak_all
from production.workers import WorkerDied, run_workers, stop_on_sigterm
from tests.conftest import (
    TEST_QUALITY,
    chapter_module,
    copy_project,
    keep_speech,
    seed_speech,
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def project_copy(tmp: Path) -> Path:
    """The project's code and assets, copied: edits made meanwhile in the working tree
    cannot change the cache keys between two runs of one test."""
    return copy_project(tmp / "project")


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], int(fields[19])


class Family:
    """A process and all its descendants, followed by a thread that scans /proc."""

    def __init__(self, root: int) -> None:
        start = _stat(root)
        assert start is not None
        self.members: dict[int, int] = {root: start[2]}  # pid -> start time
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._follow, daemon=True)
        self.thread.start()

    def _follow(self) -> None:
        while not self.stopped.is_set():
            self.scan()
            time.sleep(0.02)

    def scan(self) -> None:
        table = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (stat := _stat(int(entry))) is not None:
                table[int(entry)] = stat
        with self.lock:
            grown = True
            while grown:
                grown = False
                for pid, (ppid, _, start) in table.items():
                    parent = table.get(ppid)
                    if pid not in self.members and parent is not None \
                            and self.members.get(ppid) == parent[2]:
                        self.members[pid] = start
                        grown = True

    def alive(self) -> list[int]:
        """Members still running (a zombie has finished: it only waits to be reaped)."""
        with self.lock:
            members = dict(self.members)
        found = []
        for pid, start in members.items():
            stat = _stat(pid)
            if stat is not None and stat[2] == start and stat[1] not in "ZX":
                found.append(pid)
        return found

    def children(self, pid: int) -> list[int]:
        return [p for p in self.alive() if (s := _stat(p)) is not None and s[0] == pid]

    def wait_gone(self, limit: float) -> float:
        """Seconds until no member runs (or ``limit`` when some still do)."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            if not self.alive():
                return time.monotonic() - started
            time.sleep(0.02)
        return limit

    def kill_all(self) -> None:
        self.stopped.set()
        for pid in self.alive():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


class Render:
    """``render.py render SCENES --quality test`` of ``project``'s ``chapter`` with a
    private cache (holding the session's speech unless ``cold``) and out/."""

    def __init__(self, tmp: Path, project: Path, chapter: str, scenes: list[str], jobs: int,
                 *, cold: bool = False) -> None:
        self.project = project
        self.out = tmp / "out"
        self.cache = tmp / "cache" if cold else seed_speech(tmp / "cache")
        self.env = {**os.environ, "EXPLAINER_CACHE": str(self.cache)}
        self.options = ["--chapter", chapter, "--quality", TEST_QUALITY, "--out", str(self.out),
                        "--jobs", str(jobs)]
        self.proc = subprocess.Popen(self.command(*scenes), cwd=self.project, env=self.env,
                                     text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.family = Family(self.proc.pid)
        self.lines: list[str] = []
        self.stderr = ""
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def done(self) -> list[str]:
        return [line.split(":")[0] for line in self.lines if line.endswith(": done")]

    def wait_for(self, condition, limit: float = 300) -> None:
        deadline = time.monotonic() + limit
        while not condition():
            assert self.proc.poll() is None, f"render ended early: {self.proc.stderr.read()}"
            assert time.monotonic() < deadline, "render did not get there in time"
            time.sleep(0.02)

    def building(self) -> bool:
        """Whether a worker is drawing a scene (its hidden build folder exists)."""
        scenes = self.cache / "scenes"
        return scenes.is_dir() and any(p.name.startswith(".") for p in scenes.iterdir())

    def finish(self, limit: float = 30) -> int:
        code = self.proc.wait(timeout=limit)
        self.reader.join(timeout=limit)
        self.stderr = self.proc.stderr.read()
        return code

    def command(self, *scenes: str) -> list[str]:
        return [sys.executable, "render.py", "render", *scenes, *self.options]

    def again(self, *scenes: str) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(*scenes), cwd=self.project, env=self.env,
                              capture_output=True, text=True, timeout=600)

    def published(self) -> list[Path]:
        return sorted(p for p in self.out.rglob("*") if p.is_file()) \
            if self.out.exists() else []


@pytest.fixture
def start(tmp_path, fixture_project):
    """Starts a render of scenes of the attention chapter (in a copy of the project) or of
    the fixture chapter (in the fixture project)."""
    started: list[Render] = []

    def run(scenes: list[str], jobs: int, *, chapter: str = "attention",
            cold: bool = False) -> Render:
        project = fixture_project if chapter == "fixture" else project_copy(tmp_path)
        started.append(Render(tmp_path, project, chapter, scenes, jobs, cold=cold))
        return started[-1]

    yield run
    for render in started:  # whatever a failed test left running
        render.family.kill_all()
        render.proc.kill()
        render.proc.wait()
        keep_speech(render.cache)  # what it spoke whole, for the session's later renders


def longest_first(chapter: str, names: list[str]) -> list[str]:
    """The order render.py gives the workers."""
    scenes = load(chapter_module(chapter)).by_name()
    return sorted(names, key=lambda n: -sum(scenes[n].beat_seconds.values()))


@pytest.mark.system
@pytest.mark.parametrize("signum,status,line", [
    (signal.SIGINT, 130, "render.py: interrupted"),
    (signal.SIGTERM, 143, "render.py: terminated"),
])
def test_a_signal_stops_every_process_within_two_seconds(start, signum, status, line):
    render = start(["TitleCard", "TwoJobs", "OneAttentionWeight"], jobs=2)
    render.wait_for(lambda: render.done())  # one scene finished, the others being drawn
    render.family.scan()
    workers = render.family.children(render.proc.pid)
    assert len(workers) == 2, "the render should be running two workers"

    os.kill(render.proc.pid, signum)
    took = render.family.wait_gone(10)
    assert took < 2.0, f"took {took:.1f} s; running after 10 s: {render.family.alive()}"
    assert render.finish() == status
    assert render.stderr.splitlines() == [line]
    assert render.published() == []  # out/ is written only when every scene is done

    finished = render.done()
    again = render.again(*finished)
    assert again.returncode == 0, again.stderr
    for name in finished:
        assert f"{name}: " in again.stdout and "(cached)" in again.stdout, again.stdout
    assert "(rendered)" not in again.stdout


#: the scene with the most narration: speaking it cold takes several seconds, passage by
#: passage, so a signal sent once its first passage is cached finds speech under way
MOST_SPOKEN = "PotionMixing"


def spoken(cache: Path) -> dict[str, tuple[int, bytes]]:
    """The speech cache's finished files (not hidden): name -> (inode, bytes)."""
    folder = cache / "voice"
    return {p.name: (p.stat().st_ino, p.read_bytes()) for p in sorted(folder.iterdir())
            if not p.name.startswith(".")} if folder.is_dir() else {}


def hidden(folder: Path) -> list[Path]:
    """Hidden (temporary, partial) files and folders anywhere under ``folder``."""
    return sorted(p for p in folder.rglob(".*")) if folder.exists() else []


@pytest.mark.system
@pytest.mark.parametrize("signum,status,line", [
    (signal.SIGINT, 130, "render.py: interrupted"),
    (signal.SIGTERM, 143, "render.py: terminated"),
])
def test_a_signal_while_speaking_stops_within_two_seconds(start, signum, status, line,
                                                          monkeypatch):
    """Ctrl-C or SIGTERM while the passages are being spoken (a cold speech cache): the
    render stops within two seconds, not once every passage already started is spoken;
    no half-spoken passage is left or cached, and the next run speaks the rest."""
    render = start([MOST_SPOKEN], jobs=2, cold=True)
    render.wait_for(lambda: any(n.endswith(".wav") for n in spoken(render.cache)))

    os.kill(render.proc.pid, signum)
    took = render.family.wait_gone(10)
    assert took < 2.0, f"took {took:.1f} s; running after 10 s: {render.family.alive()}"
    assert render.finish() == status
    assert render.stderr.splitlines() == [line]
    assert render.lines == []
    assert render.published() == []
    assert hidden(render.cache) == []
    kept = spoken(render.cache)
    assert kept, "the passage spoken before the signal should stay cached"

    # The next render's planning speaks the rest (a dry run speaks nothing).
    monkeypatch.setenv("EXPLAINER_CACHE", str(render.cache))
    chapter = load(chapter_module("attention"))
    speak_all(chapter, [chapter.by_name()[MOST_SPOKEN]], {}, True)
    assert hidden(render.cache) == []
    now = spoken(render.cache)
    # What the first run cached was whole: the second run took it as it was.
    assert {name: now.get(name) for name in kept} == kept
    # a passage a beat, each spoken once
    beats = chapter.by_name()[MOST_SPOKEN].beat_seconds
    assert len([n for n in now if n.endswith(".wav")]) == len(beats)


@pytest.mark.system
def test_workers_and_their_tools_exit_when_the_main_process_is_killed(start):
    render = start(["TitleCard", "TwoJobs", "OneAttentionWeight", "TheMisreading"], jobs=2)
    render.wait_for(render.building)
    time.sleep(1.0)  # the workers are drawing (and speaking, and encoding)
    render.family.scan()
    assert len(render.family.children(render.proc.pid)) == 2

    os.kill(render.proc.pid, signal.SIGKILL)
    took = render.family.wait_gone(10)
    assert took < 3.0, f"took {took:.1f} s; running after 10 s: {render.family.alive()}"
    render.finish()
    assert render.published() == []


@pytest.mark.system
def test_a_killed_worker_is_one_line_naming_its_scene(start):
    scenes = ["Scores", "Weights"]
    first, second = longest_first("fixture", scenes)
    render = start(scenes, jobs=1, chapter="fixture")
    render.wait_for(lambda: first in render.done())
    render.family.scan()
    (worker,) = render.family.children(render.proc.pid)
    os.kill(worker, signal.SIGKILL)  # it is drawing the second scene now

    assert render.finish() == 1
    assert render.stderr.splitlines() == [
        f"render.py: error: the worker rendering {second} stopped (killed by signal 9)"]
    assert render.family.wait_gone(5) < 5
    assert render.published() == []
    again = render.again(first)
    assert again.returncode == 0, again.stderr
    assert f"{first}: " in again.stdout and "(cached)" in again.stdout


@pytest.mark.system
def test_ctrl_c_typed_on_a_terminal(tmp_path):
    """On a terminal the workers, off its foreground group, never stop on it (ffmpeg
    touches a terminal on its stdin), and Ctrl-C typed there stops every process."""
    command = [sys.executable, "render.py", "render", "TitleCard", "TwoJobs",
               "OneAttentionWeight", "--quality", TEST_QUALITY, "--out", str(tmp_path / "out"),
               "--jobs", "2"]
    cache = seed_speech(tmp_path / "cache")
    env = {**os.environ, "EXPLAINER_CACHE": str(cache)}
    project = project_copy(tmp_path)
    pid, terminal = pty.fork()
    if pid == 0:  # the child: nothing but exec (the test process has threads)
        os.chdir(project)
        os.execve(sys.executable, command, env)
    family = Family(pid)
    shown, typed, took = b"", None, None
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.05)[0]:
                try:
                    shown += os.read(terminal, 65536)
                except OSError:  # the render has ended
                    break
            stopped = [p for p in family.alive() if (_stat(p) or (0, ""))[1] == "T"]
            assert stopped == [], f"stopped by the terminal: {stopped}"
            if typed is None and b": done" in shown:
                time.sleep(0.5)  # the other scenes are being drawn
                os.write(terminal, b"\x03")
                typed = time.monotonic()
                took = family.wait_gone(10)
        assert typed is not None, f"no scene finished: {shown[-2000:]!r}"
        _, status = os.waitpid(pid, 0)
    finally:
        family.kill_all()
        os.close(terminal)
    assert os.waitstatus_to_exitcode(status) == 130
    assert took < 2.0, f"took {took:.1f} s"
    assert b"render.py: interrupted" in shown


class Quiet:
    def start(self) -> None: ...
    def update(self, rendering: list[str], advance: int = 0) -> None: ...
    def say(self, line: str) -> None: ...


def _square(x: int) -> tuple[int, int]:
    return x * x, 1


def _start_a_tool_and_wait(note: str) -> tuple[None, int]:
    tool = subprocess.Popen(["sleep", "60"])
    Path(note).write_text(str(tool.pid))
    tool.wait()
    return None, 1


def _fail_once_the_tool_runs(note: str) -> tuple[None, int]:
    while not Path(note).exists():
        time.sleep(0.01)
    raise ValueError("a bad recording")


def _die() -> tuple[None, int]:
    os.kill(os.getpid(), signal.SIGKILL)
    return None, 1


def test_an_error_in_one_job_stops_the_other_workers_and_their_tools(tmp_path):
    note = str(tmp_path / "tool.pid")
    jobs = [("Slow", _start_a_tool_and_wait, (note,)), ("Bad", _fail_once_the_tool_runs, (note,))]
    started = time.monotonic()
    with pytest.raises(ValueError, match="a bad recording") as raised:
        run_workers(jobs, 2, Quiet())
    assert time.monotonic() - started < 10
    assert "_fail_once_the_tool_runs" in str(raised.value.__cause__)  # the worker's traceback
    tool = int(Path(note).read_text())
    deadline = time.monotonic() + 2
    while (stat := _stat(tool)) is not None and stat[1] not in "ZX":
        assert time.monotonic() < deadline, "the worker's tool is still running"
        time.sleep(0.02)


def test_results_come_back_by_label_and_a_dead_worker_is_named():
    jobs = [(f"Scene{i}", _square, (i,)) for i in range(5)]
    assert run_workers(jobs, 2, Quiet()) == ({f"Scene{i}": i * i for i in range(5)}, [1] * 5)
    with pytest.raises(WorkerDied, match=r"^the worker rendering Doomed stopped "
                                         r"\(killed by signal 9\)$"):
        run_workers([("Fine", _square, (3,)), ("Doomed", _die, ())], 1, Quiet())


def test_ctrl_c_with_an_idle_worker_stops_at_once(tmp_path):
    note = str(tmp_path / "tool.pid")
    jobs = [("Slow", _start_a_tool_and_wait, (note,)), ("Quick", _square, (2,))]
    started = time.monotonic()
    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
    # as the render does (pytest may have been started with SIGINT ignored, as a
    # background job is)
    with pytest.raises(KeyboardInterrupt), stop_on_sigterm():
        run_workers(jobs, 2, Quiet())
    assert time.monotonic() - started < 1.5
    tool = int(Path(note).read_text())
    assert (stat := _stat(tool)) is None or stat[1] in "ZX"
