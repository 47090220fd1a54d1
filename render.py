"""The command: list the scenes, print the ledger, render the chapter.

    python render.py list
    python render.py numbers [--set SECTION.PARAM=VALUE ...]
    python render.py render [SCENE ...] [--quality preview|draft|publish|4k] [--out DIR]
                            [--set ...] [--no-narration] [--dry-run]

Errors are raised as :class:`UsageError` (or a model's ``ValueError``) and
turned into one line on stderr and exit status 2 in :func:`main`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production.workers import Terminated, WorkerDied, run_workers, stop_on_sigterm

ROOT = Path(__file__).resolve().parent

#: name -> (width px, height px, frames per second)
QUALITIES: dict[str, tuple[int, int, int]] = {
    "preview": (854, 480, 15),
    "draft": (1280, 720, 30),
    "publish": (1920, 1080, 60),
    "4k": (3840, 2160, 60),
}


class UsageError(Exception):
    """Bad input from the user: one line, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="render.py",
        description="Render the attention chapter, or print the numbers it shows.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    commands.add_parser("list", help="print the chapter's scenes, one name a line, in order")

    numbers = commands.add_parser(
        "numbers", help="print every number the chapter shows as one JSON object"
    )
    _add_settings(numbers)

    render = commands.add_parser(
        "render", help="render the chapter (or the named scenes) to a publish bundle",
        description="Render scenes to MP4 with narration and captions. With no scene "
                    "named, also join them into out/chapter.mp4 with chapters.txt, "
                    "thumbnail.jpg and manifest.json.")
    output = _scene_options(render, "directory for the bundle (default: out/)")
    output.add_argument("--keyframes", metavar="DIR",
                        help="also save the last frame of every beat as PNG into DIR")

    slides = commands.add_parser(
        "slides", help="write every scene as clips for slides, with deck.html and deck.pptx",
        description="For every scene (or the named ones): MP4 with and without narration, "
                    "transparent WebM (VP9 alpha) and MOV (ProRes 4444), a looping GIF, a "
                    "poster PNG and captions; plus deck.html, deck.pptx and index.json.")
    _scene_options(slides, "directory for the slide files (default: out/slides/)")
    return parser


def _scene_options(parser: argparse.ArgumentParser, out_help: str) -> argparse._ArgumentGroup:
    """The options render and slides share: scenes, quality, output, content, dry run."""
    parser.add_argument("scenes", nargs="*", metavar="SCENE",
                        help="scene names from `render.py list` (default: all, in order)")
    output = parser.add_argument_group("output")
    output.add_argument("--quality", default="publish",
                        help="preview (854x480, 15 fps), draft (1280x720, 30), "
                             "publish (1920x1080, 60) or 4k (3840x2160, 60); default publish")
    output.add_argument("--out", metavar="DIR", help=out_help)
    output.add_argument("--jobs", type=int, metavar="N",
                        help="scenes rendered at once in worker processes "
                             "(default: the number of cores)")
    content = parser.add_argument_group("content")
    _add_settings(content)
    content.add_argument("--no-narration", action="store_true",
                         help="render without a voice (silent video, no captions)")
    parser.add_argument("--dry-run", action="store_true",
                        help="check the arguments and print what would be done")
    return output


def _add_settings(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    parser.add_argument("--set", dest="settings", action="append", default=[],
                        metavar="SECTION.PARAM=VALUE",
                        help="change a default, e.g. spotlight.sharpness=8 (repeatable)")


def _settings(items: list[str]) -> dict:
    from core.ledger import SettingError, parse_settings

    try:
        return parse_settings(items)
    except SettingError as error:
        raise UsageError(str(error)) from None


def cmd_numbers(args: argparse.Namespace) -> int:
    from core.ledger import compute

    ledger = compute(_settings(args.settings))
    # Standard JSON only: a NaN or Infinity is a bug in the ledger, never printed.
    sys.stdout.write(json.dumps(ledger, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from scenes import SCENES_IN_ORDER

    for scene in SCENES_IN_ORDER:
        print(scene.__name__)
    return 0


def _pick_scenes(names: list[str]) -> list[Any]:
    from scenes import SCENES_BY_NAME, SCENES_IN_ORDER

    unknown = [n for n in names if n not in SCENES_BY_NAME]
    if unknown:
        raise UsageError(
            f"unknown scene {unknown[0]!r}; scenes: {', '.join(SCENES_BY_NAME)}"
        )
    return [SCENES_BY_NAME[n] for n in names] if names else list(SCENES_IN_ORDER)


def _writable_dir(path: str, option: str) -> Path:
    """The directory (not created yet); a UsageError unless a file can be made there."""
    import tempfile

    if not path.strip():
        raise UsageError(f"{option}: the folder name is empty; give a folder to write into")
    target = Path(path)
    probe = target
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"{option} {path}: {probe} is not a folder")
    try:  # /proc, /sys and read-only mounts pass an access() check but take no files
        with tempfile.NamedTemporaryFile(dir=probe, prefix=".probe-"):
            pass
    except OSError as error:
        raise UsageError(f"{option} {path}: cannot write there ({error.strerror or error}); "
                         "choose a writable folder") from None
    return target


def construct_scene(scene_class: Any, quality: str, settings: dict[str, Any],
                    media_dir: Path, *, video: bool, keyframes: Path | None = None,
                    transparent: bool = False) -> Any:
    """Run one scene under Manim at ``quality``; returns the finished Scene.

    With ``video`` False nothing is encoded: animations are skipped to their
    end states, which is enough to check layout, timing and key frames. With
    ``transparent`` the background is see-through and Manim writes lossless
    QuickTime Animation with alpha (the source of the slides' alpha clips).
    """
    from manim import tempconfig

    width, height, fps = QUALITIES[quality]
    options = {
        "pixel_width": width,
        "pixel_height": height,
        "frame_rate": fps,
        "media_dir": str(media_dir),
        "disable_caching": True,
        "progress_bar": "none",
        "verbosity": "WARNING",
        "output_file": scene_class.__name__,
    }
    if video and transparent:
        options.update({"transparent": True, "format": "mov"})
    elif video:
        options["video_encoder_options"] = encoder_options(quality)
    else:
        options.update({"format": "png", "write_to_movie": False})
    scene_class.settings = settings
    scene_class.keyframe_dir = keyframes
    try:
        with tempconfig(options):
            scene = scene_class(renderer=_renderer()) if video and not transparent \
                else scene_class()
            scene.render()
    finally:
        scene_class.keyframe_dir = None
    return scene


def _renderer() -> Any:
    """Manim's Cairo renderer, writing segments with held frames encoded once per GOP."""
    from manim.renderer.cairo_renderer import CairoRenderer

    from production.stills import StillFrameWriter

    return CairoRenderer(file_writer_class=StillFrameWriter)


ENCODER_PRESETS = {"preview": "veryfast", "draft": "veryfast", "publish": "veryfast",
                   "4k": "veryfast"}


def encoder_options(quality: str) -> dict[str, str]:
    """H.264 High, closed GOP of half the frame rate, 2 B-frames, BT.709 tags."""
    fps = QUALITIES[quality][2]
    return {
        "preset": ENCODER_PRESETS[quality], "crf": "20", "profile": "high",
        "g": str(fps // 2), "keyint_min": str(fps // 2), "sc_threshold": "0",
        "bf": "2", "flags": "+cgop",
        "color_primaries": "bt709", "color_trc": "bt709", "colorspace": "bt709",
    }


def check_tools(narrate: bool) -> None:
    """The system tools the render needs, checked once, up front."""
    if shutil.which("ffmpeg") is None:
        raise UsageError("ffmpeg is missing: install it with `apt-get install ffmpeg` "
                         "(or run `./run video`, which does)")
    if narrate and shutil.which("espeak-ng") is None:
        raise UsageError("espeak-ng is missing: install it with `apt-get install espeak-ng` "
                         "(or run `./run video`), or render silently with --no-narration")


def render_job(name: str, quality: str, settings: dict[str, Any], narrate: bool,
               entry: str, keyframes: str | None) -> tuple[dict[str, Any], int]:
    """Worker process: render one scene into the cache entry; (its record, peak KiB)."""
    import resource

    from production.scene_output import produce_scene
    from scenes import SCENES_BY_NAME

    def manim(scene_class: Any, media_dir: Path) -> Any:
        return construct_scene(scene_class, quality, settings, media_dir, video=True,
                               keyframes=Path(keyframes) if keyframes else None)

    result = produce_scene(SCENES_BY_NAME[name], Path(entry), manim, narrate=narrate,
                           settings=settings)
    return result.to_json(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def alpha_job(name: str, quality: str, settings: dict[str, Any], narrate: bool,
              entry: str, keyframes: str | None) -> tuple[dict[str, Any], int]:
    """Worker process: the scene's transparent clips into the cache entry."""
    import resource

    from production.slides import produce_alpha
    from scenes import SCENES_BY_NAME

    def manim(scene_class: Any, media_dir: Path) -> Any:
        return construct_scene(scene_class, quality, settings, media_dir, video=True,
                               transparent=True)

    meta = produce_alpha(SCENES_BY_NAME[name], Path(entry), manim, narrate=narrate,
                         settings=settings)
    return meta, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Progress:
    """One display over the scenes: done, rendering, time left. Quiet off a terminal."""

    def __init__(self, total: int) -> None:
        self.live = sys.stderr.isatty() and total > 0
        if self.live:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            from rich.progress import Progress as Bar

            self.bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                           transient=True)
            self.task = self.bar.add_task("rendering", total=total)

    def start(self) -> None:
        """Show the display (it redraws from a thread: start it after the workers fork)."""
        if self.live:
            self.bar.start()

    def update(self, rendering: list[str], advance: int = 0) -> None:
        if self.live:
            label = ", ".join(rendering) if rendering else "finishing"
            self.bar.update(self.task, advance=advance, description=f"rendering {label}")

    def say(self, line: str) -> None:
        if self.live:
            self.bar.console.print(line)
        else:
            print(line, flush=True)

    def close(self) -> None:
        if self.live:
            self.bar.stop()


@dataclass
class Plan:
    """What a render will do: the scenes, their cache keys, and what is already stored."""

    quality: str
    settings: dict[str, Any]
    narrate: bool
    chosen: list[Any]
    keys: dict[str, str]
    stored: dict[str, Any]
    workers: int
    seconds: dict[str, float]  # each scene's length as narrated
    folders: dict[str, Path]  # where it writes: "cache" and "out"

    def space(self, *, chapter: bool = False, slides: bool = False) -> dict[str, int]:
        """Bytes the render still needs in the cache and in out/."""
        from production import space

        todo = sum(s for n, s in self.seconds.items() if self.stored[n] is None)
        total = sum(self.seconds.values())
        return space.needs(self.quality, todo, total if chapter else None, total,
                           slides=slides)


def plan_render(args: argparse.Namespace) -> tuple[Plan, Path, Path | None]:
    """Check every argument and tool up front; nothing is written before this passes."""
    if args.quality not in QUALITIES:
        raise UsageError(
            f"--quality {args.quality!r}: must be one of {', '.join(QUALITIES)}"
        )
    if args.jobs is not None and args.jobs < 1:
        raise UsageError(f"--jobs {args.jobs}: must be a whole number of 1 or more")
    settings = _settings(args.settings)
    chosen = _pick_scenes(args.scenes)
    default_out = ROOT / "out" / ("slides" if args.command == "slides" else "")
    out = _writable_dir(str(default_out) if args.out is None else args.out, "--out")
    keyframes = (_writable_dir(args.keyframes, "--keyframes")
                 if getattr(args, "keyframes", None) is not None else None)
    narrate = not args.no_narration
    check_tools(narrate)

    from production import cache, narration
    from production.scene_output import load

    cache_dir = _writable_dir(str(cache.CACHE), "the cache folder (EXPLAINER_CACHE)")
    speech = _speak_all(chosen, settings, narrate)
    keys = {sc.__name__: cache.scene_key(sc, args.quality, settings, narrate,
                                         encoder=encoder_options(args.quality),
                                         passages=speech[sc.__name__])
            for sc in chosen}
    lengths = {sc.__name__: sum(narration.beat_lengths(sc.beat_seconds,
                                                       speech[sc.__name__]).values())
               for sc in chosen}
    stored = {name: load(cache.SCENES / key) for name, key in keys.items()}
    # Used from now on: a render pruning at the same time must not take them away.
    cache.mark_used(cache.SCENES / key for key in keys.values())
    if keyframes is not None:
        stored = dict.fromkeys(stored)  # key frames are saved while drawing: draw again
    workers = args.jobs or os.cpu_count() or 1
    plan = Plan(args.quality, settings, narrate, chosen, keys, stored, workers, lengths,
                {"cache": cache_dir, "out": out})
    return plan, out, keyframes


def _speak_all(chosen: list[Any], settings: dict[str, Any],
               narrate: bool) -> dict[str, list[Any]]:
    """Every chosen scene's passages, spoken (a few at once) or taken from the cache."""
    from concurrent.futures import ThreadPoolExecutor

    from production import cache, narration

    if not narrate:
        return {sc.__name__: [] for sc in chosen}
    try:
        for sc in chosen:
            for warning in narration.check_recordings(sc.__name__, list(sc.beat_seconds)):
                print(f"render.py: warning: {warning}", file=sys.stderr)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as speakers:
            spoken = speakers.map(lambda sc: cache.speech(sc, settings), chosen)
            return {sc.__name__: passages for sc, passages in zip(chosen, spoken)}
    except narration.NarrationError as error:
        raise UsageError(str(error)) from None


def ensure_scenes(plan: Plan, keyframes: Path | None) -> tuple[dict[str, Any], list[int]]:
    """Every chosen scene's finished output: from the cache, or rendered in parallel."""
    from production import cache
    from production.scene_output import SceneOutput

    # Longest scenes first, so no worker is left with a long scene at the end.
    todo = sorted((sc for sc in plan.chosen if plan.stored[sc.__name__] is None),
                  key=lambda sc: -sum(sc.beat_seconds.values()))
    jobs = [(sc.__name__, render_job,
             (sc.__name__, plan.quality, plan.settings, plan.narrate,
              str(cache.SCENES / plan.keys[sc.__name__]),
              str(keyframes) if keyframes else None)) for sc in todo]
    progress = Progress(len(jobs))
    try:
        records, peaks = run_workers(jobs, min(plan.workers, max(1, len(jobs))), progress)
    finally:
        progress.close()
    results = {n: r for n, r in plan.stored.items() if r is not None}
    for name, record in records.items():
        results[name] = SceneOutput.from_json(record, cache.SCENES / plan.keys[name])
    for sc in plan.chosen:
        result = results[sc.__name__]
        print(_scene_line(result, "rendered" if sc.__name__ in records else "cached"))
        for problem in result.layout_problems + result.timing_problems:
            print(f"render.py: warning: {sc.__name__}: {problem}", file=sys.stderr)
    return results, peaks


def cmd_render(args: argparse.Namespace) -> int:
    plan, out, keyframes = plan_render(args)
    width, height, fps = QUALITIES[plan.quality]
    if args.dry_run:
        for sc in plan.chosen:
            state = "cached" if plan.stored[sc.__name__] else "render"
            print(f"{state} {sc.__name__} at {width}x{height}, {fps} fps "
                  f"-> {out / 'scenes' / (sc.__name__ + '.mp4')}")
        return 0
    if not plan.narrate:
        print("render.py: rendering without narration (silent)", file=sys.stderr)
    from production import bundle, space

    started = time.monotonic()
    with space.guarded(plan.folders, plan.space(chapter=not args.scenes)):
        out.mkdir(parents=True, exist_ok=True)
        _lock_output(out, plan, keyframes)
        bundle.clear_partials(out)
        results, peaks = ensure_scenes(plan, keyframes)
        for sc in plan.chosen:
            result = results[sc.__name__]
            for f in (result.video, *result.captions):
                bundle.publish(f, out / "scenes" / f.name)
        if not args.scenes:
            ordered = [results[sc.__name__] for sc in plan.chosen]
            _publish_chapter(ordered, plan.chosen, plan.keys, plan.quality, plan.settings,
                             out)
    _summary(len(peaks), len(plan.chosen), peaks, plan, started)
    _keep_in_cache(plan, [])
    return 0


def _lock_output(out: Path, plan: Plan, keyframes: Path | None) -> None:
    """Wait while another render writes into ``out``, then hold it until this one ends.

    Called after every argument is checked and before anything is written there. The
    lock goes with the process, however it ends. Scenes the other render stored in the
    meantime are taken from the cache instead of being drawn again.
    """
    from production import cache, lock
    from production.scene_output import load

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
    if waited and keyframes is None:
        plan.stored = {name: stored or load(cache.SCENES / plan.keys[name])
                       for name, stored in plan.stored.items()}


def _keep_in_cache(plan: Plan, extra: list[str]) -> None:
    """Mark the cache entries this render used, then prune what no render has used lately."""
    from production import cache

    cache.mark_used(cache.SCENES / key for key in [*plan.keys.values(), *extra])
    cache.prune()


def _summary(rendered: int, total: int, peaks: list[int], plan: Plan, started: float) -> None:
    elapsed = time.monotonic() - started
    if peaks:
        workers = min(plan.workers, rendered)
        print(f"rendered {rendered} of {total} scenes in {elapsed:.1f} s with "
              f"{workers} worker(s); peak memory per worker {max(peaks) / 1024:.0f} MiB")
    else:
        print(f"nothing to render: all {total} scenes cached ({elapsed:.1f} s)")


def cmd_slides(args: argparse.Namespace) -> int:
    args.keyframes = None
    plan, target, _ = plan_render(args)
    if args.dry_run:
        for sc in plan.chosen:
            print(f"slides for {sc.__name__} -> {target}")
        return 0
    from production import space

    _lock_output(target, plan, None)
    started = time.monotonic()
    with space.guarded(plan.folders, plan.space(slides=True)):
        peaks, files, alpha_keys = _slides(plan, target)
    _summary(len(peaks), 2 * len(plan.chosen), peaks, plan, started)
    print(f"slides: {files} files for {len(plan.chosen)} scenes -> {target}")
    _keep_in_cache(plan, alpha_keys)
    return 0


def _slides(plan: Plan, target: Path) -> tuple[list[int], int, list[str]]:
    """Render what is missing (opaque and transparent), then write the slide files;
    returns the workers' peak memory, the number of files and the transparent clips' keys."""
    from production import bundle, cache, slides

    results, peaks = ensure_scenes(plan, None)
    alpha_keys = {n: f"{k}-alpha" for n, k in plan.keys.items()}
    todo = sorted((sc for sc in plan.chosen
                   if not slides.load_alpha(cache.SCENES / alpha_keys[sc.__name__],
                                            sc.__name__)),
                  key=lambda sc: -sum(sc.beat_seconds.values()))
    jobs = [(f"{sc.__name__} (transparent)", alpha_job,
             (sc.__name__, plan.quality, plan.settings, plan.narrate,
              str(cache.SCENES / alpha_keys[sc.__name__]), None)) for sc in todo]
    progress = Progress(len(jobs))
    try:
        _, alpha_peaks = run_workers(jobs, min(plan.workers, max(1, len(jobs))), progress)
    finally:
        progress.close()
    bundle.clear_partials(target)
    index = slides.assemble(
        [(sc, results[sc.__name__], cache.SCENES / alpha_keys[sc.__name__])
         for sc in plan.chosen], target)
    return peaks + alpha_peaks, len(index["files"]), list(alpha_keys.values())


def _scene_line(result: Any, how: str) -> str:
    loud = (f", {result.loudness.integrated:.1f} LUFS, true peak "
            f"{result.loudness.true_peak:.1f} dBTP" if result.loudness else "")
    return f"{result.name}: {result.seconds:.1f} s{loud} ({how})"


#: the scene and beat whose last frame becomes the thumbnail
THUMBNAIL_FRAME = ("MatchIsTheWeight", "panel")


def _publish_chapter(results: list[Any], chosen: list[Any], keys: dict[str, str],
                     quality: str, settings: dict[str, Any], out: Path) -> None:
    from core.ledger import compute
    from production import bundle, cache
    from production import chapter as chapter_files

    key = cache.chapter_key([keys[r.name] for r in results], quality)
    chapter = chapter_files.load(cache.CHAPTERS / key)
    if chapter is None:
        chapter = chapter_files.assemble(results, cache.CHAPTERS / key)
    cache.mark_used([cache.CHAPTERS / key])
    for f in chapter.files():
        bundle.publish(f, out / f.name)
    titled = [(sc.title, r.seconds) for sc, r in zip(chosen, results)]
    bundle.write_text(out / "chapters.txt", bundle.chapters_text(bundle.chapters(titled)))
    scene_name, beat = THUMBNAIL_FRAME
    index = [r.name for r in results].index(scene_name)
    picked = results[index]
    beats = list(picked.beat_starts)
    following = beats.index(beat) + 1
    end = picked.beat_starts[beats[following]] if following < len(beats) else picked.seconds
    bundle.thumbnail(chapter.video, chapter.starts[index] + end - 0.1, out / "thumbnail.jpg")
    width, height, fps = QUALITIES[quality]
    files = [out / f.name for f in chapter.files()] + [out / "chapters.txt",
                                                       out / "thumbnail.jpg"]
    bundle.manifest({
        "title": bundle.CHAPTER_TITLE,
        "quality": {"name": quality, "width": width, "height": height, "frame_rate": fps},
        "duration": chapter.seconds,
        "loudness": None if chapter.loudness is None else
        {"integrated_lufs": chapter.loudness.integrated,
         "true_peak_dbtp": chapter.loudness.true_peak},
        "files": {f.name: {"sha256": cache.file_hash(f), "bytes": f.stat().st_size}
                  for f in files},
        "scenes": [
            {"name": r.name, "title": sc.title, "start": start, "duration": r.seconds,
             "content_key": keys[r.name],
             "files": {f"scenes/{f.name}": cache.file_hash(f)
                       for f in (r.video, *r.captions)}}
            for sc, r, start in zip(chosen, results, chapter.starts)
        ],
        "versions": bundle.versions(),
        "ledger": compute(settings),
    }, out / "manifest.json")
    loud = (f", {chapter.loudness.integrated:.1f} LUFS, true peak "
            f"{chapter.loudness.true_peak:.1f} dBTP" if chapter.loudness else "")
    print(f"chapter: {chapter.seconds:.1f} s{loud} -> {out / chapter.video.name}")


COMMANDS = {"list": cmd_list, "numbers": cmd_numbers, "render": cmd_render,
            "slides": cmd_slides}


def main(argv: list[str] | None = None) -> int:
    from production.errors import DiskFullError
    from production.narration import NarrationError

    parser = build_parser()
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help"):
        argv = ["render", *argv]  # the command may be left out: render is meant
    args = parser.parse_args(argv)
    try:
        with stop_on_sigterm():
            return COMMANDS[args.command](args)
    except (UsageError, DiskFullError, NarrationError) as error:
        print(f"render.py: error: {error}", file=sys.stderr)
        return 2
    except WorkerDied as error:  # killed, or out of memory: the scenes it finished are cached
        print(f"render.py: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:  # Ctrl-C or SIGTERM: the workers are already gone
        terminated = isinstance(stop, Terminated)
        print(f"render.py: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
        gc.freeze()  # leave Manim's objects to the exit, not to a last sweep (half a second)
        return 143 if terminated else 130
    finally:
        from production import lock

        lock.release_all()


if __name__ == "__main__":
    sys.exit(main())
