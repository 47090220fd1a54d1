"""Beat benchmark: prints figures, asserts nothing.

On a copy of the project (an edit never touches the checkout), with the speech cached:

  * the beat cache: SpotlightBudget rendered cold at preview, then again after a
    one-line change in its last beat (the blend's lines drawn in a little more slowly),
    and the ratio (the target: at most 0.35);
  * watch: `render.py watch SpotlightBudget` open in headless Chromium; each of --edits
    one-line changes to its last beat, timed from the file's write to the page's
    update event showing the new render (the target: at most 5 s);
  * workers: the chapter rendered cold at preview with scenes as jobs, then with beats
    as jobs (one run each, in process, each job's time measured), and from those times
    the wall time on 8, 32 and 128 workers of either (longest job first; by beats, the
    beats' jobs, then the scenes' jobs that join them). (--no-chapter skips it.)

    .venv/bin/python bench/beats.py [--edits 3] [--no-chapter] [--no-watch]
    .venv/bin/python bench/beats.py --quality test --edits 1 --scenes TitleCard SpotlightBudget
"""

from __future__ import annotations

import argparse
import heapq
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pipeline import copy_project, timed  # noqa: E402  (bench/pipeline.py)

SCENE = "SpotlightBudget"
SOURCE = Path("scenes/attention/spotlight_budget.py")
#: the one line changed in the last beat ("blend"), and what it becomes at each edit
LINE = "self.play(LaggedStart(*(Create(line) for line in lines), lag_ratio=0.1),"
EDITS = ("lag_ratio=0.12", "lag_ratio=0.14", "lag_ratio=0.1")
WORKERS = (8, 32, 128)


#: the speech the bench starts with: the cache it was started with ($EXPLAINER_CACHE, else
#: the checkout's .cache)
VOICE = Path(os.environ.get("EXPLAINER_CACHE") or ROOT / ".cache") / "voice"


def seeded(cache: Path) -> Path:
    """A cache folder holding the speech the bench was started with (so that no render
    here speaks what was spoken before)."""
    voice = VOICE
    if voice.is_dir():
        shutil.copytree(voice, cache / "voice", dirs_exist_ok=True)
    return cache


def edit(project: Path, change: str) -> None:
    path = project / SOURCE
    text = path.read_text()
    now = re.search(r"lag_ratio=[0-9.]+\),\n", text[text.index(LINE[:40]):])
    assert now, "the edited line moved: update bench/beats.py"
    start = text.index(LINE[:40]) + now.start()
    path.write_text(text[:start] + change + text[start + len(now.group(0)) - 3:])


def rendered_in(out: str) -> float:
    found = re.search(r"^rendered .* in ([0-9.]+) s", out, re.MULTILINE)
    return float(found.group(1)) if found else float("nan")


def beat_cache_figures(project: Path, cache: Path, out: Path, quality: str) -> None:
    render = ["render", SCENE, "--quality", quality, "--out", str(out)]
    _, cold_out = timed(project, cache, *render)
    edit(project, EDITS[0])
    _, edited_out = timed(project, cache, *render)
    edit(project, EDITS[-1])
    cold, edited = rendered_in(cold_out), rendered_in(edited_out)
    print(f"{SCENE} cold ({quality}, speech cached): {cold:6.1f} s   "
          f"{cold_out.strip().splitlines()[-1]}")
    print(f"after a one-line change in its last beat: {edited:6.1f} s   "
          f"{edited_out.strip().splitlines()[-1]}")
    print(f"  ratio {edited / cold:.2f} (target <= 0.35)")


def watch_figures(project: Path, cache: Path, edits: int, profile: Path, quality: str) -> None:
    from tests import browser

    watch = subprocess.Popen([sys.executable, "render.py", "watch", SCENE, "--quality", quality],
                             cwd=project,
                             env=dict(os.environ, EXPLAINER_CACHE=str(cache)),
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    driver = None
    try:
        url = re.search(r"http://\S+/", watch.stdout.readline()).group(0)
        driver = browser.driver(profile, "no-user-gesture-required")
        driver.get(url)
        driver.execute_script(
            "window.seen = []; window.addEventListener('watch-update', e => "
            "window.seen.push([e.detail.version, e.detail.rendering, !!e.detail.error, "
            "Date.now() / 1000]))")

        def shown(after: int) -> float:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                for version, rendering, error, at in driver.execute_script("return seen"):
                    if version > after and not rendering and not error:
                        return at
                time.sleep(0.02)
            sys.exit("bench: the watch page showed no new render in 120 s")

        shown(0)
        version = max(v for v, *_ in driver.execute_script("return seen"))
        took = []
        for k in range(edits):
            time.sleep(1.0)
            written = time.time()
            edit(project, EDITS[k % 2])
            at = shown(version)
            version = max(v for v, *_ in driver.execute_script("return seen"))
            took.append(at - written)
        edit(project, EDITS[-1])
        print(f"watch ({quality}): save to page update, {edits} one-line edits of the last beat: "
              f"median {statistics.median(took):.2f} s, "
              f"each {', '.join(f'{t:.2f}' for t in took)} s (target <= 5 s)")
    finally:
        if driver is not None:
            driver.quit()
        watch.terminate()
        try:  # it stops within seconds; on a busy machine a render it forked may take longer
            watch.wait(60)
        except subprocess.TimeoutExpired:
            watch.kill()
            watch.wait()


def makespan(costs: list[float], workers: int) -> float:
    """Longest job first, each to the worker that is free first: when the last ends."""
    free = [0.0] * workers
    for cost in sorted(costs, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + cost)
    return max(free)


def chapter_figures(tmp: Path, jobs: int, quality: str, scenes: list[str]) -> None:
    from production import pipeline
    from production.chapters import load

    chapter = load("scenes.attention.chapter")
    costs = {}
    for unit in ("scene", "beat"):
        os.environ["EXPLAINER_CACHE"] = str(seeded(tmp / f"cache-{unit}"))
        plan = pipeline.plan(chapter, scenes=scenes, quality=quality, settings=[],
                             out=str(tmp / unit), default_out=tmp / unit, jobs=jobs,
                             job_unit=unit)
        started = time.monotonic()
        pipeline.ensure_scenes(plan)
        took = time.monotonic() - started
        costs[unit] = dict(plan.job_costs)
        beats = [c for label, c in plan.job_costs.items() if "[" in label]
        longest = max(plan.job_costs, key=plan.job_costs.__getitem__)
        print(f"{'chapter' if not scenes else ' '.join(scenes)} cold at {quality}, {unit}s "
              f"as jobs ({jobs} workers): {took:6.1f} s   "
              f"{len(plan.job_costs)} jobs, the longest {plan.job_costs[longest]:.1f} s "
              f"({longest})" + (f"; {len(beats)} of beats" if beats else ""))
    scenes = list(costs["scene"].values())
    by_beats = [c for label, c in costs["beat"].items() if "[" in label]
    joins = [c for label, c in costs["beat"].items() if "[" not in label]
    print("simulated wall time (longest job first):")
    print(f"  {'workers':>8} {'scenes as jobs':>16} {'beats as jobs':>15}")
    for n in WORKERS:
        print(f"  {n:>8} {makespan(scenes, n):>14.1f} s "
              f"{makespan(by_beats, n) + makespan(joins, n):>13.1f} s")
    print(f"  the longest scene job {max(scenes):.1f} s; the longest beat job "
          f"{max(by_beats):.1f} s, then the longest join {max(joins):.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--quality", default="preview",
                        help="of the renders (default preview; watch takes preview or draft, "
                             "and watches at preview for any other)")
    parser.add_argument("--scenes", nargs="*", default=[], metavar="SCENE",
                        help="the scenes the workers' figures render (default: the chapter)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--no-chapter", action="store_true")
    parser.add_argument("--no-watch", action="store_true")
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        project = copy_project(tmp / "project")
        beat_cache_figures(project, seeded(tmp / "cache"), tmp / "out", args.quality)
        if not args.no_watch:
            watch_figures(project, seeded(tmp / "cache"), args.edits, tmp / "profile",
                          args.quality if args.quality in ("preview", "draft") else "preview")
        if not args.no_chapter:
            chapter_figures(tmp, args.jobs, args.quality, args.scenes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
