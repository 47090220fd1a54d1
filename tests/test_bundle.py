"""The publish bundle of a real preview render, checked with PyAV; the chapter list rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pytest

from production import files
from production.outputs import bundle
from production.paths import ROOT
from production.qualities import QUALITIES
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER

WIDTH, HEIGHT, FPS = QUALITIES["preview"].size


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bundle")
    run = subprocess.run([sys.executable, "render.py", "render", "--quality", "preview",
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                         timeout=3000)
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def streams(path: Path):
    with av.open(str(path)) as container:
        v, a = container.streams.video[0], container.streams.audio[0]
        return (float(v.duration * v.time_base), float(a.duration * a.time_base),
                v.codec_context, a.codec_context)


def keyframe_gaps(path: Path) -> set[int]:
    """Frames between successive key frames (the GOP lengths)."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        flags = [p.is_keyframe for p in container.demux(stream) if p.size]
    starts = [i for i, k in enumerate(flags) if k]
    return {b - a for a, b in zip(starts, starts[1:])}


@pytest.mark.slow
def test_every_scene_has_video_sound_and_captions(rendered):
    for scene in SCENES_IN_ORDER:
        path = rendered / "scenes" / f"{scene.__name__}.mp4"
        video_s, audio_s, video, audio = streams(path)
        assert (video.name, video.width, video.height) == ("h264", WIDTH, HEIGHT)
        assert (audio.name, audio.sample_rate, audio.channels) == ("aac", 48000, 2)
        assert abs(video_s - audio_s) <= 1 / FPS
        assert video_s >= sum(scene.beat_seconds.values()) - 1 / FPS
        for ext in ("srt", "vtt"):
            assert (rendered / "scenes" / f"{scene.__name__}.{ext}").stat().st_size > 0


@pytest.mark.slow
def test_chapter_mp4_is_what_a_video_site_wants(rendered):
    path = rendered / "chapter.mp4"
    video_s, audio_s, video, audio = streams(path)
    assert video.name == "h264" and video.profile == "High"
    assert video.pix_fmt == "yuv420p"
    assert (video.width, video.height) == (WIDTH, HEIGHT)
    assert audio.name == "aac" and audio.profile == "LC"
    assert (audio.sample_rate, audio.channels) == (48000, 2)
    assert abs(video_s - audio_s) <= 1 / FPS
    with av.open(str(path)) as container:
        assert round(float(container.streams.video[0].average_rate)) == FPS
    data = path.read_bytes()
    assert 0 < data.find(b"moov") < data.find(b"mdat")  # faststart
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=color_primaries,color_transfer,color_space,has_b_frames", "-of", "json",
         str(path)], capture_output=True, text=True, check=True).stdout)["streams"][0]
    assert probe["color_primaries"] == probe["color_transfer"] == probe["color_space"] == "bt709"
    assert probe["has_b_frames"] == 2
    # GOPs of half the frame rate (a scene's last GOP may be shorter)
    assert max(keyframe_gaps(path)) == FPS // 2


@pytest.mark.slow
def test_chapter_is_the_scenes_end_to_end(rendered):
    total = sum(streams(rendered / "scenes" / f"{s.__name__}.mp4")[0] for s in SCENES_IN_ORDER)
    assert streams(rendered / "chapter.mp4")[0] == pytest.approx(total, abs=1 / FPS)
    manifest = json.loads((rendered / "manifest.json").read_text())
    assert [s["name"] for s in manifest["scenes"]] == [s.__name__ for s in SCENES_IN_ORDER]
    assert manifest["quality"] == {"name": "preview", "width": WIDTH, "height": HEIGHT,
                                   "frame_rate": FPS}
    assert set(manifest["versions"]) == {"manim", "numpy", "pydub"}
    assert manifest["ledger"]["grid"]["top_word"] == "cat"
    # what a video site's description and tags are made of (render.py publish)
    assert manifest["summary"] == CHAPTER.summary and len(manifest["summary"]) > 100
    assert manifest["tags"] == list(CHAPTER.tags) and "attention" in manifest["tags"]
    starts = [s["start"] for s in manifest["scenes"]]
    durations = [s["duration"] for s in manifest["scenes"]]
    assert starts[0] == 0 and all(
        b == pytest.approx(a + d) for a, b, d in zip(starts, starts[1:], durations))
    chapter_hash = manifest["files"]["chapter.mp4"]["sha256"]
    from production.files import sha256 as file_hash
    assert chapter_hash == file_hash(rendered / "chapter.mp4")
    loud = manifest["loudness"]
    assert abs(loud["integrated_lufs"] + 14) <= 1.0 and loud["true_peak_dbtp"] <= -1.0


@pytest.mark.slow
def test_the_manifest_names_the_voice_and_every_scene_is_spoken_at_a_natural_pace(rendered):
    """The default voice (Piper's joe) speaks every scene at 140 to 175 words a minute,
    measured from its speech (the written words over the passages' seconds)."""
    manifest = json.loads((rendered / "manifest.json").read_text())
    voice = manifest["voice"]
    assert voice["engine"] == "piper" and voice["model"] == "en_US-joe-medium.onnx"
    assert "CC0" in voice["licence"] and "piper-tts" in voice["licence"]
    paces = {s["name"]: s["words_per_minute"] for s in manifest["scenes"]}
    assert list(paces) == [sc.__name__ for sc in SCENES_IN_ORDER]
    assert all(140 <= pace <= 175 for pace in paces.values()), paces


def _vtt_cues(text: str) -> list[tuple[float, str]]:
    """(start in seconds, text) of each cue of a WebVTT file."""
    cues = []
    for block in text.split("\n\n")[1:]:
        timing, *lines = block.strip().split("\n")
        h, m, rest = timing.split(" --> ")[0].split(":")
        cues.append((int(h) * 3600 + int(m) * 60 + float(rest), " ".join(lines)))
    return cues


@pytest.mark.slow
def test_the_manifest_times_every_word_and_each_caption_starts_on_its_first_word(rendered):
    """Each scene's entry lists every written word of its narration with when it is said;
    marked words carry their mark; every cue of chapter.vtt starts within 0.1 s of the
    onset of its first word."""
    from core import ledger
    from production import narration

    manifest = json.loads((rendered / "manifest.json").read_text())
    onsets = []
    for entry, scene in zip(manifest["scenes"], SCENES_IN_ORDER):
        heard = entry["words"]
        script = narration.marked_script(CHAPTER, scene, ledger.resolve())
        assert [w["word"] for w in heard] == [
            word for beat in scene.beat_seconds for word in script[beat][0].split()]
        assert {(w["beat"], w["mark"]) for w in heard if "mark" in w} == {
            (beat, mark) for beat, names in scene.marks.items() for mark in names}
        for a, b in zip(heard, heard[1:]):
            assert a["start"] <= a["end"] <= b["start"] + 1e-3
        assert heard[-1]["end"] <= entry["duration"]
        onsets += [(entry["start"] + w["start"], w["word"]) for w in heard]
    cues = _vtt_cues((rendered / "chapter.vtt").read_text(encoding="utf-8"))
    at = 0
    for start, text in cues:
        first = text.split()[0]
        while onsets[at][1] != first or abs(onsets[at][0] - start) > 0.1:
            at += 1  # raises IndexError when a cue starts on no word's onset
        at += len(text.split())
    assert len(cues) > 50


def decoded_sound(path: Path) -> np.ndarray:
    """The file's sound as the player hears it, mono, 48 kHz, as floats."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a:0", "-f",
                          "s16le", "-ac", "1", "-ar", "48000", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.int16).astype(float)


@pytest.mark.slow
def test_chapter_sound_is_every_scene_sound_at_its_picture(rendered):
    """The chapter's sound is joined from the scenes' AAC frames; each scene's sound must
    start within half an AAC frame (512 samples, 10.7 ms) of its picture, unchanged."""
    chapter = decoded_sound(rendered / "chapter.mp4")
    with av.open(str(rendered / "chapter.mp4")) as container:
        assert [s.start_time for s in container.streams] == [0, 0]
    manifest = json.loads((rendered / "manifest.json").read_text())
    for entry in manifest["scenes"]:
        scene = decoded_sound(rendered / "scenes" / f"{entry['name']}.mp4")
        start = round(entry["start"] * 48000)
        # the loudest two seconds of the scene: voice, not silence
        window = 2 * 48000
        energy = np.convolve(scene ** 2, np.ones(4800), "valid")[::4800]
        at = min(int(np.argmax(energy)) * 4800, len(scene) - window)
        piece = scene[at:at + window]
        errors = {shift: np.mean((chapter[start + at + shift:start + at + shift + window]
                                  - piece) ** 2) for shift in range(-600, 601)
                  if start + at + shift >= 0}
        shift = min(errors, key=errors.get)
        assert abs(shift) <= 512, entry["name"]
        snr = 10 * np.log10(np.mean(piece ** 2) / max(errors[shift], 1e-9))
        assert snr > 40, (entry["name"], snr)


@pytest.mark.slow
def test_chapters_txt_thumbnail_and_captions(rendered):
    lines = (rendered / "chapters.txt").read_text().splitlines()
    assert len(lines) >= 3 and lines[0].startswith("0:00 ")
    times = []
    for line in lines:
        stamp, title = line.split(" ", 1)
        m, s = stamp.split(":")
        times.append(int(m) * 60 + int(s))
        assert 0 < len(title) <= 49
    video_s = streams(rendered / "chapter.mp4")[0]
    assert all(b - a >= 10 for a, b in zip(times, times[1:] + [video_s]))
    from PIL import Image
    with Image.open(rendered / "thumbnail.jpg") as im:
        assert im.size == (1280, 720) and im.format == "JPEG"
    assert (rendered / "thumbnail.jpg").stat().st_size < 2 * 1024 * 1024
    vtt = (rendered / "chapter.vtt").read_text()
    assert vtt.startswith("WEBVTT") and "attention" in vtt.lower()
    assert not [p for p in rendered.rglob("*") if p.name.startswith(".")]


def test_short_scenes_join_the_next_chapter():
    items = bundle.chapters([("Title", 6.0), ("Two", 20.0), ("Three", 30.0), ("End", 4.0)])
    assert [(c.start, c.title) for c in items] == [(0.0, "Two"), (26.0, "Three")]
    assert all(c.seconds >= bundle.MIN_CHAPTER for c in items)
    assert bundle.chapters_text(items) == "0:00 Two\n0:26 Three\n"


def test_long_titles_are_cut_to_49_characters():
    items = bundle.chapters([("x" * 80, 30.0)])
    assert len(items[0].title) == 49


def test_timestamps():
    assert bundle.timestamp(0) == "0:00"
    assert bundle.timestamp(75.9) == "1:15"
    assert bundle.timestamp(3723) == "1:02:03"


def test_publish_never_leaves_a_partial_file(tmp_path):
    source = tmp_path / "a.bin"
    source.write_bytes(b"x" * 1000)
    target = files.publish(source, tmp_path / "out" / "a.bin")
    assert target.read_bytes() == source.read_bytes()
    stale = tmp_path / "out" / ".b.mp4.part"
    stale.write_bytes(b"half")
    files.clear_partials(tmp_path / "out")
    assert not stale.exists() and target.exists()


def test_words_per_minute_leaves_the_pauses_out_and_is_none_when_nothing_is_spoken():
    from production.narration import Passage
    from production.outputs.video import words_per_minute

    passages = [Passage("S", "a", "one two three four five", Path("a.wav"), 2.0, False),
                Passage("S", "b", "six seven 64.8", Path("b.wav"), 1.0, True)]
    assert words_per_minute(passages) == 160.0  # 8 words in 3 s of speech
    assert words_per_minute([]) is None
