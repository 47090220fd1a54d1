"""A chapter's ledger: its settable parameters and its sections, for any chapter.

A section is a function from the resolved settings to the plain numbers one part of
a chapter shows. ``--set SECTION.PARAM=VALUE`` changes a parameter's default; every
value is checked by its :class:`Param` and a bad one raises :class:`SettingError`
with a one-line message naming the parameter and what is allowed. Each chapter
builds one :class:`Ledger` from its models' functions in core/.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from core.digits import WRITTEN, NotDigits, decimal

#: resolved settings: section -> parameter -> value
Settings = dict[str, dict[str, Any]]


class SettingError(ValueError):
    """A --set value that is unknown or out of range; the message is one line."""


@dataclass(frozen=True)
class Param:
    """One settable parameter: its default, a parser from text, and what is allowed."""

    default: Any
    parse: Callable[[str], Any]
    allowed: str


def number(low: float, *, whole: bool = False, high: float = math.inf) -> Callable[[str], Any]:
    """A parser for a number above 0 in [low, high] (a whole one if ``whole``), written
    in the digits 0-9 (core/digits.py: not "٣", "1_000" or "inf")."""
    def parse(text: str) -> Any:
        value = decimal(text)
        if not math.isfinite(value):
            raise ValueError("not a finite number")
        if whole and value != int(value):
            raise ValueError("not a whole number")
        if not low <= value <= high or value <= 0:
            raise ValueError("out of range")
        return int(value) if whole else value

    return parse


def boolean(text: str) -> bool:
    table = {"true": True, "yes": True, "on": True, "1": True,
             "false": False, "no": False, "off": False, "0": False}
    if text.lower() not in table:
        raise ValueError("not true or false")
    return table[text.lower()]


def choice(options: Iterable[str]) -> Callable[[str], str]:
    options = tuple(options)

    def parse(text: str) -> str:
        if text not in options:
            raise ValueError("not one of the choices")
        return text

    return parse


@dataclass(frozen=True, eq=False)
class Ledger:
    """Every number a chapter shows, by section, with the parameters that change them.

    ``rules`` checks what no single parameter can (a SettingError when broken).
    Sections are worked out once per settings in a process (a model may train for a
    second or two), however often a scene, its narration and its cache key ask; each
    caller gets its own copy."""

    params: dict[str, dict[str, Param]]
    sections: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]]
    rules: Callable[[Settings], None] = lambda settings: None
    _worked_out: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict,
                                                                repr=False)

    def parse_settings(self, items: Iterable[str]) -> Settings:
        """``SECTION.PARAM=VALUE`` strings as checked values over the defaults."""
        settings: Settings = {s: {} for s in self.params}
        for item in items:
            name, sep, text = item.partition("=")
            section, dot, param = name.partition(".")
            if not sep or not dot:
                raise SettingError(f"--set {item!r}: expected SECTION.PARAM=VALUE")
            if section not in self.params:
                known = ", ".join(self.params) or "none"
                raise SettingError(f"--set {name}: unknown section {section!r}; "
                                   f"sections: {known}")
            if param not in self.params[section]:
                raise SettingError(f"--set {name}: unknown parameter; {section} takes: "
                                   + ", ".join(self.params[section]))
            spec = self.params[section][param]
            try:
                settings[section][param] = spec.parse(text)  # as typed: " 4" is no number
            except ValueError as error:
                written = f", {WRITTEN}" if isinstance(error, NotDigits) else ""
                raise SettingError(f"--set {name}={text!r}: must be {spec.allowed}"
                                   f"{written}") from None
        return self.resolve(settings)

    def resolve(self, settings: Mapping[str, Mapping[str, Any]] | None = None) -> Settings:
        """Fill in the defaults (parsed) and check the rules across parameters."""
        out: Settings = {}
        for section, params in self.params.items():
            given = dict((settings or {}).get(section, {}))
            out[section] = {
                name: given[name] if name in given else spec.parse(str(spec.default))
                if isinstance(spec.default, str) else spec.default
                for name, spec in params.items()
            }
        self.rules(out)
        return out

    def section(self, name: str,
                settings: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The numbers of one section, for the given (or default) settings."""
        resolved = self.resolve(settings)
        key = (name, json.dumps(resolved, sort_keys=True, default=repr))
        if key not in self._worked_out:
            self._worked_out[key] = self.sections[name](resolved)
        return copy.deepcopy(self._worked_out[key])

    def compute(self, settings: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
        """The whole ledger: a key per section, each a dict of plain data."""
        return {name: self.section(name, settings) for name in self.sections}
