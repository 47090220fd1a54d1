"""Which of the project's files a module runs: its own, and those of the project modules
it imports, transitively, read from the source (nothing is imported).

A scene's cache key hashes exactly these files, so editing one scene's file redraws
that file's scenes, editing a component redraws the scenes that use it, and editing
code that no scene runs (the shorts, the slides, publishing) redraws none.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from collections.abc import Iterable
from pathlib import Path

from production import files


def module_file(name: str, roots: tuple[Path, ...]) -> Path | None:
    """The file of module ``name`` (``a/b.py`` or ``a/b/__init__.py``) under the first of
    ``roots`` that has it; None for a module of no root (the standard library, a package)."""
    parts = name.split(".")
    for root in roots:
        base = root.joinpath(*parts)
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def _package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


@functools.cache
def _imported(path: Path, name: str, mtime_ns: int) -> tuple[str, ...]:
    """Every module name ``path`` (module ``name``) imports anywhere in its body, the
    names a ``from X import Y`` brings in included (Y may be a module)."""
    tree = ast.parse(path.read_bytes(), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(name, path).split(".")
                base = ".".join(package[:len(package) - node.level + 1])
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append(module)
            found += [f"{module}.{alias.name}" for alias in node.names]
    return tuple(found)


def closure(modules: Iterable[str], roots: tuple[Path, ...]) -> dict[str, Path]:
    """Every project module that ``modules`` run, by name: themselves, what they import
    under ``roots`` (transitively), and the packages (``__init__.py``) on the way."""
    seen: dict[str, Path] = {}
    missed: set[str] = set()  # names of no project file (an imported class, a package's)
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen or name in missed or not name:
            continue
        path = module_file(name, roots)
        if path is None:
            missed.add(name)
            continue
        seen[name] = path
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        todo += _imported(path, name, path.stat().st_mtime_ns)
    return seen


def fingerprint(modules: Iterable[str], roots: tuple[Path, ...]) -> str:
    """A hash of the names and contents of every file :func:`closure` finds (each file's
    SHA-256 worked out once per process while it is unchanged: a render asks for every
    scene's and every variant's key)."""
    digest = hashlib.sha256()
    for name, path in sorted(closure(modules, roots).items()):
        digest.update(f"{name} {files.sha256_once(path)}\n".encode())
    return digest.hexdigest()
