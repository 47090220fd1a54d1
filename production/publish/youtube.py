"""YouTube as a :class:`~production.publish.site.Site`, through Google's own client library.

The service is built from the library's copy of the YouTube Data API v3 discovery
document, its ``rootUrl`` set to ``api_root``: the library builds every URL from it,
media uploads included, so nothing goes anywhere else (a stand-in server in the tests,
an API-compatible host, or Google).

A video goes up in a resumable upload, one chunk a request. When a chunk fails with a
5xx or the connection drops, the upload waits (1, 2, 4 ... seconds, through the
``sleep`` it was given) and goes on from what the site says it holds: the library's
status query, a ``PUT`` with ``Content-Range: bytes */SIZE``. The library's own
``num_retries`` is never used, because it sends the same, already exhausted, stream
again. The upload session is handed to the publisher as soon as the site gives it, so a
killed run resumes it on the next.
"""

from __future__ import annotations

import errno
import http.client
import json
import mimetypes
import re
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import google_auth_httplib2
import httplib2
from google.auth.credentials import Credentials
from google.auth.exceptions import RefreshError, TransportError
from googleapiclient.discovery import build_from_document
from googleapiclient.discovery_cache import get_static_doc
from googleapiclient.errors import HttpError
from googleapiclient.http import HttpRequest, MediaFileUpload

from production.errors import UsageError
from production.publish.auth import LOG_IN
from production.publish.metadata import parts_of
from production.publish.site import AuthFailure, Body, QuotaExceeded, RemoteFailure

#: Google's API host; ``--api-root`` replaces it
API_ROOT = "https://www.googleapis.com/"
#: every chunk but the last must be a multiple of this (bytes; the resumable protocol's unit)
CHUNK_UNIT = 256 * 1024
#: the size of an upload's chunks (bytes): one request each
CHUNK_SIZE = 8 * 1024 * 1024
#: how many times a request is tried before its failure is final
TRIES = 7
#: the longest wait between two tries (seconds)
LONGEST_WAIT = 64
#: how long a request may go unanswered (seconds)
TIMEOUT = 120
#: the statuses that say "try again" (Google's guidance for 5xx)
RETRIED = frozenset({500, 502, 503, 504})
#: a resumable upload's session the site no longer knows (expired, or never was)
SESSION_GONE = frozenset({404, 410})
#: the 403 reasons that say the day's quota is spent
QUOTA_REASONS = frozenset({"quotaExceeded", "dailyLimitExceeded"})
#: what a dropped or refused connection raises as a plain OSError
NETWORK_ERRNOS = frozenset({errno.ECONNRESET, errno.ECONNABORTED, errno.ECONNREFUSED,
                            errno.EPIPE, errno.ETIMEDOUT, errno.ENETDOWN, errno.ENETUNREACH,
                            errno.EHOSTUNREACH})
#: what a failed connection can raise, from the socket up through the client libraries
NETWORK_ERRORS = (OSError, http.client.HTTPException, httplib2.HttpLib2Error, TransportError)
#: what a user whose token failed is told
LOG_IN_AGAIN = f"log in again with: {LOG_IN}"


class YouTube:
    """The YouTube Data API v3, every request under ``api_root``.

    ``credentials`` are google-auth's (see :mod:`production.publish.auth`); an expired
    token is refreshed at its ``token_uri`` before a request. ``chunk_size`` (bytes) is a
    multiple of 256 KiB; a failing request is tried ``tries`` times in all, waiting
    through ``sleep`` between tries; ``timeout`` (seconds) bounds each wait for an answer.
    """

    def __init__(self, credentials: Credentials, api_root: str = API_ROOT, *,
                 chunk_size: int = CHUNK_SIZE, sleep: Callable[[float], None] = time.sleep,
                 tries: int = TRIES, timeout: float = TIMEOUT) -> None:
        if chunk_size <= 0 or chunk_size % CHUNK_UNIT:
            raise UsageError(f"the upload chunk size must be a multiple of 256 KiB "
                             f"({CHUNK_UNIT} bytes), not {chunk_size} bytes")
        self._chunk_size, self._sleep, self._tries = chunk_size, sleep, max(1, tries)
        transport = httplib2.Http(timeout=timeout)
        # A 308 is the resumable protocol's "go on", not a redirect (as the library's
        # own build_http() says too).
        transport.redirect_codes = transport.redirect_codes - {308}
        self._service = build_from_document(
            service_document(api_root),
            http=google_auth_httplib2.AuthorizedHttp(credentials, http=transport),
            requestBuilder=_Request)

    def insert_video(self, file: Path, body: Body, *, session: str | None,
                     keep_session: Callable[[str | None], None],
                     progress: Callable[[int, int], None]) -> str:
        upload = _Upload(self._service, file, body, self._chunk_size, keep_session)
        upload.start(session)
        total = file.stat().st_size
        video = None
        while video is None:
            status, video = self._answer(upload.next_chunk, repeatable=True)
            if status is not None:
                progress(status.resumable_progress, total)
        keep_session(None)
        progress(total, total)
        return video["id"]

    def update_video(self, video_id: str, body: Body) -> None:
        self._answer(self._service.videos().update(
            part=parts_of(body), body={**body, "id": video_id}).execute, repeatable=True)

    def set_thumbnail(self, video_id: str, file: Path) -> None:
        image = MediaFileUpload(str(file), mimetype=_media_type(file))
        self._answer(self._service.thumbnails().set(videoId=video_id, media_body=image).execute,
                     repeatable=True)

    def insert_captions(self, video_id: str, file: Path, *, language: str, name: str) -> str:
        request = self._service.captions().insert(
            part="snippet", body={"snippet": _caption_snippet(video_id, language, name)},
            media_body=_caption_file(file))
        return self._answer(request.execute, repeatable=False)["id"]

    def update_captions(self, caption_id: str, video_id: str, file: Path, *, language: str,
                        name: str) -> None:
        request = self._service.captions().update(
            part="snippet",
            body={"id": caption_id, "snippet": _caption_snippet(video_id, language, name)},
            media_body=_caption_file(file))
        self._answer(request.execute, repeatable=True)

    def insert_playlist(self, body: Body) -> str:
        request = self._service.playlists().insert(part="snippet,status", body=body)
        return self._answer(request.execute, repeatable=False)["id"]

    def update_playlist(self, playlist_id: str, body: Body) -> None:
        request = self._service.playlists().update(part="snippet,status",
                                                   body={**body, "id": playlist_id})
        self._answer(request.execute, repeatable=True)

    def insert_playlist_item(self, playlist_id: str, video_id: str, position: int) -> str:
        request = self._service.playlistItems().insert(part="snippet", body={"snippet": {
            "playlistId": playlist_id, "position": position,
            "resourceId": {"kind": "youtube#video", "videoId": video_id}}})
        return self._answer(request.execute, repeatable=False)["id"]

    def _answer(self, send: Callable[[], Any], *, repeatable: bool) -> Any:
        """What ``send()`` returns, tried again after a 5xx (the site did not do it) and,
        when ``repeatable`` (doing it twice does no harm), after a dropped connection;
        anything else the site says, or the last try's failure, raised as a
        :class:`RemoteFailure`."""
        failures = 0
        while True:
            last = failures + 1 >= self._tries
            try:
                return send()
            except HttpError as error:
                if error.resp.status not in RETRIED or last:
                    raise _failure(error, tries=failures + 1) from None
            except RefreshError as error:
                raise AuthFailure(f"the YouTube token was refused when it was refreshed "
                                  f"({_first_line(error)}); {LOG_IN_AGAIN}") from None
            except NETWORK_ERRORS as error:
                if not _from_network(error):
                    raise  # a local failure (a full disk where the session is kept)
                if not (repeatable and _dropped(error)) or last:
                    raise RemoteFailure(f"the connection to YouTube failed ({_said(error)}) "
                                        f"{_after(failures + 1)}") from None
            self._sleep(min(2 ** failures, LONGEST_WAIT))
            failures += 1


class _Request(HttpRequest):
    """The library's request, telling ``on_session`` a resumable upload's session URI as
    soon as the site gives it: ``next_chunk`` sends the first chunk in the same call that
    starts the session, and a run killed during that chunk would lose the session."""

    on_session: Callable[[str], None] | None = None

    @property
    def resumable_uri(self) -> str | None:
        return self.__dict__.get("_session")

    @resumable_uri.setter
    def resumable_uri(self, uri: str | None) -> None:
        known = self.__dict__.get("_session")
        self.__dict__["_session"] = uri
        if uri is not None and uri != known and self.on_session is not None:
            self.on_session(uri)

    def resume(self, uri: str) -> None:
        """Go on with the session ``uri``: the next ``next_chunk`` asks the site what it
        holds (the status query it sends after a failure) before it sends anything."""
        self.resumable_uri = uri
        self._in_error_state = True


class _ChunkFile(MediaFileUpload):
    """A file sent in resumable chunks, each read into bytes for its request (not a slice
    of one open stream): a chunk that httplib2 sends again on a stale connection, or that
    google-auth sends again after refreshing the token, then carries its bytes again."""

    def __init__(self, file: Path, chunk_size: int) -> None:
        super().__init__(str(file), mimetype=_media_type(file), chunksize=chunk_size,
                         resumable=True)

    def has_stream(self) -> bool:
        return False


class _Upload:
    """One video's resumable upload: the request that sends it, started again when the
    site has forgotten its session."""

    def __init__(self, service: Any, file: Path, body: Body, chunk_size: int,
                 keep_session: Callable[[str | None], None]) -> None:
        self._service, self._body, self._keep = service, body, keep_session
        self._media = _ChunkFile(file, chunk_size)
        self._restarted = False
        self.request: _Request

    def start(self, session: str | None = None) -> None:
        """A new request: resuming ``session`` (a kept session URI), or starting one."""
        self.request = self._service.videos().insert(part="snippet,status", body=self._body,
                                                     media_body=self._media)
        if session is not None:
            self.request.resume(session)
        self.request.on_session = self._keep

    def next_chunk(self) -> tuple[Any, Any]:
        """Send the next chunk: (progress or None, the video once it is complete or None).
        A session the site no longer knows starts a new upload, once."""
        try:
            return self.request.next_chunk()
        except HttpError as error:
            if (error.resp.status not in SESSION_GONE or self.request.resumable_uri is None
                    or self._restarted):
                raise
        self._restarted = True
        self._keep(None)
        self.start()
        return None, None


def service_document(api_root: str) -> dict[str, Any]:
    """The YouTube Data API v3 discovery document (the copy shipped with the client
    library, so nothing is fetched) with every root URL set to ``api_root``."""
    parsed = urllib.parse.urlsplit(api_root)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise UsageError(f"--api-root must be an http:// or https:// URL, not {api_root!r}")
    root = api_root.rstrip("/") + "/"
    document = json.loads(get_static_doc("youtube", "v3"))
    document.update(rootUrl=root, mtlsRootUrl=root, baseUrl=root + document["servicePath"])
    return document


def _failure(error: HttpError, *, tries: int = 1) -> RemoteFailure:
    """The site's answer ``error`` as one line: a 401 an :class:`AuthFailure`, a spent
    quota a :class:`QuotaExceeded`, anything else a :class:`RemoteFailure` with the API's
    reason and message."""
    status = error.resp.status
    reason, message = _error_reason(error)
    said = f"{status} {reason}: {message}" if reason else f"{status}: {message}"
    if status == 401:
        return AuthFailure(f"YouTube refused the token ({said}); {LOG_IN_AGAIN}")
    if status == 403 and reason in QUOTA_REASONS:
        return QuotaExceeded(f"the YouTube API quota is spent for today ({said}); it is "
                             "renewed at midnight Pacific time")
    if status in RETRIED:
        return RemoteFailure(f"YouTube failed ({said}) {_after(tries)}")
    return RemoteFailure(f"YouTube refused the request ({said})")


def _from_network(error: BaseException) -> bool:
    """Whether ``error`` came from the connection to the site (not, say, a full disk)."""
    if isinstance(error, OSError):
        return isinstance(error, (ConnectionError, TimeoutError)) or error.errno in NETWORK_ERRNOS
    return isinstance(error, NETWORK_ERRORS)


def _dropped(error: BaseException) -> bool:
    """Whether ``error`` says the connection dropped or timed out (worth another try), not
    that the host is unknown or that the request could not be made at all."""
    return _from_network(error) and not isinstance(error, (httplib2.HttpLib2Error,
                                                          TransportError))


def _error_reason(error: HttpError) -> tuple[str, str]:
    """The (reason, message) of the API's JSON error body, or ("", the HTTP reason)."""
    try:
        said = json.loads(error.content.decode("utf-8"))["error"]
        reasons = [detail.get("reason", "") for detail in said.get("errors", [])]
        return (reasons[0] if reasons else said.get("status", "")), _one_line(said["message"])
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return "", _one_line(error.resp.reason or "no reason given")


def _one_line(text: str, longest: int = 300) -> str:
    """``text`` without markup, on one line, at most ``longest`` characters."""
    flat = " ".join(re.sub(r"<[^>]*>", "", str(text)).split())
    return flat if len(flat) <= longest else flat[:longest - 1] + "…"


def _first_line(error: BaseException) -> str:
    """What an exception says first (google-auth's second argument is the raw reply)."""
    return _one_line(error.args[0] if error.args else type(error).__name__)


def _said(error: BaseException) -> str:
    """A connection's failure as its kind and what it says ("ConnectionResetError: [Errno
    104] Connection reset by peer")."""
    said = _one_line(str(error))
    return f"{type(error).__name__}: {said}" if said else type(error).__name__


def _after(tries: int) -> str:
    return "after 1 try" if tries == 1 else f"after {tries} tries"


def _media_type(file: Path) -> str:
    return mimetypes.guess_type(file.name)[0] or "application/octet-stream"


def _caption_file(file: Path) -> MediaFileUpload:
    # captions.insert takes any type ("*/*"); SRT and WebVTT have no registered one
    return MediaFileUpload(str(file), mimetype="application/octet-stream")


def _caption_snippet(video_id: str, language: str, name: str) -> Body:
    return {"videoId": video_id, "language": language, "name": name, "isDraft": False}
