"""`render.py shorts` tried as a careless user would: silent, a scene named twice, a
relative cache, and re-runs into a folder that already holds shorts. Each works, or is
one line and exit status 2; nothing is half-written or wrongly cached.

The fixture chapter's Scores without narration at the test quality is the cheapest short
there is (no voice, three seconds of picture at 6 fps): every render here is one, made in
the fixture project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from production import written
from production.written import RECORD
from tests.conftest import TEST_QUALITY, run_command

SILENT = ("--chapter", "fixture", "--quality", TEST_QUALITY, "--no-narration")


def strict_json(path: Path):
    """``path`` read as JSON as the standard says it (no NaN, no Infinity)."""
    def refuse(name: str):
        raise ValueError(f"{path}: {name} is not JSON")

    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    """One cache for the module: the silent Scores is drawn once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def shorts(fixture_project):
    """``render.py shorts ARGS`` of the fixture project, as its own process, caching in
    ``cache`` and run in ``cwd`` (default: the project)."""
    def run(*args: str, cache: Path | str, cwd: Path | None = None
            ) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, str(fixture_project / "render.py"), "shorts",
                               *args], cwd=cwd or fixture_project, capture_output=True,
                              text=True, timeout=1200,
                              env={**os.environ, "EXPLAINER_CACHE": str(cache)})

    return run


def test_a_silent_short_works_and_caches_only_valid_json(tmp_path, cache, shorts):
    """Silence has no true peak (-inf dBTP) and no loudness above the meter's gate: its
    figures are null, the JSON is valid, and a second run (from the cache) works too."""
    for attempt in range(2):
        run = shorts("Scores", *SILENT, "--out", str(tmp_path), cache=cache)
        assert run.returncode == 0, (attempt, run.stderr[-2000:])
        clip, = strict_json(tmp_path / "shorts.json")["clips"]
        assert clip["loudness"] == {"integrated": None, "true_peak": None}
        assert not clip["captions"] and not clip["captions_burned"]
    for listing in (cache / "scenes").glob("*-shorts*/shorts.json"):
        strict_json(listing)  # nothing in the cache that a strict reader refuses
    raw = tmp_path / "sound.wav"
    subprocess.run(["ffmpeg", "-v", "error", "-i", str(tmp_path / "Scores.mp4"),
                    "-c:a", "pcm_s16le", str(raw)], check=True)
    with wave.open(str(raw)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    assert samples.size and np.abs(samples).max() <= 1  # silent, as drawn: no gain on noise


def test_a_scene_named_twice_is_drawn_once(tmp_path, cache, shorts):
    run = shorts("Scores", "Scores", *SILENT, "--out", str(tmp_path), cache=cache)
    assert run.returncode == 0, run.stderr[-2000:]
    assert [c["file"] for c in strict_json(tmp_path / "shorts.json")["clips"]] == \
        ["Scores.mp4"]
    for command in ("render", "shorts", "slides"):  # dry runs: in process
        dry = run_command(command, "TitleCard", "TwoJobs", "TitleCard", "--quality",
                          TEST_QUALITY, "--no-narration", "--dry-run", "--out",
                          str(tmp_path / "x"))
        assert dry.code == 0, dry.err
        named = [next(w for w in line.split() if w in ("TitleCard", "TwoJobs"))
                 for line in dry.out.splitlines()]
        assert named == ["TitleCard", "TwoJobs"], (command, dry.out)
    assert not (tmp_path / "x").exists()


def test_a_relative_cache_and_output_folder_work(tmp_path, shorts):
    """EXPLAINER_CACHE=rel/cache and --out rel/out are read from where the command runs,
    whatever folder a step of the render works in."""
    run = shorts("Scores", *SILENT, "--out", "rel/out", cache="rel/cache", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    clip, = strict_json(tmp_path / "rel/out/shorts.json")["clips"]
    assert (tmp_path / "rel/out" / clip["file"]).stat().st_size > 0
    assert list((tmp_path / "rel/cache/scenes").glob("*-shorts-burned/Scores.mp4"))


def test_shorts_json_lists_every_clip_in_its_folder(tmp_path, cache, shorts):
    """A run adds its clips to the listing of those already in the folder: a clip made
    again replaces its entry, one whose file is gone leaves it, the others stay; a clip
    of a scene made again that this run did not make (it was cut into more parts then)
    stays listed while its file is there, and the run says so."""
    out = tmp_path / "out"
    first = shorts("Scores", *SILENT, "--out", str(out), cache=cache)
    assert first.returncode == 0, first.stderr[-2000:]
    listing = strict_json(out / "shorts.json")
    made, = listing["clips"]
    # a short of another scene made by an earlier run, one deleted since, and a part of
    # Scores from a run that cut it in two
    for name in ("Earlier.mp4", "Scores-part2.mp4"):
        (out / name).write_bytes((out / "Scores.mp4").read_bytes())
    earlier = {**made, "scene": "Earlier", "title": "An earlier short", "file": "Earlier.mp4",
               "loudness": {"integrated": -14.0, "true_peak": float("-inf")}}
    gone = {**made, "scene": "Gone", "file": "Gone.mp4"}
    part = {**made, "title": "Scores (part 2 of 2)", "file": "Scores-part2.mp4", "part": 2}
    listing["clips"] = [{**made, "title": "stale"}, earlier, gone, part]
    written.write_text(out, "shorts.json", json.dumps(listing))  # -Infinity; as if its own
    second = shorts("Scores", *SILENT, "--out", str(out), cache=cache)
    assert second.returncode == 0, second.stderr[-2000:]
    clips = strict_json(out / "shorts.json")["clips"]
    assert [c["file"] for c in clips] == ["Scores.mp4", "Scores-part2.mp4", "Earlier.mp4"]
    assert [c["title"] for c in clips] == [made["title"], part["title"], "An earlier short"]
    assert clips[2]["loudness"] == {"integrated": -14.0, "true_peak": None}
    warning, = [line for line in second.stderr.splitlines() if "warning" in line]
    assert "Scores-part2.mp4" in warning and "Earlier" not in warning
    assert sorted(p.name for p in out.glob("*.mp4")) == [
        "Earlier.mp4", "Scores-part2.mp4", "Scores.mp4"]
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [RECORD]  # no partial
