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


def streams(path: Path) -> tuple[float, float, object, object]:
    """(video seconds, audio seconds, video stream, audio stream) of an MP4."""
    with av.open(str(path)) as container:
        v, a = container.streams.video[0], container.streams.audio[0]
        return (float(v.duration * v.time_base), float(a.duration * a.time_base),
                v.codec_context, a.codec_context)


@pytest.mark.slow
def test_preview_render_of_the_whole_chapter(tmp_path):
    out = run("render", "--quality", "preview", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr[-2000:]
    width, height, fps = QUALITIES["preview"]
    total = 0.0
    for scene in SCENES_IN_ORDER:
        path = tmp_path / "scenes" / f"{scene.__name__}.mp4"
        assert path.exists(), scene.__name__
        video_s, audio_s, video, audio = streams(path)
        assert video.name == "h264"
        assert (video.width, video.height) == (width, height)
        assert (audio.name, audio.sample_rate, audio.channels) == ("aac", 48000, 2)
        assert abs(video_s - audio_s) <= 1 / fps
        # narration may stretch a beat, never shorten it
        assert video_s >= sum(scene.beat_seconds.values()) - 1 / fps
        for ext in ("srt", "vtt"):
            assert (tmp_path / "scenes" / f"{scene.__name__}.{ext}").stat().st_size > 0
        total += video_s
    video_s, audio_s, _, _ = streams(tmp_path / "chapter.mp4")
    assert abs(video_s - audio_s) <= 1 / fps
    assert video_s == pytest.approx(total, abs=len(SCENES_IN_ORDER) / fps)
    assert (tmp_path / "chapter.srt").read_text().startswith("1\n")
    assert (tmp_path / "chapter.vtt").read_text().startswith("WEBVTT")
    leftovers = [p for p in tmp_path.rglob("*") if p.name.startswith(".")]
    assert leftovers == []
