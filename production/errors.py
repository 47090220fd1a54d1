"""Errors a user can act on, each said in one line by render.py (exit status 2)."""

from __future__ import annotations

import errno
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

MB = 1024 * 1024


class UsageError(Exception):
    """Bad input from the user (an argument, a setting, a folder): one line, exit status 2."""


class JobFailed(Exception):
    """A scene's task failed on a cluster worker: one line naming the scene, the worker
    and the error (exit status 1)."""

    def __reduce__(self) -> tuple:  # raised on a worker, it crosses to the render
        return type(self), self.args


class SchedulerLost(Exception):
    """The render lost its Dask scheduler (killed, its machine gone): one line naming it
    and what to do (exit status 1); the scenes that finished stay cached."""

    def __init__(self, address: str) -> None:
        self.address = address
        super().__init__(f"the scheduler at {address} was lost during the render; start it "
                         "(and its workers) again and run the render again: the scenes that "
                         "finished are cached")


class DiskFullError(Exception):
    """A folder has no room for what the render must write there."""

    def __init__(self, folder: Path, needed: int) -> None:
        self.folder, self.needed = Path(folder), int(needed)
        try:
            free = shutil.disk_usage(self.folder).free
        except OSError:
            free = 0
        super().__init__(f"no space left in {self.folder}: about {_mb(needed)} MB is needed "
                         f"there, {_mb(free)} MB is free")

    def __reduce__(self) -> tuple:  # raised in a worker, it crosses to the main process
        return type(self), (self.folder, self.needed)


class NarrationError(Exception):
    """A problem a user can fix (missing text, missing espeak-ng); one line."""


class SpeechDiskFull(NarrationError, DiskFullError):
    """The speech cache's disk filled up while a passage was spoken or converted."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from (folder, needed), so it crosses from a worker process whole.
        return type(self), (self.folder, self.needed)


def _mb(size: int) -> int:
    return max(1, -(-size // MB))


def is_disk_full(error: BaseException) -> bool:
    """Whether ``error`` (Python's, PyAV's or a failed tool's) says a disk was full."""
    if isinstance(error, DiskFullError):
        return True
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    if isinstance(error, subprocess.CalledProcessError):
        said = error.stderr or b""
        said = said.decode(errors="replace") if isinstance(said, bytes) else said
        return "No space left on device" in said or "Disk quota exceeded" in said
    return "No space left on device" in str(error)


#: what Python's str.splitlines() breaks a line at: each written as an escape in an error
LINE_BREAKS = {ord(c): f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
               for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


#: the most characters of what a user gave that an error quotes back
QUOTED = 80


def shortened(value: str) -> str:
    """``value`` as an error quotes it: whole up to :data:`QUOTED` characters, else its
    beginning and "..." (80 in all)."""
    return value if len(value) <= QUOTED else value[:QUOTED - 3] + "..."


def quoted(value: str) -> str:
    """``value`` (a name or value read from a user's file) quoted in an error, shortened."""
    return repr(shortened(value))


def given_values(argv: Iterable[str]) -> list[str]:
    """What a user typed on the command line, as an error may quote it back: each
    argument, and its parts around the first "=" (``--out=DIR``, ``SECTION.PARAM=VALUE``)
    and between commas (a sweep's values), with and without the spaces around them;
    longest first."""
    found = set()
    for argument in argv:
        name, equals, value = argument.partition("=")
        parts = (argument, name, *((value, *value.split(",")) if equals else ()))
        found.update((*parts, *(part.strip() for part in parts)))
    return sorted((v for v in found if len(v) > QUOTED), key=len, reverse=True)


def one_line(text: str, given: Iterable[str] = ()) -> str:
    """``text`` on one line: a line break in it (a name or value the user gave) escaped,
    and each of the ``given`` command-line arguments it quotes shortened
    (:func:`given_values`, :func:`shortened`): the one place an error's echo is cut."""
    for value in given_values(given):
        text = text.replace(repr(value), repr(shortened(value)))
        text = text.replace(value, shortened(value))
    return text.translate(LINE_BREAKS)
