"""The cache never serves or keeps a broken file: entries are sealed (size and hash of
every file), checked when read, and a broken one is deleted and built again."""

from __future__ import annotations

import json
import shutil
import subprocess
import wave
from pathlib import Path

import av
import pytest

from production import cache, scene_output
from production.scene_output import BrokenOutput, check_captions, check_video
from tests.cache_seeds import seed_scenes
from tests.conftest import TEST_QUALITY, render_in


def render(project: Path, *args: str) -> subprocess.CompletedProcess:
    return render_in(project, "render", "--chapter", "fixture", "--quality", TEST_QUALITY,
                     "--out", "out", *args)


def decoded_seconds(path: Path) -> float:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return sum(1 for _ in container.decode(stream)) / float(stream.average_rate)


@pytest.fixture
def cached_scores(copy_fixture_project, fixture_bundle) -> Path:
    """The entry of the fixture's first scene, Scores, in the cache of a copy of the
    fixture project (as a first render would have left it)."""
    return seed_scenes(copy_fixture_project / ".cache", fixture_bundle, ["Scores"])["Scores"]


def test_a_damaged_cached_scene_is_rendered_again_not_published(copy_fixture_project,
                                                                cached_scores):
    video = cached_scores / "Scores.mp4"
    seconds = decoded_seconds(video)
    with open(video, "r+b") as f:  # cut to half, as a full disk or a crash leaves it
        f.truncate(video.stat().st_size // 2)

    second = render(copy_fixture_project, "Scores")
    assert second.returncode == 0, second.stderr[-2000:]
    assert "Scores:" in second.stdout and "(rendered)" in second.stdout, second.stdout
    assert "(cached)" not in second.stdout
    published = copy_fixture_project / "out" / "scenes" / "Scores.mp4"
    assert decoded_seconds(published) == pytest.approx(seconds, abs=1e-6)


def test_a_cached_record_that_no_longer_parses_is_rendered_again(copy_fixture_project,
                                                                 cached_scores):
    """A record that no longer parses is no better than a damaged file."""
    (cached_scores / "scene.json").write_text('{"name": "Sco')
    third = render(copy_fixture_project, "Scores")
    assert third.returncode == 0 and "(rendered)" in third.stdout, third.stdout
    assert "(cached)" not in third.stdout


def test_a_recording_that_names_no_beat_is_warned_about(copy_fixture_project):
    stray = copy_fixture_project / "scenes" / "fixture" / "voice" / "Scores" / "scoers.wav"
    stray.parent.mkdir(parents=True)
    with wave.open(str(stray), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(48000)
        w.writeframes(bytes(2 * 48000))
    result = render(copy_fixture_project, "Scores", "--dry-run")
    assert result.returncode == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "scoers.wav" in warnings[0] and "scores" in warnings[0]


def _clip(path: Path, seconds: float = 2.0, rate: int = 15) -> Path:
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc=size=160x90:rate={rate}:duration={seconds}", "-f", "lavfi",
                    "-i", f"sine=duration={seconds}:sample_rate=48000", "-c:v", "libx264",
                    "-g", "8", "-c:a", "aac", "-shortest", str(path)], check=True)
    return path


def test_a_finished_mp4_is_checked_frame_for_frame_and_against_its_sound(tmp_path):
    clip = _clip(tmp_path / "clip.mp4")
    check_video(clip, 30, 2.0, sound=True)  # what was written: passes
    with pytest.raises(BrokenOutput):
        check_video(clip, 31, 31 / 15, sound=True)  # a frame short of what was drawn
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(clip.read_bytes()[: clip.stat().st_size // 2])
    with pytest.raises(BrokenOutput):
        check_video(cut, 30, 2.0, sound=True)
    silent = tmp_path / "silent.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(clip), "-an", "-c", "copy",
                    str(silent)], check=True)
    with pytest.raises(BrokenOutput):
        check_video(silent, 30, 2.0, sound=True)  # the sound went missing


def test_captions_are_read_back_before_they_are_stored(tmp_path):
    srt = tmp_path / "a.srt"
    srt.write_text("1\n00:00:00,400 --> 00:00:02,000\nHello\n\n"
                   "2\n00:00:02,000 --> 00:00:03,000\nthere\n", encoding="utf-8")
    check_captions([srt], 2)
    srt.write_text(srt.read_text()[:30], encoding="utf-8")  # cut short
    with pytest.raises(BrokenOutput):
        check_captions([srt], 2)


def _entry(tmp_path: Path) -> Path:
    entry = tmp_path / "scenes" / ("ab" * 12)
    entry.mkdir(parents=True)
    (entry / "Demo.mp4").write_bytes(b"picture" * 100)
    (entry / "Demo.wav").write_bytes(b"sound" * 100)
    record = scene_output.SceneOutput("Demo", entry, 1.0, {"only": 0.0}).to_json()
    cache.write_record(entry, scene_output.META, record, ["Demo.mp4", "Demo.wav"],
                       entry.name)
    return entry


def test_an_entry_whose_file_changed_is_deleted_on_read(tmp_path):
    entry = _entry(tmp_path)
    assert scene_output.load(entry) is not None
    data = bytearray((entry / "Demo.mp4").read_bytes())
    data[10] ^= 1  # same size, one bit different
    (entry / "Demo.mp4").write_bytes(bytes(data))
    assert scene_output.load(entry) is None
    assert not entry.exists()
    assert not list(entry.parent.iterdir())  # nothing half-deleted left beside it


def test_an_entry_copied_over_anothers_is_not_served(tmp_path):
    """A scene's folder is named by its key: one copied in under another key, whole and
    sealed, still proves it was made for another and is built again."""
    entry = _entry(tmp_path)
    other = entry.with_name("cd" * 12)
    shutil.copytree(entry, other)
    assert scene_output.load(entry) is not None
    assert scene_output.load(other) is None
    assert not other.exists()


def test_an_entry_without_the_projects_record_is_not_served(tmp_path):
    entry = _entry(tmp_path)
    record = json.loads((entry / scene_output.META).read_text())
    del record["files"]  # a record of the old kind: nothing to check the files against
    (entry / scene_output.META).write_text(json.dumps(record))
    assert scene_output.load(entry) is None


def test_storing_an_entry_another_render_just_stored_keeps_one_whole_entry(tmp_path):
    entry = _entry(tmp_path)
    work = tmp_path / "scenes" / ".second-build"
    work.mkdir()
    (work / "Demo.mp4").write_bytes(b"picture" * 100)
    (work / "Demo.wav").write_bytes(b"sound" * 100)
    scene_output.store(work, entry, scene_output.SceneOutput(
        "Demo", work, 1.0, {"only": 0.0}).to_json())
    assert scene_output.load(entry) is not None
    assert not work.exists()
