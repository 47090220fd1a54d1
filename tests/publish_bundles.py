"""Publish bundles for the publish tests. A real one: the fixture chapter's bundle, which
the session renders once at the test quality (tests/conftest.py's ``fixture_bundle``),
copied for a test (:func:`copy_fixture_bundle`). And ones the tests make for themselves in
seconds, in the formats the render writes (nothing rendered): a real MP4 (ffmpeg), a real
JPEG, captions, chapters.txt and manifest.json (a chapter bundle); clips and shorts.json
(shorts); chapters and course.json (a course)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from PIL import Image

from production import files
from production.outputs import bundle

SUMMARY = ("What a decoder reads at each step, and why it looks back at every word of the "
           "sentence it translates.")
TAGS = ("attention", "machine translation")
VOICE = {"engine": "piper", "model": "en_US-joe-medium.onnx",
         "licence": "voice data: CC0 (its MODEL_CARD); Piper runtime: GPL-3.0-or-later",
         "pace": 160}
CHAPTERS = "0:00 The question\n0:01 The answer\n"
SRT = "1\n00:00:00,000 --> 00:00:01,000\nAt every step,\n\n2\n00:00:01,000 --> " \
      "00:00:02,500\nwhere should the decoder look?\n"


@functools.cache
def clip(seconds: float, width: int, height: int) -> bytes:
    """An H.264 + AAC MP4 of a test picture and a tone; lossless, so that a few seconds
    come to several upload chunks of 256 KiB."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "clip.mp4"
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                        f"testsrc2=size={width}x{height}:rate=15", "-f", "lavfi", "-i",
                        "sine=frequency=440:sample_rate=48000", "-t", str(seconds),
                        "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0",
                        "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(path)],
                       check=True)
        return path.read_bytes()


def write_jpeg(path: Path, size: tuple[int, int], colour: str = "navy") -> Path:
    Image.new("RGB", size, colour).save(path, "JPEG", quality=90)
    return path


def write_bundle(folder: Path, title: str = "Inside the decoder", seconds: float = 3.0, *,
                 summary: str | None = SUMMARY, tags: tuple[str, ...] | None = TAGS) -> Path:
    """A chapter bundle in ``folder`` as `render.py render` writes one (``summary`` or
    ``tags`` None: a bundle from before they were recorded)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "chapter.mp4").write_bytes(clip(seconds, 640, 360))
    (folder / "chapter.srt").write_text(SRT, encoding="utf-8")
    (folder / "chapters.txt").write_text(CHAPTERS, encoding="utf-8")
    write_jpeg(folder / "thumbnail.jpg", (1280, 720))
    written = ("chapter.mp4", "chapter.srt", "chapters.txt", "thumbnail.jpg")
    manifest = {
        "title": title, "chapter": "decoder",
        "quality": {"name": "preview", "width": 640, "height": 360, "frame_rate": 15},
        "duration": seconds, "voice": VOICE,
        "loudness": {"integrated_lufs": -14.0, "true_peak_dbtp": -1.9},
        "files": {name: {"sha256": files.sha256(folder / name),
                         "bytes": (folder / name).stat().st_size} for name in written},
        "scenes": [{"name": "DecoderQuestion", "title": "The question", "start": 0.0,
                    "duration": seconds, "content_key": "0" * 24, "words_per_minute": 160.0,
                    "words": [], "files": {}}],
        "versions": bundle.versions(), "ledger": {},
    }
    if summary is not None:
        manifest["summary"] = summary
    if tags is not None:
        manifest["tags"] = list(tags)
    bundle.manifest(manifest, folder / "manifest.json")
    return folder


def copy_fixture_bundle(fixture_bundle: Path, folder: Path) -> Path:
    """The fixture chapter's bundle (read-only, shared by the run) copied to ``folder``,
    which must not exist: a publish writes publish.json (and may be given publish.toml)
    beside the bundle's files."""
    shutil.copytree(fixture_bundle, folder)
    return folder


def write_shorts(folder: Path, chapter: str = "Inside the decoder",
                 scenes: tuple[str, ...] = ("DecoderQuestion", "TheEncoderReads")) -> Path:
    """A shorts folder as `render.py shorts` writes one: a vertical clip, its captions and
    cover per scene, and shorts.json."""
    folder.mkdir(parents=True, exist_ok=True)
    clips = []
    for number, scene in enumerate(scenes, 1):
        (folder / f"{scene}.mp4").write_bytes(clip(1.0 + number, 180, 320))
        (folder / f"{scene}.srt").write_text(SRT, encoding="utf-8")
        (folder / f"{scene}.vtt").write_text("WEBVTT\n", encoding="utf-8")
        write_jpeg(folder / f"{scene}.jpg", (1080, 1920))
        clips.append({"scene": scene, "title": f"Short number {number}",
                      "description": f"The first sentence of short {number}.",
                      "file": f"{scene}.mp4", "cover": f"{scene}.jpg", "frame": "tall",
                      "part": 1, "parts": 1, "seconds": 1.0 + number, "beats": ["question"],
                      "words": [], "captions_burned": True, "captions": True,
                      "loudness": {"integrated": -14.0, "true_peak": -1.9},
                      "srt": f"{scene}.srt", "vtt": f"{scene}.vtt", "quality": "preview",
                      "width": 180, "height": 320, "fps": 15})
    (folder / "shorts.json").write_text(json.dumps({"chapter": chapter, "clips": clips},
                                                   indent=1), encoding="utf-8")
    return folder


def write_course(folder: Path, titles: dict[str, str], title: str | None = None) -> Path:
    """A course folder as `render.py course` writes one: a bundle per chapter (name ->
    title, in course order) and course.json, with the course's ``title`` (None: one from
    before courses had titles)."""
    entries = []
    for number, (name, chapter) in enumerate(titles.items(), 1):
        write_bundle(folder / name, chapter, seconds=1.0 + number)
        entries.append({"name": name, "title": chapter, "duration": 1.0 + number,
                        "video": f"{name}/chapter.mp4", "captions": f"{name}/chapter.vtt",
                        "thumbnail": f"{name}/thumbnail.jpg"})
    listing = {"chapters": entries} if title is None else {"title": title, "chapters": entries}
    (folder / "course.json").write_text(json.dumps(listing, indent=1), encoding="utf-8")
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` with its SHA-256: what a run must leave as it was."""
    return {str(p.relative_to(folder)): files.sha256(p)
            for p in sorted(folder.rglob("*")) if p.is_file()}
