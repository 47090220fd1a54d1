"""The tests under coverage.py, and what they cover: line coverage of core/, scenes/,
production/ and render.py, counted in every process the tests start (renders, their
workers, a cluster's workers).

    .venv/bin/python scripts/coverage.py [--save NAME] [pytest arguments]
    .venv/bin/python scripts/coverage.py --compare NAME OTHER

The first runs pytest (`./run coverage`, `./run coverage --all`), prints the report and
keeps the data as .test-cache/coverage/NAME.db (default: default, or all with --all).
The second prints how many of the lines that OTHER covers NAME covers too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / ".test-cache" / "coverage"
#: what is not the project's code: everything but core/, scenes/, production/ and render.py
NOT_MEASURED = ("tests", "bench", "scripts", ".venv", ".test-cache", ".cache", "out", "media",
                "build")


def config(data: Path) -> Path:
    """A coverage.py configuration with absolute paths, so that a process started in
    another folder measures the same files and writes to the same place."""
    # the whole project is the source, so a file no test runs counts, at 0 %; all but the
    # code (tests, benches, scripts, the environment, the caches) is left out
    left_out = [f"{ROOT / part}/*" for part in NOT_MEASURED]
    rc = data.parent / "coveragerc"
    rc.write_text("\n".join([
        "[run]",
        "parallel = true",
        "patch = subprocess, _exit",
        "concurrency = multiprocessing, thread",
        f"data_file = {data}",
        f"source = {ROOT}",
        f"omit = {', '.join(left_out)}",
        "disable_warnings = no-data-collected, module-not-measured, module-not-imported,"
        " couldnt-parse",
        "[report]",
        "skip_empty = true",
    ]) + "\n")
    return rc


def run(name: str, pytest_args: list[str]) -> int:
    work = KEPT / f"{name}.parts"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    rc = config(work / ".coverage")
    env = {**os.environ, "COVERAGE_RCFILE": str(rc)}
    tests = subprocess.run([sys.executable, "-m", "coverage", "run", "-m", "pytest",
                            *pytest_args], cwd=ROOT, env=env).returncode
    subprocess.run([sys.executable, "-m", "coverage", "combine", "-q"], cwd=work, env=env,
                   check=True)
    subprocess.run([sys.executable, "-m", "coverage", "report"], cwd=work, env=env, check=True)
    shutil.move(work / ".coverage", KEPT / f"{name}.db")
    shutil.rmtree(work)
    print(f"coverage data kept in {KEPT / (name + '.db')}")
    return tests


def lines(name: str) -> set[tuple[str, int]]:
    """(file relative to the project, line) of every line ``name``'s run covered."""
    from coverage import CoverageData

    data = CoverageData(str(KEPT / f"{name}.db"))
    data.read()
    return {(str(Path(f).relative_to(ROOT)), line)
            for f in data.measured_files() for line in data.lines(f) or ()}


def compare(name: str, other: str) -> int:
    mine, theirs = lines(name), lines(other)
    shared = len(mine & theirs)
    print(f"{name} covers {shared} of the {len(theirs)} lines {other} covers "
          f"({100 * shared / max(len(theirs), 1):.1f} %); {len(mine - theirs)} lines only {name} "
          "covers")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--compare"]:
        return compare(*argv[1:3])
    name = "all" if "--all" in argv else "default"
    if argv[:1] == ["--save"]:
        name, argv = argv[1], argv[2:]
    return run(name, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
