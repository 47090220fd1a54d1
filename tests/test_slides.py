"""`render.py slides`: every file a presentation tool takes, checked with PyAV and python-pptx,
of the fixture chapter's two scenes at the test quality."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import av
import pytest

from production.qualities import QUALITIES
from production.written import RECORD
from tests.conftest import TEST_QUALITY, render_in

SCENES = ("Scores", "Weights")  # the fixture chapter's
WIDTH, HEIGHT, FPS = QUALITIES[TEST_QUALITY].size


@pytest.fixture(scope="module")
def slides(tmp_path_factory, fixture_project) -> Path:
    out = tmp_path_factory.mktemp("slides")
    run = render_in(fixture_project, "slides", *SCENES, "--chapter", "fixture", "--quality",
                    TEST_QUALITY, "--out", str(out))
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def frame_alpha(path: Path, decoder: str | None, frame: int, tmp: Path):
    """The alpha plane of frame number ``frame``, decoded by ffmpeg (``decoder``: the
    video decoder to use; VP9's alpha needs libvpx) into an RGBA PNG."""
    import numpy as np
    from PIL import Image

    target = tmp / f"{path.stem}-{frame}.png"
    subprocess.run(["ffmpeg", "-hide_banner", "-nostats", "-y",
                    *(["-c:v", decoder] if decoder else []), "-i", str(path),
                    "-vf", f"select=eq(n\\,{frame})", "-frames:v", "1", "-pix_fmt", "rgba",
                    str(target)], capture_output=True, check=True)
    with Image.open(target) as image:
        assert image.mode == "RGBA"
        return np.asarray(image)[:, :, 3]


def test_mp4_with_and_without_narration(slides):
    for name in SCENES:
        with av.open(str(slides / f"{name}.mp4")) as c:
            assert c.streams.video[0].codec_context.name == "h264"
            assert c.streams.audio[0].codec_context.name == "aac"
        data = (slides / f"{name}.mp4").read_bytes()
        assert data.find(b"moov") < data.find(b"mdat")
        with av.open(str(slides / f"{name}-silent.mp4")) as c:
            assert c.streams.video[0].codec_context.name == "h264"
            assert len(c.streams.audio) == 0


def test_transparent_clips_really_have_alpha(slides, tmp_path):
    for name in SCENES:
        webm, mov = slides / f"{name}-alpha.webm", slides / f"{name}-alpha.mov"
        with av.open(str(webm)) as c:
            stream = c.streams.video[0]
            assert stream.codec_context.name == "vp9"
            assert stream.metadata.get("alpha_mode") == "1" or \
                stream.metadata.get("ALPHA_MODE") == "1"
        with av.open(str(mov)) as c:
            assert c.streams.video[0].codec_context.name == "prores"
            assert c.streams.video[0].codec_context.pix_fmt.startswith("yuva444")
        # a frame two seconds in: the drawing is opaque, the corner is see-through
        for alpha in (frame_alpha(webm, "libvpx-vp9", 2 * FPS, tmp_path),
                      frame_alpha(mov, None, 2 * FPS, tmp_path)):
            assert alpha[2, 2] <= 8
            assert alpha.max() >= 250


def test_gif_loops_and_is_small(slides):
    for name in SCENES:
        gif = slides / f"{name}.gif"
        data = gif.read_bytes()
        assert data[:6] in (b"GIF89a", b"GIF87a")
        assert len(data) < 8 * 1024 * 1024
        assert b"NETSCAPE2.0\x03\x01\x00\x00" in data  # loop forever


def test_poster_captions_and_index(slides):
    from PIL import Image

    index = json.loads((slides / "index.json").read_text())
    listed = {f["name"]: f for f in index["files"]}
    for name in SCENES:
        with Image.open(slides / f"{name}.png") as im:
            assert im.size == (WIDTH, HEIGHT)
        assert (slides / f"{name}.vtt").read_text().startswith("WEBVTT")
        assert (slides / f"{name}.srt").read_text().startswith("1\n")
        for suffix in (".mp4", "-silent.mp4", "-alpha.webm", "-alpha.mov", ".gif"):
            entry = listed[f"{name}{suffix}"]
            assert entry["bytes"] == (slides / f"{name}{suffix}").stat().st_size
            assert entry["seconds"] and entry["seconds"] > 1
    on_disk = {p.name for p in slides.iterdir() if p.name not in ("index.json", RECORD)}
    assert on_disk == set(listed)
    assert [s["name"] for s in index["scenes"]] == list(SCENES)


def test_pptx_has_a_clip_and_notes_per_scene(slides):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    deck = Presentation(str(slides / "deck.pptx"))
    assert len(deck.slides) == len(SCENES)
    for slide in deck.slides:
        movies = [s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.MEDIA]
        assert len(movies) == 1
        parts = [rel.target_part.content_type for rel in slide.part.rels.values()
                 if not rel.is_external]
        assert "video/mp4" in parts
        assert any(t.startswith("image/") for t in parts)  # the poster frame
        assert len(slide.notes_slide.notes_text_frame.text) > 20
