"""Shorts: every scene as a vertical 9:16 clip for phones (or a 1:1 one for feeds), with
its captions burned in.

A short is its scene drawn in the tall layout (the scene's own 9:16 arrangement, cached
like any scene under a key that names the layout) or the square one, cut into parts of
at most three minutes at beat boundaries (a beat longer than that at the end of a
sentence inside it, see :func:`parts`), with:

* captions burned in word by word (production/outputs/burned.py), timed from the voice's
  word timings; ``burn=False`` leaves them out;
* its sound brought to the chapter's loudness (-14 LUFS, true peak <= -1 dBTP) with a
  half-second silent tail, the last frame held under it, so a looping player restarts
  cleanly;
* SRT and WebVTT captions, a JPEG cover (the scene's last beat, drawn at full size
  whatever the quality: 1080x1920 tall, 1080x1080 square), and an entry in shorts.json
  naming its frame, which lists every short in its folder (both frames, and those of
  earlier runs too, as long as their files are there).

Tall clips are named after their scene (SCENE.mp4, SCENE-part2.mp4), square ones carry
the frame's name (SCENE-square.mp4), so both live in one folder.

Each scene's finished shorts are cached under its scene key, so a second run only copies.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import cache, captions, ffmpeg, files, soundtrack, space, voices
from production.drawing import encoder_options, frame_size
from production.language import _
from production.outputs.burned import ass_script
from production.pipeline import VARIANTS, Plan, dispatch, ensure_scenes
from production.run import Made, Output
from production.scene_output import AAC, META, SceneOutput, building, store, timed_passages
from production.timings import Word
from production.workers import Progress
from production.written import publishing

MAX_SECONDS = 180.0  # the longest a short may run (the apps' limit)
TAIL = 0.5  # seconds of silence, the last frame held, at the end of every short
SHORT_FRAMES = ("tall", "square")  # the frames a short can be drawn in, the default first
LISTING = "shorts.json"  # the list of shorts, in a cache entry and in the output folder
VARIANT = "-shorts"  # the cache variant holding a scene's finished shorts


@dataclass(frozen=True)
class Part:
    """One clip of a scene: seconds ``start`` to ``end`` of it, and the beats it shows
    (all or some of each)."""

    index: int  # from 1
    count: int
    start: float
    end: float
    beats: tuple[str, ...]


def parts(beats: list[tuple[str, float, float]], seconds: float,
          limit: float = MAX_SECONDS, pauses: list[tuple[float, int]] = ()) -> list[Part]:
    """The scene (``seconds`` long; (name, start, end) per beat, in order) cut into parts
    of at most ``limit`` seconds, the tail included, each starting where the one before
    ended: every moment of every beat is in one part. A part ends at the last beat's end
    that fits; when none does (a beat longer than a part), at a pause inside it
    (``pauses``: (moment, strength), see :func:`pauses`): the strongest, then the latest,
    in the part's second half if one is there; with no pause, at the limit."""
    room = limit - TAIL
    ends = sorted({end for _, _, end in beats if 0.0 < end < seconds})
    cuts, start = [], 0.0
    while seconds - start > room + 1e-9:
        fits = [end for end in ends if start + 1e-9 < end <= start + room + 1e-9]
        if fits:
            cut = fits[-1]
        else:
            inside = [(m, k) for m, k in pauses if start + 1e-9 < m <= start + room + 1e-9]
            late = [(m, k) for m, k in inside if m >= start + room / 2] or inside
            cut = max(late, key=lambda p: (p[1], p[0]))[0] if late else start + room
        cuts.append((start, cut))
        start = cut
    cuts.append((start, seconds))
    return [Part(i + 1, len(cuts), a, b,
                 tuple(name for name, s, e in beats if s < b and e > a))
            for i, (a, b) in enumerate(cuts)]


def pauses(passages: list[list[Word]]) -> list[tuple[float, int]]:
    """Where a beat may be cut (seconds of the scene, as the words are): between two words
    of a passage, halfway through the silence between them, with its strength: 2 after
    the end of a sentence, 1 after any other word."""
    return [((a.end + b.start) / 2, 2 if captions.ends_sentence(a) else 1)
            for words in passages for a, b in zip(words, words[1:]) if b.start >= a.end]


def heard_in(part: Part, passages: list[list[Word]]) -> list[list[Word]]:
    """The words of ``passages`` (seconds of the scene) said in ``part``, in seconds from
    its start: each word in the part its onset falls in, none ending past the part's end
    (a part cut at the limit may cut a word short)."""
    last = part.index == part.count
    found = [[Word(w.text, w.start - part.start, min(w.end, part.end) - part.start)
              for w in words if part.start <= w.start < part.end
              or last and w.start == part.end]
             for words in passages]
    return [words for words in found if words]


# ----------------------------------------------------------------- making the files


def clip_name(scene: str, part: Part, frame: str = "tall") -> str:
    name = scene if frame == "tall" else f"{scene}-{frame}"
    return name if part.count == 1 else f"{name}-part{part.index}"


def cover_name(scene: str, frame: str = "tall") -> str:
    return f"{scene}.jpg" if frame == "tall" else f"{scene}-{frame}.jpg"


def make_part(result: SceneOutput, part: Part, quality: str, burn: bool, folder: Path,
              frame: str = "tall") -> dict:
    """One short into ``folder``: NAME.mp4 (captions burned in unless not ``burn``),
    NAME.srt and NAME.vtt. Returns its entry for shorts.json (less the cover)."""
    name = clip_name(result.name, part, frame)
    length = part.end - part.start
    heard = heard_in(part, timed_passages(result.passages, result.beat_starts))
    with tempfile.TemporaryDirectory(dir=folder, prefix=".part-") as scratch:
        work = Path(scratch)
        ffmpeg.run("-ss", f"{part.start:.6f}", "-t", f"{length:.6f}", "-i", str(result.sound),
               "-af", f"apad=pad_dur={TAIL}", "-c:a", "pcm_s16le", str(work / "raw.wav"))
        if heard:
            loudness = soundtrack.normalize(work / "raw.wav", work / "sound.wav")
        else:  # no speech to level by: the sound stays as mixed (silence stays silent)
            (work / "raw.wav").rename(work / "sound.wav")
            loudness = soundtrack.measure(work / "sound.wav")
        width, height, fps = frame_size(quality, frame)
        video = f"tpad=stop_mode=clone:stop_duration={TAIL}"
        if burn and heard:
            (work / "words.ass").write_text(ass_script(heard, (width, height), fps, length,
                                                                   frame),
                                            encoding="utf-8")
            video = f"ass=words.ass,{video}"
        options = encoder_options(quality)
        ffmpeg.run("-ss", f"{part.start:.6f}", "-t", f"{length:.6f}",
               "-i", str(result.video.resolve()), "-i", "sound.wav",
               "-map", "0:v", "-map", "1:a", "-vf", video,
               "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", options["preset"],
               "-crf", options["crf"], "-profile:v", "high", "-g", options["g"],
               "-threads", options["threads"],
               "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
               *AAC, "-shortest", "-movflags", "+faststart", str(folder / f"{name}.mp4"),
               cwd=work)
    cues = captions.build(heard, length + TAIL) if heard else []
    if cues:
        (folder / f"{name}.srt").write_text(captions.to_srt(cues), encoding="utf-8")
        (folder / f"{name}.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
    return {"name": name, "frame": frame, "part": part.index, "parts": part.count,
            "seconds": round(length + TAIL, 3), "beats": list(part.beats),
            "words": [[w.text, round(w.start, 3), round(w.end, 3)]
                      for passage in heard for w in passage],
            "captions_burned": bool(burn and heard), "captions": bool(cues),
            "loudness": loudness.figures()}


def cover_job(chapter: Any, name: str, settings: dict[str, Any], frame: str = "tall",
              credits: dict[str, str] | None = None) -> tuple[bytes, int]:
    """Worker (local or a cluster's): the scene's last beat, drawn in ``frame`` at publish
    size (1080x1920 tall, 1080x1080 square), as the bytes of a JPEG."""
    from PIL import Image

    from production.drawing import construct_scene

    scene_class = chapter.scene(name)
    last = list(scene_class.beat_seconds)[-1]
    with tempfile.TemporaryDirectory() as media:
        frames = Path(media) / "frames"
        construct_scene(chapter, scene_class, "publish", settings, Path(media), video=False,
                        keyframes=frames, layout=frame, credits=credits)
        picture, = frames.glob(f"{name}-*-{last}.png")
        jpeg = io.BytesIO()
        Image.open(picture).convert("RGB").save(jpeg, "JPEG", quality=90)
    return jpeg.getvalue(), 0


# ----------------------------------------------------------------- the command


def publish(plan: Plan, burn: bool, frame: str = "tall") -> tuple[str, list[int]]:
    """Every chosen scene's shorts into plan.out, with shorts.json; returns the line to
    print and the scene workers' peak memory. The scenes are drawn in ``frame`` (or taken
    from the cache), then cut, captioned and levelled; finished shorts are kept in the
    cache."""
    results, peaks = ensure_scenes(plan)
    kind = variant(burn, frame)
    todo = [sc.__name__ for sc in plan.chosen if stored(plan.entry(sc.__name__, kind)) is None]
    with tempfile.TemporaryDirectory(dir=cache.scenes_dir(), prefix=".covers-") as drawn:
        covers = _covers(plan, todo, Path(drawn), frame)
        progress = Progress(len(todo))
        progress.start()
        try:
            for name in todo:
                progress.update([name])
                _build(plan, results[name], burn, covers[name], plan.entry(name, kind),
                       frame)
                progress.update([], 1)
        finally:
            progress.close()
    width, height, fps = frame_size(plan.quality, frame)
    clips = []
    with publishing(plan.out, last=LISTING) as stage:  # whole, over none but its own files
        for sc in plan.chosen:
            entry = plan.entry(sc.__name__, kind)
            made = stored(entry)
            if made is None:
                raise RuntimeError(f"the shorts of {sc.__name__} did not read back from {entry}")
            for clip in made:
                cover = cover_name(sc.__name__, frame)
                written = [f"{clip['name']}.mp4", cover] + (
                    [f"{clip['name']}.srt", f"{clip['name']}.vtt"] if clip["captions"] else [])
                for f in written:
                    files.publish(entry / f, stage / f)
                title = _("{title} (part {part} of {parts})").format(
                    title=_(sc.title), part=clip["part"], parts=clip["parts"]) \
                    if clip["parts"] > 1 else _(sc.title)
                clips.append({"scene": sc.__name__, "title": title,
                              "description": describe(results[sc.__name__]),
                              "file": f"{clip['name']}.mp4", "cover": cover,
                              **{k: v for k, v in clip.items() if k != "name"},
                              **({"srt": f"{clip['name']}.srt", "vtt": f"{clip['name']}.vtt"}
                                 if clip["captions"] else {}),
                              "frame": frame, "quality": plan.quality, "width": width,
                              "height": height, "fps": fps})
        every, stale = listed(plan.out, clips, [sc.__name__ for sc in plan.chapter.scenes])
        index = {"chapter": plan.chapter.title, "clips": every}
        files.write_text(stage / LISTING,
                         json.dumps(index, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    for scene, names in stale.items():
        print(f"render.py: warning: {', '.join(names)} in {plan.out}: from an earlier run of "
              f"{scene}, not made this time; still listed in shorts.json (delete the files "
              "and run again to unlist them)", file=sys.stderr)
    seconds = sum(c["seconds"] for c in clips)
    return (f"shorts: {len(clips)} clip(s), {seconds:.1f} s in all, {width}x{height} "
            f"{fps} fps -> {plan.out} ({len(every)} listed in {LISTING})"), peaks


# ----------------------------------------------------------------- the listings


def stored(entry: Path) -> list[dict[str, Any]] | None:
    """The clips a scene's cache entry of finished shorts lists, when the entry is whole
    and its list is JSON as the standard has it (no NaN, no Infinity); otherwise None,
    and a broken entry is deleted, to be made again."""
    if cache.read_record(entry, META) is None:
        return None
    try:
        made = json.loads((entry / LISTING).read_text(encoding="utf-8"),
                          parse_constant=_not_json)
        if not isinstance(made, list) or not all(
                isinstance(c, dict) and isinstance(c.get("name"), str) for c in made):
            raise ValueError("not a list of clips")
    except (OSError, ValueError):
        cache.discard(entry)
        return None
    return made


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def listed(folder: Path, clips: list[dict[str, Any]], order: list[str]
           ) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """Every short in ``folder``, for its shorts.json: this run's ``clips``, and the clips
    the listing there named before whose files are still there (one entry a file: this
    run's replaces an earlier one), in the order of ``order``'s scenes, then by part.
    Also, by scene, the earlier clips of a scene this run made, in the frame it made them
    in, that it did not make again (a scene cut into fewer parts now): still there, so
    still listed."""
    made = {c["file"] for c in clips}
    kept = [c for c in _earlier(folder) if c["file"] not in made]
    stale: dict[str, list[str]] = {}
    remade = {(c["scene"], c.get("frame", "tall")) for c in clips}
    for clip in kept:  # a clip of the other frame is that frame's, never stale here
        if (clip["scene"], clip.get("frame", "tall")) in remade:
            stale.setdefault(clip["scene"], []).append(clip["file"])
    rank = {name: i for i, name in enumerate(order)}

    def place(clip: dict[str, Any]) -> tuple[int, str, int, str]:
        part = clip.get("part")
        return (rank.get(clip["scene"], len(rank)), clip["scene"],
                part if isinstance(part, int) else 0, clip["file"])

    return sorted([*kept, *clips], key=place), stale


def _earlier(folder: Path) -> list[dict[str, Any]]:
    """The clips the shorts.json in ``folder`` lists whose files are there (a figure
    written as NaN or Infinity by an older version read as null); none when there is no
    listing, and a warning line when it does not read."""
    path = folder / LISTING
    try:
        listing = json.loads(path.read_text(encoding="utf-8-sig"),  # a BOM is forgiven
                             parse_constant=lambda _: None)
        clips = listing["clips"]
        if not isinstance(clips, list):
            raise TypeError("its clips are not a list")
    except FileNotFoundError:
        return []
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"render.py: warning: {path} does not read ({error}); it is written anew, "
              "listing this run's shorts", file=sys.stderr)
        return []
    return [c for c in clips if isinstance(c, dict) and isinstance(c.get("scene"), str)
            and isinstance(c.get("file"), str) and Path(c["file"]).name == c["file"]
            and (folder / c["file"]).is_file()]


def describe(result: SceneOutput) -> str:
    """A one-line description: the first sentence the scene's narration says."""
    if not result.passages:
        return ""
    text = " ".join(result.passages[0].text.split())
    first = re.split(r"(?<=[.?!])\s", text, maxsplit=1)[0]
    return first if len(first) <= 150 else first[:149].rsplit(" ", 1)[0] + "…"


def variant(burn: bool, frame: str = "tall") -> str:
    """The cache variant of a scene's finished shorts in ``frame``, with or without burned
    captions."""
    return VARIANT + ("" if frame == "tall" else f"-{frame}") + ("-burned" if burn else "")


for _frame in SHORT_FRAMES:
    for _burn in (False, True):
        VARIANTS[variant(_burn, _frame)] = (__name__,)


def _covers(plan: Plan, names: list[str], folder: Path, frame: str) -> dict[str, Path]:
    """Each scene's cover, drawn in worker processes into ``folder``."""
    if not names:
        return {}
    targets = {name: folder / cover_name(name, frame) for name in names}
    credits = voices.credits(plan.voice if plan.narrate else None,
                             plan.chapter.next_title())
    jobs = [(f"{name} (cover)", cover_job, (plan.chapter, name, plan.settings, frame, credits))
            for name in names]
    pictures, _ = dispatch(plan, jobs)
    for name in names:
        targets[name].write_bytes(pictures[f"{name} (cover)"])
    return targets


def _build(plan: Plan, result: SceneOutput, burn: bool, cover: Path, entry: Path,
           frame: str) -> None:
    """A scene's shorts, cover and list into the cache entry."""
    beats = [(b, result.beat_starts[b], later) for b, later in zip(
        result.beat_starts, [*list(result.beat_starts.values())[1:], result.seconds])]
    said = pauses(timed_passages(result.passages, result.beat_starts))
    with building(entry) as work:
        made = [make_part(result, part, plan.quality, burn, work, frame)
                for part in parts(beats, result.seconds, pauses=said)]
        shutil.move(cover, work / cover_name(result.name, frame))
        (work / LISTING).write_text(json.dumps(made, indent=1, allow_nan=False),
                                    encoding="utf-8")
        store(work, entry, {"name": result.name, "clips": len(made)})


class ShortsOutput(Output):
    """`render.py shorts`: every chosen scene drawn in ``frame`` (tall or square), cut,
    captioned (burned in unless ``burn`` is false) and levelled, with covers and
    shorts.json, into out/shorts/."""

    folder = "shorts"

    def __init__(self, burn: bool, frame: str = "tall") -> None:
        self.burn = burn
        self.layout = frame
        self.variants = ("", variant(burn, frame))

    def dry_run(self, plan: Plan) -> list[str]:
        width, height, fps = frame_size(plan.quality, self.layout)
        single = Part(1, 1, 0.0, 0.0, ())
        return [f"{'cached' if plan.stored[sc.__name__] else 'render'} {sc.__name__} "
                f"{self.layout} at {width}x{height}, {fps} fps -> "
                f"{plan.out / (clip_name(sc.__name__, single, self.layout) + '.mp4')}"
                for sc in plan.chosen]

    def space(self, plan: Plan) -> dict[str, int]:
        total = plan.total_seconds()  # the finished shorts are kept in the cache too
        return space.needs(plan.quality, plan.missing_seconds(), total,
                           cache=space.picture(plan.quality, total))

    def make(self, plan: Plan) -> Made:
        line, peaks = publish(plan, burn=self.burn, frame=self.layout)
        return Made(peaks, len(plan.chosen), [line])
