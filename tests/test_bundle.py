"""The publish bundle of a real render, checked with PyAV; the chapter list rules.

The default tier checks the bundle of the fixture chapter at the test quality (made once a
run: ``fixture_bundle``); the system tier checks the same of both real chapters rendered
whole at preview quality, and what is each one's own (its scenes, its ledger, the pace of
its speech)."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
import pytest

from production import files
from production.chapters import Chapter
from production.outputs import bundle
from production.paths import ROOT
from production.qualities import QUALITIES, Quality
from production.written import RECORD
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER
from scenes.decoder.chapter import CHAPTER as DECODER
from tests.conftest import TEST_QUALITY, made_once, render_in
from tests.fixture.chapter import CHAPTER as FIXTURE_CHAPTER

#: the name under which the attention chapter rendered whole at preview is made once a run
ATTENTION_PREVIEW = "attention-preview"


@dataclass(frozen=True)
class Rendered:
    """A publish bundle: its folder, the chapter rendered into it and at what quality."""

    path: Path
    chapter: Chapter
    quality: Quality

    def __truediv__(self, name: str) -> Path:
        return self.path / name

    @property
    def fps(self) -> int:
        return self.quality.fps


def whole_at_preview(tmp_path_factory, chapter: str, name: str) -> Path:
    """``chapter`` rendered whole at preview quality into a bundle, once a run (system tier:
    the render alone takes minutes)."""
    def make(target: Path) -> None:
        done = render_in(ROOT, "render", "--chapter", chapter, "--quality", "preview",
                         "--out", str(target), timeout=3000)
        assert done.returncode == 0, done.stderr[-3000:]

    return made_once(tmp_path_factory, name, make)


@pytest.fixture(scope="module")
def attention_preview(tmp_path_factory) -> Path:
    """The attention chapter rendered whole at preview quality, once a run."""
    return whole_at_preview(tmp_path_factory, "attention", ATTENTION_PREVIEW)


@pytest.fixture(scope="module")
def decoder_preview(tmp_path_factory) -> Path:
    """The decoder chapter rendered whole at preview quality, once a run."""
    return whole_at_preview(tmp_path_factory, "decoder", "decoder-preview")


@pytest.fixture(scope="module", params=[
    "fixture", pytest.param("attention", marks=pytest.mark.system),
    pytest.param("decoder", marks=pytest.mark.system)])
def rendered(request) -> Rendered:
    """Each bundle the bundle's checks run on: the fixture chapter at the test quality
    (default tier), the two real chapters at preview (system tier)."""
    if request.param == "fixture":
        return Rendered(request.getfixturevalue("fixture_bundle"), FIXTURE_CHAPTER,
                        QUALITIES[TEST_QUALITY])
    chapter = {"attention": CHAPTER, "decoder": DECODER}[request.param]
    return Rendered(request.getfixturevalue(f"{request.param}_preview"), chapter,
                    QUALITIES["preview"])


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


def test_every_scene_has_video_sound_and_captions(rendered):
    width, height, fps = rendered.quality.size
    for scene in rendered.chapter.scenes:
        path = rendered / "scenes" / f"{scene.__name__}.mp4"
        video_s, audio_s, video, audio = streams(path)
        assert (video.name, video.width, video.height) == ("h264", width, height)
        assert (audio.name, audio.sample_rate, audio.channels) == ("aac", 48000, 2)
        assert abs(video_s - audio_s) <= 1 / fps
        assert video_s >= sum(scene.beat_seconds.values()) - 1 / fps
        for ext in ("srt", "vtt"):
            assert (rendered / "scenes" / f"{scene.__name__}.{ext}").stat().st_size > 0


def test_chapter_mp4_is_what_a_video_site_wants(rendered):
    width, height, fps = rendered.quality.size
    path = rendered / "chapter.mp4"
    video_s, audio_s, video, audio = streams(path)
    assert video.name == "h264" and video.profile == "High"
    assert video.pix_fmt == "yuv420p"
    assert (video.width, video.height) == (width, height)
    assert audio.name == "aac" and audio.profile == "LC"
    assert (audio.sample_rate, audio.channels) == (48000, 2)
    assert abs(video_s - audio_s) <= 1 / fps
    with av.open(str(path)) as container:
        assert round(float(container.streams.video[0].average_rate)) == fps
    data = path.read_bytes()
    assert 0 < data.find(b"moov") < data.find(b"mdat")  # faststart
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
         "stream=color_primaries,color_transfer,color_space,has_b_frames", "-of", "json",
         str(path)], capture_output=True, text=True, check=True).stdout)["streams"][0]
    assert probe["color_primaries"] == probe["color_transfer"] == probe["color_space"] == "bt709"
    assert probe["has_b_frames"] == 2
    # GOPs of half the frame rate (a scene's last GOP may be shorter): 3 frames at the
    # test quality's 6 fps, 7 at preview's 15
    assert max(keyframe_gaps(path)) == fps // 2


def test_chapter_is_the_scenes_end_to_end(rendered):
    width, height, fps = rendered.quality.size
    scenes = rendered.chapter.scenes
    total = sum(streams(rendered / "scenes" / f"{s.__name__}.mp4")[0] for s in scenes)
    assert streams(rendered / "chapter.mp4")[0] == pytest.approx(total, abs=1 / fps)
    manifest = json.loads((rendered / "manifest.json").read_text())
    assert manifest["chapter"] == rendered.chapter.name
    assert [s["name"] for s in manifest["scenes"]] == [s.__name__ for s in scenes]
    assert manifest["quality"] == {"name": rendered.quality.name, "width": width,
                                   "height": height, "frame_rate": fps}
    assert set(manifest["versions"]) == {"manim", "numpy", "pydub"}
    # what a video site's description and tags are made of (render.py publish)
    assert manifest["summary"] == rendered.chapter.summary and len(manifest["summary"]) > 100
    assert manifest["tags"] == list(rendered.chapter.tags) and "attention" in manifest["tags"]
    starts = [s["start"] for s in manifest["scenes"]]
    durations = [s["duration"] for s in manifest["scenes"]]
    assert starts[0] == 0 and all(
        b == pytest.approx(a + d) for a, b, d in zip(starts, starts[1:], durations))
    chapter_hash = manifest["files"]["chapter.mp4"]["sha256"]
    assert chapter_hash == files.sha256(rendered / "chapter.mp4")
    loud = manifest["loudness"]
    assert abs(loud["integrated_lufs"] + 14) <= 1.0 and loud["true_peak_dbtp"] <= -1.0


def test_the_manifest_names_the_voice_and_each_scene_s_pace(rendered):
    """The default voice (Piper's joe), and a pace (words a minute) for every scene."""
    manifest = json.loads((rendered / "manifest.json").read_text())
    voice = manifest["voice"]
    assert voice["engine"] == "piper" and voice["model"] == "en_US-joe-medium.onnx"
    assert "CC0" in voice["licence"] and "piper-tts" in voice["licence"]
    paces = {s["name"]: s["words_per_minute"] for s in manifest["scenes"]}
    assert list(paces) == [sc.__name__ for sc in rendered.chapter.scenes]
    assert all(isinstance(pace, float) and pace > 0 for pace in paces.values()), paces


def _vtt_cues(text: str) -> list[tuple[float, str]]:
    """(start in seconds, text) of each cue of a WebVTT file."""
    cues = []
    for block in text.split("\n\n")[1:]:
        timing, *lines = block.strip().split("\n")
        h, m, rest = timing.split(" --> ")[0].split(":")
        cues.append((int(h) * 3600 + int(m) * 60 + float(rest), " ".join(lines)))
    return cues


def test_the_manifest_times_every_word_and_each_caption_starts_on_its_first_word(rendered):
    """Each scene's entry lists every written word of its narration with when it is said;
    marked words carry their mark; every cue of chapter.vtt starts within 0.1 s of the
    onset of its first word."""
    from production import narration

    book = rendered.chapter
    manifest = json.loads((rendered / "manifest.json").read_text())
    onsets = []
    for entry, scene in zip(manifest["scenes"], book.scenes, strict=True):
        heard = entry["words"]
        script = narration.marked_script(book, scene, book.ledger.resolve())
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
    assert len(cues) >= len(book.scenes)  # every scene is spoken


def decoded_sound(path: Path) -> np.ndarray:
    """The file's sound as the player hears it, mono, 48 kHz, as floats."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", "0:a:0", "-f",
                          "s16le", "-ac", "1", "-ar", "48000", "-"],
                         capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.int16).astype(float)


def test_chapter_sound_is_every_scene_sound_at_its_picture(rendered):
    """The chapter's sound is joined from the scenes' AAC frames; each scene's sound must
    start within half an AAC frame (512 samples, 10.7 ms) of its picture, unchanged."""
    chapter = decoded_sound(rendered / "chapter.mp4")
    with av.open(str(rendered / "chapter.mp4")) as container:
        assert [s.start_time for s in container.streams] == [0, 0]
    manifest = json.loads((rendered / "manifest.json").read_text())
    assert len(manifest["scenes"]) == len(rendered.chapter.scenes)
    for entry in manifest["scenes"]:
        scene = decoded_sound(rendered / "scenes" / f"{entry['name']}.mp4")
        start = round(entry["start"] * 48000)
        # the loudest two seconds of the scene: voice, not silence (the energy of each
        # tenth of a second: running sums, exact on whole-number samples)
        window = 2 * 48000
        running = np.concatenate([[0.0], np.cumsum(scene ** 2)])
        energy = (running[4800:] - running[:-4800])[::4800]
        at = min(int(np.argmax(energy)) * 4800, len(scene) - window)
        piece = scene[at:at + window]
        errors = {shift: np.mean((chapter[start + at + shift:start + at + shift + window]
                                  - piece) ** 2) for shift in range(-600, 601)
                  if start + at + shift >= 0}
        shift = min(errors, key=errors.get)
        assert abs(shift) <= 512, entry["name"]
        snr = 10 * np.log10(np.mean(piece ** 2) / max(errors[shift], 1e-9))
        assert snr > 40, (entry["name"], snr)


def chapter_times(path: Path) -> tuple[list[int], list[str]]:
    """The start (whole seconds) and title of each line of a chapters.txt."""
    times, titles = [], []
    for line in path.read_text().splitlines():
        stamp, title = line.split(" ", 1)
        m, s = stamp.split(":")
        times.append(int(m) * 60 + int(s))
        titles.append(title)
    return times, titles


def test_chapters_txt_thumbnail_and_captions(rendered):
    lines = (rendered / "chapters.txt").read_text().splitlines()
    assert lines and lines[0].startswith("0:00 ")
    times, titles = chapter_times(rendered / "chapters.txt")
    assert all(0 < len(title) <= 49 for title in titles)
    video_s = streams(rendered / "chapter.mp4")[0]
    assert all(b - a >= 10 for a, b in zip(times, times[1:] + [video_s]))
    # each line is a scene's title, scenes shorter than 10 s joined to the next
    manifest = json.loads((rendered / "manifest.json").read_text())
    assert (rendered / "chapters.txt").read_text() == bundle.chapters_text(bundle.chapters(
        [(s["title"], s["duration"]) for s in manifest["scenes"]]))
    from PIL import Image
    with Image.open(rendered / "thumbnail.jpg") as im:
        assert im.size == (1280, 720) and im.format == "JPEG"
    assert (rendered / "thumbnail.jpg").stat().st_size < 2 * 1024 * 1024
    vtt = (rendered / "chapter.vtt").read_text()
    first_word = manifest["scenes"][0]["words"][0]["word"]
    assert vtt.startswith("WEBVTT") and first_word in vtt
    # nothing half-written left behind: the one hidden file is the record of what it wrote
    assert [p.name for p in rendered.path.rglob("*") if p.name.startswith(".")] == [RECORD]


# ----------------------------------------------------------------- the attention chapter


@pytest.mark.system
def test_the_attention_chapter_whole_at_preview(attention_preview):
    """What is the attention chapter's own: its scenes in order, its grid's top word, at
    least three chapters in chapters.txt, captions that say "attention", more than 50
    cues, and the default voice speaking every scene at 140 to 175 words a minute,
    measured from its speech (the written words over the passages' seconds)."""
    manifest = json.loads((attention_preview / "manifest.json").read_text())
    assert [s["name"] for s in manifest["scenes"]] == [s.__name__ for s in SCENES_IN_ORDER]
    assert manifest["ledger"]["grid"]["top_word"] == "cat"
    assert manifest["summary"] == CHAPTER.summary and manifest["tags"] == list(CHAPTER.tags)
    assert manifest["voice"]["model"] == "en_US-joe-medium.onnx"
    paces = {s["name"]: s["words_per_minute"] for s in manifest["scenes"]}
    assert list(paces) == [sc.__name__ for sc in SCENES_IN_ORDER]
    assert all(140 <= pace <= 175 for pace in paces.values()), paces
    assert len((attention_preview / "chapters.txt").read_text().splitlines()) >= 3
    vtt = (attention_preview / "chapter.vtt").read_text(encoding="utf-8")
    assert "attention" in vtt.lower()
    assert len(_vtt_cues(vtt)) > 50


@pytest.mark.system
def test_the_decoder_chapter_whole_at_preview(decoder_preview):
    """What is the decoder chapter's own: its scenes in order, the translation its ledger
    writes, the 6:40 the README gives it (to the second), captions that name the decoder,
    and the default voice speaking every scene at 140 to 175 words a minute."""
    manifest = json.loads((decoder_preview / "manifest.json").read_text())
    assert [s["name"] for s in manifest["scenes"]] == [s.__name__ for s in DECODER.scenes]
    assert manifest["ledger"]["steps"]["written"] == ["le", "chat", "noir", "dort"]
    assert manifest["summary"] == DECODER.summary and manifest["tags"] == list(DECODER.tags)
    assert round(manifest["duration"]) // 60 == 6 and 39 <= round(manifest["duration"]) % 60 <= 41
    paces = {s["name"]: s["words_per_minute"] for s in manifest["scenes"]}
    assert all(140 <= pace <= 175 for pace in paces.values()), paces
    assert len((decoder_preview / "chapters.txt").read_text().splitlines()) >= 3
    assert "decoder" in (decoder_preview / "chapter.vtt").read_text(encoding="utf-8").lower()


# ----------------------------------------------------------------- the rules, no render


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
    gone = _a_finished_pid()
    stale = tmp_path / "out" / f".b.mp4.{gone}-abcd_123.part"
    stale.write_bytes(b"half")
    kept = [tmp_path / "out" / ".notes.part",  # a user's own file, however named
            tmp_path / "out" / f".c.mp4.{os.getpid()}-abcd_123.part",  # a writer running
            tmp_path / "out" / "deeper" / f".d.mp4.{gone}-abcd_123.part"]  # not its folder
    for path in kept:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b"mine")
    left = tmp_path / "out" / f".staged.{gone}-abcd_123"  # a killed render's bundle
    (left / "scenes").mkdir(parents=True)
    (left / "scenes" / "A.mp4").write_bytes(b"half")
    running = tmp_path / "out" / f".staged.{os.getpid()}-abcd_123"
    running.mkdir()
    files.clear_partials(tmp_path / "out")
    assert not stale.exists() and target.exists() and not left.exists() and running.is_dir()
    assert all(path.read_bytes() == b"mine" for path in kept)


def _a_finished_pid() -> int:
    """The id of a process that has ended (no process has it now)."""
    done = subprocess.Popen(["true"])
    done.wait()
    return done.pid


def test_words_per_minute_leaves_the_pauses_out_and_is_none_when_nothing_is_spoken():
    from production.narration import Passage
    from production.outputs.video import words_per_minute

    passages = [Passage("S", "a", "one two three four five", Path("a.wav"), 2.0, False),
                Passage("S", "b", "six seven 64.8", Path("b.wav"), 1.0, True)]
    assert words_per_minute(passages) == 160.0  # 8 words in 3 s of speech
    assert words_per_minute([]) is None


def test_a_render_that_fails_after_drawing_leaves_the_bundle_that_was_there_whole(
        tmp_path, monkeypatch, speech_cache):
    """A failure after the scenes are drawn (here the thumbnail) once left new scene files
    beside the old manifest and thumbnail, which publish then sent as one bundle."""
    from production import chapters, pipeline
    from production.outputs import video
    from tests.conftest import FIXTURE_MODULE

    monkeypatch.setenv("EXPLAINER_CACHE", str(speech_cache))
    chapter = chapters.load(FIXTURE_MODULE)
    out = tmp_path / "out"

    def make(settings: list[str]) -> None:
        plan = pipeline.plan(chapter, scenes=[], quality=TEST_QUALITY, settings=settings,
                             out=str(out), default_out=out, jobs=1)
        try:
            video.BundleOutput(whole=True).make(plan)
        finally:
            plan.close()

    make([])
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert {Path("manifest.json"), Path("chapter.mp4"), Path("scenes/Weights.mp4")} <= set(before)

    def broken(*args, **kwargs):
        raise RuntimeError("the thumbnail could not be drawn")

    monkeypatch.setattr(video.bundle, "thumbnail", broken)
    with pytest.raises(RuntimeError, match="thumbnail"):
        make(["shares.sharpness=3"])  # other numbers: other scenes, drawn, then it fails
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == [RECORD]
