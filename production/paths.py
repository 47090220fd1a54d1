"""Where the project reads and writes, decided once, and whether a folder can be written.

``EXPLAINER_CACHE`` moves the cache folder (the benchmark uses it for cold runs);
it is read whenever the cache is asked for, never fixed when a module is imported.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from production.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"


def out() -> Path:
    """The default output folder (absolute, as ROOT is)."""
    return ROOT / "out"


def out_for(chapter: object) -> Path:
    """The default output folder of a render of ``chapter``: out/, or out/LANGUAGE/ for a
    chapter in another language than English (its bundle, slides, shorts and sweeps)."""
    language = getattr(chapter, "language", "en")
    return out() / language if language != "en" else out()


def cache() -> Path:
    """The cache folder: $EXPLAINER_CACHE, else .cache/ in the project (read at each call,
    so a test or a library user can move it at any time). Always absolute: a relative
    $EXPLAINER_CACHE is taken from the folder the command runs in, whatever folder a step
    of the render (an ffmpeg run, a worker) works in."""
    return absolute(os.environ.get("EXPLAINER_CACHE") or ROOT / ".cache")


def absolute(path: str | os.PathLike[str]) -> Path:
    """``path`` from the folder the command runs in, made absolute (not following links)."""
    return Path(os.path.abspath(path))


def writable_dir(path: str, what: str) -> Path:
    """The folder (not created yet), absolute: a relative ``a:b`` would be read by ffmpeg
    as a protocol. A UsageError unless a file can be made there."""
    if not path.strip():
        raise UsageError(f"{what}: the folder name is empty; give a folder to write into")
    target = absolute(path)  # a worker or a tool may run in another folder
    check_name_lengths(target, what)
    probe = target
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"{what} {path}: {probe} is not a folder")
    try:  # /proc, /sys and read-only mounts pass an access() check but take no files
        with tempfile.NamedTemporaryFile(dir=probe, prefix=".probe-"):
            pass
    except OSError as error:
        raise UsageError(f"{what} {path}: cannot write there ({error.strerror or error}); "
                         "choose a writable folder") from None
    return target


#: the project's source folders: an output folder inside one would mix outputs with code
SOURCES = ("core", "scenes", "production", "tests", "bench", "scripts", "assets", "docs",
           ".venv", ".git")


#: system folders, refused as an output folder with everything inside them ...
SYSTEM_TREES = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
                "/proc", "/run", "/sbin", "/snap", "/sys", "/usr", "/var/cache", "/var/lib",
                "/var/log", "/var/mail", "/var/spool")
#: ... and these themselves (a folder of its own inside one is fine: /srv/site, /tmp/video)
SYSTEM_FOLDERS = ("/", "/home", "/media", "/mnt", "/opt", "/root", "/srv", "/tmp", "/var",
                  "/var/tmp")


def system_folder(real: Path) -> str | None:
    """What ``real`` (a folder's path, its links resolved) is when a render must not write
    into it: the system folder (or home folder) it is or is inside, said as a phrase."""
    def forms(folder: str) -> set[Path]:
        return {Path(folder), Path(os.path.realpath(folder))}  # /bin is /usr/bin on Debian

    for tree in SYSTEM_TREES:
        for form in forms(tree):
            if real == form or real.is_relative_to(form):
                return f"{'' if real == form else 'inside '}a system folder ({form})"
    if any(real in forms(folder) for folder in SYSTEM_FOLDERS):
        return f"a system folder ({real})"
    home = os.path.expanduser("~")
    if home != "~" and real in forms(home):
        return "the home folder"
    return None


def output_dir(path: str, what: str = "--out") -> Path:
    """:func:`writable_dir` for an output folder, which may not be a system folder, the
    user's home folder itself, the project's own folder, inside a source folder of it or
    inside the cache (where pruning may delete what lands there): a UsageError says which,
    before anything is written there."""
    if path.strip():
        found = system_folder(Path(os.path.realpath(absolute(path))))
        if found:
            raise UsageError(f"{what} {path}: that is {found}; write into a folder of its "
                             "own (the default is out/)")
    target = writable_dir(path, what)
    root, cache_dir, real = ROOT.resolve(), cache().resolve(), target.resolve()
    if real == root:
        raise UsageError(f"{what} {path}: that is the project's own folder; write into a "
                         "folder of its own (the default is out/)")
    if real == cache_dir or real.is_relative_to(cache_dir):
        raise UsageError(f"{what} {path}: that is inside the cache ({cache_dir}), which "
                         "pruning cleans; choose a folder outside it")
    for source in SOURCES:
        if real == root / source or real.is_relative_to(root / source):
            raise UsageError(f"{what} {path}: that is inside the project's {source}/; "
                             "choose a folder outside the code (the default is out/)")
    return target


#: bytes of path the project adds under an output or cache folder (Manim's segments
#: under a scene's work folder are the deepest), kept free of the system's PATH_MAX
PATH_ROOM = 512


def check_name_lengths(target: Path, what: str) -> None:
    """A UsageError when a name in the absolute path ``target`` is longer than its file
    system takes (in bytes: 255 on most), or the whole path leaves no room under it for
    what the render writes there (PATH_MAX, 4096 on Linux, less :data:`PATH_ROOM`)."""
    existing = target
    while existing != existing.parent:
        try:
            if existing.is_dir():
                break
        except OSError:  # a name too long to look up
            pass
        existing = existing.parent
    longest_name = os.pathconf(existing, "PC_NAME_MAX")
    for name in target.parts:
        size = len(os.fsencode(name))
        if size > longest_name:
            shown = name if len(name) <= 32 else name[:32] + "..."
            raise UsageError(f"{what}: the name {shown!r} is {size} bytes long; a file or "
                             f"folder name may be at most {longest_name} bytes on its file system")
    longest_path = os.pathconf(existing, "PC_PATH_MAX") - PATH_ROOM
    size = len(os.fsencode(str(target)))
    if size > longest_path:
        raise UsageError(f"{what}: the path is {size} bytes long; it may be at most "
                         f"{longest_path} bytes (the system's {longest_path + PATH_ROOM}, "
                         f"less {PATH_ROOM} for the names made under it)")
