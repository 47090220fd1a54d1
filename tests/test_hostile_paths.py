"""Any folder name the file system allows works for --out and for the cache: an apostrophe
(Manim's concat listing), braces (Manim's folder templates), line breaks, quotes, shell
and ffmpeg punctuation, unicode; a name too long for the file system is one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import av
import pytest

from production.paths import ROOT
from production.qualities import QUALITIES
from scenes.attention.chapter import CHAPTER

WIDTH, HEIGHT, FPS = QUALITIES["preview"].size
TITLE = CHAPTER.by_name()["TitleCard"]

#: Every character a shell, ffmpeg (its concat listing, its filter graphs, its protocol
#: prefix) or Manim (its ``{media_dir}`` templates) reads specially, in two folder names.
HOSTILE = [
    "Bob's \"quoted\" $HOME `id` ,:;=%25#[x]{y}(z) back\\slash 'n' & | * ?",
    "über 日本語 🎬 tab\there new\nline ret\rurn {media_dir} %d file:x -dash ' '",
]


def render(command: str, *args: str, out: Path, cache: Path, cwd: Path = ROOT,
           timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "render.py"), command, "TitleCard",
                           "--quality", "preview", *args, "--out", str(out)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "EXPLAINER_CACHE": str(cache)})


def plays(path: Path, *, sound: bool = True) -> float:
    """The clip's length (seconds), after checking that every picture decodes, that the
    frame count matches that length at its frame rate, and that its sound (if any) is as
    long as its picture (to an AAC frame, 1024 samples, and a video frame)."""
    with av.open(str(path)) as container:
        video = container.streams.video[0]
        seconds = float(video.duration * video.time_base)
        rate = float(video.average_rate)
        frames = sum(1 for _ in container.decode(video=0))
    assert frames == pytest.approx(seconds * rate, abs=1)
    if sound:
        with av.open(str(path)) as container:
            audio = container.streams.audio[0]
            heard = float(audio.duration * audio.time_base)
        assert heard == pytest.approx(seconds, abs=1024 / 48_000 + 1 / rate)
    return seconds


def probe_seconds(path: Path) -> float:
    """The length ffprobe reads (seconds): another reader than PyAV."""
    said = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration",
                           "-of", "default=nw=1:nk=1", str(path)],
                          capture_output=True, text=True, check=True)
    return float(said.stdout)


def assert_rendered(out: Path) -> None:
    video = out / "scenes" / "TitleCard.mp4"
    seconds = plays(video)
    # Beats stretch to the speech, never below the scene's own lengths.
    assert seconds >= sum(TITLE.beat_seconds.values()) - 1 / FPS
    assert probe_seconds(video) == pytest.approx(seconds, abs=1 / FPS + 1024 / 48_000)
    for captions in ("TitleCard.srt", "TitleCard.vtt"):
        assert "machine" in (out / "scenes" / captions).read_text(encoding="utf-8")
    assert not [p for p in out.rglob(".*")]  # nothing half-written left behind


def test_an_apostrophe_in_the_cache_and_the_output_folder(tmp_path):
    """A checkout under ~/Bob's projects/: Manim's concat listing quotes its segments."""
    home = tmp_path / "Bob's projects"
    done = render("render", "--no-narration", out=home / "out", cache=home / "cache")
    assert done.returncode == 0, done.stderr[-2000:]
    seconds = plays(home / "out" / "scenes" / "TitleCard.mp4", sound=False)
    assert seconds == pytest.approx(sum(TITLE.beat_seconds.values()), abs=1 / FPS)


@pytest.mark.slow
@pytest.mark.parametrize("name", HOSTILE, ids=["ascii", "unicode-and-line-breaks"])
def test_hostile_folder_names_for_the_output_and_the_cache(tmp_path, name):
    where = tmp_path / name / name  # twice: a component, and a path of them
    done = render("render", out=where / "out", cache=where / "cache")
    assert done.returncode == 0, done.stderr[-2000:]
    assert_rendered(where / "out")
    # The same again from the cache, into another hostile folder: nothing drawn.
    again = render("render", out=where / "out 2", cache=where / "cache")
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.splitlines()[-1].startswith("nothing to render"), again.stdout
    assert (where / "out 2" / "scenes" / "TitleCard.mp4").read_bytes() == \
        (where / "out" / "scenes" / "TitleCard.mp4").read_bytes()


@pytest.mark.slow
def test_slides_into_a_relative_folder_that_looks_like_an_ffmpeg_protocol(tmp_path):
    """A relative `concat:...` folder must not make ffmpeg open its concat protocol (and
    the folder inside it has every other hostile character)."""
    cache = tmp_path / HOSTILE[0] / "cache"
    relative = Path("concat:slides's") / HOSTILE[1]
    done = render("slides", out=relative, cache=cache, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / relative
    seconds = plays(out / "TitleCard.mp4")
    assert plays(out / "TitleCard-silent.mp4", sound=False) == pytest.approx(seconds, abs=0.1)
    for clip in ("TitleCard-alpha.webm", "TitleCard-alpha.mov", "TitleCard.gif"):
        assert probe_seconds(out / clip) == pytest.approx(seconds, abs=0.2), clip
    assert (out / "deck.html").stat().st_size > 0 and (out / "deck.pptx").stat().st_size > 0
    assert not [p for p in out.rglob(".*")]


@pytest.mark.slow
def test_shorts_into_a_hostile_folder(tmp_path):
    where = tmp_path / HOSTILE[0] / HOSTILE[1]
    done = render("shorts", out=where / "shorts", cache=where / "cache")
    assert done.returncode == 0, done.stderr[-2000:]
    seconds = plays(where / "shorts" / "TitleCard.mp4")
    assert seconds >= sum(TITLE.beat_seconds.values())
    assert (where / "shorts" / "TitleCard.jpg").stat().st_size > 0
    assert "machine" in (where / "shorts" / "TitleCard.srt").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_chapter_joins_scenes_cached_under_a_line_break(tmp_path):
    """The chapter's concat listings name the cached scenes; a line break cannot be written
    in a listing, so they must reach ffmpeg under other names."""
    from production.outputs import joining
    from production.scene_output import load

    cache = tmp_path / HOSTILE[1] / "cache"
    done = render("render", out=tmp_path / "out", cache=cache)
    assert done.returncode == 0, done.stderr[-2000:]
    entry, = (p for p in (cache / "scenes").iterdir() if not p.name.startswith("."))
    scene = load(entry)
    joined = joining.assemble([scene, scene], cache / "chapters" / "twice")
    seconds = plays(joined.folder / "chapter.mp4")
    assert seconds == pytest.approx(2 * plays(scene.video), abs=2 / FPS)


# ----------------------------------------------------------------- names too long


def name_max(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


COMMANDS = [["render", "TitleCard"], ["slides", "TitleCard"], ["shorts", "TitleCard"],
            ["sweep", "SharpnessDial", "--set", "spotlight.sharpness=1,2"]]


def run_cli(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args, "--quality", "preview",
                           "--no-narration"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "EXPLAINER_CACHE": str(cache)})


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_output_folder_name_too_long_is_one_line_before_anything_runs(tmp_path, command):
    """A name's limit is in bytes: 'é' is two, so this name is short in characters and
    one byte over the file system's limit."""
    limit = name_max(tmp_path)
    long = "é" * (limit // 2) + "x" * (limit % 2 + 1)
    assert len(long) < limit < len(long.encode())
    done = run_cli([*command, "--out", str(tmp_path / long / "out")], tmp_path / "cache")
    assert done.returncode == 2, done.stderr[-2000:]
    line, = done.stderr.strip().splitlines()
    assert line.startswith("render.py: error: --out: ")
    assert "é" * 8 in line and f"{len(long.encode())} bytes" in line
    assert f"at most {limit} bytes" in line
    assert done.stdout == ""
    assert not (tmp_path / "cache").exists()  # nothing ran: not even speech or the cache


@pytest.mark.parametrize("command", COMMANDS[:1] + COMMANDS[3:], ids=lambda c: c[0])
def test_a_cache_folder_name_too_long_is_one_line_before_anything_runs(tmp_path, command):
    limit = name_max(tmp_path)
    long = "c" * (limit + 1)
    done = run_cli([*command, "--out", str(tmp_path / "out")], tmp_path / long / "cache")
    assert done.returncode == 2, done.stderr[-2000:]
    line, = done.stderr.strip().splitlines()
    assert line.startswith("render.py: error: the cache folder (EXPLAINER_CACHE): ")
    assert f"{limit + 1} bytes" in line and f"at most {limit} bytes" in line
    assert not (tmp_path / "out").exists()


def test_a_whole_path_too_long_is_one_line(tmp_path):
    """Each name within the limit, the path beyond what the system opens (PATH_MAX)."""
    longest = os.pathconf(tmp_path, "PC_PATH_MAX")
    part = "d" * (name_max(tmp_path) - 5)
    deep = tmp_path.joinpath(*[part] * (longest // len(part) + 1))
    done = run_cli(["render", "TitleCard", "--out", str(deep)], tmp_path / "cache")
    assert done.returncode == 2, done.stderr[-2000:]
    line, = done.stderr.strip().splitlines()
    assert line.startswith("render.py: error: --out: ") and f"{longest}" in line
    assert not (tmp_path / "cache").exists()
