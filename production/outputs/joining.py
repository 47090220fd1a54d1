"""The whole chapter from its finished scenes: one MP4, one soundtrack, one set of captions.

Video streams are joined without re-encoding (every scene comes from the same
encoder with the same settings). So is the sound, where it can be: every scene
opens and closes on silence, so the scenes' AAC frames are laid end to end and
each scene's first frame starts within half a frame of AAC (10.7 ms) of its
picture; a frame of silence is dropped at a seam whenever the sound runs more
than that ahead. Where a seam is not silent, or the joined whole needs its
loudness corrected, the scenes' sound files (each exactly as long as its video)
are joined sample for sample and encoded once instead.
"""

from __future__ import annotations

import heapq
import shutil
import tempfile
import wave
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

from production import cache, captions, ffmpeg, files, soundtrack
from production.scene_output import (
    SceneOutput,
    check_video,
    mux,
    timed_passages,
    video_frames,
)

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
    """The chapter stored in ``folder``, or None; a broken entry is deleted."""
    data = cache.read_record(folder, META)
    try:
        loud = data["loudness"]
        return ChapterOutput(folder, data["seconds"], tuple(data["starts"]),
                             None if loud is None else soundtrack.Loudness(**loud))
    except (KeyError, TypeError):
        if data is not None:
            cache.discard(folder)
        return None


#: what a concat listing cannot hold: it is read a line at a time
LINE_BREAKS = frozenset("\n\r")


def listing(paths: list[Path], target: Path) -> Path:
    """A listing for ffmpeg's concat demuxer: the files played one after another.

    Each path is quoted as the demuxer reads it: inside single quotes everything is
    literal, and a quote in the path closes the quotes, adds an escaped quote and
    opens them again (``'`` becomes ``'\\''``). A line break cannot be written in a
    listing at all, so a path holding one is refused: give it under another name
    (``files.named_without(paths, LINE_BREAKS)``). A path is written as given, made
    absolute (a link is not followed back to the name it stands in for).
    """
    lines = []
    for path in paths:
        name = str(path.absolute())
        if LINE_BREAKS & set(name):
            raise ValueError(f"a path with a line break cannot be joined by ffmpeg: {name!r}")
        lines.append("file '" + name.replace("'", "'\\''") + "'\n")
    target.write_text("".join(lines), encoding="utf-8")
    return target


def join_video(videos: Path, target: Path) -> None:
    """Concatenate the video streams of the files in the listing ``videos`` (no sound),
    without re-encoding."""
    ffmpeg.run("-f", "concat", "-safe", "0", "-i", str(videos), "-map", "0:v:0", "-c", "copy",
               str(target))


def join_sound(sounds: list[Path], target: Path) -> None:
    """Concatenate WAV files sample for sample."""
    from pydub import AudioSegment

    total = AudioSegment.empty()
    for s in sounds:
        total += AudioSegment.from_file(s)
    total.export(target, format="wav")


AAC_FRAME = 1024  # samples per AAC-LC frame
SILENT_PEAK = 10 ** (-50 / 20)  # a seam is silent when nothing within it peaks above -50 dBFS
SEAM_FRAMES = 3  # AAC frames each side of a seam that must be silent (they overlap in decoding)


def _edge_peaks(path: Path) -> tuple[float, float]:
    """Peak (fraction of full scale) of the first and the last SEAM_FRAMES + 1 AAC frames."""
    span = (SEAM_FRAMES + 1) * AAC_FRAME
    with wave.open(str(path)) as w:
        frames, width = w.getnframes(), w.getsampwidth()
        head = np.frombuffer(w.readframes(min(span, frames)), dtype=f"<i{width}")
        w.setpos(max(0, frames - span))
        tail = np.frombuffer(w.readframes(span), dtype=f"<i{width}")
    full = float(2 ** (8 * width - 1))
    head_peak, tail_peak = (float(np.abs(a.astype(np.int64)).max(initial=0)) / full
                            for a in (head, tail))
    return head_peak, tail_peak


def seams_are_silent(scenes: list[SceneOutput]) -> bool:
    """Whether the sound is silent on both sides of every seam between scenes."""
    edges = [_edge_peaks(s.sound) for s in scenes]
    return all(before[1] <= SILENT_PEAK and after[0] <= SILENT_PEAK
               for before, after in zip(edges, edges[1:]))


def _scene_audio(video: Path) -> list[av.Packet]:
    """The AAC packets of a scene's MP4, with the encoder's priming frame first."""
    with av.open(str(video)) as container:
        return [p for p in container.demux(container.streams.audio[0]) if p.size]


def spliced_audio(scenes: list[SceneOutput]) -> list[tuple[int, av.Packet]]:
    """(chapter sample, packet) of every AAC frame of the chapter, scenes laid end to end.

    The first scene keeps its priming frame (at -1024, trimmed by the player);
    every later scene starts at its first real frame. A scene's last frame can
    run up to 1023 samples past its picture; whenever the sound is more than
    half a frame ahead of the picture at a seam, the previous scene's last
    frame (silence) is dropped, so every scene starts within 512 samples of
    its picture and the chapter's sound ends within 512 samples of its video.
    """
    placed: list[tuple[int, av.Packet]] = []
    written = 0  # samples laid down so far, after the priming frame
    start = 0  # the scene's picture start, in samples
    for index, scene in enumerate(scenes):
        packets = _scene_audio(scene.video)
        while written - start > AAC_FRAME // 2:
            placed.pop()
            written -= AAC_FRAME
        for packet in packets:
            if packet.pts < 0 and index > 0:
                continue  # a later scene's priming frame: the seam is silence anyway
            placed.append((written + packet.pts, packet))
        written += sum(AAC_FRAME for p in packets if p.pts >= 0)
        start += round(scene.seconds * soundtrack.SAMPLE_RATE)
    return placed


def mux_spliced(picture: Path, scenes: list[SceneOutput], target: Path) -> None:
    """chapter.mp4 from the joined picture and the scenes' AAC frames, moov first."""
    audio = spliced_audio(scenes)
    with av.open(str(picture)) as source, \
            av.open(str(target), "w", format="mp4", options={"movflags": "+faststart"}) as out:
        v_in = source.streams.video[0]
        v_out = out.add_stream_from_template(v_in)
        with av.open(str(scenes[0].video)) as first:
            a_out = out.add_stream_from_template(first.streams.audio[0])
        rate = Fraction(1, soundtrack.SAMPLE_RATE)
        last = len(audio) - 1

        def sound():
            for i, (at, packet) in enumerate(audio):
                packet.pts = packet.dts = at
                packet.time_base = rate
                if i < last:
                    packet.duration = AAC_FRAME
                yield float(at * rate), 1, packet, a_out

        # The concat demuxer starts the picture where the scenes' priming sound starts
        # (21 ms early): move it back so picture and sound both start at zero.
        lead = v_in.start_time or 0

        def pictures():
            for packet in source.demux(v_in):
                if packet.size:
                    packet.pts, packet.dts = packet.pts - lead, packet.dts - lead
                    yield float(packet.dts * packet.time_base), 0, packet, v_out

        for _, _, packet, stream in heapq.merge(pictures(), sound(), key=lambda x: x[:2]):
            packet.stream = stream
            out.mux(packet)


def assemble(scenes: list[SceneOutput], entry: Path) -> ChapterOutput:
    """Build chapter.mp4, chapter.srt and chapter.vtt into the folder ``entry``.

    Built in a temporary folder beside it and renamed when complete.
    """
    starts, t = [], 0.0
    for s in scenes:
        starts.append(t)
        t += s.seconds
    cues = captions.build([words for s, start in zip(scenes, starts)
                           for words in timed_passages(s.passages, s.beat_starts, start)], t)
    entry.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{entry.name}-"))
    # A concat listing cannot name a file whose path has a line break: it goes in as a link.
    with files.named_without([*(s.sound for s in scenes), *(s.video for s in scenes)],
                             LINE_BREAKS) as named:
        try:
            narrated = any(s.passages for s in scenes)
            sounds = listing(named[:len(scenes)], work / "sounds.txt")
            # The whole is metered in the background while the picture is joined. Its true
            # peak is the loudest scene's: the seams between scenes are silent.
            metered = soundtrack.start_measure(sounds, concat=True, peak=False) if narrated \
                else None
            join_video(listing(named[len(scenes):], work / "videos.txt"), work / "picture.mp4")
            spliced = seams_are_silent(scenes)
            if spliced:
                mux_spliced(work / "picture.mp4", scenes, work / f"{CHAPTER_NAME}.mp4")
            loudness = None
            if metered:
                peak = max(s.loudness.true_peak for s in scenes if s.loudness is not None)
                loudness = soundtrack.Loudness(metered().integrated, peak)
            if loudness is not None and (abs(loudness.integrated - soundtrack.TARGET_LUFS) > 0.5
                                         or loudness.true_peak > soundtrack.MAX_TRUE_PEAK):
                # Each scene is at the target; the joined whole is normalised once more only
                # when the silences between passages moved its integrated loudness.
                join_sound([s.sound for s in scenes], work / "sound.wav")
                loudness = soundtrack.normalize(work / "sound.wav", work / "levelled.wav")
                mux(work / "picture.mp4", work / "levelled.wav", work / f"{CHAPTER_NAME}.mp4")
            elif not spliced:
                join_sound([s.sound for s in scenes], work / "sound.wav")
                mux(work / "picture.mp4", work / "sound.wav", work / f"{CHAPTER_NAME}.mp4")
            for leftover in [*work.glob("*.wav"), *work.glob("*.txt"), work / "picture.mp4"]:
                leftover.unlink()
            (work / f"{CHAPTER_NAME}.srt").write_text(captions.to_srt(cues), encoding="utf-8")
            (work / f"{CHAPTER_NAME}.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
            frames = sum(video_frames(s.video)[0] for s in scenes)
            check_video(work / f"{CHAPTER_NAME}.mp4", frames, t, sound=True)
            meta = {"seconds": t, "starts": starts,
                    "loudness": None if loudness is None else
                    {"integrated": loudness.integrated, "true_peak": loudness.true_peak}}
            cache.write_record(work, META, meta, [f.name for f in
                                                  ChapterOutput(work, t, (), None).files()],
                               entry.name)
            if entry.exists():
                cache.discard(entry)
            cache.put(work, entry)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return ChapterOutput(entry, t, tuple(starts), loudness)
