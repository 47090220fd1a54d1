"""Scenes rendered on a real Dask cluster on loopback: a `dask scheduler` and `dask worker`
processes (each with a cache of its own, so the files must come home through Dask), or a
LocalCluster; the same scenes as the local worker pool; a worker killed mid-job; workers
that cannot render refused up front.

The renders draw the fixture chapter at the test quality (in the fixture project, whose
code the workers run). The real clusters are the system tier: one of two workers shared
by the tests that can share it, and one of their own for those whose workers or comm
differ. The default tier has what needs no cluster (the refusals, in process), and one
render on a LocalCluster started by the render itself."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import av
import pytest

from production import cache, schedulers
from production import cluster as clusters
from production.chapters import load
from production.paths import ROOT
from tests.cache_seeds import SCENES, seed_fixture_speech
from tests.conftest import FIXTURE_MODULE, TEST_QUALITY

system = pytest.mark.system

DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scenes(out: Path, *names: str) -> list[str]:
    """``render NAMES`` of the fixture chapter at the test quality, into ``out``."""
    return ["render", *names, "--chapter", "fixture", "--quality", TEST_QUALITY,
            "--out", str(out)]


def render(project: Path, *args: str, cache: Path, env: dict[str, str] | None = None,
           timeout: float = 900) -> subprocess.CompletedProcess:
    """``render.py ARGS`` in ``project`` (the fixture project)."""
    return subprocess.run([sys.executable, "render.py", *args], cwd=project, text=True,
                          capture_output=True, timeout=timeout,
                          env=dict(os.environ, EXPLAINER_CACHE=str(cache), **(env or {})))


def start_render(project: Path, *args: str, cache: Path) -> subprocess.Popen:
    """``render.py ARGS`` in ``project``, started (text output piped)."""
    return subprocess.Popen(
        [sys.executable, "render.py", *args], cwd=project, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=dict(os.environ, EXPLAINER_CACHE=str(cache)))


def seconds(path: Path) -> float:
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        return float(v.duration * v.time_base)


def scene_record(cache: Path, name: str) -> dict:
    for record in (cache / "scenes").glob("*/scene.json"):
        data = json.loads(record.read_text())
        if data.get("name") == name:
            return data
    raise AssertionError(f"no {name} in {cache}")


class Cluster:
    """A `dask scheduler` and `dask worker` processes on 127.0.0.1, each worker with its
    own cache folder (they share no disk with the render), all running the code of
    ``code`` (a copy of the project: the fixture project), not whichever checkout the
    virtual environment's editable install points at; and this checkout's tests package
    (whose fixture chapter a test may hand a worker in process)."""

    def __init__(self, tmp: Path, workers: int, code: Path,
                 worker_env: dict[str, str] | None = None, protocol: str = "tcp",
                 tls: dict[str, Path] | None = None):
        self.tmp = tmp
        self.port = free_port()
        self.address = f"{protocol}://127.0.0.1:{self.port}"
        self.tls = tls  # the CA, certificate and key every process of it uses
        secured = [] if tls is None else [
            "--tls-ca-file", str(tls["ca"]), "--tls-cert", str(tls["cert"]),
            "--tls-key", str(tls["key"])]
        # the scheduler unpickles the tasks (the chapter in them) too
        python_path = os.pathsep.join([str(code), str(ROOT)])
        self.scheduler = subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
             "--protocol", protocol, "--no-dashboard", *secured],
            env=dict(os.environ, PYTHONPATH=python_path),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.workers = []
        for i in range(workers):
            env = dict(os.environ, EXPLAINER_CACHE=str(tmp / f"worker-cache-{i}"),
                       PYTHONPATH=python_path)
            env.update(worker_env or {})
            self.workers.append(subprocess.Popen(
                [DASK, "worker", self.address, "--nthreads", "1", "--nworkers", "1",
                 "--no-dashboard", "--name", f"w{i}", *secured], env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        self.wait_for(workers)

    def client(self):
        from distributed import Client
        from distributed.security import Security

        security = None if self.tls is None else Security(
            tls_ca_file=str(self.tls["ca"]), tls_client_cert=str(self.tls["cert"]),
            tls_client_key=str(self.tls["key"]), require_encryption=True)
        return Client(self.address, timeout="10s", security=security)

    def wait_for(self, count: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with self.client() as client:
                    if len(client.scheduler_info()["workers"]) >= count:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise AssertionError(f"the cluster did not reach {count} workers")

    def close(self) -> None:
        for p in [*self.workers, self.scheduler]:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()


@pytest.fixture
def cluster(tmp_path, fixture_project):
    """Starts a cluster of the test's own (for workers or a comm no other test shares)."""
    made = []

    def start(workers: int = 1, worker_env: dict[str, str] | None = None,
              protocol: str = "tcp", tls: dict[str, Path] | None = None) -> Cluster:
        made.append(Cluster(tmp_path, workers, fixture_project, worker_env, protocol, tls))
        return made[-1]

    yield start
    for c in made:
        c.close()


#: the shared cluster's workers
SHARED_WORKERS = 2


@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory, fixture_project):
    """The module's cluster of two ordinary workers, started once for the tests that can
    share it (and again only after a test has killed its scheduler): call it for the
    cluster, with every worker up."""
    tmp = tmp_path_factory.mktemp("shared-cluster")
    running: list[Cluster] = []

    def get() -> Cluster:
        if running and running[0].scheduler.poll() is not None:  # a test killed it
            running.pop().close()
        if not running:
            running.append(Cluster(tmp, SHARED_WORKERS, fixture_project))
        running[0].wait_for(SHARED_WORKERS)  # a killed worker is back (its nanny restarts it)
        return running[0]

    yield get
    for c in running:
        c.close()


# ----------------------------------------------------------------- the shared cluster


@pytest.fixture
def speech(fixture_bundle):
    """Makes a cache folder holding the fixture chapter's speech (the session's)."""
    return lambda folder: seed_fixture_speech(folder, fixture_bundle)


@system
def test_a_cluster_renders_the_same_scenes_and_sound_as_the_local_pool(
        tmp_path, shared_cluster, fixture_project, speech):
    # Each render has a cache of its own, holding the session's speech.
    pool_cache, cluster_cache = speech(tmp_path / "pool-cache"), speech(tmp_path / "cluster-cache")
    pool = render(fixture_project, *scenes(tmp_path / "pool", *SCENES), cache=pool_cache)
    assert pool.returncode == 0, pool.stderr
    dask = shared_cluster()
    done = render(fixture_project, *scenes(tmp_path / "dask", *SCENES), "--scheduler",
                  dask.address, cache=cluster_cache)
    assert done.returncode == 0, done.stderr
    assert f"cluster {dask.address}: 2 worker(s), 2 scene(s) to render" in done.stdout
    for name in SCENES:
        assert seconds(tmp_path / "dask" / "scenes" / f"{name}.mp4") == pytest.approx(
            seconds(tmp_path / "pool" / "scenes" / f"{name}.mp4"))
        ours, theirs = scene_record(cluster_cache, name), scene_record(pool_cache, name)
        assert ours["beat_starts"] == theirs["beat_starts"]
        assert ours["cues"] == theirs["cues"]
        # The same sound, byte for byte: the mix a worker made and the local one.
        assert ours["files"][f"{name}.wav"] == theirs["files"][f"{name}.wav"]
    # The same content keys: the same numbers, speech and code.
    assert sorted(p.name for p in (cluster_cache / "scenes").iterdir()
                  if not p.name.startswith(".")) == \
        sorted(p.name for p in (pool_cache / "scenes").iterdir() if not p.name.startswith("."))
    # The workers drew into caches of their own; the files came home through Dask.
    assert not any((dask.tmp / "worker-cache-0").glob("scenes/*/*.mp4"))
    again = render(fixture_project, *scenes(tmp_path / "dask", *SCENES), "--scheduler",
                   dask.address, cache=cluster_cache)
    assert "nothing to render: all 2 scenes cached" in again.stdout


def _mapped_regions_for_a_frame(dask_worker=None) -> int:
    """How many more regions glibc maps while a 1 MiB array (a small frame) is alive."""
    import ctypes

    import numpy as np

    class Info(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    mallinfo2 = ctypes.CDLL("libc.so.6").mallinfo2
    mallinfo2.restype = Info
    before = mallinfo2().hblks
    frame = np.ones(1 << 20, np.uint8)
    during = mallinfo2().hblks
    del frame
    return during - before


@system
def test_cluster_workers_allocate_frames_like_local_workers(shared_cluster):
    """Dask starts workers with MALLOC_TRIM_THRESHOLD_ set, which pins glibc's mmap
    threshold at 128 KiB: every frame-sized array is mapped afresh. A render's session
    gives the workers the threshold a local worker grows to, and stops their profiler."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the probe goes by value
    dask = shared_cluster()
    with dask.client() as client:
        client.restart()  # worker processes as Dask starts them (a render tunes them)
        fresh = set(client.run(_mapped_regions_for_a_frame).values())
        profiling = set(client.run(
            lambda dask_worker: dask_worker.periodic_callbacks["profile"].is_running()).values())
    assert fresh == {1} and profiling == {True}  # as Dask starts them
    session = clusters.Session(dask.address, SHARED_WORKERS, load(FIXTURE_MODULE), None)
    try:
        tuned = set(session.client.run(_mapped_regions_for_a_frame).values())
        profiling = set(session.client.run(
            lambda dask_worker: dask_worker.periodic_callbacks["profile"].is_running()).values())
    finally:
        session.close()
    assert tuned == {0} and profiling == {False}


@system
def test_a_worker_killed_mid_job_does_not_stop_the_render(tmp_path, shared_cluster,
                                                          fixture_project):
    dask = shared_cluster()
    with dask.client() as client:
        pids = client.run(os.getpid)
    job = start_render(fixture_project, *scenes(tmp_path / "out", *SCENES), "--no-narration",
                       "--scheduler", dask.address, cache=tmp_path / "cache")
    killed = None
    deadline = time.monotonic() + 120
    with dask.client() as client:
        while killed is None and time.monotonic() < deadline:
            busy = [w for w, tasks in client.processing().items() if tasks]
            if busy:
                killed = busy[0]
                os.kill(pids[killed], signal.SIGKILL)
            time.sleep(0.2)
    assert killed is not None, "no task ever ran"
    out, err = job.communicate(timeout=900)
    assert job.returncode == 0, err
    for name in SCENES:
        assert seconds(tmp_path / "out" / "scenes" / f"{name}.mp4") > 1


@system
def test_losing_the_scheduler_mid_render_is_one_line(tmp_path, shared_cluster, fixture_project):
    """The scheduler killed while a scene is being drawn: one line naming it and what to
    do, exit status 1, soon; stdout has only its usual lines; nothing half-written.
    (The shared cluster's last test: the next to use it starts it again.)"""
    dask = shared_cluster()
    job = start_render(fixture_project, *scenes(tmp_path / "out", *SCENES), "--no-narration",
                       "--scheduler", dask.address, cache=tmp_path / "cache")
    drawing = False
    deadline = time.monotonic() + 120
    with dask.client() as client:
        while not drawing and time.monotonic() < deadline and job.poll() is None:
            drawing = any(key.split("-")[0] in SCENES  # a scene's task, not a warm-up
                          for keys in client.processing().values() for key in keys)
            time.sleep(0.1)
    assert drawing, "no scene was ever drawn"
    os.killpg(dask.scheduler.pid, signal.SIGKILL)
    killed = time.monotonic()
    out, err = job.communicate(timeout=120)
    took = time.monotonic() - killed
    assert job.returncode == 1, err
    assert err.splitlines() == [
        "render.py: rendering without narration (silent)",
        f"render.py: error: the scheduler at {dask.address} was lost during the render; "
        "start it (and its workers) again and run the render again: the scenes that "
        "finished are cached"], err
    for line in out.splitlines():
        assert line == f"cluster {dask.address}: {SHARED_WORKERS} worker(s), 2 scene(s) to " \
            "render" or line.removesuffix(": done") in SCENES, out
    assert took < 10, f"took {took:.1f} s to stop"
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    assert not list((tmp_path / "cache").glob(".*"))  # the session's token file is gone
    # Every entry in the cache is whole. (A worker, which sees this cache, draws straight
    # into it and may still be drawing: its build folder is hidden until it is whole.)
    for entry in (tmp_path / "cache").glob("scenes/[!.]*"):
        assert cache.read_record(entry, "scene.json") is not None, entry
    # The scenes it finished are whole: the next render on the local pool takes them.
    again = render(fixture_project, *scenes(tmp_path / "out", *SCENES), "--no-narration",
                   cache=tmp_path / "cache")
    assert again.returncode == 0, again.stderr


# ----------------------------------------------------------------- clusters of their own


@system
def test_a_worker_that_cannot_render_is_named_before_any_job(tmp_path, cluster,
                                                             fixture_project):
    dask = cluster(1, worker_env={"PATH": str(tmp_path / "nothing")})  # no ffmpeg there
    done = render(fixture_project, *scenes(tmp_path / "out", "Scores"), "--no-narration",
                  "--scheduler", dask.address, cache=tmp_path / "c")
    assert done.returncode == 2
    line, = [x for x in done.stderr.splitlines() if x.startswith("render.py: error")]
    assert line.startswith("render.py: error: worker tcp://127.0.0.1:")
    assert line.endswith("cannot render this: ffmpeg is missing")
    assert not list((tmp_path / "c").glob("scenes/*/scene.json"))


@system
def test_a_task_that_fails_names_the_scene_and_the_worker(tmp_path, cluster, fixture_project):
    dask = cluster(1, worker_env={"EXPLAINER_CACHE": "/proc/no-cache-here"})  # takes no files
    done = render(fixture_project, *scenes(tmp_path / "out", "Scores"), "--no-narration",
                  "--scheduler", dask.address, cache=tmp_path / "c")
    assert done.returncode == 1
    line, = [x for x in done.stderr.splitlines() if x.startswith("render.py: error")]
    assert line.startswith("render.py: error: Scores failed on worker tcp://127.0.0.1:")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "scenes").exists()


def certificates(folder: Path) -> dict[str, Path]:
    """A CA, and a certificate and key it signed for 127.0.0.1 (made with openssl)."""
    folder.mkdir()
    made = {"ca": folder / "ca.pem", "cert": folder / "node.pem", "key": folder / "node.key"}
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1\n")
    for command in (
            ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
             "ca.pem", "-days", "2", "-subj", "/CN=explainer test CA"],
            ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out",
             "node.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "node.pem", "-days", "2", "-extfile", "san.cnf"]):
        subprocess.run(["openssl", *command], cwd=folder, check=True, capture_output=True)
    return made


@system
@pytest.mark.skipif(shutil.which("openssl") is None, reason="makes its certificates with openssl")
def test_a_scheduler_over_tls_renders_with_dasks_tls_settings(tmp_path, cluster,
                                                              fixture_project):
    tls = certificates(tmp_path / "tls")
    dask = cluster(1, protocol="tls", tls=tls)
    settings = dict(zip(schedulers.TLS_SETTINGS, (str(tls["ca"]), str(tls["cert"]),
                                                str(tls["key"]))))
    done = render(fixture_project, *scenes(tmp_path / "out", "Scores"), "--no-narration",
                  "--scheduler", dask.address, cache=tmp_path / "c", env=settings)
    assert done.returncode == 0, done.stderr
    assert f"cluster {dask.address}: 1 worker(s), 1 scene(s) to render" in done.stdout
    assert seconds(tmp_path / "out" / "scenes" / "Scores.mp4") > 1


# ----------------------------------------------------------------- no cluster to start


def test_a_local_cluster_renders_through_the_environment_variable(tmp_path, fixture_project,
                                                                  speech):
    """The LocalCluster the render starts itself (one worker): the default tier's render
    on Dask, narrated (the speech goes to the worker with its task)."""
    done = render(fixture_project, *scenes(tmp_path / "out", "Scores"), "--jobs", "1",
                  cache=speech(tmp_path / "c"), env={"EXPLAINER_SCHEDULER": "local"})
    assert done.returncode == 0, done.stderr
    assert "1 worker(s), 1 scene(s) to render" in done.stdout
    assert seconds(tmp_path / "out" / "scenes" / "Scores.mp4") > 1


def test_a_scheduler_that_cannot_be_reached_is_one_line(tmp_path, run_command, monkeypatch):
    # What the command imports as it starts (Dask, Manim and the chapter) is imported
    # before the clock starts: the time is Dask's trying and what the command does after.
    import distributed  # noqa: F401

    import scenes.attention.chapter  # noqa: F401

    monkeypatch.setattr(schedulers, "CONNECT_SECONDS", 2)  # how long Dask tries
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "c"))
    where = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    started = time.monotonic()
    done = run_command("render", "TitleCard", "--quality", "preview", "--no-narration",
                       "--out", str(tmp_path / "out"), "--scheduler", where)
    # Dask tries for CONNECT_SECONDS; the rest is the command planning on a busy machine
    assert time.monotonic() - started < schedulers.CONNECT_SECONDS + 20
    assert done.code == 2
    line, = [x for x in done.err.splitlines() if x.startswith("render.py: error")]
    assert line.startswith(f"render.py: error: --scheduler {where}: cannot reach a Dask "
                           "scheduler there")


#: what every refused --scheduler says it takes
TAKES = ("give tcp://HOST:PORT (or HOST:PORT), ws://HOST:PORT, tls:// or wss://HOST:PORT "
         "with Dask's TLS settings, or 'local'")


@pytest.mark.parametrize("where,why", [
    ("tls://127.0.0.1:8786", "tls:// needs Dask's TLS settings"),  # none are set here
    ("ucx://127.0.0.1:8786", "ucx:// is not a scheduler address this render can use"),
    ("inproc://x", "inproc:// is not a scheduler address this render can use"),
    ("http://127.0.0.1:8786", "http:// is not a scheduler address this render can use"),
    ("nonsense", "not a scheduler address"),
    ("tcp://127.0.0.1", "not a scheduler address"),
    ("tcp://127.0.0.1:99999", "not a scheduler address"),
    ("tcp://:8786", "not a scheduler address"),
])
def test_an_address_that_cannot_be_a_scheduler_is_refused_up_front(tmp_path, where, why,
                                                                   run_command, monkeypatch):
    import dask

    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "c"))
    started = time.monotonic()
    with dask.config.set({"distributed.comm.tls.ca-file": None,  # whatever the environment
                          "distributed.comm.tls.client.cert": None,  # sets
                          "distributed.comm.tls.client.key": None}):
        done = run_command("render", "TitleCard", "--quality", "preview", "--out",
                           str(tmp_path / "out"), "--scheduler", where)
    took = time.monotonic() - started
    assert done.code == 2, done.err
    line, = done.err.splitlines()
    assert line.startswith(f"render.py: error: --scheduler {where}: {why}"), line
    assert "give tcp://HOST:PORT (or HOST:PORT)" in line and line.endswith(" or 'local'")
    assert done.out == ""
    assert not (tmp_path / "out").exists() and not (tmp_path / "c").exists()
    assert took < 30, f"took {took:.0f} s"  # nothing is spoken, no connection tried


def test_the_environment_variable_is_checked_the_same_way(tmp_path, run_command, monkeypatch):
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("EXPLAINER_SCHEDULER", "ucx://10.0.0.7:8786")
    done = run_command("render", "TitleCard", "--dry-run")
    assert done.code == 2
    assert done.err.splitlines() == [
        "render.py: error: $EXPLAINER_SCHEDULER ucx://10.0.0.7:8786: ucx:// is not a scheduler "
        f"address this render can use; {TAKES}"]


def test_a_workers_key_frames_land_whole_or_not_at_all(tmp_path, monkeypatch):
    import errno
    from types import SimpleNamespace

    frames = tmp_path / "frames"
    task = SimpleNamespace(entry=str(tmp_path / "entry"), keyframes=str(frames))
    clusters._come_home({}, {"TwoJobs-01-reader.png": b"\x89PNG one"}, (task,))
    assert (frames / "TwoJobs-01-reader.png").read_bytes() == b"\x89PNG one"

    def half_then_full(self: Path, data: bytes) -> int:  # the disk fills mid-write
        with open(self, "wb") as out:
            out.write(data[:len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", half_then_full)
    with pytest.raises(OSError):
        clusters._come_home({}, {"TwoJobs-02-writer.png": b"\x89PNG two"}, (task,))
    assert [p.name for p in frames.iterdir()] == ["TwoJobs-01-reader.png"]


@pytest.mark.system
def test_a_cluster_render_by_beats_equals_a_local_render_by_scenes(tmp_path):
    """SpotlightBudget's beats as jobs on a LocalCluster (their segments sent home, the
    scene's job sent them), against the scene drawn whole by a local worker."""
    from production.paths import ROOT

    made = {}
    for how, extra in (("beats", ["--job-unit", "beat", "--scheduler", "local"]),
                       ("scenes", ["--job-unit", "scene"])):
        done = subprocess.run(
            [sys.executable, "render.py", "render", "SpotlightBudget", "--quality", TEST_QUALITY,
             "--no-narration", "--out", str(tmp_path / how), *extra], cwd=ROOT,
            capture_output=True, text=True, timeout=600,
            env={**os.environ, "EXPLAINER_CACHE": str(tmp_path / f"cache-{how}")})
        assert done.returncode == 0, done.stderr[-2000:]
        made[how] = (tmp_path / how / "scenes" / "SpotlightBudget.mp4").read_bytes()
        if how == "beats":
            assert "job(s) of beats to render" in done.stdout
            assert "(5 of 5 beats)" in done.stdout
    assert made["beats"] == made["scenes"]
