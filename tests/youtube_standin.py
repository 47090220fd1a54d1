"""A stand-in for the YouTube Data API v3 and Google's OAuth 2.0 token endpoint, on
127.0.0.1, written from the API reference, for the tests of the publisher and its site.

It serves what a publish asks: the resumable protocol of videos.insert (a ``POST`` that
answers 200 with the session in ``Location``; ``PUT`` chunks answered 308 with
``Range: bytes=0-LAST`` until the last byte, then 200 with the video; the status query
``Content-Range: bytes */SIZE``), thumbnails.set, captions.insert and captions.update
(multipart), videos.update, playlists.insert and update, playlistItems.insert, and the
token endpoint of :attr:`YouTubeStandIn.oauth` (tests/oauth_standin.py: credentials and
token files for a test, the consent page, revoking). Every API request must carry a Bearer
token issued there, with a scope the discovery document lists for the method (401 or 403
in Google's JSON error format otherwise), and is charged quota at the published costs,
refused with 403 quotaExceeded past the limits.

A test scripts faults (a status on the Nth upload chunk, a connection cut mid-chunk, a
chunk held until the test lets it go, any error on a method; a refused token through
``oauth.refuse_tokens``), reads
:attr:`YouTubeStandIn.log` (every request: its method, path, query and the parts of its
body that matter; never a header, so never a token) and what was uploaded
(:meth:`YouTubeStandIn.video_bytes`, :attr:`captions`, :attr:`thumbnails`, ...). Ids are
counters: v1, v2 ... for videos, c1 for captions, p1 for playlists, i1 for their items.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from googleapiclient.discovery_cache import get_static_doc

from tests.oauth_standin import LOOPBACK, OAuthStandIn

#: every chunk of an upload but the last is a multiple of this (bytes)
CHUNK_UNIT = 256 * 1024
#: thumbnails.set: "Maximum file size: 2MB"
THUMBNAIL_LIMIT = 2 * 1024 * 1024
#: quota by method: (bucket, cost). The quota-cost page: videos.insert has a bucket of its
#: own (100 calls a day, 1 a call); every other method shares 10,000 units a day.
COSTS = {"videos.insert": ("uploads", 1), "videos.update": ("units", 50),
         "thumbnails.set": ("units", 50), "captions.insert": ("units", 400),
         "captions.update": ("units", 450), "playlists.insert": ("units", 50),
         "playlists.update": ("units", 50), "playlistItems.insert": ("units", 50)}
LIMITS = {"units": 10_000, "uploads": 100}
#: what a refused request is told (the API's own words)
QUOTA_MESSAGE = ("The request cannot be completed because you have exceeded your "
                 "<a href=\"/youtube/v3/getting-started#quota\">quota</a>.")

_ROUTES = {("POST", "/upload/youtube/v3/videos"): "videos.insert",
           ("POST", "/upload/youtube/v3/thumbnails/set"): "thumbnails.set",
           ("POST", "/upload/youtube/v3/captions"): "captions.insert",
           ("PUT", "/upload/youtube/v3/captions"): "captions.update",
           ("PUT", "/youtube/v3/videos"): "videos.update",
           ("POST", "/youtube/v3/playlists"): "playlists.insert",
           ("PUT", "/youtube/v3/playlists"): "playlists.update",
           ("POST", "/youtube/v3/playlistItems"): "playlistItems.insert"}


@dataclass(frozen=True)
class Media:
    """A file part of a request: its size (bytes), SHA-256 (hex) and media type."""

    size: int
    sha256: str
    type: str


@dataclass
class Logged:
    """One request as the stand-in saw it. ``api`` is the method ("videos.insert",
    "captions.update" ...), "upload.chunk" or "upload.status" for a PUT to an upload
    session, "token" or "unknown"; ``body`` the JSON metadata sent (for "token": the
    grant type and client only); ``fault`` what was scripted for it ("503", "dropped",
    "held")."""

    method: str
    path: str
    query: dict[str, str]
    api: str
    status: int | None = None
    body: Any = None
    media: Media | None = None
    content_range: str | None = None
    session: str | None = None
    fault: str | None = None


@dataclass
class Hold:
    """A chunk the stand-in holds: ``reached`` is set once it has read the chunk; it keeps
    the chunk and answers once :meth:`release` is called, and sets ``done`` then."""

    reached: threading.Event = field(default_factory=threading.Event)
    released: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)

    def release(self) -> None:
        self.released.set()


@dataclass
class _Session:
    id: str
    metadata: dict[str, Any]
    size: int | None
    data: bytearray = field(default_factory=bytearray)
    video_id: str | None = None


@dataclass(frozen=True)
class _Call:
    """What an API method is given: the query, the JSON metadata, the file (bytes) and
    the request's headers."""

    query: dict[str, str]
    metadata: Any
    media: bytes | None
    headers: Any


class ApiError(Exception):
    """An answer in Google's JSON error format."""

    def __init__(self, code: int, reason: str, message: str, domain: str = "youtube.api",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code, self.headers = code, headers or {}
        self.body = {"error": {"code": code, "message": message, "errors": [
            {"message": message, "domain": domain, "reason": reason}]}}


class YouTubeStandIn:
    """The stand-in server; :attr:`root` is its ``--api-root``. Use it as a context
    manager (or the :func:`youtube_standin` fixture). ``units`` and ``uploads`` are the
    day's quota (see :data:`COSTS`); :attr:`spent` what has been charged."""

    def __init__(self, *, units: int = LIMITS["units"], uploads: int = LIMITS["uploads"]):
        self.limits = {"units": units, "uploads": uploads}
        self.spent = {"units": 0, "uploads": 0}
        self.log: list[Logged] = []
        self.videos: dict[str, dict[str, Any]] = {}
        self.thumbnails: dict[str, bytes] = {}
        self.captions: dict[str, dict[str, Any]] = {}  # id -> {"resource", "data"}
        self.playlists: dict[str, dict[str, Any]] = {}
        self.playlist_items: dict[str, dict[str, Any]] = {}
        self._sessions: dict[str, _Session] = {}
        self._ids: dict[str, int] = defaultdict(int)
        self._chunks = 0
        self._chunk_faults: dict[int, str | Hold] = {}
        self._dropping = False
        self._method_faults: dict[str, list[ApiError]] = defaultdict(list)
        self._lock = threading.RLock()
        self._scopes = _method_scopes()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self._server.standin = self  # type: ignore[attr-defined]
        self.root = f"http://127.0.0.1:{self._server.server_port}/"
        #: the OAuth side: credentials and token files for tests, revoking, the consent page
        self.oauth = OAuthStandIn(self.root)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> YouTubeStandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            for fault in self._chunk_faults.values():
                if isinstance(fault, Hold):
                    fault.release()
        self._server.shutdown()
        self._server.server_close()

    # -- faults --------------------------------------------------------------------

    def fail_chunk(self, number: int, status: int = 503, times: int = 1) -> None:
        """Chunks ``number`` .. ``number + times - 1`` (counting every chunk sent to any
        session, from 1) are answered ``status`` and not kept."""
        with self._lock:
            for at in range(number, number + times):
                self._chunk_faults[at] = str(status)

    def drop_chunk(self, number: int) -> None:
        """Chunk ``number`` and every chunk after it is cut off half read (the connection
        closed without an answer) until the client asks for the upload's status: a
        client that resends without asking (httplib2 itself, once) never gets through."""
        with self._lock:
            self._chunk_faults[number] = "dropped"

    def hold_chunk(self, number: int) -> Hold:
        """Chunk ``number`` is read whole, then held until the test releases it; it is kept
        then (the client may be gone by then) and answered."""
        hold = Hold()
        with self._lock:
            self._chunk_faults[number] = hold
        return hold

    def fail(self, api: str, code: int, reason: str, message: str = "scripted failure",
             times: int = 1) -> None:
        """The next ``times`` calls of ``api`` ("videos.update", ...) are answered with
        this error (after the token is checked, before quota is charged)."""
        with self._lock:
            self._method_faults[api].extend(ApiError(code, reason, message)
                                            for _ in range(times))

    # -- reading -------------------------------------------------------------------

    def calls(self, *apis: str) -> list[Logged]:
        """The logged requests to ``apis`` (all requests when none is named), in order."""
        with self._lock:
            return [entry for entry in self.log if not apis or entry.api in apis]

    def video_bytes(self, video_id: str) -> bytes:
        """The bytes uploaded for the video ``video_id``."""
        with self._lock:
            [session] = [s for s in self._sessions.values() if s.video_id == video_id]
            return bytes(session.data)

    def playlist_videos(self, playlist_id: str) -> list[str]:
        """The video ids in the playlist, in its order."""
        with self._lock:
            return list(self.playlists[playlist_id]["videos"])

    # -- serving -------------------------------------------------------------------

    def serve(self, handler: _Handler) -> None:
        """Answer one request (called on the server's threads)."""
        url = urllib.parse.urlsplit(handler.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        entry = Logged(handler.command, url.path, query, "unknown")
        with self._lock:
            self.log.append(entry)
        try:
            if (handler.command, url.path) == ("POST", "/token"):
                entry.api = "token"
                form = dict(urllib.parse.parse_qsl(_read(handler).decode()))
                entry.body = {key: form.get(key) for key in ("grant_type", "client_id")}
                status, body = self.oauth.token(form, handler.headers.get("Authorization", ""))
                headers: dict[str, str] = {}
            elif handler.command == "PUT" and url.path == "/upload/youtube/v3/videos":
                status, body, headers = self._upload(handler, entry, query)
            else:
                entry.api = _ROUTES.get((handler.command, url.path), "unknown")
                if entry.api == "unknown":
                    _read(handler)
                    raise ApiError(404, "notFound", f"no method at {handler.command} {url.path}",
                                   domain="global")
                status, body, headers = self._call(handler, entry, query)
        except ApiError as error:
            status, body, headers = error.code, error.body, error.headers
        except _Dropped:
            entry.fault = "dropped"
            handler.close_connection = True
            return
        entry.status = status
        _answer(handler, status, body, headers)

    def _call(self, handler: _Handler, entry: Logged,
              query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        """An API method: token, scripted fault, quota, then the method itself."""
        metadata, media, media_type = _parts(handler.headers.get("Content-Type", ""),
                                             _read(handler))
        entry.body, entry.media = metadata, _media(media, media_type)
        self._check_token(handler, entry.api)
        with self._lock:
            if self._method_faults[entry.api]:
                raise self._method_faults[entry.api].pop(0)
            self._charge(entry.api)
            method = getattr(self, "_" + entry.api.replace(".", "_"))
            return method(_Call(query, metadata, media, handler.headers))

    # -- the API's methods ---------------------------------------------------------------

    def _videos_insert(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        if call.query.get("uploadType") != "resumable":
            raise ApiError(400, "badRequest", "the stand-in takes resumable uploads only")
        metadata = call.metadata or {}
        _check_snippet(metadata.get("snippet", {}), update=False)
        size = call.headers.get("X-Upload-Content-Length")
        session = _Session(self._new_id("u"), metadata, int(size) if size else None)
        self._sessions[session.id] = session
        location = self.root + "upload/youtube/v3/videos?" + urllib.parse.urlencode(
            {**call.query, "upload_id": session.id})
        return 200, None, {"Location": location}

    def _thumbnails_set(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        video_id = call.query.get("videoId", "")
        self._video(video_id)
        image = call.media or b""
        if not image:
            raise ApiError(400, "mediaBodyRequired", "The request does not include the "
                           "image content.")
        if len(image) > THUMBNAIL_LIMIT:
            raise ApiError(413, "mediaBodyTooLarge", f"Media larger than {THUMBNAIL_LIMIT} "
                           "bytes: a thumbnail is at most 2MB.")
        if not image.startswith((b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n")):
            raise ApiError(400, "invalidImage", "The provided image content is invalid.")
        self.thumbnails[video_id] = image
        return 200, {"kind": "youtube#thumbnailSetResponse", "items": [
            {"default": {"url": f"{self.root}vi/{video_id}/default.jpg", "width": 120,
                         "height": 90}}]}, {}

    def _captions_insert(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        snippet = (call.metadata or {}).get("snippet", {})
        self._video(snippet.get("videoId", ""))
        if call.media is None:
            raise ApiError(400, "contentRequired", "The request does not contain the "
                           "caption track contents.")
        track = [snippet.get(key) for key in ("videoId", "language", "name")]
        if any([caption["resource"]["snippet"].get(key) for key in ("videoId", "language",
                                                                     "name")] == track
               for caption in self.captions.values()):
            raise ApiError(409, "captionExists", "The specified video already has a caption "
                           "track with the given snippet.language and snippet.name.")
        resource = {"kind": "youtube#caption", "id": self._new_id("c"), "snippet": snippet}
        self.captions[resource["id"]] = {"resource": resource, "data": call.media}
        return 200, resource, {}

    def _captions_update(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        metadata = call.metadata or {}
        caption = self.captions.get(metadata.get("id", ""))
        if caption is None:
            raise ApiError(404, "captionNotFound", "The caption track could not be found.")
        caption["resource"]["snippet"].update(metadata.get("snippet", {}))
        if call.media is not None:
            caption["data"] = call.media
        return 200, caption["resource"], {}

    def _videos_update(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        metadata = call.metadata or {}
        video = self._video(metadata.get("id", ""))
        parts = set(call.query.get("part", "").split(","))
        if "snippet" in parts:
            _check_snippet(metadata.get("snippet", {}), update=True)
            video["snippet"] = metadata.get("snippet", {})
        if "status" in parts:
            video["status"] = {**metadata.get("status", {}), "uploadStatus": "uploaded"}
        if "localizations" in parts:  # a title and description per language
            localizations = metadata.get("localizations", {})
            if localizations and not video.get("snippet", {}).get("defaultLanguage"):
                raise ApiError(400, "defaultLanguageNotSet", "The request is trying to add "
                               "localized video details without specifying the default "
                               "language of the video details.")
            video["localizations"] = localizations
        return 200, video, {}

    def _playlists_insert(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        _check_playlist(call.metadata)
        playlist = {"kind": "youtube#playlist", "id": self._new_id("p"),
                    "snippet": call.metadata["snippet"],
                    "status": call.metadata.get("status", {}), "videos": []}
        self.playlists[playlist["id"]] = playlist
        return 200, _without_videos(playlist), {}

    def _playlists_update(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        playlist = self._playlist((call.metadata or {}).get("id", ""))
        _check_playlist(call.metadata)
        parts = set(call.query.get("part", "").split(","))
        playlist.update({part: call.metadata.get(part, {}) for part in ("snippet", "status")
                         if part in parts})
        return 200, _without_videos(playlist), {}

    def _playlistItems_insert(self, call: _Call) -> tuple[int, Any, dict[str, str]]:
        snippet = (call.metadata or {}).get("snippet", {})
        playlist = self._playlist(snippet.get("playlistId", ""))
        resource = snippet.get("resourceId", {})
        if resource.get("kind") != "youtube#video":
            raise ApiError(400, "invalidResourceId", "The resource is not a video.")
        self._video(resource.get("videoId", ""))
        videos = playlist["videos"]
        position = snippet.get("position", len(videos))
        if not isinstance(position, int) or not 0 <= position <= len(videos):
            raise ApiError(400, "invalidPlaylistItemPosition", f"position {position!r} is not "
                           f"in 0..{len(videos)}")
        videos.insert(position, resource["videoId"])
        item = {"kind": "youtube#playlistItem", "id": self._new_id("i"),
                "snippet": {**snippet, "position": position}}
        self.playlist_items[item["id"]] = item
        return 200, item, {}

    # -- the resumable protocol --------------------------------------------------------

    def _upload(self, handler: _Handler, entry: Logged,
                query: dict[str, str]) -> tuple[int, Any, dict[str, str]]:
        """A PUT to an upload session: a chunk, or the status query (``bytes */SIZE``)."""
        content_range = handler.headers.get("Content-Range", "")
        entry.content_range, entry.session = content_range, query.get("upload_id")
        status_query = re.fullmatch(r"bytes \*/(\d+|\*)", content_range)
        entry.api = "upload.status" if status_query or not content_range else "upload.chunk"
        fault = None if entry.api == "upload.status" else self._next_chunk_fault()
        if fault == "dropped":  # half the chunk read (all of it, from an exhausted stream)
            half = handler.rfile.read(int(handler.headers.get("Content-Length") or 0) // 2)
            entry.media = _media(half, handler.headers.get("Content-Type", ""))
            raise _Dropped
        data = _read(handler)
        entry.media = _media(data, handler.headers.get("Content-Type", ""))
        self._check_token(handler, "videos.insert")
        if isinstance(fault, Hold):
            entry.fault = "held"
            fault.reached.set()
            fault.released.wait()
        try:
            with self._lock:
                session = self._sessions.get(entry.session or "")
                if session is None:
                    raise ApiError(404, "notFound", "No upload session with that id.",
                                   domain="global")
                if entry.api == "upload.status":
                    self._dropping = False
                elif isinstance(fault, str):
                    entry.fault = fault
                    raise ApiError(int(fault), "backendError", "Backend Error",
                                   domain="global")
                else:
                    self._keep_chunk(session, content_range, data)
                return self._upload_state(session)
        finally:
            if isinstance(fault, Hold):
                fault.done.set()

    def _next_chunk_fault(self) -> str | Hold | None:
        with self._lock:
            self._chunks += 1
            fault = self._chunk_faults.pop(self._chunks, None)
            if fault == "dropped" or (fault is None and self._dropping):
                self._dropping = True
                return "dropped"
            return fault

    def _keep_chunk(self, session: _Session, content_range: str, data: bytes) -> None:
        match = re.fullmatch(r"bytes (\d+)-(\d+)/(\d+)", content_range)
        if match is None or int(match[2]) - int(match[1]) + 1 != len(data):
            raise ApiError(400, "badContent", f"Content-Range {content_range!r} does not "
                           f"describe a body of {len(data)} bytes")
        first, size = int(match[1]), int(match[3])
        if session.size is None:
            session.size = size
        if size != session.size or first > len(session.data):
            raise ApiError(400, "badContent", f"Content-Range {content_range!r} does not "
                           f"follow the {len(session.data)} bytes of a {session.size}-byte "
                           "upload")
        if first + len(data) < size and len(data) % CHUNK_UNIT:
            raise ApiError(400, "badContent", f"a chunk of {len(data)} bytes before the "
                           f"last; chunks are multiples of {CHUNK_UNIT} bytes")
        session.data[first:] = data

    def _upload_state(self, session: _Session) -> tuple[int, Any, dict[str, str]]:
        """308 with the bytes held, or (the last byte held) 200 with the video."""
        if session.size is not None and len(session.data) == session.size:
            if session.video_id is None:
                session.video_id = self._new_id("v")
                metadata = session.metadata
                self.videos[session.video_id] = {
                    "kind": "youtube#video", "id": session.video_id,
                    "snippet": metadata.get("snippet", {}),
                    "status": {**metadata.get("status", {}), "uploadStatus": "uploaded"}}
            return 200, self.videos[session.video_id], {}
        held = len(session.data)
        return 308, None, {"Range": f"bytes=0-{held - 1}"} if held else {}

    def _check_token(self, handler: _Handler, api: str) -> None:
        """401 unless the request carries a live access token; 403 unless its grant has
        a scope the discovery document lists for ``api``."""
        scopes = self.oauth.scopes(handler.headers.get("Authorization", ""))
        if scopes is None:
            raise ApiError(401, "authError", "Request had invalid authentication credentials. "
                           "Expected OAuth 2 access token, login cookie or other valid "
                           "authentication credential.", domain="global",
                           headers={"WWW-Authenticate": 'Bearer realm="https://accounts.google'
                                    '.com/", error="invalid_token"'})
        if not scopes & self._scopes[api]:
            raise ApiError(403, "insufficientPermissions", "Request had insufficient "
                           "authentication scopes.", domain="global")

    def _charge(self, api: str) -> None:
        bucket, cost = COSTS[api]
        if self.spent[bucket] + cost > self.limits[bucket]:
            raise ApiError(403, "quotaExceeded", QUOTA_MESSAGE, domain="youtube.quota")
        self.spent[bucket] += cost

    def _video(self, video_id: str) -> dict[str, Any]:
        if video_id not in self.videos:
            raise ApiError(404, "videoNotFound", "The video could not be found.")
        return self.videos[video_id]

    def _playlist(self, playlist_id: str) -> dict[str, Any]:
        if playlist_id not in self.playlists:
            raise ApiError(404, "playlistNotFound", "The playlist could not be found.")
        return self.playlists[playlist_id]

    def _new_id(self, prefix: str) -> str:
        with self._lock:
            self._ids[prefix] += 1
            return f"{prefix}{self._ids[prefix]}"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as Google's front end

    def do_POST(self) -> None:
        self.server.standin.serve(self)  # type: ignore[attr-defined]

    do_PUT = do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the stand-in keeps its own log."""


class _Dropped(Exception):
    """The connection is to be closed without an answer."""


def _read(handler: _Handler) -> bytes:
    return handler.rfile.read(int(handler.headers.get("Content-Length") or 0))


def _answer(handler: _Handler, status: int, body: Any, headers: dict[str, str]) -> None:
    data = b"" if body is None else json.dumps(body).encode()
    try:
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        if data:
            handler.send_header("Content-Type", "application/json; charset=UTF-8")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except OSError:  # the client is gone (killed while its chunk was held)
        handler.close_connection = True


def _parts(content_type: str, data: bytes) -> tuple[Any, bytes | None, str]:
    """(the JSON metadata, the file, its media type) of a request body: multipart/related
    (the metadata first), the metadata alone, or a file alone."""
    if content_type.startswith("multipart/related"):
        message = BytesParser().parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + data)
        metadata, media = message.get_payload()
        return (json.loads(metadata.get_payload(decode=True)), media.get_payload(decode=True),
                media.get_content_type())
    if content_type.startswith("application/json"):
        return json.loads(data or b"null"), None, ""
    return None, (data if data else None), content_type.split(";")[0]


def _media(data: bytes | None, media_type: str) -> Media | None:
    if data is None:
        return None
    return Media(len(data), hashlib.sha256(data).hexdigest(), media_type.split(";")[0])


def _without_videos(playlist: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in playlist.items() if key != "videos"}


def _check_snippet(snippet: dict[str, Any], *, update: bool) -> None:
    """The video resource's limits on snippet.title (1 to 100 characters, no < or >),
    snippet.description (5000 bytes, no < or >) and snippet.tags (500 characters counted
    with their commas, and quotes around a tag with a space); an update must give the
    title and categoryId."""
    title = snippet.get("title")
    if (update or title is not None) and not (
            isinstance(title, str) and 0 < len(title) <= 100 and not set("<>") & set(title)):
        raise ApiError(400, "invalidTitle", "The request specifies an invalid video title.")
    description = snippet.get("description", "")
    if len(description.encode()) > 5000 or set("<>") & set(description):
        raise ApiError(400, "invalidDescription", "The request metadata specifies an invalid "
                       "video description.")
    tags = snippet.get("tags", [])
    if sum(len(tag) + (2 if " " in tag else 0) for tag in tags) + max(len(tags) - 1, 0) > 500:
        raise ApiError(400, "invalidTags", "The request metadata specifies invalid video "
                       "keywords.")
    if update and not snippet.get("categoryId"):
        raise ApiError(400, "invalidCategoryId", "The snippet.categoryId property specifies "
                       "an invalid category ID.")


def _check_playlist(metadata: Any) -> None:
    if not (metadata or {}).get("snippet", {}).get("title"):
        raise ApiError(400, "playlistTitleRequired", "The request must specify a playlist "
                       "title.")


def _method_scopes() -> dict[str, frozenset[str]]:
    """The scopes the discovery document lists for each method this stand-in serves."""
    resources = json.loads(get_static_doc("youtube", "v3"))["resources"]
    scopes = {}
    for api in COSTS:
        resource, method = api.split(".")
        scopes[api] = frozenset(resources[resource]["methods"][method]["scopes"])
    return scopes


def loopback_lookup(asked: list[str]) -> Callable[..., Any]:
    """A replacement for ``socket.getaddrinfo`` that notes every host in ``asked`` and
    refuses any but 127.0.0.1, so a test shows that nothing went elsewhere."""
    lookup = socket.getaddrinfo

    def only_loopback(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        asked.append(name)
        if name not in LOOPBACK:
            raise socket.gaierror(socket.EAI_NONAME, f"the tests contact 127.0.0.1 only, "
                                                     f"not {name}")
        return lookup(host, *args, **kwargs)

    return only_loopback


@pytest.fixture
def youtube_standin() -> Iterator[YouTubeStandIn]:
    """A running :class:`YouTubeStandIn`, stopped after the test."""
    with YouTubeStandIn() as standin:
        yield standin


@pytest.fixture
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every host this process looks up during the test (listed, and checked after it):
    anything but 127.0.0.1 is refused."""
    asked: list[str] = []
    monkeypatch.setattr(socket, "getaddrinfo", loopback_lookup(asked))
    yield asked
    if not set(asked) <= LOOPBACK:
        pytest.fail(f"the test looked up {sorted(set(asked) - LOOPBACK)}")
