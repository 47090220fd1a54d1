"""Construct scenes without encoding video, for layout, timing and number checks."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path
from typing import Any

from core.ledger import parse_settings
from production.drawing import construct_scene


@functools.cache
def _built(name: str, sets: tuple[str, ...]) -> Any:
    from scenes import SCENES_BY_NAME

    with tempfile.TemporaryDirectory() as media:
        return construct_scene(SCENES_BY_NAME[name], "preview", parse_settings(sets),
                               Path(media), video=False)


def built_scene(name: str, *sets: str) -> Any:
    """The scene ``name`` after construct() at preview quality (cached per settings)."""
    return _built(name, tuple(sets))


def shown_anywhere(scene: Any) -> list[str]:
    """Every string any beat of the scene showed."""
    return [text for texts in scene.shown.values() for text in texts]
