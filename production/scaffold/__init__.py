"""`render.py new NAME`: a chapter to start from, that renders at once and passes its test.

It writes the chapter's folder (scenes/NAME/: chapter.py, one scene of two beats, its
narration with one mark), its numbers (core/NAME.py: one ledger section, computed with
numpy) and its test (tests/test_chapter_NAME.py), from the templates beside this file,
and adds it at the end of the course (scenes/course.txt). A
name that is taken or not allowed is one line (a UsageError) and nothing is written; the
files appear together or not at all.
"""

from __future__ import annotations

import argparse
import json
import keyword
import os
import re
import shutil
import tempfile
from pathlib import Path
from string import Template

from production.chapters import COURSE, NAME, course_listing
from production.errors import UsageError, quoted

HERE = Path(__file__).resolve().parent

#: the longest title a chapter may have (it is set on the thumbnail)
TITLE_LENGTH = 80

HELP = "start a new chapter that renders at once"
DESCRIPTION = ("Write a new chapter to start from: scenes/NAME/ (chapter.py, one scene of "
               "two beats, its narration with one mark), core/NAME.py (its numbers) and "
               "tests/test_chapter_NAME.py. Render it with `render.py render --chapter "
               "NAME`; docs/authoring.md goes on from there.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """What `render.py new` takes: the chapter's name and, optionally, its title."""
    parser.add_argument("name", metavar="NAME",
                        help="the chapter's name: lower case letters, digits and _")
    parser.add_argument("--title", help="its title (default: from the name)")


def handle(args: argparse.Namespace, root: Path) -> int:
    """`render.py new`, from its parsed options, in the project at ``root``; the exit
    status."""
    return new_command(root, args.name, args.title)


def new_chapter(root: Path, name: str, title: str | None = None) -> list[Path]:
    """Write chapter ``name`` into the project at ``root``; the paths written, in order."""
    if not NAME.match(name) or keyword.iskeyword(name):
        raise UsageError(f"new: {name!r} cannot name a chapter; a name is lower case letters, "
                         "digits and _, starting with a letter (not a Python keyword)")
    title = " ".join((title or name.replace("_", " ").capitalize()).split())
    if not title or len(title) > TITLE_LENGTH:
        raise UsageError(f"new: --title {quoted(title)}: a title is 1 to {TITLE_LENGTH} "
                         "characters")
    places = {"folder": root / "scenes" / name, "core": root / "core" / f"{name}.py",
              "test": root / "tests" / f"test_chapter_{name}.py"}
    taken = [p for p in (*places.values(), root / "core" / name) if p.exists()]
    if taken:
        raise UsageError(f"new: {name!r} is taken: {taken[0].relative_to(root)} exists; "
                         "choose another name (`render.py list` shows the chapters)")
    clash = shadowed(root, name)
    if clash:
        raise UsageError(f"new: {name!r} would shadow {clash}; choose another name")
    fill = {"name": name, "title": title.replace("\\", "/").replace('"', "'"),
            "title_literal": json.dumps(title, ensure_ascii=False)}
    with tempfile.TemporaryDirectory(dir=root, prefix=".new-") as scratch:
        staged = Path(scratch)
        folder = staged / "folder"
        (folder / "narration").mkdir(parents=True)
        _write(folder / "__init__.py", "")
        _write(folder / "chapter.py", _filled("chapter.py.tmpl", fill))
        _write(folder / "first_look.py", _filled("scene.py.tmpl", fill))
        _write(folder / "narration" / "FirstLook.txt", _filled("narration.txt.tmpl", fill))
        _write(staged / "core", _filled("core.py.tmpl", fill))
        _write(staged / "test", _filled("test.py.tmpl", fill))
        course = root / "scenes" / COURSE  # the course plays it last
        course_listing(course)  # a folder there, or text that does not read: one line
        listed = course.read_text(encoding="utf-8") if course.exists() else ""
        _write(staged / "course", listed + ("" if listed.endswith("\n") or not listed
                                            else "\n") + name + "\n")
        moved: list[Path] = []
        try:
            for part, target in places.items():
                os.rename(staged / part, target)
                moved.append(target)
            os.replace(staged / "course", course)
        except OSError as error:
            for target in moved:  # all of it or none of it
                shutil.rmtree(target) if target.is_dir() else target.unlink()
            raise UsageError(f"new: cannot write {target}: {error.strerror}") from None
    return [places["folder"], places["core"], places["test"], course]


_IMPORTED = re.compile(r"^(?:from \S+ )?import (.+)$", re.MULTILINE)


def shadowed(root: Path, name: str) -> str | None:
    """What a chapter called ``name`` would hide, or None: a module or package of
    scenes/ or core/ (its folder scenes/NAME/ and its core/NAME.py stand beside them, and
    the package's name would then mean the chapter), or a name its generated files
    import (its test imports ``core.NAME`` as NAME, beside numpy as np and the rest)."""
    for folder in ("scenes", "core"):
        for path in (root / folder / f"{name}.py", root / folder / name / "__init__.py"):
            if path.exists():
                return f"the module {folder}.{name} ({path.relative_to(root)})"
    for template in sorted(HERE.glob("*.tmpl")):
        for imported in _IMPORTED.findall(template.read_text(encoding="utf-8")):
            if name in (part.split(" as ")[-1].strip() for part in imported.split(",")):
                return f"the name {name}, which its generated {template.stem} imports"
    return None


def new_command(root: Path, name: str, title: str | None) -> int:
    """`render.py new`: write the chapter and say what was written and what to run next."""
    for path in new_chapter(root, name, title):
        shown = path.relative_to(root)
        print(f"wrote {shown}/" if path.is_dir() else f"wrote {shown}")
    print(f"next: ./run video --chapter {name} --quality preview; "
          f"./run test tests/test_chapter_{name}.py")
    return 0


def _filled(template: str, fill: dict[str, str]) -> str:
    return Template((HERE / template).read_text(encoding="utf-8")).substitute(fill)


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
