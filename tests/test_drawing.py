"""A scene built without encoding (checks, key frames, a short's cover): it draws only the
frames someone asked for, and those are the frames Manim's own renderer draws."""

from __future__ import annotations

import pytest
from manim.camera.camera import Camera
from manim.renderer.cairo_renderer import CairoRenderer

from production import drawing
from production.chapters import load


def key_frames(tmp_path, name, monkeypatch, *, manims_own: bool) -> tuple[dict, int]:
    """The key frames of the fixture chapter's scenes drawn at the test quality in
    ``name``'s folder (by Manim's own renderer, or by the one drawing uses), and how many
    times the camera drew mobjects."""
    if manims_own:
        monkeypatch.setattr(drawing, "_unseen", CairoRenderer)
    drawn = []
    capture = Camera.capture_mobjects
    monkeypatch.setattr(Camera, "capture_mobjects",
                        lambda self, *a, **k: drawn.append(1) or capture(self, *a, **k))
    book = load("tests.fixture.chapter")
    for layout in ("wide", "tall"):
        for scene in book.scenes:
            drawing.construct_scene(book, scene, "test", None, tmp_path / name / "media",
                                    video=False, keyframes=tmp_path / name / layout,
                                    layout=layout)
    monkeypatch.undo()
    frames = {p.relative_to(tmp_path / name).as_posix(): p.read_bytes()
              for layout in ("wide", "tall") for p in (tmp_path / name / layout).iterdir()}
    return frames, len(drawn)


def test_key_frames_are_manims_own_and_nothing_else_is_drawn(tmp_path, monkeypatch):
    ours, drew = key_frames(tmp_path, "ours", monkeypatch, manims_own=False)
    manims, manim_drew = key_frames(tmp_path, "manims", monkeypatch, manims_own=True)
    assert len(ours) == 2 * sum(len(s.beat_seconds) for s in load(
        "tests.fixture.chapter").scenes)
    assert ours == manims
    # one whole frame per key frame, and per build its opening and closing frames (which
    # the joins compare) and the last frame Manim saves: 2 frames x 2 scenes, 3 each
    assert drew == len(ours) + 3 * 4
    assert manim_drew > drew


@pytest.mark.parametrize("video", [True, False])
def test_a_render_that_encodes_uses_manims_renderer(video):
    renderer = drawing._renderer("preview", (854, 480, 15)) if video else drawing._unseen()
    assert isinstance(renderer, CairoRenderer)
    assert (type(renderer).update_frame is CairoRenderer.update_frame) == video
