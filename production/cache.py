"""The content cache: a scene is rendered again only when something it shows changed.

A scene's key is a hash of everything that decides its files: the project's
drawing and model code, the scene's ledger numbers (so --set values count), its
narration text with values filled in, any recordings that replace the voice,
the voice settings, the quality, and the versions of the tools that encode.
Finished scenes live in ``.cache/scenes/KEY/``; the chapter in ``.cache/chapters/KEY/``;
spoken passages in ``.cache/voice/``. Every render marks what it used; after it,
entries that no render has used for 30 days are removed, and so are hidden
build folders more than a day old (left by a render that was killed).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from production import narration

ROOT = Path(__file__).resolve().parent.parent
#: the cache folder; EXPLAINER_CACHE moves it (the benchmark uses that for cold runs)
CACHE = Path(os.environ.get("EXPLAINER_CACHE", ROOT / ".cache"))
SCENES = CACHE / "scenes"
CHAPTERS = CACHE / "chapters"
CODE_FOLDERS = ("core", "scenes", "production")
CACHE_VERSION = "1"


def file_hash(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of every Python file that draws, computes or mixes, and the tool versions."""
    digest = hashlib.sha256(CACHE_VERSION.encode())
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    for package in ("manim", "numpy", "pydub", "av"):
        digest.update(f"{package}={metadata.version(package)}".encode())
    return digest.hexdigest()


def _digest(parts: dict[str, Any]) -> str:
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def scene_key(scene_class: Any, quality: str, settings: dict[str, Any], narrate: bool,
              voice: narration.Voice = narration.DEFAULT_VOICE,
              encoder: dict[str, str] | None = None) -> str:
    """The content key of one scene's finished files (``encoder``: the video encoder's options)."""
    from core import ledger

    name = scene_class.__name__
    parts: dict[str, Any] = {
        "scene": name,
        "code": code_fingerprint(),
        "numbers": ledger.section(scene_class.section, settings) if scene_class.section else {},
        "quality": quality,
        "encoder": encoder or {},
        "narrate": narrate,
    }
    if narrate:
        parts["voice"] = voice.key()
        parts["script"] = narration.script_for(scene_class, settings)
        parts["recordings"] = {
            beat: file_hash(path)
            for beat in scene_class.beat_seconds
            if (path := narration.recording_path(name, beat)).exists()
        }
    return _digest(parts)


def chapter_key(scene_keys: list[str], quality: str) -> str:
    return _digest({"scenes": scene_keys, "quality": quality, "code": code_fingerprint()})


KEEP_DAYS = 30  # an entry no render has used for this long is removed
BUILD_DAYS = 1  # a hidden build folder this old belongs to no running render


def mark_used(entries: Iterable[Path]) -> None:
    """Record that a render used these cache entries (their modification time)."""
    for entry in entries:
        if entry.exists():
            os.utime(entry)


def prune(folders: Iterable[Path] | None = None, *, now: float | None = None) -> list[Path]:
    """Remove entries unused for KEEP_DAYS and hidden build folders older than BUILD_DAYS
    from the cache's folders; returns what was removed."""
    now = time.time() if now is None else now
    removed = []
    for folder in folders if folders is not None else (SCENES, CHAPTERS, narration.CACHE_DIR):
        if not folder.is_dir():
            continue
        for entry in folder.iterdir():
            days = BUILD_DAYS if entry.name.startswith(".") else KEEP_DAYS
            if entry.lstat().st_mtime < now - days * 86400:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
                removed.append(entry)
    return removed
