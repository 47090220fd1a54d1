"""The qualities a render takes, in one table: drawing, the encoder, the space checks,
the command's choices and its help all read it.

``test`` is the test suite's: small and slow-moving enough that a real render (speech,
picture, sound, captions, the bundle) takes seconds. It works like any other quality but
is not offered in the help.
"""

from __future__ import annotations

from dataclasses import dataclass

from production.errors import UsageError


@dataclass(frozen=True)
class Quality:
    """One quality: the wide frame's size, its frame rate and what encoding it costs."""

    name: str
    width: int  # px, of the wide (16:9) frame
    height: int  # px
    fps: int  # frames per second
    preset: str  # x264's speed preset
    picture: int  # bytes a second of its H.264 picture takes (the largest measured, doubled)
    offered: bool = True  # named in the command's help (the test quality is not)

    @property
    def size(self) -> tuple[int, int, int]:
        """(width px, height px, frames per second)."""
        return self.width, self.height, self.fps

    def describe(self) -> str:
        """``preview (854x480, 15 fps)``."""
        return f"{self.name} ({self.width}x{self.height}, {self.fps} fps)"


TABLE: tuple[Quality, ...] = (
    Quality("test", 320, 180, 6, "veryfast", 20_000, offered=False),
    Quality("preview", 854, 480, 15, "veryfast", 60_000),
    Quality("draft", 1280, 720, 30, "veryfast", 150_000),
    Quality("publish", 1920, 1080, 60, "veryfast", 400_000),
    Quality("4k", 3840, 2160, 60, "veryfast", 1_200_000),
)

QUALITIES: dict[str, Quality] = {quality.name: quality for quality in TABLE}

#: what a render is drawn at when no --quality is given
DEFAULT = "publish"


def names(*, offered_only: bool = False) -> list[str]:
    """Every quality's name, smallest first (only those the help offers, if asked)."""
    return [q.name for q in TABLE if q.offered or not offered_only]


def get(name: str) -> Quality:
    """The quality called ``name``; a UsageError naming the ones there are otherwise."""
    try:
        return QUALITIES[name]
    except KeyError:
        raise UsageError(f"--quality {name!r}: must be one of "
                         f"{', '.join(names(offered_only=True))}") from None


def size(name: str) -> tuple[int, int, int]:
    """(width px, height px, frames per second) of the wide frame at ``name``."""
    return get(name).size


def help_text(default: str = DEFAULT) -> str:
    """The --quality help: every offered quality with its size and rate, and the default."""
    offered = [q.describe() for q in TABLE if q.offered]
    return f"{', '.join(offered[:-1])} or {offered[-1]}; default {default}"
