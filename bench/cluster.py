"""Cluster benchmark: prints figures, asserts nothing.

In one run on this machine it measures:
  * the whole chapter rendered cold by the local worker pool, and again through a Dask
    LocalCluster (`--scheduler local`) with as many workers: both with the same speech
    (spoken once, before either), so the two draw the same scenes; and the ratio;
  * what each scene costs alone (one job at a time, cold, at --costs-quality), the
    critical path (the longest scene), and what N machines of this kind would take for
    a 20-chapter course of such chapters (the scenes dealt longest first to the
    machines' workers, each taking the next scene as it frees up);
  * a sweep of 4 variants: the spotlight at sharpness 1, 2, 4 and 8 (--sweep: another
    scene and values).

    .venv/bin/python bench/cluster.py                          # preview; costs at publish
    .venv/bin/python bench/cluster.py --costs-quality preview  # quicker
    .venv/bin/python bench/cluster.py --chapter decoder --scenes DecoderQuestion --jobs 2 \
        --sweep DecoderQuestion decoder.sharpness=1,8      # one scene, two variants
"""

from __future__ import annotations

import argparse
import heapq
import os
import platform
import re
import shutil
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
COURSE = 20  # chapters in the course the table is for


def timed(args: list[str], cache: Path) -> tuple[float, str]:
    started = time.monotonic()
    run = subprocess.run([PYTHON, "render.py", *args], cwd=ROOT, capture_output=True,
                         text=True, env=dict(os.environ, EXPLAINER_CACHE=str(cache)))
    seconds = time.monotonic() - started
    if run.returncode != 0:
        sys.exit(f"bench: render.py {' '.join(args[:3])} failed:\n{run.stderr[-2000:]}")
    return seconds, run.stdout


def course_hours(costs: list[float], machines: int, per_machine: int) -> float:
    """Hours for COURSE chapters of these scene costs on ``machines`` x ``per_machine``
    workers: longest scene first, each to the worker that frees up first."""
    workers = [0.0] * (machines * per_machine)
    for cost in sorted(costs * COURSE, reverse=True):
        heapq.heappush(workers, heapq.heappop(workers) + cost)
    return max(workers) / 3600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    parser.add_argument("--scenes", nargs="*", default=[], metavar="SCENE",
                        help="render and cost only these (default: the whole chapter)")
    parser.add_argument("--quality", default="preview", choices=list(QUALITIES))
    parser.add_argument("--costs-quality", default="publish", choices=list(QUALITIES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--no-costs", action="store_true",
                        help="skip the scene costs and the course table")
    parser.add_argument("--sweep", nargs=2, metavar=("SCENE", "SECTION.PARAM=V1,V2,..."),
                        default=["SharpnessDial", "spotlight.sharpness=1,2,4,8"],
                        help="the scene swept and its values (default: SharpnessDial "
                             "spotlight.sharpness=1,2,4,8)")
    args = parser.parse_args()
    jobs = str(args.jobs)
    chapter = ["--chapter", args.chapter]
    scenes = args.scenes or list(load(f"scenes.{args.chapter}.chapter").by_name())
    swept, values = args.sweep
    variants = len(values.partition("=")[2].split(","))
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; jobs {jobs}; "
          f"{'scenes ' + ' '.join(scenes) if args.scenes else 'whole chapter'} "
          f"of {args.chapter}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        spoken = tmp / "spoken"
        # speaks every passage once (of the scenes and the swept one), for every run below
        said = list(dict.fromkeys([*args.scenes, swept])) if args.scenes else []
        speak.timed(args.chapter, said, spoken)

        def fresh(name: str) -> Path:
            cache = tmp / f"cache-{name}"  # beside its output folder, never holding it
            shutil.copytree(spoken / "voice", cache / "voice")
            return cache

        common = ["render", *args.scenes, *chapter, "--quality", args.quality, "--jobs", jobs]
        pool, _ = timed([*common, "--out", str(tmp / "pool")], fresh("pool"))
        dask, out = timed([*common, "--out", str(tmp / "dask"), "--scheduler", "local"],
                          fresh("dask"))
        print(f"\n{'those scenes' if args.scenes else 'whole chapter'} at {args.quality}, "
              "cold scenes, speech cached:")
        print(f"  local worker pool:            {pool:7.1f} s")
        print(f"  Dask LocalCluster ({jobs} workers): {dask:7.1f} s")
        print(f"  throughput, cluster / pool:   {pool / dask:7.2f} x")

        costs = {}
        cache = fresh("costs")
        for name in [] if args.no_costs else scenes:
            costs[name], line = timed(["render", name, *chapter, "--quality", args.costs_quality,
                                       "--jobs", "1", "--out", str(tmp / "costs")], cache)
            length = float(re.search(rf"{name}: ([\d.]+) s", line).group(1))
            print(f"  {name:<22} {costs[name]:6.1f} s for {length:6.1f} s of video")
        if costs:
            total = sum(costs.values())
            longest = max(costs, key=costs.get)
            print(f"\nscene costs at {args.costs_quality}, one at a time: {total:.1f} s in all; "
                  f"critical path {longest} {costs[longest]:.1f} s")
            print(f"a {COURSE}-chapter course at {args.costs_quality} "
                  f"({os.cpu_count()} workers a machine):")
            for machines in (1, 2, 4, 8, 16, 32):
                hours = course_hours(list(costs.values()), machines, os.cpu_count() or 1)
                print(f"  {machines:>3} machine(s): {hours:6.2f} h")

        sweep, out = timed(["sweep", swept, *chapter, "--set", values, "--quality",
                            args.quality, "--jobs", jobs, "--out", str(tmp / "sweep")],
                           fresh("sweep"))
        print(f"\nsweep of {variants} variants ({swept}, {values}) at "
              f"{args.quality}: {sweep:.1f} s, {sweep / variants:.1f} s a variant")
    return 0


if __name__ == "__main__":
    sys.exit(main())
