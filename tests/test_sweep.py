"""`render.py sweep`: every combination of --set values rendered as its own scene job, real
renders at the test quality without narration; a scene whose key does not change with a
value is drawn once; bad values are one line; a LocalCluster gives the same keys.

The default tier sweeps the fixture chapter's Weights over shares.sharpness; what needs a
scene that does not read the swept value (TitleCard beside SharpnessDial) and the local
cluster are the attention chapter's, in the system tier."""

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
from production.written import RECORD
from scenes.attention.chapter import CHAPTER
from tests.conftest import TEST_QUALITY, run_command
from tests.fixture.chapter import CHAPTER as FIXTURE_CHAPTER

#: the fixture chapter's sweep (default tier): Weights, which reads shares.sharpness
SWEEP = ["Weights", "--chapter", "fixture", "--set", "shares.sharpness=1,2",
         "--quality", TEST_QUALITY, "--no-narration"]
FOLDERS = ["shares.sharpness=1", "shares.sharpness=2"]
#: the attention chapter's (system tier): SharpnessDial depends on the sharpness, TitleCard
#: does not
ATTENTION_SWEEP = ["SharpnessDial", "TitleCard", "--chapter", "attention", "--set",
                   "spotlight.sharpness=1,2", "--quality", TEST_QUALITY, "--no-narration"]
ATTENTION_FOLDERS = ["spotlight.sharpness=1", "spotlight.sharpness=2"]
#: the line printed for each (scene, combination): "SCENE FOLDER: 20.0 s (how)"
PLACED = re.compile(r"(\w+) (\S+): [\d.]+ s \((.+)\)$")


def render(*args: str, cache: Path, project: Path = ROOT,
           timeout: float = 600) -> subprocess.CompletedProcess:
    """``render.py ARGS`` of ``project`` as its own process, caching in ``cache``."""
    return subprocess.run([sys.executable, "render.py", *args], cwd=project, text=True,
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


def placed(stdout: str) -> dict[tuple[str, str], str]:
    """(scene, folder) -> how it was placed ("rendered", "same as FOLDER"), from a sweep's
    output."""
    return {(m[1], m[2]): m[3] for m in map(PLACED.match, stdout.splitlines()) if m}


@pytest.fixture(scope="module")
def swept(tmp_path_factory, fixture_project):
    """One sweep of the fixture chapter's Weights (it depends on the sharpness), in a cache
    of its own."""
    tmp = tmp_path_factory.mktemp("sweep")
    done = render("sweep", *SWEEP, "--jobs", "2", "--out", str(tmp / "out"),
                  cache=tmp / "cache", project=fixture_project)
    assert done.returncode == 0, done.stderr
    return tmp, done, json.loads((tmp / "out" / "index.json").read_text())


@pytest.fixture(scope="module")
def swept_attention(tmp_path_factory):
    """One sweep of SharpnessDial (depends on the sharpness) and TitleCard (does not), in
    a cache of its own."""
    tmp = tmp_path_factory.mktemp("sweep-attention")
    done = render("sweep", *ATTENTION_SWEEP, "--jobs", "2", "--out", str(tmp / "out"),
                  cache=tmp / "cache")
    assert done.returncode == 0, done.stderr
    return tmp, done, json.loads((tmp / "out" / "index.json").read_text())


# ----------------------------------------------------------------- end to end (renders)


def test_every_value_gets_its_folder_and_its_numbers_in_the_index(swept):
    tmp, _, index = swept
    out = tmp / "out"
    assert [c["folder"] for c in index["combinations"]] == FOLDERS
    assert index["parameters"] == {"shares.sharpness": ["1", "2"]}
    shown = []
    for c, value in zip(index["combinations"], ("1", "2")):
        assert c["settings"] == {"shares.sharpness": float(value)}
        entry = c["scenes"]["Weights"]
        video = out / "Weights" / f"shares.sharpness={value}" / "Weights.mp4"
        assert entry["files"] == [video.relative_to(out).as_posix()]
        assert seconds(video) > 1
        assert entry["duration"] == pytest.approx(seconds(video), abs=0.1)
        book = FIXTURE_CHAPTER.ledger
        expected = book.section("shares", book.parse_settings([f"shares.sharpness={value}"]))
        assert entry["numbers"] == json.loads(json.dumps(expected))
        shown.append(entry["numbers"])
    assert shown[0]["weights"] != shown[1]["weights"]  # the dial was turned
    # nothing half-written left behind: the one hidden file is the record of what it wrote
    assert [p.relative_to(out) for p in out.rglob(".*")] == [Path(RECORD)]


def test_each_value_is_rendered_once_and_a_rerun_takes_all_from_the_cache(swept,
                                                                          fixture_project):
    tmp, done, index = swept
    found = keys(index)
    assert found[(FOLDERS[0], "Weights")] != found[(FOLDERS[1], "Weights")]
    assert placed(done.stdout) == {("Weights", FOLDERS[0]): "rendered",
                                   ("Weights", FOLDERS[1]): "rendered"}
    assert "2 videos; rendered 2 in" in done.stdout.splitlines()[-1]
    drawn = [p for p in (tmp / "cache" / "scenes").iterdir() if not p.name.startswith(".")]
    assert len(drawn) == 2
    # Again: everything is taken from the cache.
    again = render("sweep", *SWEEP, "--out", str(tmp / "out"), cache=tmp / "cache",
                   project=fixture_project)
    assert again.returncode == 0, again.stderr
    assert "nothing to render" in again.stdout.splitlines()[-1]
    assert keys(json.loads((tmp / "out" / "index.json").read_text())) == found


@pytest.mark.system
def test_a_scene_that_does_not_change_is_rendered_once(swept_attention):
    tmp, done, index = swept_attention
    folders = ATTENTION_FOLDERS
    found = keys(index)
    assert found[(folders[0], "TitleCard")] == found[(folders[1], "TitleCard")]
    assert found[(folders[0], "SharpnessDial")] != found[(folders[1], "SharpnessDial")]
    lines = done.stdout.splitlines()
    assert placed(done.stdout) == {("SharpnessDial", folders[0]): "rendered",
                                   ("SharpnessDial", folders[1]): "rendered",
                                   ("TitleCard", folders[0]): "rendered",
                                   ("TitleCard", folders[1]): f"same as {folders[0]}"}
    assert "4 videos; rendered 3 in" in lines[-1]
    # Three scenes were drawn into the cache, and TitleCard's one file is in both folders.
    drawn = [p for p in (tmp / "cache" / "scenes").iterdir() if not p.name.startswith(".")]
    assert len(drawn) == 3
    first, second = (tmp / "out" / "TitleCard" / f / "TitleCard.mp4" for f in folders)
    assert first.read_bytes() == second.read_bytes()
    # Again: everything is taken from the cache.
    again = render("sweep", *ATTENTION_SWEEP, "--out", str(tmp / "out"), cache=tmp / "cache")
    assert again.returncode == 0, again.stderr
    assert "nothing to render" in again.stdout.splitlines()[-1]
    assert keys(json.loads((tmp / "out" / "index.json").read_text())) == found


@pytest.mark.system
def test_a_local_cluster_gives_the_same_content_keys(swept_attention, tmp_path):
    _, _, index = swept_attention
    done = render("sweep", *ATTENTION_SWEEP, "--scheduler", "local", "--jobs", "2",
                  "--out", str(tmp_path / "out"), cache=tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert "2 worker(s), 3 scene(s) to render" in done.stdout
    assert keys(json.loads((tmp_path / "out" / "index.json").read_text())) == keys(index)
    for folder in ATTENTION_FOLDERS:
        assert seconds(tmp_path / "out" / "SharpnessDial" / folder / "SharpnessDial.mp4") > 1


def test_the_index_lists_every_folder_kept_from_earlier_runs(swept, fixture_project):
    """A re-run with fewer values keeps the earlier folders (nothing is lost) and index.json
    still lists them, with what they were made from; one line names them. A folder the
    user removed is no longer listed, and one no index ever described is named as such."""
    tmp, _, first = swept
    out = tmp / "again"
    one = ["Weights", "--chapter", "fixture", "--quality", TEST_QUALITY, "--no-narration"]
    wide = render("sweep", *one, "--set", "shares.sharpness=1,2", "--out", str(out),
                  cache=tmp / "cache", project=fixture_project)
    assert wide.returncode == 0, wide.stderr
    assert "earlier" not in wide.stdout  # a fresh folder: nothing from before
    before = json.loads((out / "index.json").read_text())

    narrow = render("sweep", *one, "--set", "shares.sharpness=2", "--out", str(out),
                    cache=tmp / "cache", project=fixture_project)
    assert narrow.returncode == 0, narrow.stderr
    index = json.loads((out / "index.json").read_text())
    assert [c["folder"] for c in index["combinations"]] == [FOLDERS[1], FOLDERS[0]]
    kept, = (c for c in index["combinations"] if c["folder"] == FOLDERS[0])
    assert kept == next(c for c in before["combinations"] if c["folder"] == FOLDERS[0])
    assert keys(index) == {k: v for k, v in keys(first).items() if k[1] == "Weights"}
    assert index["parameters"] == {"shares.sharpness": ["2"]}  # this run's
    said = [line for line in narrow.stdout.splitlines() if "earlier" in line]
    assert said == ["sweep: index.json also lists 1 folder kept from earlier runs: "
                    f"Weights/{FOLDERS[0]}"]
    for c in index["combinations"]:
        for entry in c["scenes"].values():
            assert all((out / f).is_file() for f in entry["files"])
            assert entry["quality"] == TEST_QUALITY and entry["voice"] is None

    # The user removes one folder and copies another by hand: the index follows.
    shutil.rmtree(out / "Weights" / FOLDERS[0])
    shutil.copytree(out / "Weights" / FOLDERS[1], out / "Weights" / "shares.sharpness=9")
    last = render("sweep", *one, "--set", "shares.sharpness=2", "--out", str(out),
                  cache=tmp / "cache", project=fixture_project)
    assert last.returncode == 0, last.stderr
    index = json.loads((out / "index.json").read_text())
    assert [c["folder"] for c in index["combinations"]] == [FOLDERS[1]]
    said = [line for line in last.stdout.splitlines() if "earlier" in line or "not listed" in line]
    assert said == ["sweep: not listed in index.json (no run of this sweep made them): "
                    "Weights/shares.sharpness=9"]


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
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, monkeypatch, args, said):
    out = tmp_path / "out"
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "c"))
    done = run_command("sweep", *args, "--no-narration", "--out", str(out))
    assert done.code == 2
    line, = done.err.strip().splitlines()
    assert line.startswith("render.py: error: ") and said in line
    assert not out.exists()
    assert not list((tmp_path / "c").glob("scenes/*"))


def test_a_dry_run_names_every_combination_and_writes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "out"
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "c"))
    done = run_command("sweep", "SharpnessDial", "--set", "spotlight.sharpness=1,2,4,8",
                       "--quality", "preview", "--no-narration", "--out", str(out),
                       "--dry-run")
    assert done.code == 0, done.err
    assert [x.split(":")[0] for x in done.out.splitlines()] == [
        f"SharpnessDial spotlight.sharpness={v}" for v in (1, 2, 4, 8)]
    assert not out.exists()
    assert not list((tmp_path / "c").glob("scenes/*"))


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
