"""A render spread over workers by beats: when a scene alone would bound the render's time,
its beats are drawn as jobs of their own, and the scene's job then only joins them.

A job of some beats runs the scene's code from the start, steps the plays of the beats
before its own to their end states as drawing would (production/beat_cache.py), draws
its own beats' plays into the beat cache and stops drawing after them. When every job
of a scene is done, the scene's own job runs as it always does: each play's segment is
in the cache, so it draws nothing, joins them in order, mixes and muxes, and writes the
same bytes as a scene drawn whole. On a cluster whose workers may not share this
machine's disk, a beat job sends its segments home, and the scene's job is sent them.

``--job-unit`` picks: ``scene`` (a job per scene), ``beat`` (a job per beat, for every
scene drawn) or ``auto`` (the default): a scene more than three times as long as its
share of the work (all scenes to draw, over the workers) is cut into runs of beats about
that share long. So a render on a few workers is never cut; the chapter on 32 workers
cuts its scenes over a minute.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import beat_cache, voices
from production.errors import UsageError

UNITS = ("auto", "scene", "beat")
#: a scene more than this many times its share of the work is cut into runs of beats: the
#: scene's own job joins them after (about a third of drawing it whole, at preview), so
#: fewer than three runs would gain little
CUT = 3.0
#: a segment shipped with a scene's job on a cluster: "segments/KEY.segment"
SHIPPED = "segments/"


def check_unit(unit: str) -> str:
    if unit not in UNITS:
        raise UsageError(f"--job-unit {unit!r}: must be one of {', '.join(UNITS)}")
    return unit


@dataclass(frozen=True)
class BeatTask:
    """Some beats of one scene to draw into the beat cache, as a worker is sent it."""

    scene: Any  # the scene's production.pipeline.SceneTask
    beats: tuple[str, ...]
    ship: bool  # send the segments back (a cluster's worker may not see this cache)


def beat_job(task: BeatTask) -> tuple[dict[str, Any], int]:
    """Worker process: draw ``task``'s beats into the beat cache. Returns (how long it
    took, the beats it drew, the segments it drew when it ships them) and peak KiB."""
    import resource

    from production.drawing import construct_scene
    from production.scene_output import timing

    started = time.monotonic()
    st = task.scene
    scene_class = st.chapter.scene(st.scene)
    _, lengths, marks = timing(st.chapter, scene_class, narrate=st.narrate,
                               settings=st.settings, voice=st.voice)
    with tempfile.TemporaryDirectory(prefix="explainer-beats-") as media:
        scene = construct_scene(
            st.chapter, scene_class, st.quality, st.settings, Path(media), video=True,
            durations=lengths, mark_times=marks, layout=st.layout, beats=frozenset(task.beats),
            credits=voices.credits(st.voice if st.narrate else None, st.chapter.next_title()))
        kept = scene.renderer.kept
        shipped = {key: path.read_bytes() for key, path in kept.items()} if task.ship else {}
    return {"seconds": time.monotonic() - started, "segments": shipped,
            "beats": beat_cache.beats_drawn(scene.renderer)}, \
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def runs(lengths: dict[str, float], longest: float) -> list[tuple[str, ...]]:
    """The beats in order, in runs of consecutive beats each about ``longest`` seconds
    (a beat longer than that is a run of its own)."""
    parts = max(1, min(len(lengths), math.ceil(sum(lengths.values()) / longest - 1e-9)))
    target = sum(lengths.values()) / parts
    found: list[list[str]] = [[]]
    total = 0.0
    for name, seconds in lengths.items():
        if found[-1] and total + seconds / 2 > target * len(found):
            found.append([])
        found[-1].append(name)
        total += seconds
    return [tuple(run) for run in found]


def cut(plan: Any, missing: list[Any]) -> dict[str, list[tuple[str, ...]]]:
    """Each scene of ``missing`` to draw by beats, with its runs of beats, as the plan's
    job unit says."""
    workers = plan.cluster.workers if plan.cluster is not None else plan.workers
    if plan.job_unit == "scene" or not missing or (plan.job_unit == "auto" and workers < 2):
        return {}
    lengths = {sc.__name__: beat_seconds(plan, sc) for sc in missing}
    if plan.job_unit == "beat":
        return {name: [(beat,) for beat in beats] for name, beats in lengths.items()
                if len(beats) > 1}
    share = sum(plan.seconds[sc.__name__] for sc in missing) / workers
    return {name: runs(beats, share) for name, beats in lengths.items()
            if plan.seconds[name] > CUT * share and len(beats) > 1}


def beat_seconds(plan: Any, scene_class: Any) -> dict[str, float]:
    """Each beat's length in ``plan``'s render (its passage's, spoken)."""
    from production.narration.passages import beat_lengths

    return beat_lengths(scene_class.beat_seconds,
                        (plan.passages or {}).get(scene_class.__name__, []))


def fill(plan: Any, missing: list[Any], dispatch: Any, task: Any
         ) -> tuple[dict[str, set[str]], list[int]]:
    """Draw the beats of the scenes :func:`cut` cuts, as jobs on the plan's workers
    (``dispatch``: production.pipeline.dispatch; ``task(plan, scene)``: a scene's task),
    longest first; on a cluster the segments come home into this cache and are kept on
    the plan for the scenes' own jobs. The beats each scene's jobs drew, and the workers'
    peak memory (KiB)."""
    cuts = cut(plan, missing)
    if not cuts:
        return {}, []
    ship = plan.cluster is not None
    by_name = {sc.__name__: sc for sc in missing}
    jobs, speech, seconds = [], {}, {}
    for name, beat_runs in cuts.items():
        lengths = beat_seconds(plan, by_name[name])
        for run in beat_runs:
            label = f"{name} [{', '.join(run)}]"
            jobs.append((label, beat_job, (BeatTask(task(plan, by_name[name]), run, ship),)))
            speech[label] = (plan.passages or {}).get(name, [])
            seconds[label] = sum(lengths[beat] for beat in run)
    jobs.sort(key=lambda job: -seconds[job[0]])  # longest first
    results, peaks = dispatch(plan, jobs, speech)
    store = beat_cache.Store(beat_cache.segments_dir())
    drawn: dict[str, set[str]] = {}
    for label, result in results.items():
        name = label.split(" ")[0]
        drawn.setdefault(name, set()).update(result["beats"])
        for key, data in result["segments"].items():
            store.write(key, data)
            plan.shipped.setdefault(name, {})[f"{SHIPPED}{key}{beat_cache.SUFFIX}"] = \
                store.entry(key).read_bytes()
        plan.job_costs[label] = result["seconds"]
    return drawn, peaks
