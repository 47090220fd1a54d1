"""Any folder name the file system allows works for --out and for the cache: an apostrophe
(Manim's concat listing), braces (Manim's folder templates), line breaks, quotes, shell
and ffmpeg punctuation, unicode; a name too long for the file system is one line.

The renders draw the fixture chapter's first scene at the test quality; the property
tests (every hostile name, every output) are in the system tier."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import av
import pytest

from production.chapters import load
from production.qualities import QUALITIES
from production.written import RECORD
from tests.cache_seeds import seed_fixture_speech, seed_scenes
from tests.conftest import FIXTURE_MODULE, TEST_QUALITY, Ran

WIDTH, HEIGHT, FPS = QUALITIES[TEST_QUALITY].size
SCENE = "Scores"
DRAWN = load(FIXTURE_MODULE).by_name()[SCENE]
#: words its narration says (in its captions)
SAID = "three scores"

#: Every character a shell, ffmpeg (its concat listing, its filter graphs, its protocol
#: prefix) or Manim (its ``{media_dir}`` templates) reads specially, in two folder names.
HOSTILE = [
    "Bob's \"quoted\" $HOME `id` ,:;=%25#[x]{y}(z) back\\slash 'n' & | * ?",
    "über 日本語 🎬 tab\there new\nline ret\rurn {media_dir} %d file:x -dash ' '",
]


def render(project: Path, command: str, *args: str, out: Path, cache: Path,
           cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """``render.py COMMAND Scores`` of ``project`` (the fixture project) at the test
    quality, run in ``cwd`` (default: the project)."""
    return subprocess.run([sys.executable, str(project / "render.py"), command, SCENE,
                           "--chapter", "fixture", "--quality", TEST_QUALITY, *args,
                           "--out", str(out)],
                          cwd=cwd or project, capture_output=True, text=True, timeout=timeout,
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
    video = out / "scenes" / f"{SCENE}.mp4"
    seconds = plays(video)
    # Beats stretch to the speech, never below the scene's own lengths.
    assert seconds >= sum(DRAWN.beat_seconds.values()) - 1 / FPS
    assert probe_seconds(video) == pytest.approx(seconds, abs=1 / FPS + 1024 / 48_000)
    for captions in (f"{SCENE}.srt", f"{SCENE}.vtt"):
        assert SAID in (out / "scenes" / captions).read_text(encoding="utf-8")
    # nothing half-written left behind: the one hidden file is the record of what it wrote
    assert [p.relative_to(out) for p in out.rglob(".*")] == [Path(RECORD)]


def test_an_apostrophe_in_the_cache_and_the_output_folder(tmp_path, fixture_project):
    """A checkout under ~/Bob's projects/: Manim's concat listing quotes its segments."""
    home = tmp_path / "Bob's projects"
    done = render(fixture_project, "render", "--no-narration", out=home / "out",
                  cache=home / "cache")
    assert done.returncode == 0, done.stderr[-2000:]
    seconds = plays(home / "out" / "scenes" / f"{SCENE}.mp4", sound=False)
    assert seconds == pytest.approx(sum(DRAWN.beat_seconds.values()), abs=1 / FPS)


@pytest.mark.system
@pytest.mark.parametrize("name", HOSTILE, ids=["ascii", "unicode-and-line-breaks"])
def test_hostile_folder_names_for_the_output_and_the_cache(tmp_path, name, fixture_project,
                                                           fixture_bundle):
    where = tmp_path / name / name  # twice: a component, and a path of them
    cache = seed_fixture_speech(where / "cache", fixture_bundle)
    done = render(fixture_project, "render", out=where / "out", cache=cache)
    assert done.returncode == 0, done.stderr[-2000:]
    assert_rendered(where / "out")
    # The same again from the cache, into another hostile folder: nothing drawn.
    again = render(fixture_project, "render", out=where / "out 2", cache=cache)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.splitlines()[-1].startswith("nothing to render"), again.stdout
    assert (where / "out 2" / "scenes" / f"{SCENE}.mp4").read_bytes() == \
        (where / "out" / "scenes" / f"{SCENE}.mp4").read_bytes()


@pytest.mark.system
def test_slides_into_a_relative_folder_that_looks_like_an_ffmpeg_protocol(
        tmp_path, fixture_project, fixture_bundle):
    """A relative `concat:...` folder must not make ffmpeg open its concat protocol (and
    the folder inside it has every other hostile character)."""
    cache = seed_fixture_speech(tmp_path / HOSTILE[0] / "cache", fixture_bundle)
    relative = Path("concat:slides's") / HOSTILE[1]
    done = render(fixture_project, "slides", out=relative, cache=cache, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / relative
    seconds = plays(out / f"{SCENE}.mp4")
    assert plays(out / f"{SCENE}-silent.mp4", sound=False) == pytest.approx(seconds, abs=0.1)
    for clip in (f"{SCENE}-alpha.webm", f"{SCENE}-alpha.mov", f"{SCENE}.gif"):
        assert probe_seconds(out / clip) == pytest.approx(seconds, abs=0.2), clip
    assert (out / "deck.html").stat().st_size > 0 and (out / "deck.pptx").stat().st_size > 0
    assert [p.relative_to(out) for p in out.rglob(".*")] == [Path(RECORD)]


@pytest.mark.system
def test_shorts_into_a_hostile_folder(tmp_path, fixture_project, fixture_bundle):
    where = tmp_path / HOSTILE[0] / HOSTILE[1]
    cache = seed_fixture_speech(where / "cache", fixture_bundle)
    done = render(fixture_project, "shorts", out=where / "shorts", cache=cache)
    assert done.returncode == 0, done.stderr[-2000:]
    seconds = plays(where / "shorts" / f"{SCENE}.mp4")
    assert seconds >= sum(DRAWN.beat_seconds.values())
    assert (where / "shorts" / f"{SCENE}.jpg").stat().st_size > 0
    assert SAID in (where / "shorts" / f"{SCENE}.srt").read_text(encoding="utf-8")


def test_the_chapter_joins_scenes_cached_under_a_line_break(tmp_path, fixture_bundle):
    """The chapter's concat listings name the cached scenes; a line break cannot be written
    in a listing, so they must reach ffmpeg under other names. (The session's render of
    the scene, in a cache under a line break; rendering into such a cache is the test
    above.)"""
    from production.outputs import joining
    from production.scene_output import load as load_scene

    cache = tmp_path / HOSTILE[1] / "cache"
    entry = seed_scenes(cache, fixture_bundle, [SCENE])[SCENE]
    scene = load_scene(entry)
    assert scene is not None
    joined = joining.assemble([scene, scene], cache / "chapters" / "twice")
    seconds = plays(joined.folder / "chapter.mp4")
    assert seconds == pytest.approx(2 * plays(scene.video), abs=2 / FPS)


# ----------------------------------------------------------------- names too long


def name_max(folder: Path) -> int:
    return os.pathconf(folder, "PC_NAME_MAX")


COMMANDS = [["render", "TitleCard"], ["slides", "TitleCard"], ["shorts", "TitleCard"],
            ["sweep", "SharpnessDial", "--set", "spotlight.sharpness=1,2"]]


@pytest.fixture
def run_cli(run_command, monkeypatch):
    """The command in process (every case is refused before anything runs), with its
    cache folder (EXPLAINER_CACHE) given."""
    def run(args: list[str], cache: Path) -> Ran:
        monkeypatch.setenv("EXPLAINER_CACHE", str(cache))
        return run_command(*args, "--quality", "preview", "--no-narration")

    return run


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_output_folder_name_too_long_is_one_line_before_anything_runs(tmp_path, command,
                                                                         run_cli):
    """A name's limit is in bytes: 'é' is two, so this name is short in characters and
    one byte over the file system's limit."""
    limit = name_max(tmp_path)
    long = "é" * (limit // 2) + "x" * (limit % 2 + 1)
    assert len(long) < limit < len(long.encode())
    done = run_cli([*command, "--out", str(tmp_path / long / "out")], tmp_path / "cache")
    assert done.code == 2, done.err[-2000:]
    line, = done.err.strip().splitlines()
    assert line.startswith("render.py: error: --out: ")
    assert "é" * 8 in line and f"{len(long.encode())} bytes" in line
    assert f"at most {limit} bytes" in line
    assert done.out == ""
    assert not (tmp_path / "cache").exists()  # nothing ran: not even speech or the cache


@pytest.mark.parametrize("command", COMMANDS[:1] + COMMANDS[3:], ids=lambda c: c[0])
def test_a_cache_folder_name_too_long_is_one_line_before_anything_runs(tmp_path, command,
                                                                       run_cli):
    limit = name_max(tmp_path)
    long = "c" * (limit + 1)
    done = run_cli([*command, "--out", str(tmp_path / "out")], tmp_path / long / "cache")
    assert done.code == 2, done.err[-2000:]
    line, = done.err.strip().splitlines()
    assert line.startswith("render.py: error: the cache folder (EXPLAINER_CACHE): ")
    assert f"{limit + 1} bytes" in line and f"at most {limit} bytes" in line
    assert not (tmp_path / "out").exists()


def test_a_whole_path_too_long_is_one_line(tmp_path, run_cli):
    """Each name within the limit, the path beyond what the system opens (PATH_MAX)."""
    longest = os.pathconf(tmp_path, "PC_PATH_MAX")
    part = "d" * (name_max(tmp_path) - 5)
    deep = tmp_path.joinpath(*[part] * (longest // len(part) + 1))
    done = run_cli(["render", "TitleCard", "--out", str(deep)], tmp_path / "cache")
    assert done.code == 2, done.err[-2000:]
    line, = done.err.strip().splitlines()
    assert line.startswith("render.py: error: --out: ") and f"{longest}" in line
    assert not (tmp_path / "cache").exists()


# ----------------------------------------------------------------- system folders


#: every command that writes a folder, as a dry run of it (were --out taken, nothing is
#: written there): a refusal comes first
WRITERS = [*COMMANDS, ["demo", "--chapter", "attention"], ["course"]]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: c[0])
def test_the_root_folder_is_refused_for_every_command(command, run_command):
    done = run_command(*command, "--quality", "preview", "--out", "/", "--dry-run")
    assert done.code == 2, (done.out[-2000:], done.err[-2000:])
    line, = done.err.strip().splitlines()
    assert line == ("render.py: error: --out /: that is a system folder (/); write into a "
                    "folder of its own (the default is out/)")
    assert done.out == ""


@pytest.mark.parametrize("folder", ["/etc", "/etc/ssl", "/usr/local/lib", "/var", "/boot",
                                    "/dev/shm", "/bin"])
def test_a_system_folder_or_one_inside_it_is_refused(folder, run_cli, tmp_path):
    done = run_cli(["render", "TitleCard", "--out", folder, "--dry-run"], tmp_path / "cache")
    assert done.code == 2, (done.out[-2000:], done.err[-2000:])
    line, = done.err.strip().splitlines()
    assert re.fullmatch(rf"render\.py: error: --out {folder}: that is (inside )?a system "
                        r"folder \(/[a-z/]*\); write into a folder of its own \(the default "
                        r"is out/\)", line), line


def test_a_link_to_a_system_folder_is_refused(run_cli, tmp_path):
    (tmp_path / "looks-harmless").symlink_to("/etc")
    done = run_cli(["slides", "TitleCard", "--out", str(tmp_path / "looks-harmless"),
                    "--dry-run"], tmp_path / "cache")
    assert done.code == 2, (done.out[-2000:], done.err[-2000:])
    line, = done.err.strip().splitlines()
    assert line.endswith("that is a system folder (/etc); write into a folder of its own "
                         "(the default is out/)")


def test_the_home_folder_itself_is_refused_and_a_folder_in_it_is_not(run_cli, tmp_path,
                                                                     monkeypatch):
    home = tmp_path / "home" / "someone"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    refused = run_cli(["render", "TitleCard", "--out", str(home)], tmp_path / "cache")
    assert refused.code == 2, refused.err
    line, = refused.err.strip().splitlines()
    assert line.startswith("render.py: error: --out ")
    assert line.endswith(": that is the home folder; write into a folder of its own (the "
                         "default is out/)")
    assert list(home.iterdir()) == []
    taken = run_cli(["render", "TitleCard", "--out", str(home / "video"), "--dry-run"],
                    tmp_path / "cache")
    assert taken.code == 0, taken.err
