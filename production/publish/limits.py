"""The video site's limits, checked before anything is sent: a violation is a UsageError
(one line naming what and where, exit status 2), so a publish never spends quota or an
upload to learn what the site would refuse.

From the YouTube Data API reference:

* the videos resource (developers.google.com/youtube/v3/docs/videos, "Properties"):
  ``snippet.title`` at most 100 characters and ``snippet.description`` at most 5000
  bytes, both "all valid UTF-8 characters except < and >"; ``snippet.tags`` at most 500
  characters in all, counting a comma between two tags and the quotation marks around a
  tag with a space in it;
* videos.insert: a file of at most 256 GB (the discovery document's ``maxSize``,
  274877906944 bytes) of type video/*; YouTube Help ("Upload videos longer than 15
  minutes"): at most 12 hours (15 minutes until the account is verified);
* thumbnails.set: a JPEG or PNG of at most 2 MB (the reference's "Maximum file size: 2MB";
  Google's sizes are binary: the discovery document's 50 MB is 52428800 bytes);
* captions.insert and captions.update: at most 100 MB (``maxSize`` 104857600);
* a Short runs at most 3 minutes (YouTube Help, "Upload YouTube Shorts");
* a playlist's title at most 150 characters and its description 5000 (YouTube Studio's
  limits; the playlists reference names none), neither with < or >.
"""

from __future__ import annotations

from pathlib import Path

from production.errors import UsageError

MB = 1024 * 1024
TITLE = 100  # characters
PLAYLIST_TITLE = 150  # characters
DESCRIPTION = 5000  # bytes of UTF-8
TAGS = 500  # characters, commas and quotation marks included
VIDEO_BYTES = 256 * 1024 * MB
VIDEO_SECONDS = 12 * 3600.0
SHORT_SECONDS = 180.0
THUMBNAIL_BYTES = 2 * MB
CAPTIONS_BYTES = 100 * MB
FORBIDDEN = "<>"

#: the first bytes of the image types thumbnails.set takes
IMAGE_MAGIC = {b"\xff\xd8\xff": "JPEG", b"\x89PNG\r\n\x1a\n": "PNG"}


def check_text(where: str, field: str, text: str, *, characters: int | None = None,
               size: int | None = None) -> None:
    """``text`` has no < or >, at most ``characters`` characters, at most ``size`` bytes."""
    bad = sorted({c for c in text if c in FORBIDDEN})
    if bad:
        raise UsageError(f"{where}: the {field} has {' and '.join(bad)}, which the site does "
                         "not take in a title or description; write them another way")
    if characters is not None and len(text) > characters:
        raise UsageError(f"{where}: the {field} is {len(text)} characters long; the site "
                         f"takes at most {characters}")
    if size is not None and len(text.encode()) > size:
        raise UsageError(f"{where}: the {field} is {len(text.encode())} bytes long; the site "
                         f"takes at most {size} (UTF-8)")


def tags_length(tags: tuple[str, ...]) -> int:
    """How the site counts tags against its 500: each tag, quotation marks around one with
    a space, and a comma between two."""
    return sum(len(t) + (2 if " " in t else 0) for t in tags) + max(0, len(tags) - 1)


def check_tags(where: str, tags: tuple[str, ...]) -> None:
    length = tags_length(tags)
    if length > TAGS:
        raise UsageError(f"{where}: the tags come to {length} characters (commas and the "
                         f"quotation marks around a tag with a space counted); the site takes "
                         f"at most {TAGS}")


def check_video(where: str, file: Path, seconds: float, *, short: bool) -> None:
    """The video file's size and length (a Short's at most 3 minutes)."""
    size = file.stat().st_size
    if size > VIDEO_BYTES:
        raise UsageError(f"{where}: {file.name} is {size:,} bytes; the site takes at most "
                         f"{VIDEO_BYTES:,} (256 GB)")
    longest = SHORT_SECONDS if short else VIDEO_SECONDS
    if seconds > longest:
        kind = "a Short" if short else "a video"
        raise UsageError(f"{where}: {file.name} runs {seconds:.1f} s; {kind} may run at most "
                         f"{longest:.0f} s")


def check_thumbnail(where: str, file: Path) -> None:
    """A JPEG or PNG of at most 2 MB."""
    with open(file, "rb") as f:
        head = f.read(8)
    if not any(head.startswith(magic) for magic in IMAGE_MAGIC):
        raise UsageError(f"{where}: {file.name} is neither a JPEG nor a PNG; the site takes "
                         "only those as a thumbnail")
    size = file.stat().st_size
    if size > THUMBNAIL_BYTES:
        raise UsageError(f"{where}: {file.name} is {size:,} bytes; the site takes a thumbnail "
                         f"of at most {THUMBNAIL_BYTES:,} (2 MB)")


def check_captions(where: str, file: Path) -> None:
    size = file.stat().st_size
    if size > CAPTIONS_BYTES:
        raise UsageError(f"{where}: {file.name} is {size:,} bytes; the site takes a caption "
                         f"file of at most {CAPTIONS_BYTES:,} (100 MB)")
