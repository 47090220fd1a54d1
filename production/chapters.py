"""A chapter, as the pipeline is given it: a value, never an import of scenes/.

A chapter is one folder of a package (``scenes/attention/``): its scene modules, its
narration (``narration/SCENE.txt``) and a ``chapter.py`` whose ``CHAPTER`` is a
:class:`Chapter`. :func:`discover` finds every such folder; the command hands the
chosen one to the pipeline, and worker processes (local or on a cluster) get it
back by importing the module that defines it (a Chapter pickles as that name).
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from core import palette as default_palette
from core.ledgers import Ledger
from production.errors import NarrationError, UsageError, quoted

#: a chapter's name: what --chapter takes, and the name of its folder
NAME = re.compile(r"^[a-z][a-z0-9_]*\Z")  # \Z: a name ending in a line break is not one

#: beside the chapters' folders: their names in course order, one a line (`render.py
#: course` plays them in this order; a chapter it does not name comes after, by name),
#: and the course's title on a ``title:`` line
COURSE = "course.txt"


@dataclass(frozen=True, eq=False)
class Chapter:
    """What the pipeline needs to know of a chapter, in one place."""

    name: str  # --chapter NAME; also its folder's name
    title: str  # on the thumbnail, in the manifest and the slide decks
    scenes: tuple[Any, ...]  # the Scene classes, in the order they play
    ledger: Ledger  # every number its scenes show, by section, and its --set parameters
    narration: Path  # its passages: one SCENE.txt per scene, a [beat] passage per beat
    recordings: Path  # SCENE/BEAT.wav: a recorded voice that replaces the synthetic one
    thumbnail: tuple[str, str]  # (scene, beat): the beat's last frame becomes the thumbnail
    module: str  # the module whose CHAPTER this is (how a worker finds it again)
    palette: ModuleType = field(default=default_palette)  # its colours, for decks too
    summary: str = ""  # one paragraph: what the chapter teaches (a video site's description)
    tags: tuple[str, ...] = ()  # a few words a video site can file it under
    #: the language it is drawn and spoken in (production/language.py; "en", its source)
    language: str = "en"
    #: a draft in ``language``: English stands in for what is not translated yet
    draft: bool = False
    #: its translation's catalogue digest ("" in English): part of every scene's key
    translation: str = ""
    #: the untranslated strings a draft shows in English (0 for a complete translation)
    fallbacks: int = 0
    #: what a viewer can work by hand beside the video (production/demo/spec.py), if any
    demo: Any = None

    def by_name(self) -> dict[str, Any]:
        return {scene.__name__: scene for scene in self.scenes}

    def scene(self, name: str) -> Any:
        return self.by_name()[name]

    def roots(self) -> tuple[Path, ...]:
        """The folder its modules are imported from (on sys.path): where the cache looks
        for the code its scenes run."""
        top = self.module.split(".")
        here = Path(importlib.import_module(self.module).__file__ or ".").resolve()
        return (here.parents[len(top) - 1],)

    def next_title(self) -> str:
        """The title of the chapter after this one in the course ("" for the last), which
        its end card names."""
        package, _ = self.module.rsplit(".", 1)
        parent = package.rpartition(".")[0]
        ordered = course(discover(parent, Path(importlib.import_module(parent).__path__[0])))
        names = [c.name for c in ordered]
        later = names[names.index(self.name) + 1:] if self.name in names else []
        if not later:
            return ""
        after = ordered[names.index(later[0])]
        if self.language == "en":
            return after.title
        import production.translation.catalogue as catalogue
        import production.translation.messages as messages

        if self.language not in catalogue.languages(after):
            return after.title  # not translated: its own title, as it will be shown
        return messages.load(after, self.language).on_screen.get(after.title, after.title)

    def home(self) -> Path:
        """The chapter's folder (where its chapter.py is)."""
        return Path(importlib.import_module(self.module).__file__ or ".").resolve().parent

    def in_language(self, language: str, *, draft: bool = False,
                    checked: bool = False) -> Chapter:
        """This chapter in ``language``, made active in this process: its title, summary
        and tags translated, its narration the translated passages, its voice recordings
        the ones of that language (``assets/voice/LANGUAGE/``). English is itself. A
        UsageError (one line) for a language it has no catalogue for, or, unless
        ``draft``, a string or passage whose translation is missing or fuzzy. ``checked``:
        the render already looked for those (a worker, a course's later step), so the
        chapter's English is not extracted again to compare."""
        import production.translation.messages as messages
        from production import language as active

        source = load(self.module)
        if language == active.SOURCE:
            active.use(active.SOURCE)
            return source
        found = messages.load(source, language, draft=draft, gaps=not checked)
        if found.gaps and not draft:
            raise UsageError(messages.gap_line(source, found))
        active.use(language, found.on_screen, strict=not draft)
        told = active._
        return replace(source, language=language, draft=draft, translation=found.digest,
                       title=told(source.title), summary=told(source.summary),
                       tags=tuple(told(t) for t in source.tags),
                       narration=messages.narration_folder(source, found),
                       recordings=source.recordings / language,
                       fallbacks=len(found.gaps) if not checked else self.fallbacks)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.language != "en":
            return load_in, (self.module, self.language, self.draft)
        return load, (self.module,)


def load(module: str) -> Chapter:
    """The CHAPTER of ``module`` (imported once per process)."""
    chapter = getattr(importlib.import_module(module), "CHAPTER", None)
    if not isinstance(chapter, Chapter):
        raise UsageError(f"{module} defines no CHAPTER (a production.chapters.Chapter)")
    return chapter


def load_in(module: str, language: str, draft: bool) -> Chapter:
    """The CHAPTER of ``module`` in ``language``, made active in this process (how a worker
    gets a translated chapter back)."""
    return load(module).in_language(language, draft=draft, checked=True)


class Chapters(dict):
    """The chapters found, by name; ``broken`` names each folder whose chapter.py does
    not import, with one line saying where and why."""

    broken: dict[str, str]


def discover(package: str, folder: Path) -> Chapters:
    """Every chapter under ``folder`` (the package ``package``): each subfolder with a
    ``chapter.py``, by name, in the order of their names. A folder whose chapter does not
    import is set aside in ``broken`` (the others still work); two folders giving one
    chapter name are a UsageError naming both."""
    found, where = Chapters(), {}
    found.broken = {}
    for sub in sorted(p for p in folder.iterdir() if (p / "chapter.py").is_file()):
        try:
            chapter = load(f"{package}.{sub.name}.chapter")
        except Exception as error:  # the author's code: any error, shown as one line
            found.broken[sub.name] = why(error, sub / "chapter.py")
            continue
        if chapter.name in where:
            raise UsageError(f"two chapters are named {chapter.name!r}: "
                             f"{_shown(where[chapter.name])} and {_shown(sub)}; rename one")
        found[chapter.name], where[chapter.name] = chapter, sub
    return found


def _shown(path: Path) -> str:
    """A path as the author knows it: from the project's folder when inside it."""
    from production.paths import ROOT

    path = path.resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def why(error: BaseException, file: Path) -> str:
    """One line: ``file`` does not import, where (the last line of the project's own code
    the error passed through) and the error."""
    import traceback

    from production.paths import ROOT

    if isinstance(error, SyntaxError) and error.filename:
        at = f"{_shown(Path(error.filename))}:{error.lineno}"
        told = f"SyntaxError: {error.msg}"
    else:
        def authored(filename: str) -> bool:  # the chapters' own code, not the pipeline's
            path = Path(filename).resolve()
            if filename.startswith("<") or not path.is_file():
                return False
            if path.is_relative_to(file.resolve().parent.parent):
                return True
            inside = path.relative_to(ROOT) if path.is_relative_to(ROOT) else None
            return inside is not None and not inside.parts[0].startswith((".", "production"))

        frames = [f for f in traceback.extract_tb(error.__traceback__) if authored(f.filename)]
        at = f"{_shown(Path(frames[-1].filename))}:{frames[-1].lineno}" if frames \
            else _shown(file)
        told = f"{type(error).__name__}: {error}".splitlines()[0][:200]
    return f"{_shown(file)} does not import ({at}: {told})"


def course(chapters: dict[str, Chapter]) -> list[Chapter]:
    """``chapters`` (from :func:`discover`) in course order: as the course file beside
    their folders names them, then those it does not name, by name. A name it gives that
    is not a chapter, or gives twice, is a UsageError."""
    listed, _, names = _course_file(chapters)
    broken = getattr(chapters, "broken", {})  # named, but set aside: the others play on
    names = [n for n in names if n not in broken]
    unknown = [n for n in names if n not in chapters]
    if unknown:
        raise UsageError(f"{listed}: {quoted(unknown[0])} is not a chapter; chapters: "
                         f"{', '.join(chapters)}")
    twice = [n for i, n in enumerate(names) if n in names[:i]]
    if twice:
        raise UsageError(f"{listed}: {quoted(twice[0])} is listed twice; a course plays each "
                         "chapter once")
    return [chapters[n] for n in dict.fromkeys([*names, *sorted(chapters)])]


def course_title(chapters: dict[str, Chapter], language: str = "en") -> str:
    """The course's title: the course file's ``title:`` line (``title.CODE:`` in another
    language); without one, the only chapter's title, or "A course in N chapters"."""
    titles = _course_file(chapters)[1]
    title = titles.get(language) or titles.get("en", "")
    if title or not chapters:
        return title
    return untitled_course([chapter.title for chapter in chapters.values()])


def untitled_course(titles: list[str]) -> str:
    """What a course without a title is called: its only chapter's title, or "A course
    in N chapters"."""
    return titles[0] if len(titles) == 1 else f"A course in {len(titles)} chapters"


def _course_file(chapters: dict[str, Chapter]
                 ) -> tuple[Path, dict[str, str], list[str]]:
    """The course file beside the chapters' folders: its path, its titles by language and
    the chapter names it lists. A line is a chapter's name, ``title: TEXT`` (English),
    ``title.CODE: TEXT`` (another language's), blank, or a ``#`` note."""
    if not chapters:
        return Path(COURSE), {}, []
    folder = Path(importlib.import_module(next(iter(chapters.values())).module).__file__
                  or ".").resolve().parent.parent
    listed = folder / COURSE
    return (listed, *course_listing(listed))


def course_listing(listed: Path) -> tuple[dict[str, str], list[str]]:
    """The course file ``listed`` read: its titles by language and the chapter names it
    lists (none when there is no such file). UTF-8 text, with or without a byte order
    mark; a folder there or text that does not read is a UsageError naming it."""
    if listed.is_dir():
        raise UsageError(f"{listed}: a folder, not a file; the course file lists a "
                         "chapter's name a line")
    try:
        lines = listed.read_text(encoding="utf-8-sig").splitlines() if listed.exists() \
            else []
    except UnicodeDecodeError as error:
        raise UsageError(f"{listed}: not UTF-8 text (byte {error.start}); save it as UTF-8") \
            from None
    except OSError as error:
        raise UsageError(f"{listed}: cannot be read ({error.strerror or error})") from None
    titles: dict[str, str] = {}
    names: list[str] = []
    for line in (line.strip() for line in lines):
        titled = re.match(r"title(?:\.([a-z]{2,3}(?:_[A-Z]{2})?))?:", line)
        if titled:
            titles[titled.group(1) or "en"] = line[titled.end():].strip()
        elif line and not line.startswith("#"):
            names.append(line)
    return titles, names


def pick(chapters: dict[str, Chapter], name: str) -> Chapter:
    """The chapter named ``name``; a UsageError lists the names there are, or says why
    the folder of that name does not import."""
    broken = getattr(chapters, "broken", {})
    if name not in chapters and name in broken:
        raise UsageError(f"--chapter {name!r}: {broken[name]}")
    if name not in chapters:
        raise UsageError(f"--chapter {name!r}: unknown chapter; chapters: "
                         f"{', '.join(chapters) or 'none'}")
    return chapters[name]


def listing(chapters: dict[str, Chapter], *, as_json: bool = False) -> str:
    """Every chapter with its scenes in order: a line for the chapter, one per scene; or
    as JSON ``{"chapters": [{"name", "title", "scenes"}, ...]}``."""
    found = [{"name": c.name, "title": c.title, "scenes": [s.__name__ for s in c.scenes]}
             for c in chapters.values()]
    broken = getattr(chapters, "broken", {})
    if as_json:
        return json.dumps({"chapters": found, **({"broken": [
            {"folder": name, "error": line} for name, line in broken.items()]}
            if broken else {})}, indent=1, ensure_ascii=False)
    return "\n".join([*(f"{c['name']}: {c['title']}\n" + "\n".join(f"  {s}" for s in c["scenes"])
                       for c in found),
                      *(f"{name}: not listed: {line}" for name, line in broken.items())])


def problems(chapter: Chapter) -> list[str]:
    """What does not fit in ``chapter``, one line each: a ledger section no scene shows,
    a scene whose section is not in the ledger, a scene without a readable narration
    file (a passage per beat, no others), a narration file no scene reads."""
    return parts_problems(chapter.scenes, chapter.ledger.sections, chapter.narration)


def parts_problems(scenes: Any, sections: Any, narration_dir: Path) -> list[str]:
    """:func:`problems` of these parts: scenes, ledger sections, a narration folder."""
    from production.narration.script import read_script

    scenes = list(scenes)
    shown = {scene.section for scene in scenes}
    found = [f"ledger section {s!r} is shown by no scene" for s in sections if s not in shown]
    for scene in scenes:
        if scene.section not in sections:
            found.append(f"{scene.__name__} shows section {scene.section!r}, "
                         "which the ledger does not have")
        try:
            read_script(scene.__name__, list(scene.beat_seconds), narration_dir)
        except NarrationError as error:
            found.append(str(error))
    names = {scene.__name__ for scene in scenes}
    found += [f"{path} is read by no scene" for path in sorted(narration_dir.glob("*.txt"))
              if path.stem not in names]
    return found
