"""A parameter sweep: every combination of --set values, each scene rendered as its own job.

``render.py sweep SharpnessDial --set spotlight.sharpness=1,2,4,8`` renders the scene
once per value, into ``out/sweep/SharpnessDial/spotlight.sharpness=1/`` and so on, and
writes ``out/sweep/index.json``. Every combination is a plan of its own
(production/pipeline.py); a scene whose content key is the same in two combinations
(its numbers, and so its narration, do not change) is drawn once and hard-linked (or
copied) into each folder. All jobs run in one worker pool, or one cluster session.

index.json describes every combination folder in ``out/sweep/``: a run merges what it made
with the entries the earlier index lists whose clips are still there (:func:`merged`),
and says in one line which folders it kept from earlier runs.

Folder names: ``PARAM=VALUE`` for every --set parameter, in the order given, joined by
commas (``spotlight.sharpness=2,spotlight.asker=cat``). A value keeps its letters,
digits and ``. - +`` as typed; a space becomes ``_``; any other character (``_`` and
``%`` included) is written ``%XX``, its UTF-8 bytes in hex, so two values never share a
folder (``grid.sentence=the_cat_sat``, ``grid.swap=cat%3Adog``). A name longer than
200 characters is cut there and ends in ``~`` and 8 hex digits of its SHA-256.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from production import cache, files, paths, pipeline, qualities, space, voices
from production.chapters import Chapter
from production.errors import UsageError
from production.narration.script import numbers_of
from production.run import Made, Output, Request
from production.scene_output import SceneOutput, load
from production.written import publishing

#: the longest folder name before it is cut and ends in a hash (file systems allow 255 bytes)
LONGEST_FOLDER = 200
_SAFE = re.compile(r"[A-Za-z0-9.+-]")


# ----------------------------------------------------------------- the values


@dataclass(frozen=True)
class Axis:
    """One swept parameter: ``SECTION.PARAM`` and its values as typed, in order."""

    name: str
    values: tuple[str, ...]

    @property
    def where(self) -> tuple[str, str]:
        section, _, param = self.name.partition(".")
        return section, param


@dataclass(frozen=True)
class Combination:
    """One point of the sweep: a value for every parameter, and the settings it makes."""

    items: tuple[tuple[str, str], ...]  # (SECTION.PARAM, value as typed), in --set order
    settings: dict[str, Any] = field(compare=False)  # checked, over the defaults

    @property
    def given(self) -> list[str]:
        """As --set items: ``SECTION.PARAM=VALUE``."""
        return [f"{name}={value}" for name, value in self.items]

    @property
    def folder(self) -> str:
        """The folder of this combination under each scene's (see the module's rule)."""
        name = ",".join(f"{param}={safe_value(value)}" for param, value in self.items)
        if len(name) <= LONGEST_FOLDER:
            return name
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        return f"{name[:LONGEST_FOLDER]}~{digest}"

    def chosen(self) -> dict[str, Any]:
        """Each parameter's value as the render uses it (parsed), by ``SECTION.PARAM``."""
        return {name: self.settings[name.partition(".")[0]][name.partition(".")[2]]
                for name, _ in self.items}


def safe_value(value: str) -> str:
    """``value`` as part of a folder name: readable, safe on any file system, and
    different for different values."""
    return "".join(c if _SAFE.fullmatch(c) else "_" if c == " " else
                   "".join(f"%{b:02X}" for b in c.encode()) for c in value)


def axes(items: list[str]) -> list[Axis]:
    """The --set items of a sweep (``SECTION.PARAM=V1,V2,...``), their form checked; a
    UsageError (one line) for a missing ``=``, an empty value or a parameter given twice.
    The values themselves are checked by :func:`combinations`."""
    if not items:
        raise UsageError("sweep: give at least one --set SECTION.PARAM=V1,V2,... "
                         "(e.g. --set spotlight.sharpness=1,2,4,8)")
    found: dict[str, Axis] = {}
    for item in items:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep:
            raise UsageError(f"--set {item!r}: expected SECTION.PARAM=V1,V2,...")
        values = tuple(v.strip() for v in text.split(","))
        if not all(values):
            raise UsageError(f"--set {item!r}: an empty value; separate values by single "
                             f"commas ({name}=1,2,4)")
        if name in found:
            raise UsageError(f"--set {name}: given twice; list all its values in one --set "
                             f"({name}=A,B,C)")
        found[name] = Axis(name, values)
    return list(found.values())


def combinations(chapter: Chapter, swept: list[Axis]) -> list[Combination]:
    """Every combination of the values, the first parameter changing slowest, each
    checked as `render --set` checks it (a UsageError naming the parameter and what is
    allowed). Two values of one parameter that mean the same are a UsageError too."""
    made = []
    for values in itertools.product(*(axis.values for axis in swept)):
        items = tuple((axis.name, v) for axis, v in zip(swept, values))
        made.append(Combination(items, pipeline.parse_settings(
            chapter, [f"{name}={v}" for name, v in items])))
    for axis in swept:
        meaning: dict[str, str] = {}
        for c in made:
            typed = dict(c.items)[axis.name]
            parsed = json.dumps(c.chosen()[axis.name], default=repr)
            if meaning.setdefault(parsed, typed) != typed:
                raise UsageError(f"--set {axis.name}: {meaning[parsed]!r} and {typed!r} are "
                                 "the same value; give each value once")
    return made


# ----------------------------------------------------------------- which scenes use what


class _Reading(Mapping):
    """Settings that note each ``SECTION.PARAM`` a ledger function reads from them."""

    def __init__(self, values: Mapping[str, Any], seen: set[str], section: str = "") -> None:
        self._values, self._seen, self._section = values, seen, section

    def __getitem__(self, key: str) -> Any:
        if self._section:
            self._seen.add(f"{self._section}.{key}")
            return self._values[key]
        return _Reading(self._values[key], self._seen, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def reads(chapter: Chapter, scene_class: Any, settings: dict[str, Any]) -> set[str]:
    """The ``SECTION.PARAM`` settings a scene's numbers are computed from (everything it
    shows and says comes from its ledger section, so nothing else changes it)."""
    ledger = chapter.ledger
    seen: set[str] = set()
    if scene_class.section:
        ledger.sections[scene_class.section](_Reading(ledger.resolve(settings), seen))
    return seen


def check_used(chapter: Chapter, chosen: list[Any], swept: list[Axis],
               settings: dict[str, Any]) -> None:
    """A UsageError (one line) for a swept parameter that no named scene uses, naming the
    scenes that do."""
    used = set().union(*(reads(chapter, sc, settings) for sc in chosen))
    for axis in swept:
        if axis.name not in used:
            users = [sc.__name__ for sc in chapter.scenes
                     if axis.name in reads(chapter, sc, settings)]
            named = ", ".join(sc.__name__ for sc in chosen)
            raise UsageError(f"--set {axis.name}: not used by {named}, so every value would "
                             f"render the same; scenes that use it: "
                             f"{', '.join(users) or 'none'}")


# ----------------------------------------------------------------- the plan


@dataclass
class Sweep:
    """What a sweep will do: a plan per combination (the first made with the cluster
    session, the others sharing it)."""

    swept: list[Axis]
    points: list[Combination]
    plans: list[pipeline.Plan]

    @property
    def out(self) -> Path:
        return self.plans[0].out

    @property
    def chosen(self) -> list[Any]:
        return self.plans[0].chosen

    @property
    def narrate(self) -> bool:
        return self.plans[0].narrate

    @property
    def folders(self) -> dict[str, Path]:
        return self.plans[0].folders

    def close(self) -> None:
        self.plans[0].close()

    def target(self, point: Combination, scene: str, name: str,
               root: Path | None = None) -> Path:
        """Where a file of ``scene`` in ``point`` goes (in ``root``, its staging, if given)."""
        return (root or self.out) / scene / point.folder / name

    def hows(self) -> Iterator[tuple[Combination, pipeline.Plan, Any, str]]:
        """Every (combination, its plan, scene, how), how being "render", "cached", or
        "same as FOLDER" when an earlier combination has the scene's key (drawn once)."""
        first: dict[str, str] = {}
        for point, p in zip(self.points, self.plans):
            for sc in p.chosen:
                earlier = first.setdefault(p.keys[sc.__name__], point.folder)
                if earlier != point.folder:
                    yield point, p, sc, f"same as {earlier}"
                else:
                    yield point, p, sc, "render" if p.stored[sc.__name__] is None else "cached"


def plan(chapter: Chapter, *, scenes: list[str], settings: list[str], quality: str,
         out: str | None, jobs: int | None, narrate: bool, voice: str | None,
         scheduler: str | None, dry_run: bool = False) -> Sweep:
    """Check every argument and value, speak every combination's narration (not in a dry
    run) and look its scenes up in the cache. Nothing is written to the output folder yet."""
    if not scenes:
        raise UsageError("sweep: name at least one scene (see `render.py list`)")
    if len(set(scenes)) != len(scenes):
        raise UsageError("sweep: a scene is named twice; name each once")
    swept = axes(settings)
    points = combinations(chapter, swept)
    check_used(chapter, pipeline.pick_scenes(chapter, scenes), swept, points[0].settings)
    first = pipeline.plan(chapter, scenes=scenes, quality=quality, settings=points[0].given,
                          out=out, default_out=paths.out_for(chapter) / "sweep", jobs=jobs,
                          narrate=narrate, voice=voice, scheduler=scheduler, dry_run=dry_run)
    try:
        plans = [first, *(pipeline.with_settings(first, p.given) for p in points[1:])]
    except BaseException:
        first.close()
        raise
    return Sweep(swept, points, plans)


def dry_run(sweep: Sweep) -> list[str]:
    """A line per (combination, scene): what would be done, and where it would go."""
    width, height, fps = qualities.size(sweep.plans[0].quality)
    return [f"{sc.__name__} {point.folder}: {how} at {width}x{height}, {fps} fps -> "
            f"{sweep.target(point, sc.__name__, sc.__name__ + '.mp4')}"
            for point, _, sc, how in sweep.hows()]


# ----------------------------------------------------------------- the run


class SweepOutput(Output):
    """`render.py sweep`: the named scenes once for every combination of the --set values,
    each into OUT/SCENE/PARAM=VALUE[,...]/, listed in OUT/index.json; a scene whose key two
    combinations share is drawn once and linked into both folders."""

    folder = "sweep"

    def plan(self, request: Request) -> Sweep:
        return plan(request.chapter, scenes=request.scenes, settings=request.settings,
                    quality=request.quality, out=request.out, jobs=request.jobs,
                    narrate=request.narrate, voice=request.voice,
                    scheduler=request.scheduler, dry_run=request.dry_run)

    def dry_run(self, sweep: Sweep) -> list[str]:
        return dry_run(sweep)

    def space(self, sweep: Sweep) -> dict[str, int]:
        hows = list(sweep.hows())
        todo = {p.keys[sc.__name__]: p.seconds[sc.__name__]
                for _, p, sc, how in hows if how == "render"}
        published = sum(p.seconds[sc.__name__] for _, p, sc, _ in hows)
        return space.needs(sweep.plans[0].quality, sum(todo.values()), published)

    def writes_into(self, plan: Any) -> list[Path]:
        return [plan.out]

    def lock(self, sweep: Sweep) -> None:
        super().lock(sweep.plans[0])
        files.clear_partials(*{sweep.target(point, sc.__name__, "x").parent
                               for point, _, sc, _ in sweep.hows()})
        for p in sweep.plans:  # another sweep may have stored some while this one waited
            p.stored = {name: stored or load(p.entry(name)) for name, stored in p.stored.items()}

    def make(self, sweep: Sweep) -> Made:
        """Render what is missing (each key once, in parallel), place every combination's
        files and write index.json; a line per (combination, scene) as it is placed."""
        records, peaks = pipeline.render_plans(sweep.plans, [c.folder for c in sweep.points])
        with publishing(sweep.out, last="index.json") as stage:  # over none but its own files
            index, kept, unlisted = merged(_place_all(sweep, records, stage), sweep.out)
            files.write_text(stage / "index.json",
                             json.dumps(index, indent=1, ensure_ascii=False, allow_nan=False)
                             + "\n")
        return Made(peaks, len(list(sweep.hows())), earlier_line(kept, unlisted))

    def summary(self, sweep: Sweep, made: Made, started: float) -> str:
        first, peaks, total = sweep.plans[0], made.peaks, made.total
        drawn = (f"rendered {len(peaks)} in {time.monotonic() - started:.1f} s with "
                 f"{min(first.workers, len(peaks))} worker(s), peak memory per worker "
                 f"{max(peaks) / 1024:.0f} MiB" if peaks else
                 f"nothing to render ({time.monotonic() - started:.1f} s)")
        return (f"sweep: {len(sweep.points)} combination(s) x {len(sweep.chosen)} scene(s) = "
                f"{total} videos; {drawn}; {total - len(peaks)} from the cache or shared -> "
                f"{sweep.out / 'index.json'}")

    def keep(self, sweep: Sweep) -> None:
        cache.mark_used(p.entry(sc.__name__) for p in sweep.plans for sc in p.chosen)
        pipeline.keep_in_cache(sweep.plans[0])


def _place_all(sweep: Sweep, records: dict[str, Any], stage: Path) -> dict[str, Any]:
    """Every combination's files into their folders under ``stage`` (published into
    ``sweep.out`` when whole), a line printed for each; the index."""
    first = sweep.plans[0]
    width, height, fps = qualities.size(first.quality)
    linked: dict[Path, Path] = {}  # a cache file -> its first copy in this sweep
    entries: list[dict[str, Any]] = []
    for point, p, sc, how in sweep.hows():
        name, key = sc.__name__, p.keys[sc.__name__]
        drawn = records.get(key)
        result = p.stored[name] if drawn is None else SceneOutput.from_json(drawn,
                                                                            p.entry(name))
        written = []
        for f in (result.video, *result.captions):
            target = sweep.target(point, name, f.name, stage)
            _place(f, target, linked)
            written.append(target.relative_to(stage).as_posix())
        print(f"{name} {point.folder}: {result.seconds:.1f} s "
              f"({'rendered' if how == 'render' else how})", flush=True)
        if not how.startswith("same as"):  # said once per key, as `render` says it
            for problem in result.layout_problems + result.timing_problems:
                print(f"render.py: warning: {name} ({point.folder}): {problem}",
                      file=sys.stderr)
        if not entries or entries[-1]["folder"] != point.folder:
            entries.append({"folder": point.folder, "settings": point.chosen(), "scenes": {}})
        entries[-1]["scenes"][name] = {
            "files": written, "content_key": key, "duration": result.seconds,
            "numbers": numbers_of(p.chapter, sc, p.settings), "quality": first.quality,
            "voice": voices.voice_record(first.voice) if first.narrate else None}
    return {
        "quality": {"name": first.quality, "width": width, "height": height,
                    "frame_rate": fps},
        "voice": voices.voice_record(first.voice) if first.narrate else None,
        "scenes": [sc.__name__ for sc in sweep.chosen],
        "parameters": {axis.name: list(axis.values) for axis in sweep.swept},
        "combinations": entries,
    }


# ----------------------------------------------------------------- earlier runs


def merged(index: dict[str, Any], out: Path) -> tuple[dict[str, Any], list[str], list[str]]:
    """This run's ``index`` with what the folder's index.json says of earlier runs into
    ``out``: every (combination, scene) this run did not make whose clip is still there
    is listed again as it was (after this run's), one whose clip is gone is dropped.
    Returns the index, the ``SCENE/FOLDER`` folders kept from earlier runs, and those
    in ``out`` that no index describes."""
    combinations = [{**c, "scenes": dict(c["scenes"])} for c in index["combinations"]]
    by_folder = {c["folder"]: c for c in combinations}
    kept = []
    for old in _earlier(out):
        for name, entry in old["scenes"].items():
            here = by_folder.get(old["folder"])
            if (here and name in here["scenes"]) or not _clip(out, name, old["folder"]):
                continue
            if here is None:
                here = by_folder[old["folder"]] = {**old, "scenes": {}}
                combinations.append(here)
            here["scenes"][name] = {**entry, "files": [
                f for f in entry.get("files", [])
                if isinstance(f, str) and (out / f).is_file()]}
            kept.append(f"{name}/{old['folder']}")
    listed = {f"{name}/{c['folder']}" for c in combinations for name in c["scenes"]}
    present = sorted(f"{scene.name}/{folder.name}"
                     for scene in out.iterdir() if scene.is_dir()
                     for folder in scene.iterdir() if _clip(out, scene.name, folder.name))
    return ({**index, "combinations": combinations}, kept,
            [f for f in present if f not in listed])


def _earlier(out: Path) -> list[dict[str, Any]]:
    """The combinations the folder's index.json lists (none when it is missing or is not
    a sweep's index)."""
    try:
        combinations = json.loads((out / "index.json").read_text(encoding="utf-8"))[
            "combinations"]
    except (OSError, ValueError, KeyError, TypeError):
        return []
    return [c for c in combinations if isinstance(c, dict)
            and isinstance(c.get("folder"), str) and isinstance(c.get("scenes"), dict)
            and all(isinstance(e, dict) for e in c["scenes"].values())] \
        if isinstance(combinations, list) else []


def _clip(out: Path, scene: str, folder: str) -> bool:
    """Whether ``out/SCENE/FOLDER/SCENE.mp4`` is there (a sweep's clip, not a hidden
    half-written folder)."""
    if scene.startswith(".") or folder.startswith(".") or "/" in scene + folder:
        return False
    return (out / scene / folder / f"{scene}.mp4").is_file()


def earlier_line(kept: list[str], unlisted: list[str]) -> list[str]:
    """The one line saying what index.json lists besides this run, if anything."""
    parts = []
    if kept:
        parts.append(f"index.json also lists {len(kept)} folder{'s' * (len(kept) > 1)} "
                     f"kept from earlier runs: {', '.join(kept)}")
    if unlisted:
        parts.append("not listed in index.json (no run of this sweep made them): "
                     + ", ".join(unlisted))
    return [f"sweep: {'; '.join(parts)}"] if parts else []


def _place(source: Path, target: Path, linked: dict[Path, Path]) -> None:
    """``source`` to ``target`` through a hidden temporary name: a hard link to its first
    copy in this sweep when there is one (and the file system links), else a copy."""
    earlier = linked.get(source)
    if earlier is not None:
        try:
            with files.writing(target) as partial:
                partial.unlink()
                os.link(earlier, partial)
            return
        except OSError:
            pass
    files.publish(source, target)
    linked.setdefault(source, target)
