"""Rendering benchmark: prints figures, asserts nothing.

In one run on this machine it measures, for each quality asked for:
  * the chapter rendered by `render.py` with a cold cache (parallel workers),
  * the same again with a warm cache,
  * the plain baseline a Manim user would run: each scene by `manim render`,
    one after another, at the same quality, caching off: the same frames (each
    beat as long as its narration, see baseline_scenes.py) but no sound,
and prints the ratios, seconds of video per second of rendering, and the peak
memory of a worker. It also measures speaking the narration cold with the
default voice (bench/speak.py with an empty cache, less the same again, all
cached) against the cold publish render, and the whole course's dry run on a cold cache.

    .venv/bin/python bench/bench.py                       # preview and publish, all scenes
    .venv/bin/python bench/bench.py --quality preview --scenes TitleCard TwoJobs
    .venv/bin/python bench/bench.py --quality publish --no-baseline   # speech against render
    .venv/bin/python bench/bench.py --chapter decoder --scenes DecoderQuestion --jobs 1
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import speak  # noqa: E402

from production.chapters import load  # noqa: E402
from production.qualities import QUALITIES  # noqa: E402

PYTHON = sys.executable
MANIM = str(Path(sys.executable).with_name("manim"))


def timed(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    started = time.monotonic()
    run = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if run.returncode != 0:
        sys.exit(f"bench: {' '.join(args[:4])} failed:\n{run.stderr[-2000:]}")
    return seconds, run.stdout


def video_seconds(folder: Path) -> float:
    import av

    total = 0.0
    for path in sorted(folder.glob("*.mp4")):
        with av.open(str(path)) as c:
            v = c.streams.video[0]
            total += float(v.duration * v.time_base)
    return total


def video_seconds_tree(folder: Path) -> float:
    """Seconds of video in the final scene files Manim wrote (not its partial files)."""
    import av

    total = 0.0
    for path in folder.rglob("*.mp4"):
        if "partial_movie_files" in path.parts:
            continue
        with av.open(str(path)) as c:
            v = c.streams.video[0]
            total += float(v.duration * v.time_base)
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    parser.add_argument("--quality", action="append", choices=list(QUALITIES),
                        help="repeatable; default: preview and publish")
    parser.add_argument("--scenes", nargs="*", help="a subset of scenes (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the serial manim baseline (cold and warm renders, speech)")
    args = parser.parse_args()
    qualities = args.quality or ["preview", "publish"]
    module = f"scenes.{args.chapter}.chapter"
    names = args.scenes or list(load(module).by_name())
    subset = bool(args.scenes)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; jobs {args.jobs}; "
          f"{'scenes ' + ' '.join(names) if subset else 'whole chapter'} of {args.chapter}")
    colds: dict[str, float] = {}
    for quality in qualities:
        w, h, fps = QUALITIES[quality].size
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            env = dict(os.environ, EXPLAINER_CACHE=str(tmp / "cache"))
            command = [PYTHON, "render.py", "render", *(names if subset else []),
                       "--chapter", args.chapter, "--quality", quality,
                       "--out", str(tmp / "out"), "--jobs", str(args.jobs)]
            cold, cold_out = timed(command, env)
            colds[quality] = cold
            warm, _ = timed(command, env)
            seconds_of_video = video_seconds(tmp / "out" / "scenes")
            peak = re.search(r"peak memory per worker (\d+) MiB", cold_out)
            # the scenes made as the render made them (baseline_scenes.py), only those asked
            base_env = dict(env, PYTHONPATH=str(ROOT), BENCH_CHAPTER=module,
                            BENCH_SCENES=" ".join(names))
            baseline = 0.0
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            for name in [] if args.no_baseline else names:
                seconds, _ = timed([MANIM, "render", "--disable_caching", "--progress_bar",
                                    "none", "-v", "WARNING", "-r", f"{w},{h}",
                                    "--frame_rate", str(fps), "--media_dir",
                                    str(tmp / "manim"), "bench/baseline_scenes.py", name],
                                   base_env)
                baseline += seconds
            baseline_video = video_seconds_tree(tmp / "manim") if baseline else 0.0
            baseline_peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        print(f"\n{quality} ({w}x{h}, {fps} fps), {seconds_of_video:.1f} s of video")
        print(f"  cold render (render.py, {args.jobs} jobs): {cold:8.1f} s"
              f"   {seconds_of_video / cold:5.2f} s of video per s")
        print(f"  warm render (nothing changed):        {warm:8.1f} s"
              f"   {100 * warm / cold:5.1f} % of cold")
        if baseline:
            print(f"  serial baseline (manim render each):  {baseline:8.1f} s"
                  f"   {baseline_video / baseline:5.2f} s of video per s "
                  f"({baseline_video:.1f} s of video, no sound)")
            print(f"  speed-up, baseline / cold:            {baseline / cold:8.2f} x")
        print(f"  peak memory per worker:               "
              f"{peak.group(1) if peak else '?':>8} MiB"
              f"   (a manim render: {baseline_peak / 1024:.0f} MiB)")
    speech, passages = speaking(args.chapter, names if subset else [])
    print(f"\nspeech, cold, default voice: {speech:8.1f} s for {passages} passages")
    if "publish" in colds:
        print(f"  against the cold publish render:     {100 * speech / colds['publish']:8.1f} %")
    print(f"\ncourse dry run, cold cache:           {course_dry_run():8.1f} s (speaks nothing)")
    return 0


def course_dry_run() -> float:
    """`render.py course --dry-run` on an empty cache: planned from the text alone."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, EXPLAINER_CACHE=str(Path(tmp) / "cache"))
        seconds, _ = timed([PYTHON, "render.py", "course", "--dry-run", "--out",
                            str(Path(tmp) / "course")], env)
    return seconds


def speaking(chapter: str, names: list[str]) -> tuple[float, int]:
    """Seconds to speak every passage of the scenes cold (bench/speak.py) with an empty
    cache, less the same again (everything cached)."""
    with tempfile.TemporaryDirectory() as tmp:
        cold = speak.timed(chapter, names, Path(tmp) / "cache")
        warm = speak.timed(chapter, names, Path(tmp) / "cache")
        spoken = len(list((Path(tmp) / "cache" / "voice").glob("*.wav")))
    return cold - warm, spoken


if __name__ == "__main__":
    sys.exit(main())
