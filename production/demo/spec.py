"""What a chapter declares of its demo: its controls, the state the page shows for each
setting of them (computed by the chapter from core/, formatted as the scenes format), the
narrated moments and the core functions its "Run it" shows.

Its words are marked for translation as a scene's are (``N_`` here, and ``_`` in its
``state``); they are translated, and its values read (``shown``), when the page is built,
in the language the render is in.

The page computes nothing: every state of every combination of the controls' values is
built here, in Python, and written as data.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class _OneOf:
    """One of ``values`` (in order), each read as ``shown(value)``."""

    name: str
    label: str
    values: tuple[Any, ...]
    start: Any
    shown: Callable[[Any], str] = str


class Choice(_OneOf):
    """One of a few values, as radio buttons."""


class Slider(_OneOf):
    """One of many values in order, as a range input."""


@dataclass(frozen=True)
class Box:
    """On or off, as a check box."""

    name: str
    label: str
    start: bool = False
    values: tuple[bool, ...] = (False, True)
    shown: Callable[[Any], str] = str


Control = Choice | Slider | Box


@dataclass(frozen=True)
class Bar:
    """One bar of a state: what it is of, its length (a fraction of the longest a bar
    can be), its value as shown, and whether it is hidden (shown dark, its value 0)."""

    label: str
    length: float
    value: str
    hidden: bool = False


@dataclass(frozen=True)
class State:
    """What the page shows for one setting of every control."""

    bars: tuple[Bar, ...]
    said: str  # the bars in one sentence, for a screen reader
    note: str  # a line under the bars
    printed: str  # what the "Run it" code prints at this setting
    numbers: tuple[Any, ...]  # the figures the bars show, as core gives them (for tests)


@dataclass(frozen=True)
class Moment:
    """A narrated clip: beats ``beats`` of ``scene`` rendered with ``settings`` (--set
    items), played when the controls reach ``when`` (a value for every control)."""

    name: str  # its clip's file name, without extension
    title: str  # {NAME} for each control's value as it reads
    when: dict[str, Any]
    scene: str
    beats: tuple[str, ...]
    settings: tuple[str, ...] = ()
    #: the figures the clip's scene shows, from its numbers (the ledger's section at
    #: ``settings``): these must be the figures of ``when``'s state
    shows: Callable[[dict[str, Any]], tuple[Any, ...]] = field(
        default=lambda numbers: (), compare=False)


@dataclass(frozen=True)
class Demo:
    """A chapter's demo: its controls, a state for every combination of their values,
    its narrated moments and the code its "Run it" shows."""

    title: str
    intro: str
    controls: tuple[Control, ...]
    state: Callable[..., State]  # keyword arguments: a value for every control
    moments: tuple[Moment, ...]
    code: tuple[Callable[..., Any], ...]  # core functions, shown as their source
    code_intro: str = ""
    bars_label: str = ""
    link: str = ""  # the course page's link to it

    def settings(self) -> Iterator[dict[str, Any]]:
        """Every combination of the controls' values, the first control slowest."""
        for values in itertools.product(*(c.values for c in self.controls)):
            yield {c.name: v for c, v in zip(self.controls, values)}

    def start(self) -> dict[str, Any]:
        return {c.name: c.start for c in self.controls}

    def key(self, setting: dict[str, Any]) -> str:
        """A setting's name in the page's data: each control's value's index, by "|"."""
        return "|".join(str(c.values.index(setting[c.name])) for c in self.controls)
