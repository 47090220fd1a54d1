"""The dry run: a Site that prints every request a publish would make, in order, and
sends none. It needs no token and contacts nothing; the publisher runs the same steps
through it as through the real site (and writes no record), so what it prints is what a
publish would send now: after a publish, only what changed since.

Each request: its method and the URL it would go to under the API root (from the client
library's own copy of the API's discovery document, read from disk), the file with its
size, the metadata body as JSON; an id the site would give back is shown as a stand-in
(``<video 1>``) that later requests use. Then a total, with the quota the run costs.

Quota costs, from the YouTube Data API's "Quota costs" table
(developers.google.com/youtube/data/determine_quota_cost): videos.insert has a bucket of
its own (by default 100 calls a day, 1 a call; the older table charged 1600 units);
every other method draws on the project's 10,000 units a day, as :data:`UNITS` says.
"""

from __future__ import annotations

import functools
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from production.publish.site import Body

#: units each method costs of the daily 10,000 (videos.insert: see UPLOADS)
UNITS = {"videos.update": 50, "thumbnails.set": 50, "captions.insert": 400,
         "captions.update": 450, "playlists.insert": 50, "playlists.update": 50,
         "playlistItems.insert": 50}
UPLOAD = "videos.insert"
DAILY_UNITS = 10_000  # a project's default daily quota, all methods but videos.insert
DAILY_UPLOADS = 100  # videos.insert calls a project may make a day, by default


@functools.cache
def discovery() -> dict[str, Any]:
    """The API's discovery document, as the client library ships it (no network)."""
    from googleapiclient.discovery_cache import get_static_doc

    return json.loads(get_static_doc("youtube", "v3"))


def request_url(api_root: str, method: str, query: dict[str, str]) -> str:
    """Where ``method`` ("videos.insert") goes under ``api_root``: a method that takes a
    file goes to its upload path, as the client library sends it."""
    resource, name = method.split(".")
    described = discovery()["resources"][resource]["methods"][name]
    upload = described.get("mediaUpload", {}).get("protocols", {}).get("simple", {})
    path = upload["path"].lstrip("/") if upload else described["path"]
    listed = "&".join(f"{k}={v}" for k, v in query.items())
    return f"{described['httpMethod']} {api_root}{path}" + (f"?{listed}" if listed else "")


def caption_snippet(video_id: str, language: str, name: str) -> Body:
    """A caption track's snippet as the site sends it: published, not a draft."""
    return {"videoId": video_id, "language": language, "name": name, "isDraft": False}


class DryRun:
    """Prints each request to ``out`` instead of sending it (a :class:`Site`)."""

    def __init__(self, api_root: str, out: TextIO | None = None) -> None:
        self.api_root, self.out = api_root, out or sys.stdout
        self.sent: Counter[str] = Counter()  # requests by method
        self.made: Counter[str] = Counter()  # stand-in ids by kind

    def insert_video(self, file: Path, body: Body, *, session: str | None,
                     keep_session: Callable[[str | None], None],
                     progress: Callable[[int, int], None]) -> str:
        how = "resuming the upload a killed run left" if session else "a resumable upload"
        self._print("videos.insert", {"part": "snippet,status"}, body, file, how)
        return self._stand_in("video")

    def update_video(self, video_id: str, body: Body) -> None:
        from production.publish.metadata import parts_of

        self._print("videos.update", {"part": parts_of(body)}, {"id": video_id, **body})

    def set_thumbnail(self, video_id: str, file: Path) -> None:
        self._print("thumbnails.set", {"videoId": video_id}, None, file)

    def insert_captions(self, video_id: str, file: Path, *, language: str, name: str) -> str:
        self._print("captions.insert", {"part": "snippet"},
                    {"snippet": caption_snippet(video_id, language, name)}, file)
        return self._stand_in("captions")

    def update_captions(self, caption_id: str, video_id: str, file: Path, *, language: str,
                        name: str) -> None:
        self._print("captions.update", {"part": "snippet"},
                    {"id": caption_id, "snippet": caption_snippet(video_id, language, name)},
                    file)

    def insert_playlist(self, body: Body) -> str:
        self._print("playlists.insert", {"part": "snippet,status"}, body)
        return self._stand_in("playlist")

    def update_playlist(self, playlist_id: str, body: Body) -> None:
        self._print("playlists.update", {"part": "snippet,status"}, {"id": playlist_id, **body})

    def insert_playlist_item(self, playlist_id: str, video_id: str, position: int) -> str:
        self._print("playlistItems.insert", {"part": "snippet"},
                    {"snippet": {"playlistId": playlist_id, "position": position,
                                 "resourceId": {"kind": "youtube#video", "videoId": video_id}}})
        return self._stand_in("playlist item")

    # ------------------------------------------------------------- printing

    def _print(self, method: str, query: dict[str, str], body: Body | None,
               file: Path | None = None, how: str = "") -> None:
        self.sent[method] += 1
        lines = [f"{sum(self.sent.values())}. {method}: "
                 f"{request_url(self.api_root, method, query)}"]
        if file is not None:
            lines.append(f"   file: {file} ({file.stat().st_size:,} bytes"
                         + (f", {how})" if how else ")"))
        if body is not None:
            shown = json.dumps(body, indent=2, ensure_ascii=False).replace("\n", "\n   ")
            lines.append(f"   body: {shown}")
        print("\n".join(lines), file=self.out)

    def _stand_in(self, kind: str) -> str:
        """The id the site would give back, as later requests name it."""
        self.made[kind] += 1
        given = f"<{kind} {self.made[kind]}>"
        print(f"   gives: {given}", file=self.out)
        return given

    def total(self) -> str:
        """The requests printed, and the quota they would cost."""
        count = sum(self.sent.values())
        units = sum(UNITS[m] * n for m, n in self.sent.items() if m != UPLOAD)
        return (f"dry run: {count} request{'s' * (count != 1)}, none sent; quota: "
                f"{self.sent[UPLOAD]} of the {DAILY_UPLOADS} videos.insert calls and "
                f"{units:,} of the {DAILY_UNITS:,} units a project has a day by default")
