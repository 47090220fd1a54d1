"""One scene drawn by Manim: the qualities, the encoder's settings, and the run itself."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from production import beat_cache, files, qualities, text_store

#: What Manim cannot take in its media folder's name: braces (its folders are str.format
#: templates, "{media_dir}/videos/..."), and an apostrophe or a line break (its ffmpeg
#: concat listing writes each segment as one ``file '...'`` line, unescaped).
NOT_FOR_MANIM = frozenset("{}'\n\r")

#: the frames a scene is drawn in: the wide (16:9) chapter, a tall (9:16) short, a square
#: (1:1) post. Each scene says how it lays itself out in each (its frame_units).
FRAMES = ("wide", "tall", "square")


def frame_size(quality: str, layout: str = "wide") -> tuple[int, int, int]:
    """(width px, height px, frames per second) of ``quality`` in ``layout``: a tall
    (9:16) frame is the wide one turned upright (preview 480x854, publish 1080x1920), a
    square one is as wide as the wide one is tall (preview 480x480, publish 1080x1080)."""
    width, height, fps = qualities.size(quality)
    if layout not in FRAMES:
        raise ValueError(f"frame {layout!r}: must be one of {', '.join(FRAMES)}")
    sizes = {"wide": (width, height), "tall": (height, width), "square": (height, height)}
    return (*sizes[layout], fps)


#: x264 on one thread. Left to choose, it takes as many as the machine has cores (so
#: another machine gets other bytes) and splits each picture into slices whose lookahead
#: runs on two threads: the same frames then came out as other bytes now and then on a
#: busy machine (1 segment in 40 to 80; the decoded pictures equal, the bitstream not).
#: A render already encodes several segments at once, each on its own thread.
ENCODER_THREADS = "1"


def encoder_options(quality: str) -> dict[str, str]:
    """H.264 High, closed GOP of half the frame rate, 2 B-frames, BT.709 tags, on
    :data:`ENCODER_THREADS` threads."""
    chosen = qualities.get(quality)
    fps = chosen.fps
    return {
        "preset": chosen.preset, "crf": "20", "profile": "high", "threads": ENCODER_THREADS,
        "g": str(fps // 2), "keyint_min": str(fps // 2), "sc_threshold": "0",
        "bf": "2", "flags": "+cgop",
        "color_primaries": "bt709", "color_trc": "bt709", "colorspace": "bt709",
    }


def construct_scene(chapter: Any, scene_class: Any, quality: str,
                    settings: dict[str, Any] | None,
                    media_dir: Path, *, video: bool, keyframes: Path | None = None,
                    transparent: bool = False,
                    durations: dict[str, float] | None = None,
                    mark_times: dict[str, dict[str, float]] | None = None,
                    layout: str = "wide", credits: dict[str, str] | None = None,
                    beats: frozenset[str] | None = None) -> Any:
    """Run one scene of ``chapter`` under Manim at ``quality``; returns the finished Scene.

    The scene is drawn as this render decides (``settings``, beat lengths
    ``durations``, ``mark_times``, ``keyframes`` folder), through a subclass made for
    it. Without ``mark_times``, marks fall where the passages' letters put them. With
    ``video`` False nothing is encoded: animations are skipped to their end states,
    which is enough to check layout, timing and key frames. With ``transparent`` the
    background is see-through and Manim writes lossless QuickTime Animation with
    alpha (the source of the slides' alpha clips). ``layout`` "tall" or "square" draws
    the scene's arrangement for that frame (8 scene units wide). ``credits`` is what an
    end card credits (production.voices.credits for the voice the render speaks with).
    With ``beats`` only those beats' plays are drawn, into the beat cache, and no video
    is joined (a render spread over workers by beats: production/beat_jobs.py).
    """
    from manim import tempconfig

    width, height, fps = frame_size(quality, layout)
    options: dict[str, Any] = {
        "pixel_width": width,
        "pixel_height": height,
        "frame_rate": fps,
        "disable_caching": True,
        "progress_bar": "none",
        "verbosity": "WARNING",
        "output_file": scene_class.__name__,
    }
    units = scene_class.frame_units(layout)
    if units is not None:
        options.update({"frame_width": units[0], "frame_height": units[1]})
    if video and transparent:
        options.update({"transparent": True, "format": "mov"})
    elif video:
        options["video_encoder_options"] = encoder_options(quality)
    else:
        options.update({"format": "png", "write_to_movie": False})
    from production.narration import passages, script

    if mark_times is None:
        mark_times = passages.mark_times(chapter, scene_class, settings, [],
                                         {**scene_class.beat_seconds, **(durations or {})})
    drawn = scene_class.made_for(numbers=script.numbers_of(chapter, scene_class, settings),
                                 durations=durations,
                                 keyframe_dir=keyframes, mark_times=mark_times, layout=layout,
                                 credits=credits)
    with manim_folder(media_dir) as seen, text_store.kept_in(text_store.texts_dir()):
        with tempconfig({**options, "media_dir": str(seen)}):
            scene = drawn(renderer=_renderer(quality, (width, height, fps), beats) if video
                          and not transparent else None if video else _unseen())
            scene.render()
        _written_in(scene, seen, media_dir.absolute())
    return scene


@contextmanager
def manim_folder(media_dir: Path) -> Iterator[Path]:
    """``media_dir`` under a name Manim can take: the folder itself (absolute, so that no
    tool reads ``a:b/`` as a protocol), or, when its name holds a character Manim cannot
    take (:data:`NOT_FOR_MANIM`), a link to it from a plain temporary folder."""
    media_dir.mkdir(parents=True, exist_ok=True)
    with files.named_without([media_dir], NOT_FOR_MANIM) as (seen,):
        yield seen


def _written_in(scene: Any, seen: Path, real: Path) -> None:
    """Point the scene's file writer (its movie, its images) at ``real``, the folder it
    wrote into under the name ``seen``."""
    if seen == real:
        return
    writer = scene.renderer.file_writer
    plan = writer.output_plan
    moved = {field.name: real / value.relative_to(seen)
             for field in dataclasses.fields(plan)
             if isinstance(value := getattr(plan, field.name), Path)
             and value.is_relative_to(seen)}
    writer.output_plan = dataclasses.replace(plan, **moved)


def _unseen() -> Any:
    """Manim's Cairo renderer for a scene nothing is encoded from (its animations skipped
    to their end states): it draws a whole frame when one is asked for (a key frame, the
    last frame), never the still background of each play nor each play's end, which no
    one would see. Building a scene to check it, or to draw a short's cover at publish
    size, draws one frame a beat instead of two a play."""
    from manim.renderer.cairo_renderer import CairoRenderer

    class Unseen(CairoRenderer):
        def update_frame(self, scene: Any, mobjects: Any = None, *args: Any,
                         **kwargs: Any) -> None:
            if self.skip_animations and mobjects is not None:
                return  # a play's still or moving part, drawn only to be encoded
            super().update_frame(scene, mobjects, *args, **kwargs)

        def save_static_frame_data(self, scene: Any, static_mobjects: Any) -> None:
            self.static_image = None
            if not self.skip_animations:
                super().save_static_frame_data(scene, static_mobjects)

    return Unseen()


def _renderer(quality: str, size: tuple[int, int, int],
              beats: frozenset[str] | None = None) -> Any:
    """Manim's Cairo renderer, writing segments with held frames encoded once per GOP
    (production/stills.py), each play's segment taken from the beat cache when kept
    there (production/beat_cache.py)."""
    return beat_cache.renderer(beat_cache.Store(beat_cache.segments_dir()),
                               encoder_options(quality), size, beats)
