"""What the publisher asks of a video site, and how a site says no.

The publisher (``production.publish``) decides what to send; a :class:`Site` sends it.
``production.publish.youtube.YouTube`` is the real one (Google's client library, every
request under ``--api-root``); ``production.publish.dry_run`` prints each request instead
and contacts nothing. Bodies are the API's own resources (``snippet``, ``status``), so
what a dry run prints is what the real site is sent.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

Body = dict[str, Any]


class RemoteFailure(Exception):
    """The site refused or failed a request (exit status 1). The publisher adds what was
    uploaded so far and what remains before it is said."""


class AuthFailure(RemoteFailure):
    """The token is missing its grant: expired and not refreshable, revoked, or refused."""


class QuotaExceeded(RemoteFailure):
    """The project's daily quota is spent; the next run (after the reset) goes on."""


class Site(Protocol):
    """The requests a publish makes. Each returns once the site has answered, or raises
    a :class:`RemoteFailure` with one line saying what the site said."""

    def insert_video(self, file: Path, body: Body, *, session: str | None,
                     keep_session: Callable[[str | None], None],
                     progress: Callable[[int, int], None]) -> str:
        """Upload ``file`` as a new video with ``body`` (snippet, status); its id.

        A resumable upload: ``session`` is an upload session a killed run left (its URI),
        resumed from what the site says it holds; ``keep_session`` is called with a new
        session's URI as soon as the site gives one (and with None once it is done), so a
        run killed mid-upload resumes on the next. ``progress(sent, total)`` after each
        chunk."""
        ...

    def update_video(self, video_id: str, body: Body) -> None:
        """videos.update: set the video's snippet and status to ``body``."""
        ...

    def set_thumbnail(self, video_id: str, file: Path) -> None:
        """thumbnails.set."""
        ...

    def insert_captions(self, video_id: str, file: Path, *, language: str, name: str) -> str:
        """captions.insert: a caption track from ``file`` (SRT or WebVTT); its id."""
        ...

    def update_captions(self, caption_id: str, video_id: str, file: Path, *, language: str,
                        name: str) -> None:
        """captions.update: the track's file replaced by ``file``."""
        ...

    def insert_playlist(self, body: Body) -> str:
        """playlists.insert; its id."""
        ...

    def update_playlist(self, playlist_id: str, body: Body) -> None:
        """playlists.update."""
        ...

    def insert_playlist_item(self, playlist_id: str, video_id: str, position: int) -> str:
        """playlistItems.insert at ``position`` (0 first); its id."""
        ...
