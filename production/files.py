"""Files written whole or not at all, and their hashes: the one home of both.

Every file the project writes (into out/ or the cache) is written under a hidden,
unique ``.NAME.PID-XXXX.part`` name beside its target and renamed into place when
complete (so two renders never write the same temporary file, and no reader ever
sees half a file); a failed write removes its temporary file, and those a killed
run left are removed by :func:`clear_partials` at the start of the next (in the
folders it writes, by that name, when their writer is gone). A temporary
name carries the id of the process writing it (:func:`temporary`), so a render that
kills one of its workers removes what that worker was writing (:func:`clear_partials_of`)
and nothing another render is writing beside it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: the permissions a new file gets (mkstemp's are 0600; a published file is for sharing)
FILE_MODE = 0o666 & ~_umask()


def temporary(folder: Path, name: str, suffix: str = ".part") -> Path:
    """A new empty file in ``folder`` under a unique hidden name for ``name``:
    ``.NAME.PID-RANDOM`` then ``suffix``, PID this process's id."""
    handle, path = tempfile.mkstemp(dir=folder, prefix=f".{name}.{os.getpid()}-",
                                    suffix=suffix)
    os.close(handle)
    return Path(path)


def clear_partials_of(folder: Path, pids: Iterable[int]) -> None:
    """Remove the temporary files (:func:`temporary`) that the processes ``pids``, killed,
    left in ``folder``; other processes' are left alone."""
    for pid in pids:
        for stale in folder.glob(f".*.{pid}-*"):
            stale.unlink(missing_ok=True)


@contextmanager
def writing(target: Path) -> Iterator[Path]:
    """A unique hidden temporary path beside ``target`` to write; renamed to ``target``
    when the block completes, removed when it fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = temporary(target.parent, target.name)
    try:
        os.chmod(partial, FILE_MODE)
        yield partial
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def write_bytes(target: Path, data: bytes) -> Path:
    with writing(target) as partial:
        partial.write_bytes(data)
    return target


def write_text(target: Path, text: str) -> Path:
    with writing(target) as partial:
        partial.write_text(text, encoding="utf-8")
    return target


def publish(source: Path, target: Path) -> Path:
    """Copy ``source`` to ``target`` through a hidden temporary name."""
    with writing(target) as partial:
        shutil.copyfile(source, partial)
    return target


@contextmanager
def named_without(paths: list[Path], avoid: frozenset[str]) -> Iterator[list[Path]]:
    """``paths``, absolute, under names holding none of the characters ``avoid``, for a
    tool that cannot take them (Manim's folder templates, ffmpeg's concat listings): each
    path itself when its name has none, else a symbolic link to it from a fresh temporary
    folder (in /tmp when $TMPDIR's own name has one), removed on the way out. The files
    stay where they are, on their own disk."""
    real = [path.absolute() for path in paths]
    if not any(avoid & set(str(path)) for path in real):
        yield real
        return
    links = Path(tempfile.mkdtemp(prefix="explainer-links-"))
    if avoid & set(str(links)):
        links.rmdir()
        links = Path(tempfile.mkdtemp(prefix="explainer-links-", dir="/tmp"))
    try:
        named = []
        for number, path in enumerate(real):
            if avoid & set(str(path)):
                suffix = "" if avoid & set(path.suffix) else path.suffix
                (links / f"{number}{suffix}").symlink_to(path)
                path = links / f"{number}{suffix}"
            named.append(path)
        yield named
    finally:
        shutil.rmtree(links, ignore_errors=True)  # the links, never what they point to


#: a temporary name as :func:`temporary` makes it (``.NAME.PID-RANDOM.part``), and a
#: folder as :func:`staging` makes it (``.staged.PID-RANDOM``)
_PARTIAL = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)-[a-z0-9_]{8}\.part\Z")
_STAGED = re.compile(r"^\.staged\.(?P<pid>\d+)-[a-z0-9_]{8}\Z")


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A hidden folder in ``out`` to write a whole output into; production/written.py
    then moves it into place. Whatever is left of it is removed on the way out, so an
    output that fails half-way (or is refused) leaves ``out`` as it was."""
    out.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=out, prefix=f".staged.{os.getpid()}-"))
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def clear_partials(*folders: Path) -> None:
    """Remove what interrupted runs left half-written in ``folders``, each folder itself
    and not below it: only files named as :func:`temporary` names them, and only those of
    a writer that is no longer running (a run writing beside this one keeps its own).
    A file the project did not write is never touched."""
    for folder in folders:
        try:
            entries = list(folder.iterdir())
        except OSError:
            continue
        for stale in entries:
            found = _PARTIAL.match(stale.name)
            if found and not stale.is_symlink() and stale.is_file() \
                    and not _running(int(found["pid"])):
                stale.unlink(missing_ok=True)
            found = _STAGED.match(stale.name)
            if found and not stale.is_symlink() and stale.is_dir() \
                    and not _running(int(found["pid"])):
                shutil.rmtree(stale, ignore_errors=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (this one included)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read now (a cache entry's seal is checked with it)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.lru_cache(maxsize=256)
def _remembered(path: str, size: int, mtime_ns: int) -> str:
    return sha256(Path(path))


def sha256_once(path: Path) -> str:
    """:func:`sha256`, computed once per process for a file that has not changed since
    (same path, size and modification time): for large inputs read often (voice models)."""
    stat = path.stat()
    return _remembered(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


#: how a sealed cache file begins: this tag, the name it was written as, a line break
SEAL = b"sealed 2\n"


def _head(name: str) -> bytes:
    return SEAL + name.encode() + b"\n"


def read_sealed(entry: Path) -> bytes | None:
    """The payload of a sealed cache file, marked as used now so pruning keeps it; None
    when it is missing, damaged, or was written for another name (an entry copied over
    another's: its name is its key, so it would be served for what it was not made for)."""
    try:
        data = entry.read_bytes()
    except OSError:
        return None
    head = _head(entry.name)
    if not data.startswith(head) or len(data) < len(head) + 32:
        return None
    check, payload = data[len(head):len(head) + 32], data[len(head) + 32:]
    if hashlib.sha256(payload).digest() != check:
        return None
    try:
        os.utime(entry)
    except OSError:
        pass
    return payload


def write_sealed(entry: Path, payload: bytes) -> None:
    """Write ``payload`` as a sealed cache file, whole or not at all: the name it is
    written as (its key) and the payload's SHA-256, then the payload. A folder that cannot
    be written to is passed over (a cache only makes the work faster)."""
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(entry, _head(entry.name) + hashlib.sha256(payload).digest() + payload)
    except OSError:
        pass
