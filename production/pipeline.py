"""The render pipeline: plan (check everything, look up the cache), then draw whatever is
missing in worker processes with one progress display over them.

Both `render.py render` and `render.py slides` go through :func:`plan` and
:func:`render_missing`; what they publish afterwards is in production/outputs/video.py.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import beat_jobs, cache, cluster, paths, qualities, schedulers, voices
from production.chapters import Chapter
from production.drawing import construct_scene, encoder_options
from production.errors import NarrationError, UsageError
from production.narration.passages import Passage, beat_lengths
from production.narration.script import marked_script
from production.scene_output import SceneOutput, load
from production.speaking import speak_all, warn_recordings
from production.workers import Progress, peak_memory, run_workers


@dataclass
class Plan:
    """What a render will do: the scenes, their cache keys, and what is already stored."""

    chapter: Chapter
    quality: str
    settings: dict[str, Any]
    narrate: bool
    chosen: list[Any]
    keys: dict[str, str]
    stored: dict[str, SceneOutput | None]
    workers: int
    seconds: dict[str, float]  # each scene's length as narrated (none in a dry run)
    out: Path
    keyframes: Path | None = None
    voice: voices.VoiceEngine = voices.DEFAULT_VOICE
    #: the Dask cluster the scenes are rendered on (None: local worker processes)
    cluster: cluster.Session | None = None
    #: each scene's passages, spoken (what a cluster worker is sent to speak); None in a
    #: dry run
    passages: dict[str, list[Passage]] | None = None
    #: the frame the scenes are laid out for: "wide" (the chapter) or "tall" (shorts)
    layout: str = "wide"
    #: each scene drawn by this render: (beats drawn, beats in it); the others' plays came
    #: from the beat cache
    beats: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)
    #: what one job of a worker draws: "scene", "beat" or "auto" (production/beat_jobs.py)
    job_unit: str = "auto"
    #: on a cluster, the segments beat jobs drew, by scene: sent with the scene's own job
    shipped: dict[str, dict[str, bytes]] = dataclasses.field(default_factory=dict)
    #: how long each job took (seconds), by its label; the beat jobs' peak memory (KiB)
    job_costs: dict[str, float] = dataclasses.field(default_factory=dict)
    beat_peaks: list[int] = dataclasses.field(default_factory=list)
    #: a dry run's plan: the keys looked up, nothing spoken, converted or marked used
    dry_run: bool = False

    @property
    def folders(self) -> dict[str, Path]:
        """Where the render writes: the cache and the output folder."""
        return {"cache": paths.cache(), "out": self.out}

    def missing_seconds(self) -> float:
        """Seconds of scenes still to draw."""
        return sum(s for n, s in self.seconds.items() if self.stored[n] is None)

    def total_seconds(self) -> float:
        """Seconds of every chosen scene."""
        return sum(self.seconds.values())

    def close(self) -> None:
        """End the connection to the cluster, if any."""
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def entry(self, name: str, variant: str = "") -> Path:
        """The cache folder of a scene's finished files; with ``variant`` (e.g. "-alpha"),
        of what an output made from them, keyed by the scene's key and the code of the
        output that registered the variant (:data:`VARIANTS`)."""
        key = self.keys[name]
        if variant:
            key = cache.variant_key(key, VARIANTS[variant], self.chapter.roots())
        return cache.scenes_dir() / f"{key}{variant}"


#: a cache variant (a suffix such as "-alpha") -> the modules of the output that makes it
#: from a finished scene; registered by the output's module when it is imported
VARIANTS: dict[str, tuple[str, ...]] = {}


# ----------------------------------------------------------------- planning


def parse_settings(chapter: Chapter, items: list[str]) -> dict[str, Any]:
    """--set SECTION.PARAM=VALUE items, checked against ``chapter``'s ledger; a UsageError
    names a bad one."""
    from core.ledgers import SettingError

    try:
        return chapter.ledger.parse_settings(items)
    except SettingError as error:
        raise UsageError(str(error)) from None


def pick_scenes(chapter: Chapter, names: list[str]) -> list[Any]:
    """The named scenes, each once, in the order first named (all of the chapter's, in
    order, when none is named)."""
    by_name = chapter.by_name()
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise UsageError(f"unknown scene {unknown[0]!r}; scenes: {', '.join(by_name)}")
    return [by_name[n] for n in dict.fromkeys(names)] if names else list(chapter.scenes)


def check_tools(narrate: bool, voice: voices.VoiceEngine = voices.DEFAULT_VOICE) -> None:
    """The system tools the render needs (ffmpeg, and the voice's), checked once, up front."""
    if shutil.which("ffmpeg") is None:
        raise UsageError("ffmpeg is missing: install it with `apt-get install ffmpeg` "
                         "(or run `./run video`, which does)")
    problem = voice.check() if narrate else None
    if problem:
        raise UsageError(problem)


def plan(chapter: Chapter, *, scenes: list[str], quality: str, settings: list[str], out: str | None,
         default_out: Path, jobs: int | None = None, narrate: bool = True,
         keyframes: str | None = None, voice: str | voices.VoiceEngine | None = None,
         scheduler: str | None = None, layout: str = "wide", job_unit: str = "auto",
         dry_run: bool = False) -> Plan:
    """Check every argument and tool up front, speak what is not spoken yet, and look
    the scenes up in the cache. Nothing is written to the output folder before this.

    ``voice``: a voice engine, or what ``--voice`` takes (``espeak``, ``piper``, a path
    to a Piper .onnx); the default voice when None. ``dry_run``: check and look up only:
    speak, convert and write nothing, and connect to no cluster (the keys are known
    from the passages' text and the voice, :func:`production.cache.scene_key`)."""
    qualities.get(quality)  # a UsageError naming the qualities there are
    beat_jobs.check_unit(job_unit)
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs {jobs}: must be a whole number of 1 or more")
    where = schedulers.address(scheduler)  # --scheduler or $EXPLAINER_SCHEDULER
    parsed = parse_settings(chapter, settings)
    chosen = pick_scenes(chapter, scenes)
    target = paths.output_dir(str(default_out) if out is None else out, "--out")
    frames = paths.writable_dir(keyframes, "--keyframes") if keyframes is not None else None
    speaker = pick_voice(voice, chapter.language) if narrate else voices.DEFAULT_VOICE
    check_tools(narrate, speaker)
    paths.writable_dir(str(paths.cache()), "the cache folder (EXPLAINER_CACHE)")
    bare = Plan(chapter, quality, parsed, narrate, chosen, {}, {}, jobs or os.cpu_count() or 1, {},
                target, frames, speaker, layout=layout, job_unit=job_unit, dry_run=dry_run)
    # The cluster first: its workers warm up (Manim, the ledger) while this process speaks.
    if not dry_run:
        bare.cluster = _session(where, jobs, speaker if narrate else None, chapter, chosen,
                                parsed)
    try:
        return _look_up(bare, parsed)
    except BaseException:
        bare.close()
        raise


def with_settings(base: Plan, settings: list[str], scenes: list[str] | None = None) -> Plan:
    """``base`` at other --set values (and ``scenes``, if named), checked, spoken, looked up;
    it shares ``base``'s quality, voice, folder, cluster and dry run (close ``base``, not
    it)."""
    chosen = base.chosen if scenes is None else pick_scenes(base.chapter, scenes)
    return _look_up(dataclasses.replace(base, chosen=chosen),
                    parse_settings(base.chapter, settings))


def _look_up(base: Plan, parsed: dict[str, Any]) -> Plan:
    """``base`` at the settings ``parsed``: the marks checked, the passages spoken (in a
    dry run only their recordings checked), the scenes' keys computed and looked up in
    the cache."""
    check_marks(base.chapter, base.chosen, parsed)
    if base.dry_run:
        if base.narrate:
            warn_recordings(base.chapter, base.chosen, convert=False)
        speech, lengths = None, {}
    else:
        speech = speak_all(base.chapter, base.chosen, parsed, base.narrate, base.voice)
        lengths = {sc.__name__: sum(beat_lengths(sc.beat_seconds, speech[sc.__name__]).values())
                   for sc in base.chosen}
    try:
        keys = {sc.__name__: cache.scene_key(base.chapter, sc, base.quality, parsed,
                                             base.narrate, base.voice,
                                             encoder=encoder_options(base.quality),
                                             layout=base.layout)
                for sc in base.chosen}
    except NarrationError as error:  # a recording that cannot be used
        raise UsageError(str(error)) from None
    stored = {name: load(cache.scenes_dir() / key, tidy=not base.dry_run)
              for name, key in keys.items()}
    if not base.dry_run:
        # Used from now on: a render pruning at the same time must not take them away.
        cache.mark_used(cache.scenes_dir() / key for key in keys.values())
    if base.keyframes is not None:
        stored = dict.fromkeys(stored)  # key frames are saved while drawing: draw again
    return dataclasses.replace(base, settings=parsed, keys=keys, stored=stored,
                               seconds=lengths, passages=speech)


def _session(where: str | None, jobs: int | None, voice: voices.VoiceEngine | None,
             chapter: Chapter, chosen: list[Any], settings: dict[str, Any]
             ) -> cluster.Session | None:
    """The cluster to render on, connected, its workers checked and warming up, when a
    scheduler is asked for (``where``: :func:`schedulers.address`)."""
    if where is None:
        return None
    session = cluster.Session(where, jobs or os.cpu_count() or 1, chapter, voice)
    session.warm(chapter, [sc.__name__ for sc in chosen], settings)
    return session


def pick_voice(voice: str | voices.VoiceEngine | None, language: str = "en"
               ) -> voices.VoiceEngine:
    """The voice a render in ``language`` speaks with (None: that language's default); a
    UsageError (one line) names a bad ``--voice``."""
    if isinstance(voice, voices.VoiceEngine):
        return voice
    try:
        return voices.voice_named(voice, language)
    except NarrationError as error:
        raise UsageError(str(error)) from None


def check_marks(chapter: Chapter, chosen: list[Any], settings: dict[str, Any]) -> None:
    """Every mark a chosen scene waits for is in its passage, and no passage has a mark
    no scene waits for (a UsageError naming file and line), spoken or not."""
    try:
        for sc in chosen:
            marked_script(chapter, sc, settings)
    except NarrationError as error:
        raise UsageError(str(error)) from None


# ----------------------------------------------------------------- drawing


@dataclass(frozen=True)
class SceneTask:
    """One scene to draw, as a worker (a local process or a cluster's) is sent it."""

    chapter: Chapter
    scene: str
    quality: str
    settings: dict[str, Any]
    narrate: bool
    entry: str  # the cache folder its files go into
    keyframes: str | None  # where to save the last frame of every beat, if anywhere
    voice: voices.VoiceEngine
    layout: str = "wide"  # the frame it is laid out for

    def draw(self, produce: Callable[..., Any], *, transparent: bool) -> Any:
        """Draw the scene with Manim and let ``produce`` make its files."""
        def manim(scene_class: Any, media_dir: Path, durations: dict[str, float],
                  mark_times: dict[str, dict[str, float]]) -> Any:
            return construct_scene(self.chapter, scene_class, self.quality, self.settings,
                                   media_dir, video=True,
                                   keyframes=Path(self.keyframes) if self.keyframes else None,
                                   transparent=transparent, durations=durations,
                                   mark_times=mark_times, layout=self.layout,
                                   credits=voices.credits(self.voice if self.narrate else None,
                                                          self.chapter.next_title()))

        return produce(self.chapter, self.chapter.scene(self.scene), Path(self.entry), manim,
                       narrate=self.narrate, settings=self.settings, voice=self.voice)


def render_job(task: SceneTask) -> tuple[dict[str, Any], int]:
    """Worker process: render one scene into its cache entry; (its record, peak KiB)."""
    from production.scene_output import produce_scene

    started = time.monotonic()
    done = task.draw(produce_scene, transparent=False)
    return {**done.to_json(), "drawn_beats": done.drawn_beats,
            "job_seconds": time.monotonic() - started}, peak_memory()


#: a worker's job: a scene task -> (its record, the worker's peak memory in KiB)
Job = Callable[[SceneTask], tuple[Any, int]]


def task(plan: Plan, scene: Any, variant: str = "") -> SceneTask:
    """The task of drawing ``scene`` as ``plan`` asks, into its cache entry (``variant``)."""
    return SceneTask(plan.chapter, scene.__name__, plan.quality, plan.settings, plan.narrate,
                     str(plan.entry(scene.__name__, variant)),
                     str(plan.keyframes) if plan.keyframes else None, plan.voice, plan.layout)


def dispatch(plan: Plan, jobs: list[tuple[str, Callable[..., Any], tuple[Any, ...]]],
             speech: dict[str, list[Passage]] | None = None
             ) -> tuple[dict[str, Any], list[int]]:
    """Run (label, function, arguments) jobs, in the order given, on ``plan``'s cluster or
    in local worker processes, under one progress display; ``speech[label]`` is what a
    job speaks (sent to a cluster's workers). Each label's result, and peak memory."""
    if not jobs:
        return {}, []
    progress = Progress(len(jobs))
    try:
        if plan.cluster is not None:
            sent = {label: {**cluster.speech_of((speech or {}).get(label, [])),
                            **plan.shipped.get(label, {})} for label, _, _ in jobs}
            return plan.cluster.run(jobs, sent, progress)
        return run_workers(jobs, min(plan.workers, len(jobs)), progress)
    finally:
        progress.close()


def render_missing(plan: Plan, missing: list[Any], job: Job, *, variant: str = "",
                   label: str = "{}") -> tuple[dict[str, Any], list[int]]:
    """Run ``job`` for each scene of ``missing`` in worker processes, longest first (so
    no worker is left with a long scene at the end); returns each scene's record by
    name and the workers' peak memory (KiB)."""
    todo = sorted(missing, key=lambda sc: -plan.seconds[sc.__name__])
    jobs = [(label.format(sc.__name__), job, (task(plan, sc, variant),)) for sc in todo]
    speech = {label.format(sc.__name__): (plan.passages or {}).get(sc.__name__, [])
              for sc in todo}
    records, peaks = dispatch(plan, jobs, speech)
    by_label = {label.format(sc.__name__): sc.__name__ for sc in todo}
    return {by_label[lab]: record for lab, record in records.items()}, peaks


def render_plans(plans: list[Plan], labels: list[str], job: Job = render_job
                 ) -> tuple[dict[str, Any], list[int]]:
    """Run ``job`` for every scene missing from the cache in any of ``plans`` (one render
    with several settings, see :func:`with_settings`; ``labels[i]`` names plan i's
    settings in the progress display and in errors), each content key once however many
    plans share it, all in one worker pool (or on the first plan's cluster) so they run
    in parallel, longest first. Returns each drawn key's record and the workers' peak
    memory (KiB)."""
    todo: dict[str, tuple[Plan, str, Any]] = {}
    for p, label in zip(plans, labels, strict=True):
        for sc in p.chosen:
            if p.stored[sc.__name__] is None:
                todo.setdefault(p.keys[sc.__name__], (p, label, sc))
    order = sorted(todo, key=lambda k: -todo[k][0].seconds[todo[k][2].__name__])
    jobs, speech, key_of = [], {}, {}
    for key in order:
        p, label, sc = todo[key]
        name = f"{sc.__name__} ({label})"
        jobs.append((name, job, (task(p, sc),)))
        speech[name] = (p.passages or {}).get(sc.__name__, [])
        key_of[name] = key
    records, peaks = dispatch(plans[0], jobs, speech)
    return {key_of[name]: record for name, record in records.items()}, peaks


def ensure_scenes(plan: Plan) -> tuple[dict[str, SceneOutput], list[int]]:
    """Every chosen scene's finished output: from the cache, or rendered in parallel.
    Prints a line per scene, and the layout and timing problems it found."""
    missing = [sc for sc in plan.chosen if plan.stored[sc.__name__] is None]
    by_beats, beat_peaks = beat_jobs.fill(plan, missing, dispatch, task)
    records, peaks = render_missing(plan, missing, render_job)
    results = {n: r for n, r in plan.stored.items() if r is not None}
    for name, record in records.items():
        results[name] = SceneOutput.from_json(record, plan.entry(name))
        plan.job_costs[name] = record.get("job_seconds", 0.0)
        drawn = record.get("drawn_beats")
        if drawn is not None:
            plan.beats[name] = (len(by_beats.get(name, set()) | set(drawn)),
                                len(results[name].beat_starts))
    plan.beat_peaks = beat_peaks
    for sc in plan.chosen:
        name = sc.__name__
        result = results[name]
        drawn, every = plan.beats.get(name, (0, 0))
        how = "cached" if name not in records else \
            f"rendered {drawn} of {every} beats" if drawn < every else "rendered"
        print(scene_line(result, how))
        for problem in result.layout_problems + result.timing_problems:
            print(f"render.py: warning: {sc.__name__}: {problem}", file=sys.stderr)
    return results, peaks


def scene_line(result: SceneOutput, how: str) -> str:
    loud = (f", {result.loudness.integrated:.1f} LUFS, true peak "
            f"{result.loudness.true_peak:.1f} dBTP" if result.loudness else "")
    return f"{result.name}: {result.seconds:.1f} s{loud} ({how})"


# ----------------------------------------------------------------- around a render


def lock_output(plan: Plan) -> None:
    """Wait while another render writes into the output folder, then hold it until this
    one ends.

    Called after every argument is checked and before anything is written there. The
    lock goes with the process, however it ends. Scenes the other render stored in the
    meantime are taken from the cache instead of being drawn again.
    """
    from production import lock

    out = plan.out

    def waiting(pid: int | None) -> None:
        holder = f" (pid {pid})" if pid else ""
        print(f"render.py: waiting for another render writing into {out}{holder}",
              file=sys.stderr, flush=True)

    out.mkdir(parents=True, exist_ok=True)
    try:
        waited = lock.hold(out, waiting)
    except OSError as error:  # a file system that cannot lock a folder (some NFS mounts)
        print(f"render.py: warning: cannot lock {out} ({error.strerror}); another render "
              "into it at the same time would collide", file=sys.stderr)
        return
    if waited and plan.keyframes is None:
        plan.stored = {name: stored or load(plan.entry(name))
                       for name, stored in plan.stored.items()}


def keep_in_cache(plan: Plan, variants: tuple[str, ...] = ("",)) -> None:
    """Mark the cache entries this render used, then prune what no render has used lately."""
    cache.mark_used(plan.entry(sc.__name__, v) for sc in plan.chosen for v in variants)
    cache.prune()


__all__ = ["Plan", "Progress", "check_tools", "ensure_scenes", "keep_in_cache",
           "lock_output", "pick_voice", "plan", "render_job", "render_missing", "render_plans",
           "with_settings"]
