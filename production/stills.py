"""Manim's H.264 segment writer, with a held frame encoded once per GOP instead of per frame.

A narrated chapter spends most of its time holding still: every beat waits for
its passage to end. Manim hands such a hold to its segment encoder as one frame
with a repeat count, and the stock encoder converts and encodes that frame once
for every repeat. Here the frame is converted to YUV once and, when the hold
opens a segment and lasts at least two GOPs, only one GOP of it (plus the
remainder) is encoded: our GOPs are closed and exactly ``g`` frames long, so a
GOP of a still picture is a self-contained run of packets that can be written
again and again with shifted timestamps. The decoded frames are the same
pictures at the same times; only the encoding work is saved.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import av
import numpy as np
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder


def gop_length(options: dict[str, str]) -> int | None:
    """Frames per GOP when the options fix it (closed GOPs of exactly ``g`` frames), else None.

    Copying a GOP is only sound when every GOP is closed (no B-frame looks into
    the next one) and starts exactly every ``g`` frames (no scene-cut keyframes).
    """
    fixed = (options.get("g") and options.get("keyint_min") == options.get("g")
             and options.get("sc_threshold") == "0" and "+cgop" in options.get("flags", ""))
    return int(options["g"]) if fixed else None


class StillSegmentEncoder(VideoSegmentEncoder):
    """Writes one Manim segment; a long hold at its start is encoded as copies of one GOP."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        options = dict(self.spec.options)
        self.gop = gop_length(options) if self.spec.codec == "libx264" else None
        self._held: tuple[av.VideoFrame, int] | None = None
        self._rgba: av.VideoFrame | None = None
        self.colorspace = "ITU709" if options.get("colorspace") == "bt709" else None
        self.frames_encoded = 0  # frames that went through the encoder (tests count them)

    def _yuv(self, pixels: Any) -> av.VideoFrame:
        """The RGBA pixels as a frame in the stream's pixel format and colour matrix.

        The pixels are copied into one reused RGBA frame (PyAV's from_ndarray costs
        about 6 ms a 1080p frame, a plain copy 0.5 ms) and converted by swscale with
        the BT.709 matrix that the stream is tagged with (swscale's default is
        BT.601, which players would decode a few levels off in every colour).
        """
        if self._rgba is None:
            self._rgba = av.VideoFrame(self.spec.width, self.spec.height, "rgba")
            plane = self._rgba.planes[0]
            rows = np.frombuffer(plane, np.uint8).reshape(self.spec.height, plane.line_size)
            self._rgba_pixels = rows[:, :self.spec.width * 4].reshape(
                self.spec.height, self.spec.width, 4)
        self._rgba_pixels[...] = pixels
        return self._rgba.reformat(format=self.spec.pixel_format,
                                   dst_colorspace=self.colorspace)

    def _encode(self, frame: av.VideoFrame, repeat: int) -> list[av.Packet]:
        """Send ``frame`` to the encoder ``repeat`` times; the packets it gave back."""
        time_base = Fraction(1) / self.spec.frame_rate
        packets: list[av.Packet] = []
        for _ in range(repeat):
            frame.pts, frame.time_base = self._next_pts, time_base
            self._next_pts += 1
            self.frames_encoded += 1
            packets.extend(self._stream.encode(frame))
        return packets

    def _write(self, frame: av.VideoFrame, repeat: int) -> None:
        for packet in self._encode(frame, repeat):
            self._container.mux(packet)

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        """Encode ``pixels`` ``repeat`` times; a long hold opening the segment waits for
        :meth:`finish` (or is written out in full if more frames follow it)."""
        self._validate_frame(pixels, repeat)
        try:
            if self._held is not None:
                self._write(*self._held)
                self._held = None
            frame = self._yuv(pixels)
            if self.gop and self._next_pts == 0 and repeat >= 2 * self.gop:
                self._held = (frame, repeat)
            else:
                self._write(frame, repeat)
        except BaseException as error:
            raise self._operation_error("encode", error) from error

    def finish(self) -> None:
        """Write a pending hold, flush and close (the stock finish, when nothing is held)."""
        if self._held is None or self._closed:
            super().finish()
            return
        frame, repeat = self._held
        self._held = None
        self._closed = True
        try:
            self._write_hold(frame, repeat)
        except BaseException as error:
            self._container.close()
            raise self._operation_error("finish", error) from error
        self._container.close()

    def _write_hold(self, frame: av.VideoFrame, repeat: int) -> None:
        """The segment is one picture held ``repeat`` frames: encode one GOP and the
        remainder, then write the first GOP's packets again for every further GOP."""
        gop = self.gop
        copies, rest = divmod(repeat, gop)
        packets = self._encode(frame, gop + rest)
        packets.extend(self._stream.encode())  # flush: the B-frames and the lookahead
        first = [p for p in packets if p.pts < gop]
        for copy in range(copies):
            self._mux_shifted(first, copy * gop)
        self._mux_shifted([p for p in packets if p.pts >= gop], (copies - 1) * gop)
        self._next_pts = repeat

    def _mux_shifted(self, packets: list[av.Packet], frames: int) -> None:
        """Mux new packets with the bytes of ``packets``, ``frames`` frames later."""
        for packet in packets:
            shift = int(frames / self.spec.frame_rate / packet.time_base)
            moved = av.Packet(bytes(packet))
            moved.pts, moved.dts = packet.pts + shift, packet.dts + shift
            moved.duration, moved.time_base = packet.duration, packet.time_base
            moved.is_keyframe = packet.is_keyframe
            moved.stream = self._stream
            self._container.mux(moved)


class StillFrameWriter(SceneFileWriter):
    """Manim's scene file writer with :class:`StillSegmentEncoder` for every segment."""

    def _create_segment_encoder(self, target: Any) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return StillSegmentEncoder(target=target, spec=self.video_encoder)
