"""Fixtures shared by the tests: the tiers, the session's speech and fixture chapter, copies
of the project, the command in process, and the in-process scene harness."""

from __future__ import annotations

import fcntl
import functools
import io
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import settings as hypothesis_settings

from production.paths import ROOT

# The property tests try the same examples on every run: a run is repeatable, and a check
# never fails on one run for an example the run before did not draw.
hypothesis_settings.register_profile("the same every run", derandomize=True)
hypothesis_settings.load_profile("the same every run")

# the stand-in video site's helpers assert too: rewritten whichever test imports them first
pytest.register_assert_rewrite("tests.youtube_standin", "tests.oauth_standin")

PARTS = ("core", "scenes", "production", "assets", "render.py")
#: what the suite keeps between its runs (never the project's own .cache/): the cache its
#: renders share (EXPLAINER_CACHE for the whole session), whose voice/ holds the speech
#: every test shares. Speech is byte-identical in any cache, so sharing it is safe.
TEST_CACHE = ROOT / ".test-cache"
SHARED_CACHE = TEST_CACHE / "cache"
SPEECH = SHARED_CACHE / "voice"
#: the small chapter the tests render whole (tests/fixture/), and its module in process
FIXTURE = ROOT / "tests" / "fixture"
FIXTURE_MODULE = "tests.fixture.chapter"
#: the size of every render a test makes unless it tests another quality
TEST_QUALITY = "test"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", dest="system_tier",
                     help="run the system tier too (tests marked system: real clusters and "
                          "TLS, signals, whole chapters, a browser, publishing end to end)")


def pytest_configure(config: pytest.Config) -> None:
    # every render of the session, in process or not, caches here unless a test says otherwise
    os.environ["EXPLAINER_CACHE"] = str(SHARED_CACHE)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The default tier leaves the system tier out: deselected (and counted as such), never
    skipped, so that nothing it does not run passes. Every test is put in the group of
    what it shares with others, for pytest-xdist to keep on one worker (--dist loadgroup).
    First: each of pytest-xdist's workers reads the groups in a hook of its own, which
    would otherwise run before this one and find none."""
    if not config.getoption("system_tier"):
        system = [item for item in items if item.get_closest_marker("system")]
        if system:
            config.hook.pytest_deselected(items=system)
            items[:] = [item for item in items if not item.get_closest_marker("system")]
    groups = {item: sharing(item) for item in items}
    for item, group in groups.items():
        item.add_marker(pytest.mark.xdist_group(group))
    # the chapters' groups first, the largest first, so that no worker starts one last
    sizes = Counter(groups.values())
    items.sort(key=lambda item: -sizes[groups[item]] if groups[item].startswith("chapter ")
               else 0)


def sharing(item: pytest.Item) -> str:
    """What ``item`` shares with other tests: the chapter whose scenes it builds, for a
    module marked ``builds`` (a built scene is kept per process: so each scene of a chapter,
    in each frame, is built once however many modules read it, and a join reads the two
    scenes the others built), else its module (what a module makes in its fixtures)."""
    builds = item.get_closest_marker("builds")
    params = item.callspec.params if hasattr(item, "callspec") else {}
    if builds and builds.kwargs.get("param") in params:
        return f"chapter {params[builds.kwargs['param']]}"
    if builds and builds.args:
        return f"chapter {builds.args[0]}"
    return item.nodeid.split("::")[0]


@pytest.fixture(autouse=True)
def english_after_each_test() -> Iterator[None]:
    """Every test starts and ends with English active (production/language.py): a test
    that draws in another language must not change what the next one draws."""
    from production import language

    yield
    if language.code() != language.SOURCE:
        language.use(language.SOURCE)
        pytest.fail("the test left another language active; restore English after it")


@pytest.fixture(scope="session", autouse=True)
def own_manim_folder(tmp_path_factory) -> None:
    """A Manim media folder for this process. Manim writes each text it sets outside a
    render (a layout measuring a label) as an SVG in ./media/texts, then a second file
    beside it that it deletes: two workers setting the same text at once in one folder
    delete each other's file."""
    from manim import config

    config.media_dir = str(tmp_path_factory.mktemp("manim-media"))


# ------------------------------------------------------------------ speech and caches
def seed_speech(cache: Path) -> Path:
    """``cache`` (a cache folder, made if need be) holding a copy of the session's speech, so
    that a render into it speaks only what no test has spoken yet. A copy, not links: a
    test may damage what is in its cache."""
    voice = cache / "voice"
    voice.mkdir(parents=True, exist_ok=True)
    if SPEECH.is_dir():
        for spoken in SPEECH.iterdir():
            if not spoken.name.startswith(".") and not (voice / spoken.name).exists():
                shutil.copy2(spoken, voice / spoken.name)
    return cache


def keep_speech(cache: Path) -> None:
    """Add what was spoken into ``cache`` to the session's speech (each file renamed into
    place whole; one already there is left as it is)."""
    voice = cache / "voice"
    if not voice.is_dir():
        return
    SPEECH.mkdir(parents=True, exist_ok=True)
    for spoken in voice.iterdir():
        if spoken.name.startswith(".") or (SPEECH / spoken.name).exists():
            continue
        part = SPEECH / f".{spoken.name}.{os.getpid()}.part"
        try:
            shutil.copy2(spoken, part)
            os.replace(part, SPEECH / spoken.name)
        except OSError:
            part.unlink(missing_ok=True)


@pytest.fixture
def speech_cache(tmp_path) -> Iterator[Path]:
    """A cache folder of the test's own (scenes cold) that already holds the session's
    speech; what the test speaks is kept for the session's later tests."""
    cache = seed_speech(tmp_path / "cache")
    yield cache
    keep_speech(cache)


# ------------------------------------------------------------------ copies of the project
def copy_project(target: Path, *, chapters: tuple[str, ...] | None = None) -> Path:
    """A copy of the project's code, scenes and assets in ``target``; with ``chapters``,
    only those of scenes/'s chapters (the others' folders are left out)."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    if chapters is not None:
        for folder in (target / "scenes").iterdir():
            if (folder / "chapter.py").exists() and folder.name not in chapters:
                shutil.rmtree(folder)
    return target


def add_fixture_chapter(project: Path) -> Path:
    """``project`` with the fixture chapter in scenes/fixture/, last in the course."""
    shutil.copytree(FIXTURE, project / "scenes" / "fixture",
                    ignore=shutil.ignore_patterns("__pycache__"))
    course = project / "scenes" / "course.txt"
    listed = [line for line in course.read_text().splitlines()
              if line.strip() and not line.startswith(("#", "title:"))
              and (project / "scenes" / line.strip()).is_dir()]
    titled = [line for line in course.read_text().splitlines() if line.startswith("title:")]
    course.write_text("\n".join([*titled, *listed, "fixture"]) + "\n")
    return project


@pytest.fixture
def project(tmp_path, monkeypatch) -> Iterator[Path]:
    """A copy of the project (code, scenes, assets) with its own cache in .cache/ (its
    EXPLAINER_CACHE for the test), cold but for the session's speech."""
    copy = copy_project(tmp_path / "project")
    monkeypatch.setenv("EXPLAINER_CACHE", str(seed_speech(copy / ".cache")))
    yield copy
    keep_speech(copy / ".cache")


@pytest.fixture
def cold_project(tmp_path, monkeypatch) -> Path:
    """A copy of the project whose cache (.cache/) is cold, speech and all: for the tests
    of speaking itself."""
    copy = copy_project(tmp_path / "project")
    monkeypatch.setenv("EXPLAINER_CACHE", str(copy / ".cache"))
    return copy


# ------------------------------------------------------------------ made once a run
def made_once(tmp_path_factory: pytest.TempPathFactory, name: str,
              make: Callable[[Path], None]) -> Path:
    """``name`` in the run's temporary folder, made by ``make`` once for the whole run:
    by whichever worker of pytest-xdist asks first, the others waiting for it."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # shared by the run's workers
    target = root / name
    with open(root / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / f".{name}.done").exists():
            shutil.rmtree(target, ignore_errors=True)
            make(target)
            (root / f".{name}.done").touch()
    return target


def render_in(project: Path, *args: str, env: dict[str, str] | None = None,
              timeout: float = 600) -> subprocess.CompletedProcess:
    """``render.py ARGS`` run in ``project`` as its own process (text output captured)."""
    return subprocess.run([sys.executable, "render.py", *args], cwd=project,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="session")
def fixture_project(tmp_path_factory) -> Path:
    """A copy of the project whose only chapter is the fixture chapter (scenes/fixture/,
    ``--chapter fixture``), made once a run. Its renders cache in the session's cache, so
    a later run finds them there. Treat it as read-only: a test that changes the project
    copies it (:func:`copy_fixture_project`)."""
    def make(target: Path) -> None:
        add_fixture_chapter(copy_project(target, chapters=()))

    return made_once(tmp_path_factory, "fixture-project", make)


@pytest.fixture
def copy_fixture_project(tmp_path, fixture_project, monkeypatch) -> Iterator[Path]:
    """A copy of the fixture project of the test's own, with its own cache (.cache/,
    holding the session's speech)."""
    copy = tmp_path / "project"
    shutil.copytree(fixture_project, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("EXPLAINER_CACHE", str(seed_speech(copy / ".cache")))
    yield copy
    keep_speech(copy / ".cache")


@pytest.fixture(scope="session")
def fixture_bundle(tmp_path_factory, fixture_project) -> Path:
    """The fixture chapter rendered whole (`render.py render --chapter fixture --quality
    test`) into a publish bundle, once a run: the bundle, shorts, publish and course tests
    read it. Read-only: copy it to change it."""
    def make(target: Path) -> None:
        done = render_in(fixture_project, "render", "--chapter", "fixture", "--quality",
                         TEST_QUALITY, "--out", str(target))
        assert done.returncode == 0, done.stderr[-3000:]

    return made_once(tmp_path_factory, "fixture-bundle", make)


# ------------------------------------------------------------------ the command in process
class Ran(NamedTuple):
    """What a command run in process did: its exit status and what it printed."""

    code: int
    out: str
    err: str


def run_command(*argv: str) -> Ran:
    """``render.py ARGV`` called in this process (its ``main``), for what exits before
    drawing: a refusal, a dry run, a listing. Its output is captured whole."""
    import render
    from production import language

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = render.main(list(argv))
        except SystemExit as stop:  # argparse's own refusals
            code = stop.code if isinstance(stop.code, int) else 2
        finally:  # a command with --language made it active in this process: English again
            language.use(language.SOURCE)
    return Ran(code, out.getvalue(), err.getvalue())


@pytest.fixture(name="run_command", scope="session")
def run_command_fixture() -> Callable[..., Ran]:
    """:func:`run_command`: the command in process."""
    return run_command


# ------------------------------------------------------------------ scenes in process
def chapter_module(chapter: str) -> str:
    """The module whose CHAPTER is ``chapter``: a folder of scenes/, or "fixture"."""
    return FIXTURE_MODULE if chapter == "fixture" else f"scenes.{chapter}.chapter"


@functools.cache
def _built(scene: str | type, sets: tuple[str, ...],
           durations: tuple[tuple[str, float], ...] | None,
           mark_times: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] | None,
           layout: str = "wide", chapter: str = "attention", language: str = "en") -> Any:
    from production import language as active
    from production import voices
    from production.chapters import load
    from production.drawing import construct_scene

    book = load(chapter_module(chapter)).in_language(language)
    scene_class = book.by_name()[scene] if isinstance(scene, str) else scene
    try:
        with tempfile.TemporaryDirectory() as media:
            return construct_scene(
                book, scene_class, "preview", book.ledger.parse_settings(list(sets)),
                Path(media), video=False,
                durations=dict(durations) if durations else None,
                mark_times={beat: dict(at) for beat, at in mark_times} if mark_times else None,
                layout=layout, credits=voices.credits(voices.default_voice(language),
                                                      book.next_title()))
    finally:
        active.use(active.SOURCE)  # the next build in this process is in English again


def build_scene(scene: str | type, *sets: str,
                durations: dict[str, float] | None = None,
                mark_times: dict[str, dict[str, float]] | None = None,
                layout: str = "wide", chapter: str = "attention", language: str = "en") -> Any:
    """The scene (a name in ``chapter``, or a Scene class) after construct() at preview
    quality, nothing encoded: animations skip to their end states, which is enough to
    check layout, timing, numbers and key frames. ``sets`` are --set items; with
    ``durations`` the beats last that long, with ``mark_times`` its marks fall then
    (seconds from their beat's start); ``layout`` "tall" lays it out for a short's 9:16
    frame; ``chapter`` "fixture" is the tests' own chapter; ``language`` draws it in that
    language (its catalogue must translate all of it). Built once per arguments per test
    run."""
    return _built(scene, tuple(sets), tuple(sorted(durations.items())) if durations else None,
                  tuple(sorted((b, tuple(sorted(m.items()))) for b, m in mark_times.items()))
                  if mark_times else None, layout, chapter, language)


@pytest.fixture(name="build_scene", scope="session")
def build_scene_fixture() -> Any:
    """The one scene harness: :func:`build_scene`, for every scene test."""
    return build_scene
