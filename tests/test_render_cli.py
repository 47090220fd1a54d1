"""render.py's scene commands: list, dry run, errors, and a real preview render."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from production.paths import ROOT
from scenes.attention.chapter import SCENES_IN_ORDER


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)


def test_list_prints_every_chapter_with_its_scenes_in_order():
    out = run("list")
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0] == "attention: How attention decides where to look"
    assert [line.strip() for line in lines[1:1 + len(SCENES_IN_ORDER)]] == \
        [s.__name__ for s in SCENES_IN_ORDER]
    listed = json.loads(run("list", "--json").stdout)
    attention, = [c for c in listed["chapters"] if c["name"] == "attention"]
    assert attention == {"name": "attention", "title": "How attention decides where to look",
                         "scenes": [s.__name__ for s in SCENES_IN_ORDER]}


def test_an_unknown_chapter_is_one_line_naming_the_chapters():
    for command in (["numbers"], ["render", "--dry-run"], ["slides", "--dry-run"],
                    ["shorts", "--dry-run"], ["sweep", "TitleCard", "--set", "grid.sharpness=1,2"]):
        out = run(*command, "--chapter", "nosuch")
        assert out.returncode == 2, command
        assert out.stderr.strip() == ("render.py: error: --chapter 'nosuch': unknown chapter; "
                                      "chapters: attention, decoder"), command
        assert out.stdout == ""


def test_dry_run_names_every_scene_and_writes_nothing(tmp_path):
    target = tmp_path / "out"
    out = run("render", "--dry-run", "--quality", "preview", "--out", str(target))
    assert out.returncode == 0
    for scene in SCENES_IN_ORDER:
        assert scene.__name__ in out.stdout
    assert "854x480" in out.stdout
    assert not target.exists()


@pytest.mark.parametrize("args,named", [
    (["render", "NoSuchScene"], "NoSuchScene"),
    (["render", "--quality", "ultra"], "--quality"),
    (["render", "--set", "spotlight.sharpness=-1"], "spotlight.sharpness"),
])
def test_bad_render_input_exits_2_with_one_line(tmp_path, args, named):
    target = tmp_path / "out"
    out = run(*args, "--out", str(target))
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]
    assert not target.exists()


def test_out_that_is_a_file_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    out = run("render", "TitleCard", "--out", str(blocker / "x"))
    assert out.returncode == 2
    assert "--out" in out.stderr


@pytest.mark.parametrize("out,named", [
    ("", "--out"),
    ("/proc/explainer-out", "/proc/explainer-out"),
    ("/sys/explainer-out", "/sys/explainer-out"),
])
def test_an_output_folder_that_takes_no_files_is_one_line_before_anything_runs(out, named):
    """/proc and /sys pass an access() check as root but take no files; an empty name
    must not quietly mean out/. Slides are refused as early as render."""
    for command in ("render", "slides"):
        result = run(command, "TitleCard", "--quality", "preview", "--out", out)
        assert result.returncode == 2, (command, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and named in lines[0], lines
        assert result.stdout == ""


def test_a_cache_folder_that_takes_no_files_is_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, "render.py", "render", "TitleCard", "--quality", "preview",
         "--out", str(tmp_path / "out")], cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "EXPLAINER_CACHE": "/sys/explainer-cache"}, timeout=600)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "EXPLAINER_CACHE" in lines[0] and "/sys" in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_the_command_may_be_left_out_render_is_meant(tmp_path):
    target = tmp_path / "out"
    out = run("--quality", "preview", "--dry-run", "--out", str(target))
    assert out.returncode == 0, out.stderr
    assert "854x480" in out.stdout and "TitleCard" in out.stdout
    named = run("TitleCard", "--quality", "preview", "--dry-run", "--out", str(target))
    assert named.returncode == 0, named.stderr
    [line] = named.stdout.splitlines()  # the one scene named, cached or to render
    assert line.split(" ", 1)[1].startswith("TitleCard at 854x480")
