"""Pipeline benchmark: prints figures, asserts nothing.

In one run, on a copy of the project (so an edit never touches the checkout), for one
quality (preview by default), the chapter rendered by `render.py render`:

  * speech alone: every passage spoken with an empty cache (bench/speak.py), less the
    same again (all cached);
  * drawing alone: a render whose speech is already cached, its scenes not;
  * cold: a render with an empty cache (speech and drawing);
  * warm: the same again, nothing changed;
  * a one-scene edit: a comment added to the file of one scene (--edit; by default
    TheMisreading's, scenes/attention/misreading.py), then a render.

and prints cold / (speech + drawing): how much speaking and drawing overlap.

    .venv/bin/python bench/pipeline.py [--quality preview] [--jobs 2]
    .venv/bin/python bench/pipeline.py --chapter decoder --scenes DecoderQuestion --jobs 1
"""

from __future__ import annotations

import argparse
import inspect
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

PARTS = ("core", "scenes", "production", "assets", "render.py")
#: the scene whose file the edit touches when --edit names none and the chapter has it
EDITED = "TheMisreading"


def timed(project: Path, cache: Path, *args: str) -> tuple[float, str]:
    env = dict(os.environ, EXPLAINER_CACHE=str(cache))
    started = time.monotonic()
    run = subprocess.run([sys.executable, "render.py", *args], cwd=project, env=env,
                         capture_output=True, text=True)
    seconds = time.monotonic() - started
    if run.returncode != 0:
        sys.exit(f"bench: render.py {' '.join(args[:3])} failed:\n{run.stderr[-2000:]}")
    return seconds, run.stdout


def copy_project(target: Path) -> Path:
    target.mkdir()
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    return target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    parser.add_argument("--scenes", nargs="*", default=[], metavar="SCENE",
                        help="render only these (default: the whole chapter)")
    parser.add_argument("--quality", default="preview", choices=list(QUALITIES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--edit", metavar="SCENE",
                        help=f"the scene whose file is edited (default: {EDITED}, else the "
                             "last scene rendered)")
    args = parser.parse_args()
    chapter = load(f"scenes.{args.chapter}.chapter")
    rendered = args.scenes or list(chapter.by_name())
    edited = args.edit or (EDITED if EDITED in rendered else rendered[-1])
    if edited not in chapter.by_name():
        parser.error(f"--edit {edited}: not a scene of {args.chapter}")
    source = Path(inspect.getsourcefile(chapter.scene(edited)) or "").relative_to(ROOT)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}; jobs {args.jobs}; quality {args.quality}; "
          f"{'scenes ' + ' '.join(rendered) if args.scenes else 'whole chapter'} "
          f"of {args.chapter}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        project = copy_project(tmp / "project")
        render = ["render", *args.scenes, "--chapter", args.chapter, "--quality", args.quality,
                  "--jobs", str(args.jobs)]

        speech_cache = tmp / "speech-only"
        cold_speech = speak.timed(args.chapter, args.scenes, speech_cache)
        warm_speech = speak.timed(args.chapter, args.scenes, speech_cache)
        speech = cold_speech - warm_speech
        passages = len(list((speech_cache / "voice").glob("*.wav")))

        drawing, _ = timed(project, speech_cache, *render, "--out", str(tmp / "drawn"))
        drawing -= warm_speech  # what a warm speech cache still costs: reading it

        cold_cache = tmp / "cold"
        cold, cold_out = timed(project, cold_cache, *render, "--out", str(tmp / "out"))
        warm, warm_out = timed(project, cold_cache, *render, "--out", str(tmp / "out"))
        with open(project / source, "a") as f:
            f.write("# an edit\n")
        edit, edit_out = timed(project, cold_cache, *render, "--out", str(tmp / "out"))

    def summary(out: str) -> str:
        found = re.search(r"^(rendered .*|nothing to render.*)$", out, re.MULTILINE)
        return found.group(1) if found else "?"

    print(f"speech alone (cold less warm):         {speech:8.1f} s   {passages} passages")
    print(f"drawing alone (speech cached):         {drawing:8.1f} s")
    print(f"cold render (speech and drawing):      {cold:8.1f} s   "
          f"{cold / (speech + drawing):.2f} x (speech + drawing)")
    print(f"warm render (nothing changed):         {warm:8.1f} s   {summary(warm_out)}")
    print(f"{f'one scene file edited ({source.name}):':<38} {edit:8.1f} s   {summary(edit_out)}")
    print(f"  cold: {summary(cold_out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
