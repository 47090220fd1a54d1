"""Only our own files: an output published into its folder without overwriting anything
the project did not write there. The one home of it, for every output (the chapter's
bundle, slides, shorts, a sweep, a course, a demo).

An output is written whole into a hidden staging folder in its output folder
(:func:`publishing`, through :func:`production.files.staging`), then published: each
file moved into place, and the folder's record (:data:`RECORD`, a hidden JSON listing of
every file the project wrote there, by its path in the folder, with its SHA-256) brought
up to date. Before anything is moved every file in the way is checked. It is replaced
only when the record names it with the bytes it holds now (the project wrote it, and no
one changed it since) or it already holds the very bytes that would replace it (the same
output made again, or by a version that kept no record). Any other file, a folder or a
link in the way, or a record that does not read, stops the output before anything is
moved: a UsageError naming the file and what to do, and the folder is left as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from production import files
from production.errors import UsageError

#: the record's name in an output folder
RECORD = ".written"
#: what the record says of itself (a file of this name that does not say so is not ours)
SAYS = "the files render.py wrote in this folder, with their SHA-256; it replaces no other"
#: what every refusal ends with
WHAT_TO_DO = "move it away or choose another --out (nothing was written)"


@contextmanager
def publishing(out: Path, last: str = "manifest.json") -> Iterator[Path]:
    """A hidden staging folder in ``out`` to write a whole output into, published into
    ``out`` (:func:`publish`) when the block completes; removed whatever happens."""
    with files.staging(out) as stage:
        yield stage
        publish(stage, out, last)


def write_text(out: Path, name: str, text: str) -> Path:
    """One text file published as ``out``/``name`` (UTF-8), as a whole output is."""
    with publishing(out, last=name) as stage:
        (stage / name).parent.mkdir(parents=True, exist_ok=True)
        (stage / name).write_text(text, encoding="utf-8")
    return out / name


def publish(stage: Path, out: Path, last: str = "manifest.json") -> list[str]:
    """Every file under ``stage`` moved to its place under ``out`` (``last`` at the end: a
    reader of it finds every file it names already there) and recorded; a UsageError, and
    nothing moved, when a file in the way is not the project's (see the module). Returns
    the paths published, relative to ``out``."""
    names = sorted((p.relative_to(stage).as_posix() for p in stage.rglob("*")
                    if p.is_file() and not p.is_symlink()),
                   key=lambda name: (name == last, name))
    record = recorded(out)
    digests = {name: files.sha256(stage / name) for name in names}
    found = list(dict.fromkeys(problem for name in names if (problem := in_the_way(
        out, name, record, digests[name], (stage / name).stat().st_size))))  # a folder once
    if found:
        more = f" (and {len(found) - 1} more file(s) in the way)" if len(found) > 1 else ""
        raise UsageError(f"{found[0]}{more}; {WHAT_TO_DO}")
    kept = {name: sums for name, sums in record.items() if os.path.lexists(out / name)}
    # Recorded first with both contents: a publish cut short leaves no file unrecorded.
    _write(out, kept | {name: sorted({*kept.get(name, ()), d}) for name, d in digests.items()})
    for name in names:
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(stage / name, target)
    _write(out, kept | {name: [d] for name, d in digests.items()})
    return names


def recorded(out: Path) -> dict[str, list[str]]:
    """The files the record in ``out`` names, each with the SHA-256 (hex) it may hold;
    empty when there is no record, a UsageError when what has its name is not one."""
    path = out / RECORD
    if not os.path.lexists(path):
        return {}
    try:
        if path.is_symlink() or not path.is_file():
            raise ValueError
        data = json.loads(path.read_text(encoding="utf-8"))
        listed = data["files"]
        if data.get("record") != SAYS or not isinstance(listed, dict) or not all(
                isinstance(sums, list) and all(isinstance(s, str) for s in sums)
                for sums in listed.values()):
            raise ValueError
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise UsageError(f"{path}: in the way: render.py keeps its record of what it wrote "
                         f"in this folder under that name, and that is not one; "
                         f"{WHAT_TO_DO}") from None
    return listed


def in_the_way(out: Path, name: str, record: dict[str, list[str]], digest: str,
               size: int) -> str | None:
    """Why the file ``name`` (its path in ``out``), to be published with the SHA-256
    ``digest`` and ``size`` bytes, may not be: what is in its way, said as the start of
    an error; None when nothing is, or the project's own unchanged file is."""
    parts = Path(name).parts
    for depth in range(1, len(parts)):  # its folders: real folders, never a link out
        folder = out.joinpath(*parts[:depth])
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            kind = "a link" if folder.is_symlink() else "a file"
            return f"{folder}: in the way: {kind} where render.py writes a folder"
    target = out / name
    if not os.path.lexists(target):
        return None
    if target.is_symlink() or not target.is_file():
        kind = "a link" if target.is_symlink() else \
            "a folder" if target.is_dir() else "not a regular file"
        return f"{target}: in the way: {kind} where render.py writes a file"
    sums = record.get(name, [])
    if (sums or target.stat().st_size == size) and files.sha256(target) in {*sums, digest}:
        return None
    if sums:
        return f"{target}: in the way: changed since render.py wrote it"
    return f"{target}: in the way: render.py did not write it"


def _write(out: Path, listed: dict[str, list[str]]) -> None:
    files.write_text(out / RECORD, json.dumps({"record": SAYS, "files": dict(sorted(
        listed.items()))}, indent=1, ensure_ascii=False) + "\n")
