"""Helpers for reading what a built scene showed (build one with the build_scene
fixture in conftest.py)."""

from __future__ import annotations

from typing import Any


def shown_anywhere(scene: Any) -> list[str]:
    """Every string any beat of the scene showed."""
    return [text for texts in scene.shown.values() for text in texts]
