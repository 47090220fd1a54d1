"""Fixtures shared by the tests."""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from production.paths import ROOT

# the stand-in video site's helpers assert too: rewritten whichever test imports them first
pytest.register_assert_rewrite("tests.youtube_standin", "tests.oauth_standin")

PARTS = ("core", "scenes", "production", "assets", "render.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--all", action="store_true", dest="system_tier",
                     help="run the system tier too (tests marked system: real clusters and "
                          "TLS, signals, whole chapters, a browser, publishing end to end)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The default tier leaves the system tier out: deselected (and counted as such), never
    skipped, so that nothing it does not run passes."""
    if config.getoption("system_tier"):
        return
    system = [item for item in items if item.get_closest_marker("system")]
    if system:
        config.hook.pytest_deselected(items=system)
        items[:] = [item for item in items if not item.get_closest_marker("system")]


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the project (code, scenes, assets) with its own cold cache in .cache/."""
    copy = tmp_path / "project"
    copy.mkdir()
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, copy / part,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / part)
    return copy


@functools.cache
def _built(scene: str | type, sets: tuple[str, ...],
           durations: tuple[tuple[str, float], ...] | None,
           mark_times: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] | None,
           layout: str = "wide", chapter: str = "attention") -> Any:
    from production import voices
    from production.chapters import load
    from production.drawing import construct_scene

    book = load(f"scenes.{chapter}.chapter")
    scene_class = book.by_name()[scene] if isinstance(scene, str) else scene
    with tempfile.TemporaryDirectory() as media:
        return construct_scene(
            book, scene_class, "preview", book.ledger.parse_settings(list(sets)),
            Path(media), video=False,
            durations=dict(durations) if durations else None,
            mark_times={beat: dict(at) for beat, at in mark_times} if mark_times else None,
            layout=layout, credits=voices.credits(voices.DEFAULT_VOICE, book.next_title()))


def build_scene(scene: str | type, *sets: str,
                durations: dict[str, float] | None = None,
                mark_times: dict[str, dict[str, float]] | None = None,
                layout: str = "wide", chapter: str = "attention") -> Any:
    """The scene (a name in ``chapter``, or a Scene class) after construct() at preview
    quality, nothing encoded: animations skip to their end states, which is enough to
    check layout, timing, numbers and key frames. ``sets`` are --set items; with
    ``durations`` the beats last that long, with ``mark_times`` its marks fall then
    (seconds from their beat's start); ``layout`` "tall" lays it out for a short's 9:16
    frame. Built once per arguments per test run."""
    return _built(scene, tuple(sets), tuple(sorted(durations.items())) if durations else None,
                  tuple(sorted((b, tuple(sorted(m.items()))) for b, m in mark_times.items()))
                  if mark_times else None, layout, chapter)


@pytest.fixture(name="build_scene", scope="session")
def build_scene_fixture() -> Any:
    """The one scene harness: :func:`build_scene`, for every scene test."""
    return build_scene
