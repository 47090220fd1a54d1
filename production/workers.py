"""Worker processes that draw scenes (and one that speaks the passages, see
production.speaking.speak_all), and how a render stops.

Workers are forked once, up front, from the planned process (Manim and the scenes
already imported, which a spawned worker spends a second and a half on) and each
is given jobs one at a time, so the render always knows which scene a worker is
drawing. Three things make sure no worker outlives the render:

- every worker leads its own process group, and the ffmpeg and espeak-ng it runs
  belong to that group: stopping a worker is one ``killpg`` that takes its tools
  with it (and Ctrl-C in a terminal reaches only the main process, which decides);
- a worker is sent SIGTERM when the main process dies, however it dies
  (``PR_SET_PDEATHSIG`` on Linux, a watching thread elsewhere), and SIGTERM makes it
  kill its whole group;
- Ctrl-C, SIGTERM (see :func:`stop_on_sigterm`), an error or a dead worker in the
  main process kill every worker's group at once, without waiting for the scene
  being drawn. Scenes that finished are already stored in the cache.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection, wait
from typing import Any, Protocol

from production import lock

#: (label, function, arguments); the function returns (result, peak memory in KiB)
Job = tuple[str, Callable[..., tuple[Any, int]], tuple[Any, ...]]

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class WorkerDied(Exception):
    """A worker process ended while it was drawing a scene (killed, or out of memory)."""

    def __init__(self, label: str, exitcode: int | None, doing: str = "rendering") -> None:
        if exitcode is None:
            how = "for an unknown reason"
        elif exitcode < 0:
            how = f"killed by signal {-exitcode}"
        else:
            how = f"exit status {exitcode}"
        self.label = label
        super().__init__(f"the worker {doing} {label} stopped ({how})")


class Terminated(KeyboardInterrupt):
    """SIGTERM to the render: it stops as it does for Ctrl-C (exit status 143)."""


class Display(Protocol):
    def start(self) -> None: ...
    def update(self, rendering: list[str], advance: int = 0) -> None: ...
    def say(self, line: str) -> None: ...


class Progress:
    """One display over the scenes: done, rendering, time left. Quiet off a terminal."""

    def __init__(self, total: int) -> None:
        self.live = sys.stderr.isatty() and total > 0
        if self.live:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                           transient=True)
            self.task = self.bar.add_task("rendering", total=total)

    def start(self) -> None:
        """Show the display (it redraws from a thread: start it after the workers fork)."""
        if self.live:
            self.bar.start()

    def update(self, rendering: list[str], advance: int = 0) -> None:
        if self.live:
            label = ", ".join(rendering) if rendering else "finishing"
            self.bar.update(self.task, advance=advance, description=f"rendering {label}")

    def say(self, line: str) -> None:
        if self.live:
            self.bar.console.print(line)
        else:
            print(line, flush=True)

    def close(self) -> None:
        if self.live:
            self.bar.stop()


class Silent:
    """A display that shows nothing (work whose progress is not the scenes')."""

    def start(self) -> None: ...
    def update(self, rendering: list[str], advance: int = 0) -> None: ...
    def say(self, line: str) -> None: ...


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """Within this block SIGTERM raises :class:`Terminated` in the main thread, so the
    render stops through the same clean-up as Ctrl-C, and Ctrl-C raises
    KeyboardInterrupt even when the render was started with SIGINT ignored (as a
    shell's background job is, and Python then leaves it ignored). Restores the old
    handlers after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    interrupt = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGINT, interrupt)


# ----------------------------------------------------------------- in the worker


def _stop_group(signum: int = signal.SIGTERM, frame: Any = None) -> None:
    """Kill this worker and every process it started (they share its process group)."""
    if os.getpgrp() == os.getpid():
        os.killpg(0, signal.SIGKILL)
    os._exit(128 + signum)  # not a group leader: at least this worker goes


def _become_worker(parent: int) -> None:
    """A freshly forked worker: its own process group, gone with the main process."""
    os.setpgid(0, 0)
    signal.signal(signal.SIGTERM, _stop_group)
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C is the main process's to handle
    # Off the terminal's foreground group, touching the terminal would stop the whole
    # group (ffmpeg puts a terminal on its stdin into raw mode): stdin is /dev/null,
    # and writing to the terminal never stops it (tools started here inherit both).
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    for stop in (signal.SIGTTOU, signal.SIGTTIN):
        signal.signal(stop, signal.SIG_IGN)
    lock.forget()  # the parent's output lock stays the parent's
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    else:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os.kill(os.getpid(), signal.SIGTERM)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was set
        _stop_group()


class _RemoteTraceback(Exception):
    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text


def _serve(jobs: list[Job], conn: Connection, others: list[Connection], parent: int) -> None:
    """The worker's loop: a job's index in, (ok, result or error, traceback) out."""
    _become_worker(parent)
    for other in others:
        other.close()
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        if index is None:
            return
        _, function, arguments = jobs[index]
        try:
            reply: tuple[bool, Any, str] = (True, function(*arguments), "")
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the render
            text = "".join(traceback.format_exception(error))
            try:
                pickle.loads(pickle.dumps(error))
            except Exception:  # noqa: BLE001 - an error that cannot cross: say what it was
                error = RuntimeError(f"{type(error).__name__}: {error}")
            reply = (False, error, text)
        conn.send(reply)


# ----------------------------------------------------------------- in the render


class _Worker:
    def __init__(self, context: Any, jobs: list[Job], theirs: Connection,
                 others: list[Connection]) -> None:
        self.process = context.Process(target=_serve, args=(jobs, theirs, others, os.getpid()),
                                       daemon=True)
        self.process.start()
        try:  # also from this side, so that killpg below can never miss the group
            os.setpgid(self.process.pid, self.process.pid)
        except OSError:
            pass  # it already has (or is gone)
        self.job: int | None = None
        self.leaving = False  # told to leave: it exits by itself

    def kill(self) -> None:
        for kill in (os.killpg, os.kill):
            try:
                kill(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def peak_memory() -> int:
    """The most memory this process has held (KiB), as a job reports it."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_workers(jobs: list[Job], workers: int, progress: Display, *, doing: str = "rendering",
                tidy: Callable[[list[int]], None] | None = None
                ) -> tuple[dict[str, Any], list[int]]:
    """Run (label, function, arguments) jobs in ``workers`` worker processes, in order.

    Returns each label's result and the workers' peak memory (KiB). A job's error is
    raised here with the worker's traceback as its cause; a worker that dies raises
    :class:`WorkerDied` naming its job (``the worker DOING LABEL stopped``). On any
    error, Ctrl-C or SIGTERM every worker and everything it started is killed at once;
    then, however the workers ended, ``tidy`` is given their process ids (to remove
    what a killed worker was writing).
    """
    results: dict[str, Any] = {}
    peaks: list[int] = []
    if not jobs:
        return results, peaks
    context = multiprocessing.get_context("fork")
    pipes = [context.Pipe() for _ in range(min(workers, len(jobs)))]
    pool: dict[Connection, _Worker] = {}
    try:
        # Fork before the progress display starts its thread.
        for i, (ours, theirs) in enumerate(pipes):
            others = [c for j, pair in enumerate(pipes) if j != i for c in pair] + [ours]
            pool[ours] = _Worker(context, jobs, theirs, others)
            theirs.close()
        progress.start()
        queue = deque(range(len(jobs)))

        def give(conn: Connection, worker: _Worker) -> None:
            worker.job = queue.popleft() if queue else None
            if worker.job is not None:
                try:
                    conn.send(worker.job)
                except OSError:  # it died between two jobs
                    worker.process.join(timeout=2)
                    raise WorkerDied(jobs[worker.job][0], worker.process.exitcode,
                                     doing) from None

        for conn, worker in pool.items():
            give(conn, worker)
        while True:
            busy = {c: w for c, w in pool.items() if w.job is not None}
            if not busy:
                break
            progress.update([jobs[w.job][0] for w in busy.values() if w.job is not None])
            ready = wait([*busy, *(w.process.sentinel for w in busy.values())])
            for conn, worker in busy.items():
                if conn not in ready and worker.process.sentinel not in ready:
                    continue
                label = jobs[worker.job][0]
                try:
                    ok, value, text = conn.recv()
                except (EOFError, OSError):
                    worker.process.join(timeout=2)
                    raise WorkerDied(label, worker.process.exitcode, doing) from None
                if not ok:
                    value.__cause__ = _RemoteTraceback(text)
                    raise value
                results[label], peak = value
                peaks.append(peak)
                progress.update([jobs[w.job][0] for w in busy.values()
                                 if w is not worker and w.job is not None], advance=1)
                progress.say(f"{label}: done")
                give(conn, worker)
        for conn, worker in pool.items():
            conn.send(None)
            worker.leaving = True
    finally:
        _stop(pool, tidy)
    return results, peaks


def _stop(pool: dict[Connection, _Worker], tidy: Callable[[list[int]], None] | None) -> None:
    """Kill every worker's group, except the workers told to leave, then reap them all and
    ``tidy`` up after them (a second Ctrl-C waits until that is done)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        for worker in pool.values():
            if not worker.leaving:
                worker.kill()
        for conn, worker in pool.items():
            worker.process.join(timeout=2)
            if worker.process.exitcode is None:
                worker.kill()
                worker.process.join(timeout=2)
            conn.close()
        if tidy is not None:
            tidy([worker.process.pid for worker in pool.values()])
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
