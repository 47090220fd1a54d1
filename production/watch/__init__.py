"""`render.py watch`: a page on this machine that shows a scene as it now renders, and
draws it again each time one of its chapter's files is saved.

The page (``out/watch/SCENE-FRAME/index.html``, served on 127.0.0.1) plays the scene with
its sound and captions, lists its beats with their narration and key frame, and draws
each layout problem on the key frame where it is. Every save of a file the chapter's
scenes are made from (their code, the components, core/, the narration, the ledger)
starts a render of the scene (a render still going is stopped): the beat cache
(production/beat_cache.py) draws only the beats that changed. A finished render goes into
a new folder ``vN/``, and ``state.json`` is then rewritten to name it (one rename): the
page, which reads state.json a few times a second, shows it and jumps to the first beat
that changed. A render that fails (a syntax error, an exception in a scene, a number the
ledger refuses) is shown with its file, line and message; the last good render stays.

Each render runs in a process forked from this one that first forgets every module of
the project, so it imports the code as saved; Manim and the other libraries stay
imported (a second and a half saved on each save). The server answers only GET and HEAD
for files inside the watch folder, and runs nothing it is sent. The loop only accepts a
connection; its request is answered on a thread of its own (production/watch/server.py),
so an idle or slow client never holds up another, nor the redraw of a save.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import selectors
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import digits
from production import files, paths
from production.errors import UsageError
from production.language import name_of
from production.watch.one_render import RESULT, Spec, render_here
from production.watch.server import Server, serve
from production.workers import Terminated

HELP = "show a scene on a local page as it renders, drawn again on every save"
DESCRIPTION = ("Serve a page on 127.0.0.1 that plays SCENE as it now renders (with its "
               "sound and captions), lists its beats with their narration, key frame and "
               "layout problems, and updates itself each time a file of the chapter is "
               "saved: only the beats that changed are drawn again. Ctrl-C stops it.")
FRAMES = ("wide", "tall", "square")
QUALITIES = ("preview", "draft")
POLL = 0.2  # seconds between looks at the chapter's files (and the server's wait)
#: what a chapter's scenes are made from, by suffix: code, narration, ledgers, recordings
WATCHED = (".py", ".txt", ".toml", ".json", ".wav", ".po")
PAGE = Path(__file__).with_name("page.html")
STATE = "state.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from production import options

    parser.add_argument("scene", nargs="?", metavar="SCENE",
                        help="a scene from `render.py list` (default: the chapter's first)")
    options.add_chapter(parser)
    options.add_language(parser)
    parser.add_argument("--frame", default="wide", metavar="FRAME",
                        help="wide (16:9, the chapter; the default), tall (9:16) or square")
    parser.add_argument("--quality", default="preview", metavar="QUALITY",
                        help="preview (854x480, 15 fps; the default) or draft (1280x720, 30 fps)")
    parser.add_argument("--port", default="0", metavar="N",
                        help="the port to serve on (default: a free one)")


def check(args: argparse.Namespace, chapter: Any) -> tuple[Spec, int]:
    """The watch ``args`` ask for, and the port; a UsageError (one line) for a scene,
    frame, quality or port it does not take."""
    names = [sc.__name__ for sc in chapter.scenes]
    scene = args.scene or names[0]
    if scene not in names:
        raise UsageError(f"unknown scene {scene!r}; scenes: {', '.join(names)}")
    if args.frame not in FRAMES:
        raise UsageError(f"--frame {args.frame!r}: must be one of {', '.join(FRAMES)}")
    if args.quality not in QUALITIES:
        raise UsageError(f"--quality {args.quality!r}: watch takes {' or '.join(QUALITIES)}")
    try:
        port = digits.whole(args.port)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise UsageError(f"--port {args.port!r}: must be a whole number from 0 to 65535, "
                         f"{digits.WRITTEN} (0: a free port)")
    return Spec(chapter.name, scene, args.frame, args.quality, chapter.language,
                chapter.draft), port


def handle(args: argparse.Namespace, chapter: Any) -> int:
    """`watch`: serve the page and render on every save until Ctrl-C."""
    spec, port = check(args, chapter)
    folder = paths.out() / "watch" / f"{spec.scene}-{spec.frame}"
    server = serve(folder, port)  # a port in use is refused before anything is written
    try:
        folder = paths.writable_dir(str(folder), "the watch folder")
    except BaseException:
        server.server_close()
        raise
    watch = Watch(spec, folder, server, sources(chapter))
    host, bound = server.server_address[:2]
    print(f"render.py: watching {spec.scene} ({spec.frame}, {spec.quality}): "
          f"http://{host}:{bound}/ (Ctrl-C to stop)", flush=True)
    return watch.run()


def sources(chapter: Any) -> list[Path]:
    """The folders a chapter's scenes are made from: scenes/ (its own folder, the
    components, the shared style), core/, its narration and recordings, and the folder
    its module is imported from."""
    found = [paths.ROOT / "scenes", paths.ROOT / "core", chapter.narration, chapter.recordings,
             *(root / chapter.module.split(".")[0] for root in chapter.roots())]
    return list(dict.fromkeys(p.resolve() for p in found if p.is_dir()))


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """(size, modification time) of every watched file under ``folders``."""
    seen: dict[str, tuple[int, int]] = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.suffix in WATCHED and "__pycache__" not in path.parts:
                try:
                    stat = path.stat()
                except OSError:
                    continue
                seen[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return seen


# ----------------------------------------------------------------- the loop



@dataclass
class Render:
    """A render running in a forked process, into its version folder."""

    pid: int
    version: int
    folder: Path
    started: float


@dataclass
class Watch:
    spec: Spec
    folder: Path
    server: Server
    watched: list[Path]
    state: dict[str, Any] = field(default_factory=dict)
    running: Render | None = None
    version: int = 0

    def run(self) -> int:
        """Serve and render until Ctrl-C (or SIGTERM); nothing half-written is left."""
        self.prepare()
        seen = snapshot(self.watched)
        self.start()
        selector = selectors.DefaultSelector()
        selector.register(self.server.socket, selectors.EVENT_READ)
        try:
            while True:
                for _ in selector.select(POLL):
                    self.server._handle_request_noblock()  # accepts; answered on a thread
                self.collect()
                now = snapshot(self.watched)
                if now != seen:
                    seen = now
                    self.start()
        except KeyboardInterrupt as stopping:  # Ctrl-C: the way a watch ends; SIGTERM
            self.stop()
            if isinstance(stopping, Terminated):
                raise
            print("render.py: watch stopped", file=sys.stderr)
            gc.freeze()  # leave Manim's objects to the exit, not to a last sweep
            return 0
        finally:
            selector.close()
            self.server.server_close()

    def prepare(self) -> None:
        """The page and a first state; versions a watch before this one left removed."""
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.iterdir():
            if old.is_dir() and (old.name.startswith("v") or old.name.startswith(".v")):
                shutil.rmtree(old, ignore_errors=True)
        files.publish(PAGE, self.folder / "index.html")
        self.state = {"scene": self.spec.scene, "frame": self.spec.frame,
                      "quality": self.spec.quality, "version": 0, "rendering": True,
                      "current": None, "error": None, "first_changed": None,
                      "language": self.spec.language.replace("_", "-"),
                      "language_name": name_of(self.spec.language)}
        self.publish()

    def publish(self) -> None:
        files.write_text(self.folder / STATE, json.dumps(self.state, indent=1))

    def start(self) -> None:
        """A render of the files as they are now (one still going is stopped first)."""
        self.stop()
        self.version += 1
        target = self.folder / f".v{self.version}"
        target.mkdir()
        pid = os.fork()
        if pid == 0:  # the render
            try:
                self.server.socket.close()
                render_here(self.spec, target)
            finally:
                os._exit(0)
        self.running = Render(pid, self.version, target, time.monotonic())
        self.state["rendering"] = True
        self.publish()

    def stop(self) -> None:
        """Stop the render going, if any, and remove what it wrote."""
        render, self.running = self.running, None
        if render is None:
            return
        try:
            os.killpg(render.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        except PermissionError:  # not yet its own group leader
            os.kill(render.pid, signal.SIGKILL)
        os.waitpid(render.pid, 0)
        shutil.rmtree(render.folder, ignore_errors=True)

    def collect(self) -> None:
        """When the render going has finished: its result published, or its error."""
        render = self.running
        if render is None:
            return
        pid, status = os.waitpid(render.pid, os.WNOHANG)
        if pid == 0:
            return
        self.running = None
        try:
            result = json.loads((render.folder / RESULT).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            code = os.waitstatus_to_exitcode(status)
            result = {"ok": False, "error": {"file": None, "line": None, "message":
                      f"the render stopped before it finished (exit status {code})"}}
        seconds = round(time.monotonic() - render.started, 2)
        self.state.update(version=render.version, rendering=False, seconds=seconds)
        if result.get("ok"):
            final = self.folder / f"v{render.version}"
            os.replace(render.folder, final)
            result["current"]["folder"] = final.name
            self.state.update(current=result["current"], error=None,
                              first_changed=result.get("first_changed"))
            self.publish()
            self.tidy(keep={final.name, *self.kept()})
            print(f"render.py: {self.spec.scene} rendered in {seconds:.1f} s: "
                  f"{result['summary']}", flush=True)
        else:
            shutil.rmtree(render.folder, ignore_errors=True)
            self.state.update(error=result["error"])
            self.publish()
            where = ":".join(str(x) for x in (result["error"].get("file"),
                                               result["error"].get("line")) if x)
            print(f"render.py: {self.spec.scene}: {where + ': ' if where else ''}"
                  f"{result['error']['message']}", file=sys.stderr, flush=True)

    def kept(self) -> list[str]:
        """The version before the current one (a page may still be playing it)."""
        versions = sorted((int(p.name[1:]) for p in self.folder.glob("v*")
                           if p.name[1:].isdigit()), reverse=True)
        return [f"v{v}" for v in versions[:2]]

    def tidy(self, keep: set[str]) -> None:
        for old in self.folder.glob("v*"):
            if old.is_dir() and old.name not in keep:
                shutil.rmtree(old, ignore_errors=True)


__all__ = ["DESCRIPTION", "HELP", "add_arguments", "check", "handle", "snapshot", "sources"]
