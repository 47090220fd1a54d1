"""`render.py sweep`: every combination of --set values rendered as its own scene job, real
renders at preview quality without narration; a scene whose key does not change with a
value is drawn once; bad values are one line; a LocalCluster gives the same keys."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest

from core import ledger
from production.errors import UsageError
from production.outputs import sweep
from production.paths import ROOT
from scenes.attention.chapter import CHAPTER

SWEEP = ["SharpnessDial", "TitleCard", "--set", "spotlight.sharpness=1,2",
         "--quality", "preview", "--no-narration"]
FOLDERS = ["spotlight.sharpness=1", "spotlight.sharpness=2"]
#: the line printed for each (scene, combination): "SCENE FOLDER: 20.0 s (how)"
PLACED = re.compile(r"(\w+) (\S+): [\d.]+ s \((.+)\)$")


def render(*args: str, cache: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=timeout,
                          env=dict(os.environ, EXPLAINER_CACHE=str(cache)))


def seconds(path: Path) -> float:
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        frames = sum(1 for _ in c.decode(v))  # every picture decodes
        assert frames > 0
        return float(v.duration * v.time_base)


def keys(index: dict) -> dict[tuple[str, str], str]:
    """(folder, scene) -> content key, from an index.json."""
    return {(c["folder"], name): entry["content_key"]
            for c in index["combinations"] for name, entry in c["scenes"].items()}


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """One sweep of SharpnessDial (depends on the sharpness) and TitleCard (does not)."""
    tmp = tmp_path_factory.mktemp("sweep")
    done = render("sweep", *SWEEP, "--jobs", "2", "--out", str(tmp / "out"),
                  cache=tmp / "cache")
    assert done.returncode == 0, done.stderr
    return tmp, done, json.loads((tmp / "out" / "index.json").read_text())


# ----------------------------------------------------------------- end to end (renders)


@pytest.mark.slow
def test_every_value_gets_its_folder_and_its_numbers_in_the_index(swept):
    tmp, _, index = swept
    out = tmp / "out"
    assert [c["folder"] for c in index["combinations"]] == FOLDERS
    assert index["parameters"] == {"spotlight.sharpness": ["1", "2"]}
    shown = []
    for c, value in zip(index["combinations"], ("1", "2")):
        assert c["settings"] == {"spotlight.sharpness": float(value)}
        entry = c["scenes"]["SharpnessDial"]
        video = out / "SharpnessDial" / f"spotlight.sharpness={value}" / "SharpnessDial.mp4"
        assert entry["files"] == [video.relative_to(out).as_posix()]
        assert seconds(video) > 1
        assert entry["duration"] == pytest.approx(seconds(video), abs=0.1)
        expected = ledger.section("spotlight",
                                  ledger.parse_settings([f"spotlight.sharpness={value}"]))
        assert entry["numbers"] == json.loads(json.dumps(expected))
        shown.append(entry["numbers"])
    assert shown[0]["shares"] != shown[1]["shares"]  # the dial was turned
    assert not [p for p in out.rglob(".*")]  # nothing half-written left behind


@pytest.mark.slow
def test_a_scene_that_does_not_change_is_rendered_once(swept):
    tmp, done, index = swept
    found = keys(index)
    assert found[(FOLDERS[0], "TitleCard")] == found[(FOLDERS[1], "TitleCard")]
    assert found[(FOLDERS[0], "SharpnessDial")] != found[(FOLDERS[1], "SharpnessDial")]
    lines = done.stdout.splitlines()
    said = {(m[1], m[2]): m[3] for m in map(PLACED.match, lines) if m}
    assert said == {("SharpnessDial", FOLDERS[0]): "rendered",
                    ("SharpnessDial", FOLDERS[1]): "rendered",
                    ("TitleCard", FOLDERS[0]): "rendered",
                    ("TitleCard", FOLDERS[1]): f"same as {FOLDERS[0]}"}
    assert "4 videos; rendered 3 in" in lines[-1]
    # Three scenes were drawn into the cache, and TitleCard's one file is in both folders.
    drawn = [p for p in (tmp / "cache" / "scenes").iterdir() if not p.name.startswith(".")]
    assert len(drawn) == 3
    first, second = (tmp / "out" / "TitleCard" / f / "TitleCard.mp4" for f in FOLDERS)
    assert first.read_bytes() == second.read_bytes()
    # Again: everything is taken from the cache.
    again = render("sweep", *SWEEP, "--out", str(tmp / "out"), cache=tmp / "cache")
    assert again.returncode == 0, again.stderr
    assert "nothing to render" in again.stdout.splitlines()[-1]
    assert keys(json.loads((tmp / "out" / "index.json").read_text())) == found


@pytest.mark.slow
def test_a_local_cluster_gives_the_same_content_keys(swept, tmp_path):
    _, _, index = swept
    done = render("sweep", *SWEEP, "--scheduler", "local", "--jobs", "2",
                  "--out", str(tmp_path / "out"), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert "2 worker(s), 3 scene(s) to render" in done.stdout
    assert keys(json.loads((tmp_path / "out" / "index.json").read_text())) == keys(index)
    for folder in FOLDERS:
        assert seconds(tmp_path / "out" / "SharpnessDial" / folder / "SharpnessDial.mp4") > 1


@pytest.mark.slow
def test_the_index_lists_every_folder_kept_from_earlier_runs(swept):
    """A re-run with fewer values keeps the earlier folders (nothing is lost) and index.json
    still lists them, with what they were made from; one line names them. A folder the
    user removed is no longer listed, and one no index ever described is named as such."""
    tmp, _, first = swept
    out = tmp / "again"
    one = ["SharpnessDial", "--quality", "preview", "--no-narration"]
    wide = render("sweep", *one, "--set", "spotlight.sharpness=1,2", "--out", str(out),
                  cache=tmp / "cache")
    assert wide.returncode == 0, wide.stderr
    assert "earlier" not in wide.stdout  # a fresh folder: nothing from before
    before = json.loads((out / "index.json").read_text())

    narrow = render("sweep", *one, "--set", "spotlight.sharpness=2", "--out", str(out),
                    cache=tmp / "cache")
    assert narrow.returncode == 0, narrow.stderr
    index = json.loads((out / "index.json").read_text())
    assert [c["folder"] for c in index["combinations"]] == [FOLDERS[1], FOLDERS[0]]
    kept, = (c for c in index["combinations"] if c["folder"] == FOLDERS[0])
    assert kept == next(c for c in before["combinations"] if c["folder"] == FOLDERS[0])
    assert keys(index) == {k: v for k, v in keys(first).items() if k[1] == "SharpnessDial"}
    assert index["parameters"] == {"spotlight.sharpness": ["2"]}  # this run's
    said = [line for line in narrow.stdout.splitlines() if "earlier" in line]
    assert said == ["sweep: index.json also lists 1 folder kept from earlier runs: "
                    f"SharpnessDial/{FOLDERS[0]}"]
    for c in index["combinations"]:
        for entry in c["scenes"].values():
            assert all((out / f).is_file() for f in entry["files"])
            assert entry["quality"] == "preview" and entry["voice"] is None

    # The user removes one folder and copies another by hand: the index follows.
    shutil.rmtree(out / "SharpnessDial" / FOLDERS[0])
    shutil.copytree(out / "SharpnessDial" / FOLDERS[1],
                    out / "SharpnessDial" / "spotlight.sharpness=9")
    last = render("sweep", *one, "--set", "spotlight.sharpness=2", "--out", str(out),
                  cache=tmp / "cache")
    assert last.returncode == 0, last.stderr
    index = json.loads((out / "index.json").read_text())
    assert [c["folder"] for c in index["combinations"]] == [FOLDERS[1]]
    said = [line for line in last.stdout.splitlines() if "earlier" in line or "not listed" in line]
    assert said == ["sweep: not listed in index.json (no run of this sweep made them): "
                    "SharpnessDial/spotlight.sharpness=9"]


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("args, said", [
    (["SharpnessDial", "--set", "spotlight.sharpness=1,abc"],
     "--set spotlight.sharpness='abc': must be a number above 0"),
    (["SharpnessDial", "--set", "spotlight.sharpness=1,,2"], "an empty value"),
    (["SharpnessDial", "--set", "spotlight.sharpness=1", "--set", "spotlight.sharpness=2"],
     "--set spotlight.sharpness: given twice"),
    (["TitleCard", "--set", "spotlight.sharpness=1,2"],
     "--set spotlight.sharpness: not used by TitleCard"),
    (["--set", "spotlight.sharpness=1,2"], "name at least one scene"),
    (["NoSuchScene", "--set", "spotlight.sharpness=1,2"], "unknown scene 'NoSuchScene'"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, said):
    out = tmp_path / "out"
    done = render("sweep", *args, "--no-narration", "--out", str(out), cache=tmp_path / "c",
                  timeout=120)
    assert done.returncode == 2
    line, = done.stderr.strip().splitlines()
    assert line.startswith("render.py: error: ") and said in line
    assert not out.exists()
    assert not list((tmp_path / "c").glob("scenes/*"))


def test_a_dry_run_names_every_combination_and_writes_nothing(tmp_path):
    out = tmp_path / "out"
    done = render("sweep", "SharpnessDial", "--set", "spotlight.sharpness=1,2,4,8",
                  "--quality", "preview", "--no-narration", "--out", str(out), "--dry-run",
                  cache=tmp_path / "c", timeout=120)
    assert done.returncode == 0, done.stderr
    assert [x.split(":")[0] for x in done.stdout.splitlines()] == [
        f"SharpnessDial spotlight.sharpness={v}" for v in (1, 2, 4, 8)]
    assert not out.exists()


# ----------------------------------------------------------------- folder names, values


def test_folder_names_are_readable_safe_and_distinct():
    assert sweep.safe_value("2.5") == "2.5"
    assert sweep.safe_value("the cat sat") == "the_cat_sat"
    assert sweep.safe_value("cat:dog") == "cat%3Adog"
    assert sweep.safe_value("a_b") == "a%5Fb"  # not the same folder as "a b"
    assert sweep.safe_value("../x") == "..%2Fx"
    point = sweep.Combination((("spotlight.sharpness", "4"), ("spotlight.asker", "cat")), {})
    assert point.folder == "spotlight.sharpness=4,spotlight.asker=cat"
    long = sweep.Combination((("grid.sentence", "the cat sat " * 30),), {})
    assert len(long.folder) <= sweep.LONGEST_FOLDER + 9


def test_combinations_are_every_pair_of_values_checked_by_the_ledger():
    points = sweep.combinations(CHAPTER, sweep.axes(["spotlight.sharpness=1,2,4",
                                            "spotlight.asker=cat, fish"]))
    assert [p.given for p in points][:2] == [
        ["spotlight.sharpness=1", "spotlight.asker=cat"],
        ["spotlight.sharpness=1", "spotlight.asker=fish"]]
    assert len(points) == 6
    assert points[-1].settings["spotlight"] == ledger.parse_settings(
        ["spotlight.sharpness=4", "spotlight.asker=fish"])["spotlight"]
    with pytest.raises(UsageError, match="'2' and '2.0' are the same value"):
        sweep.combinations(CHAPTER, sweep.axes(["spotlight.sharpness=2,2.0"]))
    with pytest.raises(UsageError, match="must be one of"):
        sweep.combinations(CHAPTER, sweep.axes(["spotlight.asker=cat,unicorn"]))
