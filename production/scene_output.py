"""One scene from source to finished files: narration timing, video, sound, captions.

The video is rendered silent by Manim; the sound is mixed by the project and
muxed afterwards, so a scene's sound never depends on Manim's cache. A scene's
files are built in a temporary folder and the folder is renamed when complete.
"""

from __future__ import annotations

import pickle
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import av

from production import beat_cache, cache, captions, ffmpeg, files, soundtrack, voices
from production.narration.passages import Passage, beat_lengths, mark_times, prepare
from production.narration.script import spoken_values
from production.timings import Word


@dataclass
class SceneOutput:
    """What one scene produced. Times in seconds; files live in one folder."""

    name: str
    folder: Path
    seconds: float  # the video's duration
    beat_starts: dict[str, float]
    passages: list[Passage] = field(default_factory=list)
    loudness: soundtrack.Loudness | None = None
    cues: list[captions.Cue] = field(default_factory=list)
    cue_sounds: list[tuple[str, float]] = field(default_factory=list)
    layout_problems: list[str] = field(default_factory=list)
    timing_problems: list[str] = field(default_factory=list)
    #: each layout problem with its beat and its box on the frame (scenes/base.py)
    layout_marks: list[dict[str, Any]] = field(default_factory=list)
    #: the beats drawn this run (the others' plays came from the beat cache); None when the
    #: scene was not drawn this run. Not part of its record.
    drawn_beats: list[str] | None = None

    @property
    def video(self) -> Path:
        return self.folder / f"{self.name}.mp4"

    @property
    def sound(self) -> Path:
        """The finished mix as WAV, exactly as long as the video."""
        return self.folder / f"{self.name}.wav"

    @property
    def captions(self) -> list[Path]:
        """SRT and WebVTT files (none for a silent render)."""
        return [self.folder / f"{self.name}.{ext}" for ext in ("srt", "vtt")] if self.cues \
            else []

    def files(self) -> list[Path]:
        return [self.video, self.sound, *self.captions]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "seconds": self.seconds, "beat_starts": self.beat_starts,
            "passages": [{"scene": p.scene, "beat": p.beat, "text": p.text,
                          "audio": str(p.audio), "seconds": p.seconds, "recorded": p.recorded,
                          "words": [[w.text, w.start, w.end] for w in p.words],
                          "marks": [list(m) for m in p.marks]}
                         for p in self.passages],
            "loudness": None if self.loudness is None else
            {"integrated": self.loudness.integrated, "true_peak": self.loudness.true_peak},
            "cues": [{"start": c.start, "end": c.end, "lines": list(c.lines)} for c in self.cues],
            "cue_sounds": [list(c) for c in self.cue_sounds],
            "layout_problems": self.layout_problems, "timing_problems": self.timing_problems,
            "layout_marks": self.layout_marks,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], folder: Path) -> SceneOutput:
        loud = data["loudness"]
        return cls(
            data["name"], folder, data["seconds"], data["beat_starts"],
            [Passage(p["scene"], p["beat"], p["text"], Path(p["audio"]), p["seconds"],
                     p["recorded"], tuple(Word(*w) for w in p["words"]),
                     tuple((name, index) for name, index in p["marks"]))
             for p in data["passages"]],
            None if loud is None else soundtrack.Loudness(**loud),
            [captions.Cue(c["start"], c["end"], tuple(c["lines"])) for c in data["cues"]],
            [(k, t) for k, t in data["cue_sounds"]],
            data["layout_problems"], data["timing_problems"], data.get("layout_marks", []),
        )

    def moved(self, folder: Path) -> SceneOutput:
        """The same output, its files now in ``folder``."""
        return SceneOutput.from_json(self.to_json(), folder)


META = "scene.json"


def load(folder: Path, *, tidy: bool = True) -> SceneOutput | None:
    """A finished scene stored in ``folder``, or None when there is none. A broken entry
    (a record that does not parse, a file missing, cut short or changed) is deleted,
    unless ``tidy`` is False (a dry run writes nothing)."""
    data = cache.read_record(folder, META, tidy=tidy)
    try:
        return None if data is None else SceneOutput.from_json(data, folder)
    except (ValueError, KeyError, TypeError):
        if tidy:
            cache.discard(folder)
        return None


class BrokenOutput(Exception):
    """A file the render just wrote is not what it should be (a full disk, a failed tool)."""


def check_video(path: Path, frames: int, seconds: float, *, sound: bool) -> None:
    """Raise BrokenOutput unless ``path`` holds ``frames`` video frames whose last group
    of pictures decodes, and (with ``sound``) a sound stream ``seconds`` long."""
    try:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            packets = [p for p in container.demux(stream) if p.size]
            found = len(packets)
            tail = max((i for i, p in enumerate(packets) if p.is_keyframe), default=0)
            tail_pts = packets[tail].pts
            heard = (container.streams.audio[0].duration or 0) * \
                container.streams.audio[0].time_base if sound else seconds
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            container.seek(tail_pts, stream=stream, backward=True)
            decoded = sum(1 for _ in container.decode(stream))
    except (av.FFmpegError, OSError, IndexError) as error:
        raise BrokenOutput(f"{path.name} does not decode: {error}") from error
    if found != frames or decoded < found - tail:
        raise BrokenOutput(f"{path.name}: {found} frames ({decoded} of the last "
                           f"{found - tail} decode), {frames} expected")
    if abs(float(heard) - seconds) > 0.05:
        raise BrokenOutput(f"{path.name}: {float(heard):.3f} s of sound, {seconds:.3f} s "
                           "expected")


_CUE_TIMING = re.compile(r"^\d\d:\d\d:\d\d[,.]\d{3} --> \d\d:\d\d:\d\d[,.]\d{3}$", re.M)


def check_captions(paths: list[Path], cues: int) -> None:
    """Raise BrokenOutput unless each caption file reads back with ``cues`` cues."""
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise BrokenOutput(f"{path.name} does not read back: {error}") from error
        found = len(_CUE_TIMING.findall(text))
        if found != cues:
            raise BrokenOutput(f"{path.name}: {found} cues, {cues} expected")


def video_frames(path: Path) -> tuple[int, float]:
    """Frame count and frame rate of the first video stream."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        frames = stream.frames or sum(1 for _ in container.demux(stream) if _.size)
        return frames, float(stream.average_rate)


def video_seconds(path: Path) -> float:
    """Duration of the first video stream: frames / frame rate."""
    frames, rate = video_frames(path)
    return frames / rate


#: the chapter's sound as ffmpeg encodes it: AAC-LC 48 kHz stereo at 192 kb/s. ffmpeg's
#: "fast" AAC coder without the mid/side search encodes a 61.6 s scene in 0.75 s of CPU
#: against 3.3 s for its defaults, and stays closer to the source (measured: 35.8 dB SNR
#: against 29.1 dB).
AAC = ("-c:a", "aac", "-aac_coder", "fast", "-aac_ms", "0", "-profile:a", "aac_low",
       "-b:a", "192k", "-ar", str(soundtrack.SAMPLE_RATE), "-ac", str(soundtrack.CHANNELS))


def mux(video: Path, sound: Path, target: Path) -> None:
    """Video stream copied as is, sound encoded as :data:`AAC`, moov first. The sound is
    encoded on its own first and kept in the beat cache by its bytes, so a scene drawn
    again with the same sound is only muxed (the same packets: a tenth of the time)."""
    store = beat_cache.Store(beat_cache.segments_dir())
    key = beat_cache.digest([AAC, files.sha256(sound), ffmpeg.version()])
    encoded = target.with_name(f".{target.stem}.m4a")
    try:
        kept = store.read(key, beat_cache.AUDIO)
        if kept is None:
            ffmpeg.run("-i", str(sound), *AAC, str(encoded))
            store.write(key, encoded.read_bytes(), beat_cache.AUDIO)
        else:
            encoded.write_bytes(kept)
        ffmpeg.run("-i", str(video), "-i", str(encoded), "-map", "0:v:0", "-map", "1:a:0",
                   "-c", "copy", "-movflags", "+faststart", str(target))
    finally:
        encoded.unlink(missing_ok=True)


def timed_passages(passages: list[Passage], beat_starts: dict[str, float],
                   offset: float = 0.0) -> list[list[Word]]:
    """Each passage's written words as heard in the scene (seconds from its start, plus
    ``offset``: the scene's start in the chapter)."""
    return [p.heard(offset + beat_starts[p.beat] + soundtrack.LEAD_IN) for p in passages]


@dataclass
class Drawn:
    """A scene drawn silent by Manim, with its sound mixed: the shared first half of
    every variant (opaque MP4, transparent clips)."""

    scene: Any
    silent: Path  # the silent video Manim wrote
    seconds: float
    starts: dict[str, float]
    passages: list[Passage]
    sound: Path  # the mix as WAV, exactly ``seconds`` long
    loudness: soundtrack.Loudness | None


#: runs Manim: (scene class, media folder, beat lengths, mark times by beat) -> the
#: finished Scene
Draw = Callable[[Any, Path, dict[str, float], dict[str, dict[str, float]]], Any]


def draw_and_mix(chapter: Any, scene_class: Any, work: Path, render: Draw, *,
                 narrate: bool, settings: dict[str, Any] | None,
                 voice: voices.VoiceEngine) -> Drawn:
    """Narration -> beat lengths -> silent video -> the mix, all inside ``work``."""
    name = scene_class.__name__
    passages, lengths, marks = timing(chapter, scene_class, narrate=narrate,
                                      settings=settings, voice=voice)
    scene = render(scene_class, work / "media", lengths, marks)
    silent = Path(scene.renderer.file_writer.movie_file_path)
    seconds = video_seconds(silent)
    starts = {b.name: b.start for b in scene.beat_log}
    sound = work / f"{name}.wav"
    loudness = mixed(passages, starts, seconds, list(scene.cues), sound)
    return Drawn(scene, silent, seconds, starts, passages, sound, loudness)


def timing(chapter: Any, scene_class: Any, *, narrate: bool, settings: dict[str, Any] | None,
           voice: voices.VoiceEngine) -> tuple[list[Passage], dict[str, float],
                                               dict[str, dict[str, float]]]:
    """The scene's passages (spoken, or from the speech cache), each beat's length and
    when each mark's word falls: what drawing the scene, or some of its beats, needs."""
    passages = (prepare(scene_class.__name__, list(scene_class.beat_seconds), voice,
                        values=spoken_values(chapter, scene_class, settings),
                        narration_dir=chapter.narration, voice_dir=chapter.recordings)
                if narrate else [])
    lengths = beat_lengths(scene_class.beat_seconds, passages)
    return passages, lengths, mark_times(chapter, scene_class, settings, passages, lengths)


def mixed(passages: list[Passage], starts: dict[str, float], seconds: float,
          cues: list[tuple[str, float]], sound: Path) -> soundtrack.Loudness | None:
    """The scene's mix (normalized when narrated) as ``sound``; its loudness. Kept in the
    beat cache by what it is mixed from, so a scene drawn again after an edit to its
    pictures alone mixes nothing."""
    store = beat_cache.Store(beat_cache.segments_dir())
    key = beat_cache.digest([files.sha256(soundtrack_code()), seconds, starts, cues,
                             [[p.beat, files.sha256(p.audio)] for p in passages]])
    kept = store.read(key, beat_cache.SOUND)
    if kept is not None:
        loud, wav = pickle.loads(kept)
        sound.write_bytes(wav)
        return None if loud is None else soundtrack.Loudness(*loud)
    mix = soundtrack.mix_scene(passages, starts, seconds, cues)
    loudness = None
    if passages:
        mix.export(sound.with_name("mix.wav"), format="wav")
        loudness = soundtrack.normalize(sound.with_name("mix.wav"), sound)
        sound.with_name("mix.wav").unlink()
    else:
        mix.export(sound, format="wav")
    loud = None if loudness is None else (loudness.integrated, loudness.true_peak)
    store.write(key, pickle.dumps((loud, sound.read_bytes()), protocol=5), beat_cache.SOUND)
    return loudness


def soundtrack_code() -> Path:
    return Path(soundtrack.__file__)


@contextmanager
def building(entry: Path) -> Iterator[Path]:
    """A temporary folder beside ``entry`` to build in; :func:`store` renames it into
    place when complete, and whatever is left of it is removed on the way out."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{entry.name}-"))
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def store(work: Path, entry: Path, meta: dict[str, Any]) -> None:
    """Drop Manim's media, write the record (sealing every file left), and rename the
    folder into place."""
    shutil.rmtree(work / "media", ignore_errors=True)
    cache.write_record(work, META, meta, sorted(p.name for p in work.iterdir()), entry.name)
    if entry.exists() and cache.read_record(entry, META) is not None:
        shutil.rmtree(work)  # another render stored the same content meanwhile
        return
    cache.put(work, entry)


def produce_scene(chapter: Any, scene_class: Any, entry: Path,
                  render: Draw, *, narrate: bool,
                  settings: dict[str, Any] | None = None,
                  voice: voices.VoiceEngine = voices.DEFAULT_VOICE) -> SceneOutput:
    """The scene's MP4, WAV and captions, into the folder ``entry``.

    Everything is built in a temporary folder beside ``entry`` and renamed to it
    only when complete, so an interrupted render leaves no half-written scene.
    ``render(scene_class, media_dir, beat_lengths, mark_times)`` runs Manim and returns
    the finished Scene.
    """
    name = scene_class.__name__
    with building(entry) as work:
        d = draw_and_mix(chapter, scene_class, work, render, narrate=narrate, settings=settings,
                         voice=voice)
        result = SceneOutput(name, work, d.seconds, d.starts, d.passages, d.loudness,
                             cues=captions.build(timed_passages(d.passages, d.starts),
                                                 d.seconds),
                             cue_sounds=list(d.scene.cues),
                             layout_problems=d.scene.layout_problems,
                             timing_problems=d.scene.timing_problems,
                             layout_marks=d.scene.layout_marks)
        mux(d.silent, result.sound, result.video)
        frames, _ = video_frames(d.silent)
        check_video(result.video, frames, d.seconds, sound=True)
        if result.cues:
            srt, vtt = result.captions
            srt.write_text(captions.to_srt(result.cues), encoding="utf-8")
            vtt.write_text(captions.to_vtt(result.cues), encoding="utf-8")
            check_captions(result.captions, len(result.cues))
        store(work, entry, result.to_json())
    done = result.moved(entry)
    if hasattr(d.scene.renderer, "drawn"):
        done.drawn_beats = beat_cache.beats_drawn(d.scene.renderer)
    return done
