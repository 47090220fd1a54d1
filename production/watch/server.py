"""The watch page's server: the files of the watch folder, and nothing else, to each
client on a thread of its own. A client that sends nothing for READ_TIMEOUT seconds (or
stops halfway through its request) is dropped; one that stops reading for SEND_TIMEOUT
seconds too. A request the browser cancels (a video it seeks away from) ends quietly."""

from __future__ import annotations

import errno
import http.server
import os
import socket
import sys
import urllib.parse
from pathlib import Path
from typing import Any

from production.errors import UsageError

READ_TIMEOUT = 5.0  # seconds a client may leave its request unfinished before it is dropped
SEND_TIMEOUT = 30.0  # seconds a client may stop reading what it asked for (a paused video)
#: how a request ends when its client goes away or stops: nothing for the author to read
CANCELLED = (ConnectionError, TimeoutError)


class Handler(http.server.SimpleHTTPRequestHandler):
    """Files of the watch folder, and nothing else: GET and HEAD only, a path with ``..``
    in it or leading outside the folder refused, byte ranges for the video."""

    server_version = "watch"
    sys_version = ""
    timeout = READ_TIMEOUT  # on every read and write of the connection (socketserver's)
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".vtt": "text/vtt", ".mp4": "video/mp4", ".json": "application/json",
                      ".html": "text/html; charset=utf-8", ".png": "image/png"}

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal is the author's: no line per request

    def inside(self) -> Path | None:
        """The file the request names, when it is inside the folder."""
        raw = urllib.parse.urlsplit(self.path).path
        parts = urllib.parse.unquote(raw).split("/")
        if any(part in ("..", ".") or "\\" in part or "\0" in part for part in parts):
            return None
        root = Path(self.directory).resolve()
        target = (root / "/".join(p for p in parts if p)).resolve()
        if target != root and not target.is_relative_to(root):
            return None
        return target / "index.html" if target.is_dir() else target

    def send_head(self) -> Any:
        target = self.inside()
        if target is None:
            self.send_error(403, "outside the watch folder")
            return None
        if not target.is_file():
            self.send_error(404, "no such file")
            return None
        try:
            handle = open(target, "rb")
        except OSError:
            self.send_error(404, "no such file")
            return None
        size = os.fstat(handle.fileno()).st_size
        start, end = 0, size - 1
        wanted = self.headers.get("Range", "")
        if wanted.startswith("bytes=") and "," not in wanted and size:
            first, _, last = wanted[6:].partition("-")
            try:
                start, end = (int(first), min(int(last or size - 1), size - 1)) if first \
                    else (max(size - int(last), 0), size - 1)
            except ValueError:
                start, end = 0, size - 1
            if start > end:
                handle.close()
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.end_headers()
                return None
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(target)))
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        handle.seek(start)
        self.range_left = end - start + 1
        return handle

    def copyfile(self, source: Any, outputfile: Any) -> None:
        self.connection.settimeout(max(self.timeout, SEND_TIMEOUT))
        left = getattr(self, "range_left", None)
        while left:
            block = source.read(min(left, 1 << 16))
            if not block:
                break
            outputfile.write(block)
            left -= len(block)

    def do_POST(self) -> None:
        self.send_error(405, "the watch page only reads")

    do_PUT = do_DELETE = do_PATCH = do_POST


class Server(http.server.ThreadingHTTPServer):
    """Each request on a daemon thread of its own, so no client waits on another and the
    watch's loop, which only accepts, waits on none."""

    request_queue_size = 128  # a page's burst of requests is never turned away

    def server_activate(self) -> None:
        super().server_activate()
        self.socket.setblocking(False)  # accepting never waits, even for a client gone

    def handle_error(self, request: socket.socket, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], CANCELLED):
            super().handle_error(request, client_address)


def serve(folder: Path, port: int) -> Server:
    """A server of ``folder`` bound to 127.0.0.1:``port``; a UsageError when the port is
    taken or may not be used."""
    def handler(*args: Any) -> Handler:
        return Handler(*args, directory=str(folder))

    try:
        return Server(("127.0.0.1", port), handler)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UsageError(f"--port {port}: another program is using it (0 picks a free "
                             "port)") from None
        raise UsageError(f"--port {port}: cannot serve on it ({error.strerror})") from None
