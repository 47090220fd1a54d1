"""The demo page's data: every state of every setting of the controls, the narrated
moments and the code, built from the chapter's :class:`~production.demo.spec.Demo` and
written as JSON (demo.json, and the same JSON inside the page, which cannot read a file
beside it from file://).

A setting is named by its key (:meth:`Demo.key`: each control's value's index, joined
by "|"), so the page looks a state up and never does arithmetic on a value.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

from production.chapters import Chapter
from production.demo.spec import Box, Choice, Control, Demo, Moment
from production.errors import UsageError
from production.language import _, name_of
from production.language import code as code_of
from production.narration.script import numbers_of
from production.paths import ROOT

NAME = "demo.json"


def _said(text: str) -> str:
    """``text`` in the active language ("" stays "")."""
    return _(text) if text else ""


def control(c: Control) -> dict[str, Any]:
    """One control as the page builds it: its kind, label, values as read, and start, in
    the active language."""
    kind = "box" if isinstance(c, Box) else "choice" if isinstance(c, Choice) else "slider"
    made = {"name": c.name, "kind": kind, "label": _said(c.label),
            "start": c.values.index(c.start)}
    return made if kind == "box" else {**made, "values": [c.shown(v) for v in c.values]}


def states(demo: Demo) -> dict[str, dict[str, Any]]:
    """Every setting's state, by key."""
    found = {}
    for setting in demo.settings():
        s = demo.state(**setting)
        found[demo.key(setting)] = {
            "bars": [{"label": b.label, "width": f"{100 * b.length:.2f}%", "value": b.value,
                      "hidden": b.hidden} for b in s.bars],
            "said": s.said, "note": s.note, "printed": s.printed, "figures": list(s.numbers)}
    return found


def moment(chapter: Chapter, demo: Demo, m: Moment) -> dict[str, Any]:
    """A moment as the page plays it (its clip's files are added when they are made),
    checked: it is reached by a setting of the controls, and its scene shows that
    setting's figures (a UsageError naming it otherwise)."""
    where = f"demo of {chapter.name}: moment {m.name!r}"
    names = [c.name for c in demo.controls]
    if sorted(m.when) != sorted(names):
        raise UsageError(f"{where}: 'when' must give a value for each of {', '.join(names)}")
    for c in demo.controls:
        if m.when[c.name] not in c.values:
            raise UsageError(f"{where}: {c.name} {m.when[c.name]!r} is not one of its values")
    scene = chapter.by_name().get(m.scene)
    if scene is None:
        raise UsageError(f"{where}: no scene {m.scene!r} in the chapter")
    unknown = [b for b in m.beats if b not in scene.beat_seconds]
    if unknown or not m.beats:
        raise UsageError(f"{where}: {scene.__name__} has no beat {unknown[0]!r}; its beats: "
                         f"{', '.join(scene.beat_seconds)}" if unknown else
                         f"{where}: name at least one beat of {scene.__name__}")
    settings = chapter.ledger.parse_settings(list(m.settings))
    shown = list(m.shows(numbers_of(chapter, scene, settings)))
    wanted = list(demo.state(**m.when).numbers)
    if shown != wanted:
        raise UsageError(f"{where}: {m.scene} at {', '.join(m.settings) or 'its defaults'} "
                         f"shows {shown}, not the {wanted} of its setting")
    title = _said(m.title).format(**{c.name: c.shown(m.when[c.name]) for c in demo.controls})
    return {"name": m.name, "title": title, "when": demo.key(m.when), "scene": m.scene,
            "beats": list(m.beats), "settings": list(m.settings), "figures": shown}


def code(demo: Demo) -> list[dict[str, Any]]:
    """Each function "Run it" shows: its name, file (from the project's folder), first
    line, and source as it is in that file."""
    found = []
    for function in demo.code:
        lines, first = inspect.getsourcelines(function)
        path = Path(inspect.getsourcefile(function) or "").resolve()
        try:
            shown = path.relative_to(ROOT).as_posix()
        except ValueError:
            shown = path.name
        found.append({"name": function.__name__, "file": shown, "line": first,
                      "source": "".join(lines).rstrip("\n")})
    return found


def build(chapter: Chapter) -> dict[str, Any]:
    """The whole of the page's data, less each moment's clip."""
    demo: Demo = chapter.demo
    tag = code_of().replace("_", "-")
    return {"chapter": chapter.name, "language": tag, "language_name": name_of(tag),
            "title": _said(demo.title),
            "intro": _said(demo.intro), "controls": [control(c) for c in demo.controls],
            "start": demo.key(demo.start()), "bars_label": _said(demo.bars_label),
            "states": states(demo), "moments": [moment(chapter, demo, m) for m in demo.moments],
            "code": code(demo), "code_intro": _said(demo.code_intro)}


def text(data: dict[str, Any]) -> str:
    """The data as the JSON written to demo.json (the same bytes for the same data)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
