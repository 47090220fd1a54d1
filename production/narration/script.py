"""The narration file format and a scene's script: ``NARRATION/SCENE.txt`` holds one
passage per beat::

    [beat_name]
    The words spoken over that beat, on one or more lines.

read (:func:`read_script`, :func:`parse`, :func:`decode`: UTF-8 text, no control
characters) and filled (:func:`fill`: a ``{slot}`` is a plain name, filled with a value
and nothing else). A scene's passages come with its ledger's values filled in and its
marks taken out (:func:`marked_script`, :func:`script_for`; production/narration/marks.py).
"""

from __future__ import annotations

import codecs
import re
import string
from pathlib import Path
from typing import Any

import production.narration.marks as marks
from production.errors import NarrationError

_HEADER = re.compile(r"^\[([A-Za-z0-9_]+)\]\s*$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def parse(text: str, source: str = "narration") -> dict[str, str]:
    """Passages by beat name, in file order. Lines before the first header are an error,
    and so are control characters (a passage is plain text)."""
    passages: dict[str, list[str]] = {}
    current: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        control = _CONTROL.search(line)
        if control:
            raise NarrationError(f"{source}:{number}: control character "
                                 f"U+{ord(control.group()):04X} in the text; a passage is "
                                 "plain text (letters, digits, punctuation, spaces)")
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = _HEADER.match(stripped)
        if header:
            current = header.group(1)
            if current in passages:
                raise NarrationError(f"{source}:{number}: beat [{current}] appears twice")
            passages[current] = []
        elif current is None:
            raise NarrationError(f"{source}:{number}: text before the first [beat] header")
        else:
            passages[current].append(stripped)
    return {beat: " ".join(lines) for beat, lines in passages.items()}


def script_path(scene: str, root: Path) -> Path:
    return root / f"{scene}.txt"


def read_script(scene: str, beats: list[str], root: Path) -> dict[str, str]:
    """The passages of one scene; every beat must have one, and no others."""
    path = script_path(scene, root)
    if root.exists() and not root.is_dir():
        raise NarrationError(f"{root}: a file, not a folder; the narration is a folder of "
                             "SCENE.txt files")
    if path.is_dir():
        raise NarrationError(f"{path}: a folder, not a file; {scene}'s narration is a "
                             "narration file, SCENE.txt, of [beat] passages")
    if not path.exists():
        raise NarrationError(f"no narration for {scene}: expected {path}")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise NarrationError(f"{path}: cannot be read ({error.strerror or error})") from None
    passages = parse(decode(data, path), str(path))
    missing = [b for b in beats if not passages.get(b)]
    extra = [b for b in passages if b not in beats]
    if missing:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: no passage for beat [{missing[0]}]; beats: {known}")
    if extra:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: unknown beat [{extra[0]}]; beats: {known}")
    return passages


def decode(data: bytes, path: Path) -> str:
    """A narration file's text: UTF-8, with or without a byte order mark."""
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as error:
        at = skip + error.start
        line = data.count(b"\n", 0, at) + 1
        raise NarrationError(f"{path}: not UTF-8 text: byte {at} (line {line}) is "
                             f"0x{data[at]:02x}; save the narration as UTF-8") from None


_SLOT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SLOT_RULE = ("a slot is a plain name in braces, such as {total} (letters, digits and _, "
             "not starting with a digit); write {{ and }} for a literal brace")


def fill(template: str, values: dict[str, str], where: str) -> str:
    """Put the scene's spoken values into {name} slots of a passage.

    A slot is a name and nothing else: no attribute, index, conversion or format
    (``str.format`` would evaluate ``{x.upper}``); anything else is a NarrationError
    naming ``where`` (file and beat) and the slot.
    """
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError as error:
        raise NarrationError(f"{where}: unmatched brace ({error}); {SLOT_RULE}") from None
    out = []
    for literal, field, spec, conversion in pieces:
        out.append(literal)
        if field is None:
            continue
        if conversion or spec or not _SLOT_NAME.fullmatch(field):
            slot = "{" + field + (f"!{conversion}" if conversion else "") + \
                (f":{spec}" if spec else "") + "}"
            raise NarrationError(f"{where}: slot {slot} is not allowed: {SLOT_RULE}")
        if field not in values:
            known = ", ".join(values) or "none"
            raise NarrationError(f"{where}: unknown value {{{field}}}; known: {known}")
        out.append(str(values[field]))
    return "".join(out)


def numbers_of(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
               ) -> dict[str, Any]:
    """The scene's ledger section in ``chapter``'s ledger at ``settings``."""
    section = scene_class.section
    return chapter.ledger.section(section, settings) if section else {}


def spoken_values(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
                  ) -> dict[str, str]:
    """The values a scene's narration may name, from its ledger section."""
    return scene_class.spoken(numbers_of(chapter, scene_class, settings))


def marked_script(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
                  ) -> dict[str, tuple[str, dict[str, int]]]:
    """The scene's passages by beat: the text with its values filled in and its marks
    taken out, and each mark's word (see production/narration/marks.py). The marks must
    be the ones the scene waits for (``scene_class.marks``); otherwise a NarrationError
    naming the file and line."""
    name, narration_dir = scene_class.__name__, chapter.narration
    passages = filled(name, list(scene_class.beat_seconds),
                       spoken_values(chapter, scene_class, settings), narration_dir)
    try:
        marks.check(name, getattr(scene_class, "marks", {}),
                    {beat: found for beat, (_, found) in passages.items()},
                    script_path(name, narration_dir))
    except marks.MarkError as error:
        raise NarrationError(str(error)) from None
    return passages


def filled(scene: str, beats: list[str], values: dict[str, str],
            narration_dir: Path) -> dict[str, tuple[str, dict[str, int]]]:
    """A scene's passages by beat, values filled in and marks taken out (with their
    words' indices)."""
    path = script_path(scene, narration_dir)
    try:
        return {beat: marks.split(fill(text, values, f"{path} [{beat}]"), path, beat)
                for beat, text in read_script(scene, beats, narration_dir).items()}
    except marks.MarkError as error:
        raise NarrationError(str(error)) from None


def script_for(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
               ) -> dict[str, str]:
    """The scene's passages with their values filled in (and marks taken out), by beat."""
    return {beat: text for beat, (text, _) in
            marked_script(chapter, scene_class, settings).items()}
