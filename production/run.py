"""One run sequence for every output: plan, dry run or (space, lock, draw what is
missing, publish, summary, keep in cache).

An output kind (the chapter bundle, slides, shorts, a sweep) is a small plug-in, an
:class:`Output`: it says which frame its scenes are drawn for, the space it needs, what
it draws and how it publishes. The sequence around it is written once, here.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from production import files, paths, pipeline, space
from production.chapters import Chapter


@dataclass(frozen=True)
class Request:
    """What the command was asked for, before anything is checked."""

    chapter: Chapter
    scenes: list[str] = field(default_factory=list)
    quality: str = "publish"
    settings: list[str] = field(default_factory=list)
    out: str | None = None
    jobs: int | None = None
    narrate: bool = True
    voice: str | None = None
    scheduler: str | None = None
    keyframes: str | None = None
    dry_run: bool = False
    job_unit: str = "auto"


@dataclass
class Made:
    """What an output did: the scene workers' peak memory (KiB, one per scene drawn), how
    many scenes it could have drawn, and the lines to print after the summary."""

    peaks: list[int]
    total: int
    lines: list[str] = field(default_factory=list)


class Output:
    """An output kind. Subclasses set ``folder`` and ``layout`` and write :meth:`make`;
    the rest has defaults for a render of one plan."""

    #: its default folder, under out/
    folder: str = ""
    #: the frame its scenes are laid out for: "wide" or "tall"
    layout: str = "wide"
    #: the cache variants of a scene it reads (kept in the cache after a run)
    variants: tuple[str, ...] = ("",)

    def plan(self, request: Request) -> Any:
        """Check the request and look its scenes up in the cache (nothing written; for a
        dry run, nothing spoken either)."""
        return pipeline.plan(request.chapter, scenes=request.scenes, quality=request.quality,
                             settings=request.settings, out=request.out,
                             default_out=paths.out_for(request.chapter) / self.folder,
                             jobs=request.jobs,
                             narrate=request.narrate, keyframes=request.keyframes,
                             voice=request.voice, scheduler=request.scheduler,
                             layout=self.layout, job_unit=request.job_unit,
                             dry_run=request.dry_run)

    def dry_run(self, plan: Any) -> Iterable[str]:
        """A line per thing it would make."""
        raise NotImplementedError

    def space(self, plan: Any) -> dict[str, int]:
        """Bytes it still needs in the cache and in its output folder."""
        return space.needs(plan.quality, plan.missing_seconds(), plan.total_seconds())

    def lock(self, plan: Any) -> None:
        """Hold the output folder (waiting for another run into it), clear partial files."""
        pipeline.lock_output(plan)
        files.clear_partials(*self.writes_into(plan))

    def writes_into(self, plan: Any) -> list[Path]:
        """The folders it writes into (where an interrupted run of it left its partial
        files): the output folder, and its scenes/ folder."""
        return [plan.out, plan.out / "scenes"]

    def make(self, plan: Any) -> Made:
        """Draw what is missing and publish it into the output folder."""
        raise NotImplementedError

    def summary(self, plan: Any, made: Made, started: float) -> str:
        return summary(len(made.peaks), made.total, made.peaks, plan, started)

    def keep(self, plan: Any) -> None:
        """Mark the cache entries it used and prune what no run has used lately."""
        pipeline.keep_in_cache(plan, self.variants)


def run(output: Output, request: Request) -> int:
    """The one sequence: plan; then a dry run's lines, or space, lock, make, summary, keep."""
    draft = request.chapter
    if draft.draft and draft.fallbacks:
        print(f"render.py: a draft in {draft.language}: {draft.fallbacks} string(s) and "
              "passage(s) without a translation are shown and spoken in English",
              file=sys.stderr)
    with closing(output.plan(request)) as plan:
        if request.dry_run:
            for line in output.dry_run(plan):
                print(line)
            return 0
        if not plan.narrate:
            print("render.py: rendering without narration (silent)", file=sys.stderr)
        started = time.monotonic()
        with space.guarded(plan.folders, output.space(plan)):
            output.lock(plan)
            made = output.make(plan)
        print(output.summary(plan, made, started))
        for line in made.lines:
            print(line)
        output.keep(plan)
    return 0


def summary(rendered: int, total: int, peaks: list[int], plan: Any, started: float) -> str:
    """The line after a render: how many scenes (and beats) it drew, how long it took,
    with how many workers and how much memory each."""
    elapsed = time.monotonic() - started
    if peaks:
        extra = getattr(plan, "beat_peaks", [])  # the jobs that drew some beats of a scene
        workers = min(plan.workers, rendered + len(extra))
        beats = ""
        if plan.beats:
            drawn, every = (sum(n) for n in zip(*plan.beats.values()))
            beats = f" ({drawn} of {every} beats)"
        return (f"rendered {rendered} of {total} scenes{beats} in {elapsed:.1f} s with "
                f"{workers} worker(s); peak memory per worker {max(peaks + extra) / 1024:.0f} MiB")
    return f"nothing to render: all {total} scenes cached ({elapsed:.1f} s)"
