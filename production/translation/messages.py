"""A chapter's translation, as a render uses it: the on-screen strings and the narration
passages of one language, read from its catalogue (production/translation/catalogue.py),
checked against the chapter's current English, and the passages written out as a
narration folder the pipeline reads like the English one.

A render in a language is strict: a string or passage of the current English without a
translation, or with a fuzzy one, is an error naming the scene and the string. With
``draft`` the English is used for each of them instead, and the render says how many.
"""

from __future__ import annotations

import hashlib
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from production import files, paths
from production.errors import UsageError
from production.translation import catalogue as catalogues
from production.translation import pofile

_MARK = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")


@dataclass(frozen=True)
class Translation:
    """One language of one chapter, as its catalogue holds it now."""

    language: str
    path: Path
    #: English -> translation, for every on-screen string translated and not fuzzy
    on_screen: dict[str, str]
    #: (scene, beat) -> translated passage, slots and marks in it
    passages: dict[tuple[str, str], str]
    #: the catalogue's SHA-256: part of every cache key of a render in this language
    digest: str
    #: what the current English has that this translation lacks: (scene, English, why)
    gaps: list[tuple[str, str, str]] = field(default_factory=list)


def _slots(text: str) -> set[str]:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    except ValueError:
        return {"(unmatched brace)"}


def _mismatch(english: str, translated: str) -> str | None:
    """Why a translated passage or string cannot stand for ``english``: a {slot} or <mark>
    dropped, added or renamed; None when it can."""
    for what, found in (("slot", _slots), ("mark", lambda t: set(_MARK.findall(t)))):
        lost, extra = found(english) - found(translated), found(translated) - found(english)
        if lost or extra:
            shape = "{%s}" if what == "slot" else "<%s>"
            names = ", ".join(shape % n for n in sorted(lost or extra))
            return f"its translation {'drops' if lost else 'adds'} the {what} {names}"
    return None


def load(chapter: Any, language: str, *, draft: bool = False, gaps: bool = True
         ) -> Translation:
    """``language``'s translation of ``chapter``; a UsageError when it has no catalogue
    (naming the languages there are; a draft is then all English) or one that cannot be
    read (a folder, a file that is not strictly a PO catalogue), or whose translation
    drops or adds a slot or mark. With ``gaps`` (the default) the chapter's current
    English is extracted and what the catalogue lacks listed."""
    path = catalogues.path_of(chapter, language)
    if not path.exists() and draft:
        from babel.messages.catalog import Catalog

        empty = Translation(language, path, {}, {}, "none")
        if gaps:
            empty.gaps.extend(missing_from(chapter, Catalog(locale=language)))
        return empty
    if not path.exists():
        have = ", ".join(["en", *catalogues.languages(chapter)])
        raise UsageError(f"--language {language}: chapter {chapter.name} has no {language} "
                         f"translation ({path} is missing); languages: {have} (start one "
                         f"with `render.py translate --chapter {chapter.name} --language "
                         f"{language}`)")
    data = pofile.contents(path)
    po = catalogues.read(path, data)
    on_screen: dict[str, str] = {}
    passages: dict[tuple[str, str], str] = {}
    for message in po:
        if not message.id or not message.string or message.fuzzy:
            continue
        problem = _mismatch(message.id, message.string)
        if problem:
            line = message.lineno or 0
            raise UsageError(f"{path}:{line}: {message.context or repr(message.id)}: "
                             f"{problem}; keep them as in the English")
        if message.context:
            scene, _, beat = message.context.partition(" [")
            passages[(scene, beat.rstrip("]"))] = message.string
        else:
            on_screen[message.id] = message.string
    found = Translation(language, path, on_screen, passages,
                        hashlib.sha256(data).hexdigest())
    if gaps:
        found.gaps.extend(missing_from(chapter, po))
    return found


def missing_from(chapter: Any, po: Any) -> list[tuple[str, str, str]]:
    """(scene, English, 'missing' or 'fuzzy') for every entry of the chapter's current
    English that ``po`` does not translate, in the order the chapter plays."""
    out = []
    for message in catalogues.template(chapter, po.locale_identifier or "xx"):
        if not message.id:
            continue
        have = po.get(message.id, message.context)
        why = "missing" if have is None or not have.string else \
            "fuzzy" if have.fuzzy else None
        if why is None:
            continue
        if message.context:
            scene = message.context
        else:
            said = message.auto_comments[0] if message.auto_comments else ""
            scene = said.removeprefix("On screen in ").split(";")[0].rstrip(".") \
                if said.startswith("On screen in ") else f"chapter {chapter.name}"
        out.append((scene, message.id, why))
    return out


def narration_folder(chapter: Any, translation: Translation) -> Path:
    """A folder of SCENE.txt files in the chapter's narration format holding the
    translated passages (the English one where a draft has none), in the cache, named by
    what it holds: the same catalogue gives the same folder and bytes."""
    english = catalogues.passages(chapter)
    by_scene: dict[str, list[str]] = {}
    for scene, beat, text, _ in english:
        passage = translation.passages.get((scene, beat), text)
        by_scene.setdefault(scene, []).append(f"[{beat}]\n{passage}\n")
    content = {f"{scene}.txt": "\n".join(parts) for scene, parts in by_scene.items()}
    digest = hashlib.sha256(repr(sorted(content.items())).encode()).hexdigest()[:16]
    target = paths.cache() / "languages" / f"{chapter.name}-{translation.language}-{digest}"
    for name, text in content.items():
        if not (target / name).is_file():
            target.mkdir(parents=True, exist_ok=True)
            files.write_text(target / name, text)
    return target


def gap_line(chapter: Any, translation: Translation) -> str:
    """The one line a strict render stops with: the first gap, and how many there are."""
    scene, english, why = translation.gaps[0]
    more = len(translation.gaps) - 1
    rest = f" (and {more} more)" if more else ""
    shown = english if len(english) <= 60 else english[:57] + "..."
    return (f"--language {translation.language}: {scene}: the {why} translation of "
            f"{shown!r} in {translation.path}{rest}; translate it, or render a draft with "
            "English in its place (--draft-language)")


__all__ = ["Translation", "gap_line", "load", "missing_from", "narration_folder"]
