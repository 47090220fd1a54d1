"""Set text kept between runs: the curves of every text Manim set, by what it set.

Setting a text is two steps. Pango lays it out as an SVG (about 2 ms), and Manim
parses that SVG into curves, glyph by glyph (60-90 ms in pure Python). Parsing is most
of what building a scene costs, and the same labels come back in every scene, every
frame and every run. The store keeps the parsed glyphs of each SVG in the cache's
``texts/`` folder, keyed on the SVG's own bytes (so on the text, the font this machine
has and the size: whatever Pango drew), the style Manim parses it with, and the versions
of the tools that parse and hold it. A text found there is the same curves, bit for bit:
a render with a warm store writes the same bytes as one with a cold store.

An entry is ``KEY.glyphs``: the SHA-256 of what follows it, then the glyphs, pickled and
compressed. An entry that does not match its hash is set again and written anew; a
folder the store cannot write to only makes it slower.
"""

from __future__ import annotations

import functools
import hashlib
import pickle
import platform
import re
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Any

from production import files, paths

#: bumped when what an entry holds changes
STORE_VERSION = "1"
SUFFIX = ".glyphs"
#: the one part of Pango's SVG that is not the text: cairo numbers each drawing surface it
#: makes in a process, and the SVG names its group for it ("surface52"); Manim names the
#: group's VGroup after it
SURFACE = re.compile(rb'id="(surface\d+)"')


def texts_dir() -> Path:
    """The store: ``texts/`` in the cache folder."""
    return paths.cache() / "texts"


@functools.lru_cache(maxsize=1)
def _versions() -> bytes:
    tools = (f"{package}={metadata.version(package)}"
             for package in ("manim", "svgelements", "numpy"))
    return "\n".join([STORE_VERSION, platform.python_version(), *tools]).encode()


def key(svg: bytes, setting: Any) -> str:
    """The key of the glyphs Manim parses from ``svg`` as ``setting`` says (its class,
    default style, path options and renderer)."""
    digest = hashlib.sha256(_versions())
    digest.update(repr(setting).encode())
    digest.update(svg)
    return digest.hexdigest()


def load(entry: Path) -> Any | None:
    """What ``entry`` holds, or None when it is missing or damaged."""
    payload = files.read_sealed(entry)
    if payload is None:
        return None
    try:
        return pickle.loads(zlib.decompress(payload))
    except Exception:  # a payload that hashes right but does not load: set it again
        return None


def save(entry: Path, kept: Any) -> None:
    """Write ``kept`` as ``entry`` (whole or not at all); a store that cannot be written
    to is passed over."""
    files.write_sealed(entry, zlib.compress(pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL),
                                            1))


def generate_from(folder: Path, parse: Any) -> Any:
    """A stand-in for ``SVGMobject.generate_mobject`` (``parse``) that reads the glyphs
    from ``folder`` when they were set before, and keeps them there when not."""
    def generate_mobject(self: Any) -> Any:
        from manim import config

        setting = (type(self).__name__, self.svg_default, self.path_string_config,
                   str(config.renderer))
        svg = self.get_file_path().read_bytes()
        surface = SURFACE.search(svg)
        here = surface[1].decode() if surface else None
        same = SURFACE.sub(b'id="surface"', svg)
        entry = folder / f"{key(same, setting)}{SUFFIX}"
        kept = load(entry)
        if kept is not None:
            glyphs, groups = kept
            self.add(*glyphs)
            self.id_to_vgroup_dict = {here if name is None else name: group
                                      for name, group in groups.items()}
            return self
        parse(self)
        for glyph in self.get_family():  # the parsed SVG path: only OpenGL reads it again
            glyph.__dict__.pop("path_obj", None)
        save(entry, (self.submobjects, {None if name == here else name: group
                                        for name, group in self.id_to_vgroup_dict.items()}))
        return self

    return generate_mobject


@contextmanager
def kept_in(folder: Path) -> Iterator[None]:
    """Within the block, every text Manim sets is read from or kept in ``folder``."""
    from manim.mobject.svg.svg_mobject import SVGMobject

    parse = SVGMobject.__dict__["generate_mobject"]
    SVGMobject.generate_mobject = generate_from(folder, parse)
    try:
        yield
    finally:
        SVGMobject.generate_mobject = parse
