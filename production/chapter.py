"""The whole chapter from its finished scenes: one MP4, one soundtrack, one set of captions.

Video streams are joined without re-encoding (every scene comes from the same
encoder with the same settings); the scenes' sound files, each exactly as long
as its video, are joined sample for sample and encoded once, so sound and
picture cannot drift apart at the seams.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from production import captions, soundtrack
from production.scene_output import SceneOutput, mux, timed_passages

CHAPTER_NAME = "chapter"


@dataclass(frozen=True)
class ChapterOutput:
    video: Path
    srt: Path
    vtt: Path
    seconds: float
    starts: tuple[float, ...]  # each scene's start in the chapter, seconds
    loudness: soundtrack.Loudness


def join_video(videos: list[Path], target: Path) -> None:
    """Concatenate the scenes' video streams without re-encoding (no sound)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        for v in videos:
            listing.write(f"file '{v.resolve()}'\n")
    try:
        subprocess.run(
            ["ffmpeg", "-hide_banner", "-nostats", "-y", "-f", "concat", "-safe", "0", "-i",
             listing.name, "-map", "0:v:0", "-c", "copy", str(target)],
            capture_output=True, check=True,
        )
    finally:
        os.unlink(listing.name)


def join_sound(sounds: list[Path], target: Path) -> None:
    """Concatenate WAV files sample for sample."""
    from pydub import AudioSegment

    total = AudioSegment.empty()
    for s in sounds:
        total += AudioSegment.from_file(s)
    total.export(target, format="wav")


def assemble(scenes: list[SceneOutput], out: Path) -> ChapterOutput:
    """Write chapter.mp4, chapter.srt and chapter.vtt into ``out`` (atomically)."""
    out.mkdir(parents=True, exist_ok=True)
    starts, t = [], 0.0
    for s in scenes:
        starts.append(t)
        t += s.seconds
    timed = [(text, a + start, b + start)
             for s, start in zip(scenes, starts)
             for text, a, b in timed_passages(s.passages, s.beat_starts)]
    cues = captions.build(timed, t)
    with tempfile.TemporaryDirectory(dir=out, prefix=".chapter-") as tmp:
        work = Path(tmp)
        join_video([s.video for s in scenes], work / "picture.mp4")
        join_sound([s.sound for s in scenes], work / "sound.wav")
        loudness = soundtrack.measure(work / "sound.wav")
        final = work / f"{CHAPTER_NAME}.mp4"
        mux(work / "picture.mp4", work / "sound.wav", final)
        (work / "c.srt").write_text(captions.to_srt(cues), encoding="utf-8")
        (work / "c.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
        result = ChapterOutput(out / f"{CHAPTER_NAME}.mp4", out / f"{CHAPTER_NAME}.srt",
                               out / f"{CHAPTER_NAME}.vtt", t, tuple(starts), loudness)
        os.replace(work / "c.srt", result.srt)
        os.replace(work / "c.vtt", result.vtt)
        os.replace(final, result.video)
    return result
