"""A chapter's translation catalogue: one standard PO file per language in the chapter's
folder (``scenes/attention/locale/es.po``), which any PO editor (Poedit, Lokalize,
Weblate) opens.

It holds two kinds of entry, both with the English as ``msgid``:

- every on-screen string of the chapter's scene code, marked the gettext way
  (``_("light to give")``, or ``N_(...)`` for one kept in a class attribute or table),
  from the chapter's folder and the shared modules its scenes import; no context;
- every narration passage, with its ``{slots}`` and ``<marks>`` in the text, its
  context ``SCENE [beat]`` (so two beats saying the same sentence stay two entries).

:func:`update` extracts the current English (:func:`template`), keeps every translation
still wanted, carries a translation over as *fuzzy* when its English changed (a passage
by its beat, an on-screen string by the nearest English left without a match), keeps
the ones no longer wanted at the end as obsolete entries, and writes the file the same
way every time: the same sources and translations give the same bytes.
"""

from __future__ import annotations

import difflib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from production import files, paths
from production.errors import DiskFullError, UsageError, is_disk_full
from production.imports import closure, module_file
from production.translation import pofile

#: the keywords that mark an on-screen string in scene code
KEYWORDS = {"_": None, "N_": None}

#: the pipeline's own modules that show a viewer words (a short's title, the course page)
PIPELINE = ("production.outputs.shorts", "production.outputs.course", "production.voices")
#: the pipeline's modules that show words on a chapter's demo page (a chapter with a demo)
DEMO = ("production.demo.page",)

#: what a translator is told about the chapter's title, summary and tags
CHAPTER_NOTE = ("The chapter's title, summary or a tag: on its thumbnail, in its manifest "
                "and on the video site.")

#: what a translator is told about every narration passage
PASSAGE_NOTE = ("Narration, spoken and captioned. Keep every {slot} (a number or word the "
                "ledger fills in) and every <mark> (an animation starts on the word after "
                "it) as they are; move them with the words they belong to.")

#: a fixed date for the header: the file's bytes follow from its content alone
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)

#: how close an old English string must be to a new one to carry its translation over
CLOSE = 0.75


def folder(chapter: Any) -> Path:
    """Where a chapter keeps its catalogues: ``locale/`` in its folder (also for a
    chapter in another language, whose narration is read from the cache)."""
    return chapter.home() / "locale"


def path_of(chapter: Any, language: str) -> Path:
    return folder(chapter) / f"{language}.po"


def languages(chapter: Any) -> list[str]:
    """The languages a chapter has a catalogue for, by code, sorted."""
    where = folder(chapter)
    return sorted(p.stem for p in where.glob("*.po") if p.is_file()) if where.is_dir() \
        else []


def scene_files(chapter: Any, scene_class: Any) -> dict[str, Path]:
    """The project's scene code one scene runs: its module and the modules of scenes/
    it imports (not production/ or core/, which show nothing of their own)."""
    top = scene_class.__module__.split(".")[0]
    found = closure([scene_class.__module__], chapter.roots())
    return {name: path for name, path in sorted(found.items())
            if name.split(".")[0] == top}


def _relative(path: Path, chapter: Any) -> str:
    root = chapter.roots()[0]
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.name


def on_screen(chapter: Any) -> dict[str, list[tuple[str, int, str]]]:
    """Every marked string of the chapter's scene code: English -> [(file, line, first
    scene that shows it)], in the order the chapter plays its scenes."""
    from babel.messages.extract import extract_python

    chapter_file = Path(__import__(chapter.module, fromlist=["_"]).__file__ or "")
    found: dict[str, list[tuple[str, int, str]]] = {}
    seen_files: set[Path] = set()
    owners: list[tuple[str, Iterable[Path]]] = [("chapter", [chapter_file])]
    owners += [(sc.__name__, scene_files(chapter, sc).values()) for sc in chapter.scenes]
    owners.append(("the pipeline", [p for m in PIPELINE
                                    if (p := module_file(m, (paths.ROOT,))) is not None]))
    if getattr(chapter, "demo", None) is not None:  # its own words, and its page's
        top = chapter.demo.state.__module__.split(".")[0]
        found_in = closure([chapter.demo.state.__module__], chapter.roots())
        owners.append(("the demo", [*(p for name, p in sorted(found_in.items())
                                      if name.split(".")[0] == top),
                                    *(p for m in DEMO if (p := module_file(
                                        m, (paths.ROOT,))) is not None)]))
    for owner, sources in owners:
        for path in sources:
            if path in seen_files:
                continue
            seen_files.add(path)
            with path.open("rb") as handle:
                for line, _, text, _ in extract_python(handle, KEYWORDS, [], {}):
                    if isinstance(text, str) and text:
                        found.setdefault(text, []).append((_relative(path, chapter), line,
                                                           owner))
    return found


def passages(chapter: Any) -> list[tuple[str, str, str, int]]:
    """Every narration passage: (scene, beat, English with its slots and marks, line)."""
    from production.narration.script import _HEADER, decode, parse, script_path

    out = []
    for scene in chapter.scenes:
        path = script_path(scene.__name__, chapter.narration)
        if not path.exists():
            continue
        text = decode(path.read_bytes(), path)
        lines = {m.group(1): n for n, raw in enumerate(text.splitlines(), 1)
                 if (m := _HEADER.match(raw.strip()))}
        for beat, passage in parse(text, str(path)).items():
            out.append((scene.__name__, beat, passage, lines.get(beat, 1)))
    return out


def context(scene: str, beat: str) -> str:
    """A passage's context in the catalogue: 'SpotlightBudget [trace]'."""
    return f"{scene} [{beat}]"


def template(chapter: Any, language: str) -> Any:
    """The catalogue of the chapter's current English, with no translation."""
    from babel.messages.catalog import Catalog

    catalogue = Catalog(locale=language, project=f"chapter {chapter.name}",
                        creation_date=EPOCH, revision_date=EPOCH, fuzzy=False,
                        copyright_holder="", msgid_bugs_address="",
                        last_translator="", language_team="",
                        header_comment=(f"# The {language} translation of the chapter "
                                        f"{chapter.name!r}: every on-screen string and "
                                        "narration passage.\n# Brought up to date by "
                                        f"`render.py translate --chapter {chapter.name} "
                                        f"--language {language}`; see "
                                        "docs/translating.md."))
    for text, where in on_screen(chapter).items():
        scenes = sorted({owner for _, _, owner in where}, key=where_order(chapter))
        shown = "; ".join(CHAPTER_NOTE if s == "chapter" else f"On screen in {s}."
                          for s in scenes)
        catalogue.add(text, locations=[(f, n) for f, n, _ in where], auto_comments=[shown])
    for scene, beat, text, line in passages(chapter):
        catalogue.add(text, context=context(scene, beat),
                      locations=[(_relative(Path(chapter.narration) / f"{scene}.txt",
                                            chapter), line)],
                      auto_comments=[PASSAGE_NOTE])
    return catalogue


def where_order(chapter: Any) -> Any:
    order = {"chapter": -1} | {sc.__name__: i for i, sc in enumerate(chapter.scenes)} | \
        {"the pipeline": len(chapter.scenes)}
    return lambda name: order.get(name, len(order))


def read(path: Path, data: bytes | None = None) -> Any:
    """The PO file at ``path`` (its bytes ``data`` when already read), read strictly
    (production/translation/pofile.py): a one-line UsageError naming the file, and the
    line where there is one, for a file that is not a PO catalogue written to the letter
    or defines an entry twice, a folder, or a file that cannot be read."""
    from babel.messages.pofile import PoFileError, read_po

    lines = pofile.lines(pofile.contents(path) if data is None else data, path)
    try:
        return read_po(lines, abort_invalid=True)
    except PoFileError as error:  # its line number counts from 0, and ends its message
        said = re.sub(r" on \d+\Z", "", str(error).splitlines()[0])
        raise UsageError(f"{path}:{error.lineno + 1}: not a PO catalogue this can read: "
                         f"{said}") from None
    except ValueError as error:
        raise UsageError(f"{path}: not a PO catalogue this can read: "
                         f"{str(error).splitlines()[0]}") from None


@dataclass(frozen=True)
class Counts:
    translated: int
    fuzzy: int
    missing: int

    def line(self, path: str) -> str:
        total = self.translated + self.fuzzy + self.missing
        return (f"{path}: {total} entries: {self.translated} translated, {self.fuzzy} fuzzy, "
                f"{self.missing} missing")


def counts(catalogue: Any) -> Counts:
    t = f = m = 0
    for message in catalogue:
        if not message.id:
            continue
        if not message.string:
            m += 1
        elif message.fuzzy:
            f += 1
        else:
            t += 1
    return Counts(t, f, m)


def previous(message: Any) -> list[str]:
    """The English a fuzzy translation was made for: its ``#| msgid`` lines (Babel reads
    them back as translator comments starting with '|')."""
    if message.previous_id:
        return list(message.previous_id) if not isinstance(message.previous_id, str) \
            else [message.previous_id]
    from babel.messages.pofile import unescape

    lines = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
    quoted = [unescape(m) for line in lines if not line.startswith("msgctxt")
              for m in re.findall(r'"(?:[^"\\]|\\.)*"', line)]
    return ["".join(quoted)] if quoted else []


def _own_comments(message: Any) -> list[str]:
    """A translator's own comments on an entry (not the ``#|`` previous English)."""
    return [c for c in message.user_comments if not c.startswith("|")]


def _revived(old: Any, message: Any) -> Any | None:
    """The obsolete entry of ``old`` for ``message``'s English, marked fuzzy (an
    obsolete entry is written without its flags, so whether it was checked is not
    known); None when there is none."""
    key = (message.id, message.context) if message.context else message.id
    found = old.obsolete.get(key)
    if found is None or not found.string:
        return found
    found.flags.add("fuzzy")
    return found


def merged(old: Any | None, new: Any) -> Any:
    """``new`` (a template) with the translations of ``old`` carried over: exact ones as
    they were, changed English as fuzzy (a passage by its beat, a string by the nearest
    unmatched English), and the ones no longer wanted kept as obsolete (a translation or
    a translator's comment), brought back as fuzzy when their English returns."""
    if old is None:
        return new
    used: set[Any] = set()
    old_by_context = {m.context: m for m in old if m.id and m.context}
    loose = [m.id for m in old if m.id and not m.context and m.string]
    for message in new:
        if not message.id:
            continue
        exact = old.get(message.id, message.context)
        if exact is None:  # English that came back: its obsolete translation, as fuzzy
            exact = _revived(old, message)
        if exact is not None:
            message.user_comments = _own_comments(exact)
        if exact is not None and exact.string:
            message.string = exact.string
            if exact.fuzzy:
                message.flags.add("fuzzy")
                message.previous_id = previous(exact)
            used.add((exact.id, exact.context))
            continue
        before = old_by_context.get(message.context) if message.context else None
        if before is None and not message.context:
            near = difflib.get_close_matches(message.id, [t for t in loose
                                                          if (t, None) not in used], 1, CLOSE)
            before = old.get(near[0]) if near else None
        if before is not None and before.string:
            message.string = before.string
            message.flags.add("fuzzy")
            message.previous_id = [before.id]
            message.user_comments = list(dict.fromkeys([*message.user_comments,
                                                        *_own_comments(before)]))
            used.add((before.id, before.context))
    for m in old:  # kept: a translation, or a translator's comment on an entry
        if m.id and (m.string or _own_comments(m)) and (m.id, m.context) not in used \
                and new.get(m.id, m.context) is None:
            new.obsolete[(m.id, m.context) if m.context else m.id] = m
    for key, m in list(old.obsolete.items()):
        if new.get(m.id, m.context) is None:
            new.obsolete.setdefault(key, m)
    return new


def text_of(catalogue: Any) -> bytes:
    """The PO file's bytes (line width 79, entries in extraction order)."""
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalogue, width=79, omit_header=False, include_previous=True)
    return out.getvalue()


def update(chapter: Any, language: str) -> tuple[Path, Counts]:
    """Write (or bring up to date) ``language``'s catalogue of ``chapter``. A catalogue
    that cannot be read whole, or a folder that cannot be written, is a UsageError, and
    the file is left as it was."""
    path = path_of(chapter, language)
    old = read(path) if path.exists() else None
    catalogue = merged(old, template(chapter, language))
    data = text_of(catalogue)
    try:
        files.write_bytes(path, data)
    except OSError as error:
        if is_disk_full(error):
            raise DiskFullError(path.parent, len(data)) from None
        why = "not a folder" if path.parent.exists() and not path.parent.is_dir() else \
            error.strerror or error
        raise UsageError(f"{path.parent}: cannot write the catalogue {path.name} there "
                         f"({why}); make it a folder you can write in") from None
    return path, counts(catalogue)


__all__ = ["Counts", "KEYWORDS", "context", "counts", "folder", "languages", "merged",
           "on_screen", "passages", "path_of", "read", "template", "text_of", "update"]
