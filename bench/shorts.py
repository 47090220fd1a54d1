"""Shorts benchmark: prints figures, asserts nothing.

For each quality asked for, it measures `render.py shorts` for every scene (or the named
ones):
  * cold: no scene in the cache, the speech already spoken (shorts reuse what does not
    depend on the frame: speech, word timings, the ledger);
  * warm: the same again, everything cached (only copied into the output folder);
and prints the seconds of shorts made per second of rendering.

    .venv/bin/python bench/shorts.py                      # preview and publish
    .venv/bin/python bench/shorts.py --quality preview --scenes TitleCard TwoJobs
    .venv/bin/python bench/shorts.py --chapter decoder --scenes DecoderQuestion --jobs 1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import speak  # noqa: E402

from production.qualities import QUALITIES  # noqa: E402

PYTHON = sys.executable


def timed(args: list[str], cache: Path) -> float:
    started = time.monotonic()
    run = subprocess.run([PYTHON, "render.py", *args], cwd=ROOT, capture_output=True,
                         text=True, env=dict(os.environ, EXPLAINER_CACHE=str(cache)))
    if run.returncode != 0:
        sys.exit(f"bench: render.py {' '.join(args[:3])} failed:\n{run.stderr[-2000:]}")
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    parser.add_argument("--quality", action="append", choices=list(QUALITIES),
                        help="repeatable; default preview and publish")
    parser.add_argument("--scenes", nargs="*", default=[], help="default: every scene")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; jobs {args.jobs}; chapter {args.chapter}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        spoken = tmp / "spoken"
        speak.timed(args.chapter, args.scenes, spoken)
        for quality in args.quality or ["preview", "publish"]:
            cache = tmp / f"cache-{quality}"
            shutil.copytree(spoken / "voice", cache / "voice")
            out = tmp / f"shorts-{quality}"
            common = ["shorts", *args.scenes, "--chapter", args.chapter, "--quality", quality,
                      "--jobs", str(args.jobs), "--out", str(out)]
            cold = timed(common, cache)
            warm = timed(common, cache)
            clips = json.loads((out / "shorts.json").read_text(encoding="utf-8"))["clips"]
            seconds = sum(c["seconds"] for c in clips)
            first = clips[0]  # each clip names its size: all of them the same here
            print(f"\nshorts at {quality} ({first['width']}x{first['height']}, "
                  f"{first['fps']} fps): {len(clips)} clips, {seconds:.1f} s")
            print(f"  cold (speech cached): {cold:7.1f} s  "
                  f"({seconds / cold:.2f} s of shorts a second)")
            print(f"  warm (all cached):    {warm:7.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
