"""One scene from source to finished files: narration timing, video, sound, captions.

The video is rendered silent by Manim; the sound is mixed by the project and
muxed afterwards, so a scene's sound never depends on Manim's cache. Every file
is written under a temporary name in the output folder and renamed when done.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import av

from core import ledger
from production import captions, narration, soundtrack


@dataclass
class SceneOutput:
    """What one scene produced. Times in seconds."""

    name: str
    video: Path
    seconds: float  # the video's duration
    beat_starts: dict[str, float]
    passages: list[narration.Passage] = field(default_factory=list)
    loudness: soundtrack.Loudness | None = None
    cues: list[captions.Cue] = field(default_factory=list)
    srt: Path | None = None
    vtt: Path | None = None
    sound: Path | None = None  # the finished mix as WAV, exactly as long as the video
    layout_problems: list[str] = field(default_factory=list)
    timing_problems: list[str] = field(default_factory=list)


def video_seconds(path: Path) -> float:
    """Duration of the first video stream: frames / frame rate."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = stream.frames or sum(1 for _ in container.demux(stream) if _.size)
        return frames / float(stream.average_rate)


def mux(video: Path, sound: Path, target: Path) -> None:
    """Video stream copied as is, sound encoded as AAC-LC 48 kHz stereo, moov first."""
    subprocess.run(
        ["ffmpeg", "-hide_banner", "-nostats", "-y", "-i", str(video), "-i", str(sound),
         "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy", "-c:a", "aac", "-profile:a",
         "aac_low", "-b:a", "192k", "-ar", str(soundtrack.SAMPLE_RATE), "-ac",
         str(soundtrack.CHANNELS), "-movflags", "+faststart", str(target)],
        capture_output=True, check=True,
    )


def timed_passages(passages: list[narration.Passage],
                   beat_starts: dict[str, float]) -> list[tuple[str, float, float]]:
    """(text, start, end) of each passage as heard in the scene."""
    return [
        (p.text, beat_starts[p.beat] + narration.LEAD_IN,
         beat_starts[p.beat] + narration.LEAD_IN + p.seconds)
        for p in passages
    ]


def produce_scene(scene_class: Any, out: Path,
                  render: Callable[[Any, Path], Any], *, narrate: bool,
                  settings: dict[str, Any] | None = None,
                  voice: narration.Voice = narration.DEFAULT_VOICE) -> SceneOutput:
    """Narration -> beat lengths -> silent video -> mix -> mux -> captions, all atomic.

    ``render(scene_class, media_dir)`` runs Manim and returns the finished Scene.
    """
    name = scene_class.__name__
    beats = list(scene_class.beat_seconds)
    numbers = ledger.section(scene_class.section, settings) if scene_class.section else {}
    passages = (narration.prepare(name, beats, voice, values=scene_class.spoken(numbers))
                if narrate else [])
    scene_class.durations = narration.beat_lengths(scene_class.beat_seconds, passages)
    out.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory(dir=out, prefix=".rendering-") as tmp:
            work = Path(tmp)
            scene = render(scene_class, work)
            silent = Path(scene.renderer.file_writer.movie_file_path)
            seconds = video_seconds(silent)
            starts = {b.name: b.start for b in scene.beat_log}
            mix = soundtrack.mix_scene(passages, starts, seconds, scene.cues)
            raw = work / "mix.wav"
            mix.export(raw, format="wav")
            sound = work / "sound.wav"
            loudness = soundtrack.normalize(raw, sound) if passages else None
            finished = work / f"{name}.mp4"
            if not passages:
                sound = raw
            mux(silent, sound, finished)
            cues = captions.build(timed_passages(passages, starts), seconds)
            result = SceneOutput(name, out / f"{name}.mp4", seconds, starts, passages,
                                 loudness, cues, layout_problems=scene.layout_problems,
                                 timing_problems=scene.timing_problems,
                                 sound=out / f"{name}.wav")
            os.replace(sound, result.sound)
            if passages:
                (work / f"{name}.srt").write_text(captions.to_srt(cues), encoding="utf-8")
                (work / f"{name}.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
                result.srt, result.vtt = out / f"{name}.srt", out / f"{name}.vtt"
                os.replace(work / f"{name}.srt", result.srt)
                os.replace(work / f"{name}.vtt", result.vtt)
            os.replace(finished, result.video)
            return result
    finally:
        scene_class.durations = None
