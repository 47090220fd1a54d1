"""Where the project reads and writes, decided once.

``EXPLAINER_CACHE`` moves the cache folder (the benchmark uses it for cold runs);
it is read whenever the cache is asked for, never fixed when a module is imported.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def out() -> Path:
    """The default output folder (absolute, as ROOT is)."""
    return ROOT / "out"


def cache() -> Path:
    """The cache folder: $EXPLAINER_CACHE, else .cache/ in the project (read at each call,
    so a test or a library user can move it at any time). Always absolute: a relative
    $EXPLAINER_CACHE is taken from the folder the command runs in, whatever folder a step
    of the render (an ffmpeg run, a worker) works in."""
    return absolute(os.environ.get("EXPLAINER_CACHE") or ROOT / ".cache")


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` from the folder the command runs in, made absolute (not following links)."""
    return Path(os.path.abspath(path))
