"""The whole chapter from its finished scenes: one MP4, one soundtrack, one set of captions.

Video streams are joined without re-encoding (every scene comes from the same
encoder with the same settings); the scenes' sound files, each exactly as long
as its video, are joined sample for sample and encoded once, so sound and
picture cannot drift apart at the seams.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from production import captions, soundtrack
from production.scene_output import SceneOutput, mux, timed_passages

CHAPTER_NAME = "chapter"


@dataclass(frozen=True)
class ChapterOutput:
    folder: Path
    seconds: float
    starts: tuple[float, ...]  # each scene's start in the chapter, seconds
    loudness: soundtrack.Loudness | None  # None for a silent chapter

    @property
    def video(self) -> Path:
        return self.folder / f"{CHAPTER_NAME}.mp4"

    @property
    def captions(self) -> list[Path]:
        return [self.folder / f"{CHAPTER_NAME}.{ext}" for ext in ("srt", "vtt")]

    def files(self) -> list[Path]:
        return [self.video, *self.captions]


META = "chapter.json"


def load(folder: Path) -> ChapterOutput | None:
    try:
        data = json.loads((folder / META).read_text(encoding="utf-8"))
        loud = data["loudness"]
        result = ChapterOutput(folder, data["seconds"], tuple(data["starts"]),
                               None if loud is None else soundtrack.Loudness(**loud))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return result if all(f.exists() for f in result.files()) else None


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


def assemble(scenes: list[SceneOutput], entry: Path) -> ChapterOutput:
    """Build chapter.mp4, chapter.srt and chapter.vtt into the folder ``entry``.

    Built in a temporary folder beside it and renamed when complete.
    """
    starts, t = [], 0.0
    for s in scenes:
        starts.append(t)
        t += s.seconds
    timed = [(text, a + start, b + start)
             for s, start in zip(scenes, starts)
             for text, a, b in timed_passages(s.passages, s.beat_starts)]
    cues = captions.build(timed, t)
    entry.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{entry.name}-"))
    try:
        join_video([s.video for s in scenes], work / "picture.mp4")
        join_sound([s.sound for s in scenes], work / "sound.wav")
        narrated = any(s.passages for s in scenes)
        loudness = soundtrack.measure(work / "sound.wav") if narrated else None
        sound = work / "sound.wav"
        if loudness is not None and (abs(loudness.integrated - soundtrack.TARGET_LUFS) > 0.5
                                     or loudness.true_peak > soundtrack.MAX_TRUE_PEAK):
            # Each scene is at the target; the joined whole is normalised once more only
            # when the silences between passages moved its integrated loudness.
            sound = work / "levelled.wav"
            loudness = soundtrack.normalize(work / "sound.wav", sound)
        mux(work / "picture.mp4", sound, work / f"{CHAPTER_NAME}.mp4")
        for leftover in work.glob("*.wav"):
            leftover.unlink()
        (work / "picture.mp4").unlink()
        (work / f"{CHAPTER_NAME}.srt").write_text(captions.to_srt(cues), encoding="utf-8")
        (work / f"{CHAPTER_NAME}.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
        meta = {"seconds": t, "starts": starts,
                "loudness": None if loudness is None else
                {"integrated": loudness.integrated, "true_peak": loudness.true_peak}}
        (work / META).write_text(json.dumps(meta), encoding="utf-8")
        if entry.exists():
            shutil.rmtree(entry)
        os.replace(work, entry)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ChapterOutput(entry, t, tuple(starts), loudness)
