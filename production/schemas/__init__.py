"""The files a bundle keeps and the project reads back, each read through its declared
schema (JSON Schema, draft 2020-12, checked by jsonschema): manifest.json, shorts.json,
course.json, publish.json and publish.toml. The schemas are the ``*.schema.json`` files
beside this module; a field's ``description`` says what it should be, and an error says
it.

A file is refused, in one line naming the file and, for a field, its path in the file
(``sites['https://…/'].videos['chapter.mp4'].body``), when it is not a regular file (a
folder where the file goes), larger than :data:`MAX_BYTES`, not UTF-8, not JSON (or TOML),
nested deeper than :data:`MAX_DEPTH`, or not as its schema says: a field of the wrong
kind, a required one missing, a language that is none (:func:`production.language.known`).
A byte-order mark at its start is forgiven. At most 80 characters of a value are quoted.
"""

from __future__ import annotations

import functools
import json
import stat
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError, best_match

from production import language
from production.errors import UsageError, one_line, shortened

HERE = Path(__file__).resolve().parent
MAX_BYTES = 8 * 1024 * 1024  # the largest file read: a long chapter's manifest is ~100 kB
MAX_DEPTH = 32  # arrays and objects within each other: a manifest nests 7 deep

#: the formats the schemas name, each the one check of its kind
FORMATS = FormatChecker(formats=())
FORMATS.checks("language")(lambda value: not isinstance(value, str) or language.known(value))


def schema(name: str) -> dict[str, Any]:
    """The schema of the file ``name`` ("manifest.json", "publish.toml", ...)."""
    return json.loads(_schema_text(name))


@functools.cache
def _schema_text(name: str) -> str:
    return (HERE / f"{name}.schema.json").read_text(encoding="utf-8")


def read(path: Path, of: str | dict[str, Any], again: str) -> Any:
    """The data in ``path`` (JSON; TOML for a .toml file), valid under the schema ``of``
    (a file's name, as for :func:`schema`, or a schema); a UsageError in one line
    otherwise. ``again``: how to make or mend the file, said after what is wrong."""
    text = _text(path, again)
    try:
        data = _parse(path, text)
    except RecursionError:
        raise UsageError(f"{path}: nested more than {MAX_DEPTH} deep; {again}") from None
    except (ValueError, tomllib.TOMLDecodeError) as error:
        kind = "a valid TOML file" if path.suffix == ".toml" else "readable JSON"
        raise UsageError(f"{path}: not {kind} ({one_line(str(error))}); {again}") from None
    if _deeper(data, MAX_DEPTH):
        raise UsageError(f"{path}: nested more than {MAX_DEPTH} deep; {again}")
    checker = _named(of) if isinstance(of, str) else Draft202012Validator(
        of, format_checker=FORMATS)
    error = best_match(checker.iter_errors(data))
    if error is not None:
        raise UsageError(f"{path}: {_said(error)} ({again})")
    return data


def _text(path: Path, again: str) -> str:
    try:
        found = path.stat()
        if stat.S_ISDIR(found.st_mode):
            raise UsageError(f"{path}: a folder, not a file; {again}")
        if not stat.S_ISREG(found.st_mode):
            raise UsageError(f"{path}: not a regular file; {again}")
        if found.st_size > MAX_BYTES:
            raise UsageError(f"{path}: {found.st_size:,} bytes; such a file is at most "
                             f"{MAX_BYTES:,}; {again}")
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror}); {again}") from None
    try:
        return data.decode("utf-8-sig")  # a byte-order mark is not part of the first field
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text (byte {error.start}); save it as UTF-8, "
                         f"or {again}") from None


def _parse(path: Path, text: str) -> Any:
    if path.suffix == ".toml":
        return tomllib.loads(text)
    return json.loads(text, object_pairs_hook=no_twice, parse_constant=_not_json)


def no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a ValueError for a key given twice (json keeps the
    last without a word)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key_of(key)} is given twice")
        found[key] = value
    return found


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _deeper(data: Any, most: int) -> bool:
    """Whether ``data`` has arrays or objects more than ``most`` within each other (walked
    without recursion, so that depth costs no stack)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > most:
                return True
            inner = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in inner)
    return False


@functools.cache
def _named(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name), format_checker=FORMATS)


# ----------------------------------------------------------------- saying what is wrong


def quoted(value: Any) -> str:
    """``value`` as an error shows it: as JSON writes it, on one line, cut as every
    error cuts what a user gave (production/errors.py's :func:`shortened`)."""
    return shortened(one_line(json.dumps(value, ensure_ascii=False, default=str)))  # TOML: dates


def key_of(name: str) -> str:
    """A key as an error shows it: as Python writes it, on one line, cut as every error
    cuts what a user gave (:func:`shortened`)."""
    return shortened(one_line(repr(name)))


def field(parts: Iterable[str | int]) -> str:
    """A field's path in a file, as Python would index it: ``clips[0].parts``,
    ``videos['chapter.mp4'].body``."""
    said = ""
    for part in parts:
        if isinstance(part, int):
            said += f"[{part}]"
        elif part.isidentifier() and part.isascii():
            said += f".{part}" if said else part
        else:
            said += f"[{key_of(part)}]"
    return said


def _said(error: ValidationError) -> str:
    """What ``error`` finds wrong, naming the field: "tags is "a b"; it should be ..."."""
    where = list(error.absolute_path)
    should = error.schema.get("description") if isinstance(error.schema, dict) else None
    if "propertyNames" in error.absolute_schema_path:
        return f"{field(where) or 'the file'} has the key {key_of(error.instance)}; it " \
               f"should be {should or 'another'}"
    if error.validator == "required":  # said by the field's description, or else by the
        # description of the rule that requires it (an "if"/"then": a published video's)
        missing = next(n for n in error.validator_value if n not in error.instance)
        properties = error.schema.get("properties")
        wanted = (properties or {}).get(missing, {}).get("description")
        why = f"; it should be {wanted}" if wanted else "" if properties else f"; {should}"
        return f"{field([*where, missing])} is missing{why}"
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = next(k for k in error.instance if k not in known)
        return f"{field(where) + ': ' if where else ''}unknown key {key_of(extra)}; it " \
               f"takes {', '.join(known)}"
    return f"{field(where) or 'the file'} is {quoted(error.instance)}; it should be " \
           f"{should or 'as its schema says'}"
