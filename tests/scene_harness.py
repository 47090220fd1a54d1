"""Helpers for reading what a built scene showed (build one with the build_scene
fixture in conftest.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def shown_anywhere(scene: Any) -> list[str]:
    """Every string any beat of the scene showed."""
    return [text for texts in scene.shown.values() for text in texts]


def assert_clean(scene: Any) -> None:
    """Every beat played, in order and for its length; no text off the frame, overlapping
    another or too small to read, at the end of any beat."""
    assert scene.layout_problems == []
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(scene.beat_seconds)


def tiered(default: Iterable[Any], system: Iterable[Any]) -> list[Any]:
    """Parameters for a scene test: ``default`` in both tiers, ``system`` only with --all.

    Each set of --set values builds the scene again, seconds each. The default tier keeps
    the default settings and the variants whose own branch of the scene a test checks
    (and so builds anyway); the rest walk the same code with other numbers and wait for
    the system tier. A parameter that is a tuple of several arguments is given as a list.
    """
    return [*default, *(pytest.param(*value, marks=pytest.mark.system)
                        if isinstance(value, list) else
                        pytest.param(value, marks=pytest.mark.system) for value in system)]
