"""Disk space: what a render will write, checked against what is free before it starts.

The figures are generous estimates from measured renders: the encoded picture
per second of video at each quality (its ``picture`` in production.qualities), and
the sound as 48 kHz stereo 16-bit WAV.
While a scene is built its folder holds Manim's segments, the joined silent
picture and the muxed MP4 (three pictures) besides the mix and its levelled copy
(two sounds); what stays is one of each. The chapter joins the picture twice
(the joined picture, then the muxed chapter). out/ gets every scene and the chapter.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from production import qualities
from production.errors import DiskFullError, is_disk_full

SOUND = 48_000 * 2 * 2  # WAV bytes per second
#: a transparent clip (lossless QuickTime Animation from Manim, then ProRes 4444 and
#: VP9 with alpha) against the H.264 picture, per second
ALPHA = 60
MARGIN = 32 * 1024 * 1024  # room left over for records, captions, thumbnails


def needs(quality: str, to_render: float, published: float, *, cache: float = 0.0,
          out: float = 0.0) -> dict[str, int]:
    """Bytes the cache and out/ need: ``to_render`` seconds of scenes to build and
    ``published`` seconds of scenes copied to out/, plus what an output adds on top
    (``cache`` and ``out``, in bytes: see :func:`picture`)."""
    in_cache = to_render * (3 * qualities.get(quality).picture + 2 * SOUND) + cache
    in_out = published * qualities.get(quality).picture + out
    return {"cache": int(in_cache) + MARGIN, "out": int(in_out) + MARGIN}


def picture(quality: str, seconds: float) -> float:
    """Bytes of ``seconds`` of H.264 picture at ``quality`` (about)."""
    return seconds * qualities.get(quality).picture


def _existing(path: Path) -> Path:
    while not path.exists():
        path = path.parent
    return path


def check(folders: dict[str, Path], needed: dict[str, int]) -> None:
    """Raise DiskFullError when a folder's disk has less free space than what is
    needed there (folders on one disk add up)."""
    by_disk: dict[int, list[str]] = {}
    for role, folder in folders.items():
        by_disk.setdefault(os.stat(_existing(folder)).st_dev, []).append(role)
    for roles in by_disk.values():
        total = sum(needed[r] for r in roles)
        folder = folders[roles[0]]
        if _free(folder) < total:
            raise DiskFullError(folder, total)


def fullest(folders: dict[str, Path], needed: dict[str, int],
            path: str | None = None) -> DiskFullError:
    """The error to report when a write failed for lack of space: the folder the failed
    file was in when that is known, else the one with the least room left."""
    roles = [r for r in folders if path and Path(path).resolve().is_relative_to(
        folders[r].resolve())] or [min(folders, key=lambda r: _free(folders[r]))]
    folder = folders[roles[0]]
    # The estimate fell short if the write failed with more free than that: say more.
    return DiskFullError(folder, max(needed[roles[0]], _free(folder) + MARGIN))


def _free(folder: Path) -> int:
    return shutil.disk_usage(_existing(folder)).free


@contextmanager
def guarded(folders: dict[str, Path], needed: dict[str, int]) -> Iterator[None]:
    """Check the space first; inside, a write that fails for lack of space (in this
    process, a worker or a tool it ran) becomes one DiskFullError naming the folder."""
    check(folders, needed)
    try:
        yield
    except DiskFullError:
        raise
    except Exception as error:
        # Not every tool says so when a write falls short (espeak-ng, and Manim's text
        # cache, go on with a cut-off file): a failure on a nearly full disk is that.
        short = is_disk_full(error) or any(_free(f) < MARGIN for f in folders.values())
        if short:
            raise fullest(folders, needed, getattr(error, "filename", None)) from error
        raise
