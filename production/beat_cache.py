"""The beat cache: every play of a beat kept as the video segment it encoded to, by what
its frames are drawn from.

Manim draws a scene play by play and encodes each play as its own segment, which it
joins at the end. A play's frames follow from three things only: what is on screen as
it starts (every mobject, points, colours, z-order), the animations it runs (their kind,
run time, rate function, targets: code included, by its source) and the frame (size,
rate, background). The key of a segment is a hash of those, as Manim's own segment
cache reads them, and of the encoder's settings, the drawing code and the tools'
versions. It never holds a time: a beat that starts later because a narration before it
grew is the same segments.

A render after an edit still runs the whole scene's code, but a play whose key is kept
is skipped to its end state (no frame drawn, nothing encoded) and its kept segment
joined in its place; only plays whose key changed are drawn. Skipping advances the
scene's clock frame by frame as drawing would, so every later wait falls on the same
frame. The joined video is the same bytes as a render drawn whole.

A beat counts as redrawn when any of its plays was drawn. An entry is ``KEY.segment``
in the cache's ``segments/`` folder: the SHA-256 of the segment, then the segment (an
MP4). An entry that does not match its hash is drawn again; a folder that cannot be
written to only makes the render slower.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import io
import json
import pickle
import platform
import types
from importlib import metadata
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from production import files, paths

#: bumped when what an entry holds, or how a key is made, changes
CACHE_VERSION = "1"
SUFFIX = ".segment"
#: a scene's mix, normalized: its loudness and WAV; and that mix encoded (AAC in MP4)
SOUND = ".sound"
AUDIO = ".audio"
KINDS = (SUFFIX, SOUND, AUDIO)
#: the code that turns a play into a segment: the renderer below, the segment encoder
CODE = ("production/beat_cache.py", "production/stills.py")


def segments_dir() -> Path:
    """The kept segments: ``segments/`` in the cache folder."""
    return paths.cache() / "segments"


@functools.lru_cache(maxsize=1)
def _versions() -> str:
    tools = [f"{p}={metadata.version(p)}" for p in ("manim", "av", "numpy", "pycairo")]
    code = [hashlib.sha256((paths.ROOT / c).read_bytes()).hexdigest() for c in CODE]
    return "\n".join([CACHE_VERSION, platform.python_version(), platform.machine(),
                      *tools, *code])


def play_key(scene: Any, camera: Any, encoder: dict[str, str], size: tuple[int, int, int],
             media_dir: str) -> str:
    """The key of the segment the play ``scene`` has just compiled encodes to: the
    frame (size and rate, the camera's view and background), the encoder's settings,
    the code that draws and encodes, and :func:`fingerprint` of the animations and of
    every mobject on screen, in drawing order."""
    view = [camera.frame_width, camera.frame_height, camera.frame_center,
            camera.background_color, camera.background_opacity]
    return key_of([_versions(), encoder, list(size), view, scene.animations, scene.mobjects,
                   scene.foreground_mobjects], media_dir)


def key_of(root: Any, media_dir: str) -> str:
    """The SHA-256 of :func:`fingerprint` of ``root``: the list pickled, then the arrays."""
    arrays = hashlib.sha256()
    parts = fingerprint(root, media_dir, arrays)
    flat = io.BytesIO()
    pickler = pickle.Pickler(flat, protocol=5)
    pickler.fast = True  # no memo: equal values pickle alike, however they are shared
    pickler.dump(parts)
    digest = hashlib.sha256(flat.getbuffer())
    digest.update(arrays.digest())
    return digest.hexdigest()


def fingerprint(root: Any, media_dir: str, arrays: Any) -> list[Any]:
    """Everything reachable from ``root`` that a frame can be drawn from, as a list that
    pickles to the same bytes in any process for the same objects, and the bytes of every
    array of numbers in it fed to ``arrays`` (a hashlib hash) in the order the list names
    them (by type and shape).

    Objects are walked through their attributes (``__dict__`` or ``__slots__``),
    functions by their compiled code, defaults, closure and the globals they read. An
    object is written out wherever it is met, so whether two parts share one object or
    hold equal copies makes no difference, with one exception: a mobject or an
    animation met again is named by when it was first met (an animation holds the
    mobject it moves, which is on screen too). One met again inside itself is marked as
    a cycle. Plain values are kept as they are and the walk's own marks are tuples, so
    no text can pass for a mark. A path is its file's name alone, and a string naming the
    render's own media folder is written without it (the folder is new in every render).
    Modules and classes are named; anything else is its type and its ``repr``, unless
    that repr holds an address."""
    from manim import Animation, Mobject

    out: list[Any] = []
    path: set[int] = set()  # the objects being walked: one met again inside itself is a cycle
    named: dict[int, int] = {}  # mobjects and animations met, by when they were first met
    emit = out.append
    feed = arrays.update
    shared = (Mobject, Animation)

    def walk(o: Any) -> None:
        kind = type(o)
        if kind in _PLAIN:
            emit(o)
            return
        if kind is str:
            emit(o.replace(media_dir, "<media>") if media_dir in o else o)
            return
        if kind is np.ndarray and not o.dtype.hasobject:
            emit(("array", o.dtype.str, o.shape))
            feed(np.ascontiguousarray(o).data)
            return
        if kind is dict:
            if id(o) in path:
                emit(("cycle",))
                return
            path.add(id(o))
            emit(("dict", len(o)))
            for name, value in o.items():
                if name not in _UNDRAWN and not (name == "sheen_direction"
                                                 and o.get("sheen_factor") == 0):
                    walk(name)
                    walk(value)
            path.discard(id(o))
            return
        if id(o) in path:
            emit(("cycle",))
            return
        path.add(id(o))
        if kind is list or kind is tuple:
            emit((kind.__name__, len(o)))
            for item in o:
                walk(item)
        elif isinstance(o, shared):
            seen = named.get(id(o))
            if seen is None:
                named[id(o)] = len(named)
                _walk_other(o, kind, walk, emit)
            else:
                emit(("seen", seen))
        else:
            _walk_other(o, kind, walk, emit)
        path.discard(id(o))

    walk(root)
    return out


_PLAIN = frozenset({int, float, bool, complex, bytes, type(None)})
#: attributes that never change a frame and differ from run to run: where in memory the
#: mobject a copy was made from lay. (The direction of a sheen counts only where there is
#: one: a glyph set anew and one read from the text store point theirs differently.)
_UNDRAWN = frozenset({"original_id"})


def _walk_other(o: Any, kind: type, walk: Any, emit: Any) -> None:
    """What :func:`fingerprint` meets beside dicts, lists, tuples and arrays of numbers."""
    if isinstance(o, np.void):  # a record of a structured array
        emit(("record", o.dtype.descr))
        walk(o.item())
    elif isinstance(o, (np.generic, enum.Enum)):
        emit(("value", kind.__name__, repr(o)))
    elif kind is np.ndarray:
        emit(("objects", o.shape))
        for item in o.flat:
            walk(item)
    elif kind is set or kind is frozenset:
        emit(("set", len(o)))
        for item in sorted(o, key=repr):
            walk(item)
    elif isinstance(o, PurePath):  # a file read when the mobject was made (a text's SVG):
        emit(("path", o.name))  # its folder is the render's own, or the process's first
    elif isinstance(o, (types.FunctionType, types.MethodType)):
        _walk_function(o, walk, emit)
    elif isinstance(o, type):
        emit(("class", o.__module__, o.__qualname__))
    elif isinstance(o, types.ModuleType):
        emit(("module", o.__name__))
    elif isinstance(o, functools.partial):
        emit(("partial",))
        walk([o.func, o.args, o.keywords])
    elif isinstance(o, types.BuiltinFunctionType):
        emit(("builtin", getattr(o, "__module__", None), o.__qualname__))
    else:
        emit(("object", kind.__module__, kind.__qualname__))
        state = getattr(o, "__dict__", None)
        if state is not None:
            walk(state)
        slots = [s for c in kind.__mro__ for s in getattr(c, "__slots__", ())
                 if s != "__dict__"]
        if slots:
            walk([getattr(o, s, None) for s in slots])
        if state is None and not slots:
            text = repr(o)
            emit(("repr", None if " at 0x" in text else text))


def _walk_function(f: Any, walk: Any, emit: Any) -> None:
    """A function as what it computes: its code (constants and nested code included),
    defaults, closure and the globals its code names (modules only by name)."""
    if isinstance(f, types.MethodType):
        emit(("method",))
        walk(f.__self__)
        f = f.__func__
    code = f.__code__
    emit(("function", f.__module__, f.__qualname__, _code_bytes(code)))
    walk([f.__defaults__, f.__kwdefaults__,
          [cell.cell_contents for cell in f.__closure__ or () if _filled(cell)]])
    named = [(n, f.__globals__[n]) for n in _global_names(code) if n in f.__globals__]
    walk([(n, v) for n, v in named if not isinstance(v, types.ModuleType)])


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _code_bytes(code: types.CodeType) -> bytes:
    """The compiled code, its constants and names, nested code included."""
    consts = [_code_bytes(c) if isinstance(c, types.CodeType) else repr(c).encode()
              for c in code.co_consts]
    return b"\0".join([code.co_code, *consts, *(n.encode() for n in code.co_names)])


@functools.lru_cache(maxsize=4096)
def _global_names(code: types.CodeType) -> tuple[str, ...]:
    nested = [n for c in code.co_consts if isinstance(c, types.CodeType)
              for n in _global_names(c)]
    return tuple(dict.fromkeys([*code.co_names, *nested]))


def digest(parts: Any) -> str:
    """A key for ``parts`` (JSON-able), with the tools' and this code's versions."""
    text = json.dumps([_versions(), parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Store:
    """What the beat cache keeps in ``folder``: files named ``KEY`` and a suffix, each the
    SHA-256 of its payload, then the payload."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def entry(self, key: str, suffix: str = SUFFIX) -> Path:
        return self.folder / f"{key}{suffix}"

    def read(self, key: str, suffix: str = SUFFIX) -> bytes | None:
        """The payload kept under ``key``; None when there is none or it is damaged."""
        return files.read_sealed(self.entry(key, suffix))

    def write(self, key: str, payload: bytes, suffix: str = SUFFIX) -> None:
        """Keep ``payload`` under ``key`` (whole or not at all)."""
        files.write_sealed(self.entry(key, suffix), payload)

    def take(self, key: str, target: Path) -> bool:
        """Write the segment kept under ``key`` to ``target``; False when there is none."""
        segment = self.read(key)
        if segment is None:
            return False
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(segment)
        return True

    def keep(self, key: str, segment: Path) -> None:
        """Keep the segment file ``segment`` under ``key``."""
        try:
            self.write(key, segment.read_bytes())
        except OSError:
            pass


def renderer(store: Store, encoder: dict[str, str], size: tuple[int, int, int],
             only: frozenset[str] | None = None) -> Any:
    """Manim's Cairo renderer with the project's segment writer
    (:class:`production.stills.StillFrameWriter`), taking each play's segment from
    ``store`` when it is kept there and keeping each one it draws. ``drawn`` and
    ``reused`` on it list the plays (by index) each way; ``beats`` names each play's beat;
    ``kept`` maps each segment it drew to its key.

    With ``only`` (beat names) it draws the plays of those beats alone, and skips the
    others as it skips a kept play: a job of a render spread over workers by beats, which
    fills the cache and writes no video (a play before the first beat goes with it)."""
    from manim import config
    from manim.renderer.cairo_renderer import CairoRenderer

    from production.stills import StillFrameWriter

    class Writer(StillFrameWriter):
        keys: dict[int, str]
        kept: dict[str, Path]

        def finish(self) -> None:
            """Wait for the segments being encoded, keep the new ones, then join them
            (not for a job of some beats: their video is joined by the scene's job)."""
            if self.output_spec.is_video:
                self.join_all_encode_jobs()
                for index, key in self.keys.items():
                    path = self.partial_movie_files[index]
                    if path is not None:
                        store.keep(key, Path(path))
                        self.kept[key] = Path(path)
            if only is None:
                super().finish()

    class Reusing(CairoRenderer):
        def __init__(self) -> None:
            super().__init__(file_writer_class=Writer)
            self.drawn: list[int] = []
            self.reused: list[int] = []
            self.beats: list[str | None] = []

        def init_scene(self, scene: Any, *args: Any, **kwargs: Any) -> None:
            super().init_scene(scene, *args, **kwargs)
            self.file_writer.keys = {}
            self.file_writer.kept = self.kept = {}

        def play(self, scene: Any, *args: Any, **kwargs: Any) -> None:
            self.skip_animations = self._original_skipping_status
            self.update_skipping_status()
            scene.compile_animation_data(*args, **kwargs)
            writer, index = self.file_writer, self.num_plays
            beat = getattr(scene, "_beat", None)
            self.beats.append(beat.name if beat is not None else None)
            if self.skip_animations:  # a scene built without video: nothing to keep
                self.time += scene.duration
                writer.add_partial_movie_file(None)
                self._run(scene, index, write=False)
                return
            if only is not None and (self.beats[-1] or next(iter(scene.beat_seconds), None)) \
                    not in only:
                writer.add_partial_movie_file(None)  # another job's beat
                self._skip_as_drawn(scene, index)
                return
            media = str(Path(config.media_dir).absolute())
            key = play_key(scene, self.camera, encoder, size, media)
            writer.add_partial_movie_file(f"play_{index:05}")
            if store.take(key, Path(writer.partial_movie_files[index])):
                self.reused.append(index)
                self._skip_as_drawn(scene, index)
                return
            writer.keys[index] = key
            self.drawn.append(index)
            self._run(scene, index, write=True)

        def _run(self, scene: Any, index: int, *, write: bool) -> None:
            """The rest of Manim's play: the segment opened, the frames drawn, closed."""
            self.file_writer.begin_animation(write, animation_index=index)
            scene.begin_animations()
            self.save_static_frame_data(scene, scene.static_mobjects)
            if scene.is_current_animation_frozen_frame():
                self.update_frame(scene, mobjects=scene.moving_mobjects)
                self.freeze_current_frame(scene.duration)
            else:
                scene.play_internal()
            self.file_writer.end_animation(write)
            self.num_plays += 1

        def _skip_as_drawn(self, scene: Any, index: int) -> None:
            """The play run as drawing runs it, frame by frame (an animation that moves a
            mobject step by step ends where it would), without a frame drawn; the clock
            advanced by each frame as drawing advances it."""
            scene.begin_animations()
            self.static_image = None
            dt = 1 / self.camera.frame_rate
            if scene.is_current_animation_frozen_frame():
                self.time += int(scene.duration / dt) * dt
            else:
                if all(stepless(a) for a in scene.animations):
                    self.skip_animations = True  # straight to the end state
                    scene.play_internal()
                    scene.update_mobjects(0)
                    self.skip_animations = self._original_skipping_status
                else:
                    scene.play_internal(skip_rendering=True)
                for _ in np.arange(0, scene.duration, 1 / config["frame_rate"]):
                    self.time += 1 * dt
            self.num_plays += 1

    return Reusing()


#: Manim's animations whose end state is a function of their start alone (each frame is
#: set from the starting copy and the target, never moved on from the frame before):
#: skipped straight to their end, they end exactly where drawing them frame by frame
#: ends. Any other (one that moves a mobject step by step, as MoveAlongPath does, or
#: calls the author's function) is stepped through its frames without drawing them.
STEPLESS = frozenset({
    "FadeIn", "FadeOut", "Transform", "ReplacementTransform", "TransformFromCopy",
    "MoveToTarget", "_MethodAnimation", "Create", "Uncreate", "Write", "Unwrite",
    "DrawBorderThenFill", "ShowPassingFlash", "GrowFromEdge", "GrowFromCenter",
    "GrowFromPoint", "GrowArrow", "SpinInFromNothing", "FadeTransform", "Wait",
})
GROUPS = frozenset({"AnimationGroup", "LaggedStart", "Succession"})


def stepless(animation: Any) -> bool:
    """Whether ``animation`` (and every animation in it) is in :data:`STEPLESS`."""
    kind = type(animation)
    if kind.__module__.startswith("manim.") and kind.__name__ in GROUPS:
        return all(stepless(a) for a in animation.animations)
    return kind.__module__.startswith("manim.") and kind.__name__ in STEPLESS


def beats_drawn(renderer: Any) -> list[str]:
    """The beats (in order) of which ``renderer`` drew at least one play."""
    return list(dict.fromkeys(renderer.beats[i] for i in renderer.drawn
                              if renderer.beats[i] is not None))
