"""Helpers for reading what a built scene showed (build one with the build_scene
fixture in conftest.py)."""

from __future__ import annotations

from typing import Any


def shown_anywhere(scene: Any) -> list[str]:
    """Every string any beat of the scene showed."""
    return [text for texts in scene.shown.values() for text in texts]


def assert_clean(scene: Any) -> None:
    """Every beat played, in order and for its length; no text off the frame, overlapping
    another or too small to read, at the end of any beat."""
    assert scene.layout_problems == []
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(scene.beat_seconds)
