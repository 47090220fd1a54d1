"""The one way the project runs ffmpeg: quiet, never reading the terminal, overwriting
its output; a failure raises CalledProcessError with ffmpeg's own words."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

#: before every command's own arguments
QUIET = ("-hide_banner", "-nostats", "-nostdin", "-y")


def run(*args: str, cwd: Path | None = None, errors: str | None = None) -> str:
    """Run ffmpeg to the end; returns what it wrote on stderr (meters report there).
    ``errors``: how bytes of stderr that are not text are read (``"replace"``: as U+FFFD;
    by default they raise UnicodeDecodeError)."""
    return subprocess.run(["ffmpeg", *QUIET, *args], cwd=cwd, capture_output=True, text=True,
                          errors=errors, check=True).stderr


def start(*args: str) -> subprocess.Popen[str]:
    """Start ffmpeg in the background (stderr piped, as text): call ``communicate()``."""
    return subprocess.Popen(["ffmpeg", *QUIET, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


@functools.lru_cache(maxsize=1)
def version() -> str:
    """The first line of ``ffmpeg -version`` (what encodes: part of a kept file's key)."""
    return subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True,
                          check=True).stdout.splitlines()[0]
