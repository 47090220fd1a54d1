"""Speaks the narration of a chapter's scenes into the cache ($EXPLAINER_CACHE) and draws
nothing, as a render's planning speaks it: what the other benches time as speech alone,
and run first to fill a speech cache for their renders (a dry run speaks nothing).

    EXPLAINER_CACHE=DIR .venv/bin/python bench/speak.py --chapter attention [SCENE ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from production import chapters, paths, pipeline  # noqa: E402
from production.errors import UsageError  # noqa: E402
from production.speaking import speak_all  # noqa: E402


def timed(chapter: str, scenes: list[str], cache: Path) -> float:
    """Seconds this script takes, as a process, to speak ``scenes`` of ``chapter`` (every
    scene when none is named) into the cache folder ``cache``; a failure ends the bench."""
    started = time.monotonic()
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--chapter", chapter,
                          *scenes], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, EXPLAINER_CACHE=str(cache)))
    if run.returncode != 0:
        sys.exit(f"bench: speaking {chapter} failed:\n{run.stderr[-2000:]}")
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help="default: every scene")
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    args = parser.parse_args(argv)
    try:
        chapter = chapters.pick(chapters.discover("scenes", paths.ROOT / "scenes"),
                                args.chapter)
        chosen = pipeline.pick_scenes(chapter, args.scenes)
        spoken = speak_all(chapter, chosen, {}, True)
    except UsageError as error:
        parser.exit(2, f"speak.py: {error}\n")
    print(f"{sum(len(p) for p in spoken.values())} passages of {len(chosen)} scene(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
