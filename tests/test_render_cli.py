"""render.py's scene commands: list, dry run, errors, and a real preview render."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import av
import pytest

from render import QUALITIES, ROOT
from scenes import SCENES_IN_ORDER


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=1800)


def test_list_prints_the_scenes_in_order():
    out = run("list")
    assert out.returncode == 0
    assert out.stdout.split() == [s.__name__ for s in SCENES_IN_ORDER]


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


@pytest.mark.slow
def test_preview_render_of_the_whole_chapter(tmp_path):
    out = run("render", "--quality", "preview", "--out", str(tmp_path), "--no-narration")
    assert out.returncode == 0, out.stderr[-2000:]
    width, height, fps = QUALITIES["preview"]
    for scene in SCENES_IN_ORDER:
        path = Path(tmp_path) / f"{scene.__name__}.mp4"
        assert path.exists(), scene.__name__
        with av.open(str(path)) as container:
            video = container.streams.video[0]
            assert video.codec_context.name == "h264"
            assert (video.codec_context.width, video.codec_context.height) == (width, height)
            assert round(float(video.average_rate)) == fps
            duration = float(container.duration) / av.time_base
        assert duration == pytest.approx(sum(scene.beat_seconds.values()), abs=2 / fps)
    assert not [p for p in Path(tmp_path).iterdir() if p.name.startswith(".")]
