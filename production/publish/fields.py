"""The files publishing reads back (manifest.json, shorts.json, course.json, chapters.txt),
read as the kinds their fields must be.

A hand-edited file may hold another encoding, the same key twice, or a field of the wrong
kind (a tags string instead of a list, which a list() would split into letters). Each is
one line naming the file and the field, and what it should be: never a traceback, never
a silent misreading.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from production.errors import UsageError


def text_of(path: Path, again: str) -> str:
    """``path`` read as UTF-8 text; ``again``: how to make the file anew."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror}); {again}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text (byte {error.start}); save it as UTF-8, "
                         f"or {again}") from None


def no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise ValueError(f"the key {key!r} is given twice")
        found[key] = value
    return found


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def read_object(path: Path, again: str) -> Fields:
    """The JSON object in ``path``, as :class:`Fields`."""
    try:
        data = json.loads(text_of(path, again), object_pairs_hook=no_twice,
                          parse_constant=_not_json)
    except ValueError as error:
        raise UsageError(f"{path}: not readable JSON ({error}); {again}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: not a JSON object; {again}")
    return Fields(data, path, "", again)


class Fields:
    """A JSON object's fields, each read as the kind it must be."""

    def __init__(self, data: dict[str, Any], path: Path, where: str, again: str) -> None:
        self.data, self.path, self.where, self.again = data, path, where, again

    def _refuse(self, name: str, value: Any, kind: str) -> UsageError:
        shown = json.dumps(value, ensure_ascii=False)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return UsageError(f"{self.path}: {self.where}{name} is {shown}; it should be {kind} "
                          f"({self.again})")

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    def text(self, name: str, default: str | None = None) -> str:
        value = self.data.get(name)
        if value is None and default is not None:
            return default
        if not isinstance(value, str):
            raise self._refuse(name, value, "text")
        return value

    def number(self, name: str, default: float | None = None) -> float:
        value = self.data.get(name)
        if value is None and default is not None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value) or value < 0:
            raise self._refuse(name, value, "a number of 0 or more")
        return float(value)

    def whole(self, name: str, default: int | None = None) -> int:
        value = self.data.get(name)
        if value is None and default is not None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self._refuse(name, value, "a whole number of 1 or more")
        return value

    def texts(self, name: str) -> list[str]:
        """A list of texts (none when the field is missing or null)."""
        value = self.data.get(name)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self._refuse(name, value, "a list of texts, such as [\"a\", \"b\"]")
        return value

    def mapping(self, name: str) -> dict[str, Any]:
        """An object (an empty one when the field is missing or null)."""
        value = self.data.get(name)
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self._refuse(name, value, "an object")
        return value

    def each(self, name: str) -> list[Fields]:
        """A list of objects, each as :class:`Fields`."""
        value = self.data.get(name)
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self._refuse(name, value, "a list of objects")
        return [Fields(v, self.path, f"{self.where}{name}[{i}].", self.again)
                for i, v in enumerate(value)]
