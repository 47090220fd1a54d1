"""Held frames encoded once per GOP: the decoded video must be the frames a plain encoder
would give, at the same times, with closed GOPs of the same length."""

from __future__ import annotations

import subprocess
from fractions import Fraction

import av
import numpy as np
import pytest
from manim._config.video_encoder import VideoEncoderSpec

from production.drawing import encoder_options
from production.stills import StillSegmentEncoder, gop_length

WIDTH, HEIGHT, FPS = 320, 180, 30
GOP = FPS // 2


def spec(options: dict[str, str] | None = None) -> VideoEncoderSpec:
    opts = options if options is not None else dict(encoder_options("draft"))
    return VideoEncoderSpec("mp4", "libx264", "yuv420p", WIDTH, HEIGHT, Fraction(FPS),
                            tuple(opts.items()))


def picture(seed: int) -> np.ndarray:
    """An RGBA picture with shapes and a gradient, different for every seed."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH]
    rgba = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
    rgba[..., 0] = (x * 255 // WIDTH + 40 * seed) % 256
    rgba[..., 1] = (y * 255 // HEIGHT) % 256
    rgba[..., 2] = np.where((x - 60 - 20 * seed) ** 2 + (y - 90) ** 2 < 900, 250, 30)
    rgba[..., 3] = 255
    return rgba


def gray(rgba: np.ndarray) -> np.ndarray:
    """The luma plane of the picture under BT.709, as the encoder should see it."""
    frame = av.VideoFrame.from_ndarray(rgba, format="rgba")
    yuv = frame.reformat(format="yuv420p", dst_colorspace="ITU709")
    return yuv.to_ndarray()[:HEIGHT].astype(float)


def decoded(path) -> list[tuple[int, np.ndarray, str]]:
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return [(f.pts, f.to_ndarray()[:HEIGHT].astype(float), "I" if f.key_frame else "-")
                for f in container.decode(stream)]


def encode(tmp_path, writes: list[tuple[int, int]], name: str = "seg.mp4"):
    """writes: (picture seed, repeat) in order; returns the encoder and its decoded frames."""
    encoder = StillSegmentEncoder(target=tmp_path / name, spec=spec())
    for seed, repeat in writes:
        encoder.write_frame(picture(seed), repeat=repeat)
    encoder.finish()
    return encoder, decoded(tmp_path / name)


def assert_frames(frames, expected_seeds: list[int]) -> None:
    assert len(frames) == len(expected_seeds)
    pts = [p for p, _, _ in frames]
    steps = {b - a for a, b in zip(pts, pts[1:])}
    assert len(steps) == 1 and pts[0] == 0  # evenly spaced from zero: constant frame rate
    references = {s: gray(picture(s)) for s in set(expected_seeds)}
    for (_, image, _), seed in zip(frames, expected_seeds):
        assert np.abs(image - references[seed]).mean() < 2.0  # lossy, but this picture
        others = [s for s in references if s != seed]
        for other in others:
            assert np.abs(image - references[other]).mean() > 10.0


@pytest.mark.parametrize("repeat", [2 * GOP, 7 * GOP + 4, 10 * GOP - 1])
def test_a_long_hold_is_encoded_once_per_gop_and_decodes_to_every_frame(tmp_path, repeat):
    encoder, frames = encode(tmp_path, [(1, repeat)])
    assert encoder.frames_encoded == GOP + repeat % GOP
    assert_frames(frames, [1] * repeat)
    keyframes = [i for i, (_, _, kind) in enumerate(frames) if kind == "I"]
    assert keyframes == list(range(0, repeat, GOP))  # GOPs as long as the plain encoder's


def test_a_short_hold_and_moving_frames_go_through_the_encoder(tmp_path):
    encoder, frames = encode(tmp_path, [(1, GOP), (2, 1), (3, 1)])
    assert encoder.frames_encoded == GOP + 2
    assert_frames(frames, [1] * GOP + [2, 3])


def test_a_hold_followed_by_more_frames_is_written_in_full(tmp_path):
    encoder, frames = encode(tmp_path, [(1, 3 * GOP), (2, 1), (2, 4)])
    assert encoder.frames_encoded == 3 * GOP + 5
    assert_frames(frames, [1] * (3 * GOP) + [2] * 5)


def test_the_copied_gops_decode_like_every_frame_encoded(tmp_path):
    every = StillSegmentEncoder(target=tmp_path / "every.mp4", spec=spec())
    every.gop = None  # no copying: the encoder sees every frame
    every.write_frame(picture(4), repeat=5 * GOP + 3)
    every.finish()
    assert every.frames_encoded == 5 * GOP + 3
    _, ours = encode(tmp_path, [(4, 5 * GOP + 3)])
    theirs = decoded(tmp_path / "every.mp4")
    assert [p for p, _, _ in ours] == [p for p, _, _ in theirs]
    assert max(np.abs(a - b).mean() for (_, a, _), (_, b, _) in zip(ours, theirs)) < 1.0


def test_gop_copies_only_when_every_gop_is_closed_and_fixed():
    assert gop_length(dict(encoder_options("publish"))) == 30
    assert gop_length(dict(encoder_options("preview"))) == 7
    for key, value in [("flags", ""), ("sc_threshold", "40"), ("keyint_min", "3")]:
        loose = dict(encoder_options("publish"), **{key: value})
        assert gop_length(loose) is None


def test_without_fixed_gops_every_frame_is_encoded(tmp_path):
    loose = dict(encoder_options("draft"), sc_threshold="40")
    encoder = StillSegmentEncoder(target=tmp_path / "loose.mp4", spec=spec(loose))
    encoder.write_frame(picture(1), repeat=4 * GOP)
    encoder.finish()
    assert encoder.frames_encoded == 4 * GOP
    assert_frames(decoded(tmp_path / "loose.mp4"), [1] * (4 * GOP))


@pytest.mark.parametrize("colour", [(0x58, 0xC4, 0xDD), (0xE6, 0x5A, 0x3C), (0x2B, 0x2D, 0x42),
                                    (0xF2, 0xF2, 0xF2)])
def test_colours_decode_as_drawn_under_the_bt709_tag(tmp_path, colour):
    """The stream says BT.709; a player decoding with that matrix gets the drawn colour
    back (swscale's default BT.601 matrix would put some channels ten levels off)."""
    rgba = np.zeros((HEIGHT, WIDTH, 4), np.uint8)
    rgba[...] = (*colour, 255)
    encoder = StillSegmentEncoder(target=tmp_path / "colour.mp4", spec=spec())
    encoder.write_frame(rgba, repeat=3)
    encoder.finish()
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(tmp_path / "colour.mp4"),
                          "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                         capture_output=True, check=True).stdout
    seen = np.frombuffer(raw, np.uint8).reshape(HEIGHT, WIDTH, 3)[HEIGHT // 2, WIDTH // 2]
    assert np.abs(seen.astype(int) - np.array(colour)).max() <= 3, seen
