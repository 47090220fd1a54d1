"""Every bench script, run as CI runs it: on one tiny scene at the test quality, each must
exit 0 and print its figures (lines of the shape it prints when it measured something), so
that a bench that rots fails the system tier instead of the next person who runs it.

The benches that measure a cold cache make their own in a temporary folder; the cache
they are started with (EXPLAINER_CACHE) must stay untouched. fill.py measures pictures,
not caches: it renders into a cache of the test's own that holds the session's speech.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from production.paths import ROOT

pytestmark = pytest.mark.system

BENCH = ROOT / "bench"
#: what bench/ holds that is not a bench script: the scenes bench.py's baseline renders,
#: and what the scripts run to speak a chapter
NOT_SCRIPTS = {"baseline_scenes", "speak"}
#: seconds a tiny run may take, on a loaded two-core machine, before it counts as hung
TIMEOUT = 900

S = r"-?\d+\.\d s"  # seconds, as the benches print them (a difference may be negative)
SOME = r"(?:[1-9]\d*\.\d|0\.[1-9])"  # a figure above zero, to one decimal


class Case(NamedTuple):
    args: list[str]
    lines: list[str]  # a regular expression per line it must print
    speech: bool = False  # started with the session's speech in its cache (else cold)


TITLE = ["--scenes", "TitleCard", "--quality", "test"]  # the attention chapter's, ~7 s
#: the decoder chapter's opening question (~8 s): it shows decoder.sharpness, so a sweep
#: of that draws a variant per value
QUESTION = ["--chapter", "decoder", "--scenes", "DecoderQuestion", "--quality", "test"]

CASES = {
    "bench": Case([*TITLE, "--jobs", "1"], [
        rf"^test \(320x180, 6 fps\), {SOME} s of video$",
        rf"^  cold render \(render\.py, 1 jobs\): +{S} +\d+\.\d\d s of video per s$",
        rf"^  warm render \(nothing changed\): +{S} +\d+\.\d % of cold$",
        rf"^  serial baseline \(manim render each\): +{S} +\d+\.\d\d s of video per s "
        rf"\({SOME} s of video, no sound\)$",
        r"^  speed-up, baseline / cold: +\d+\.\d\d x$",
        r"^  peak memory per worker: +\d+ MiB +\(a manim render: \d+ MiB\)$",
        rf"^speech, cold, default voice: +{S} for [1-9]\d* passages$",
        rf"^course dry run, cold cache: +{S} \(speaks nothing\)$",
    ]),
    "beats": Case(["--quality", "test", "--edits", "1", "--jobs", "2",
                   "--scenes", "TitleCard", "SpotlightBudget"], [
        rf"^SpotlightBudget cold \(test, speech cached\): +{S} +rendered 1 of 1 scenes "
        r"\(5 of 5 beats\)",
        rf"^after a one-line change in its last beat: +{S} +rendered 1 of 1 scenes "
        r"\(1 of 5 beats\)",
        r"^  ratio \d+\.\d\d \(target <= 0\.35\)$",
        r"^watch \(preview\): save to page update, 1 one-line edits of the last beat: "
        r"median \d+\.\d\d s",
        rf"^TitleCard SpotlightBudget cold at test, scenes as jobs \(2 workers\): +{S} +2 jobs",
        rf"^TitleCard SpotlightBudget cold at test, beats as jobs \(2 workers\): +{S} +7 jobs",
        rf"^ +128 +{S} +{S}$",
    ], speech=True),
    "cluster": Case([*QUESTION, "--costs-quality", "test", "--jobs", "2",
                     "--sweep", "DecoderQuestion", "decoder.sharpness=1,8"], [
        rf"^  local worker pool: +{S}$",
        rf"^  Dask LocalCluster \(2 workers\): +{S}$",
        r"^  throughput, cluster / pool: +\d+\.\d\d x$",
        rf"^  DecoderQuestion +{S} for +{SOME} s of video$",
        rf"^scene costs at test, one at a time: {S} in all; critical path "
        rf"DecoderQuestion {S}$",
        r"^ +1 machine\(s\): +\d+\.\d\d h$",
        rf"^sweep of 2 variants \(DecoderQuestion, decoder\.sharpness=1,8\) at test: "
        rf"{S}, {S} a variant$",
    ]),
    "fill": Case([*TITLE, "--every", "1", "--frame", "wide", "tall"], [
        r"^wide: [1-9]\d* samples every 1 s; filled: median \d+%, tenth percentile \d+%, "
        r"least \d+%$",
        r"^tall: [1-9]\d* samples every 1 s; filled: median \d+%, tenth percentile \d+%, "
        r"least \d+%$",
        r"^  the emptiest tenth: TitleCard at \d+ s \(\d+%\)",
    ], speech=True),
    "pipeline": Case([*TITLE, "--jobs", "1"], [
        rf"^speech alone \(cold less warm\): +{S} +[1-9]\d* passages$",
        rf"^drawing alone \(speech cached\): +{S}$",
        rf"^cold render \(speech and drawing\): +{S} +-?\d+\.\d\d x \(speech \+ drawing\)$",
        rf"^warm render \(nothing changed\): +{S} +nothing to render: all 1 scenes cached",
        rf"^one scene file edited \(opening\.py\): +{S} +rendered 1 of 1 scenes",
        r"^  cold: rendered 1 of 1 scenes",
    ]),
    "shorts": Case([*TITLE, "--jobs", "1"], [
        rf"^shorts at test \(180x320, 6 fps\): 1 clips, {SOME} s$",
        rf"^  cold \(speech cached\): +{S} +\(\d+\.\d\d s of shorts a second\)$",
        rf"^  warm \(all cached\): +{S}$",
    ]),
}


def test_every_bench_script_has_a_case():
    scripts = {path.stem for path in BENCH.glob("*.py")} - NOT_SCRIPTS
    assert sorted(scripts) == sorted(CASES), "a bench script without a case here, or a " \
        "case without its script: add it to CASES (or NOT_SCRIPTS if it is not run)"


@pytest.mark.parametrize("name", sorted(CASES))
def test_bench_prints_its_figures(name, tmp_path, request):
    case = CASES[name]
    given = request.getfixturevalue("speech_cache") if case.speech else tmp_path / "given"
    run = subprocess.run([sys.executable, f"bench/{name}.py", *case.args], cwd=ROOT,
                         env=dict(os.environ, EXPLAINER_CACHE=str(given)),
                         capture_output=True, text=True, timeout=TIMEOUT)
    told = f"bench/{name}.py printed:\n{run.stdout}\n{run.stderr[-3000:]}"
    assert run.returncode == 0, told
    missing = [line for line in case.lines if not re.search(line, run.stdout, re.MULTILINE)]
    assert not missing, f"no line like {missing[0]!r}; {told}"
    if not case.speech:  # it measured in caches of its own
        assert not Path(given).exists(), f"bench/{name}.py wrote into EXPLAINER_CACHE"
