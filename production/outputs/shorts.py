"""Shorts: every scene as a vertical 9:16 clip for phones, with its captions burned in.

A short is its scene drawn in the tall layout (the scene's own 9:16 arrangement, cached
like any scene under a key that names the layout), cut into parts of at most three
minutes at beat boundaries, with:

* captions burned in word by word: two or three words at a time in a band above the
  bottom safe zone, the word being said in the highlight colour, timed from the voice's
  word timings (an ASS script that ffmpeg's libass draws); ``burn=False`` leaves them out;
* its sound brought to the chapter's loudness (-14 LUFS, true peak <= -1 dBTP) with a
  half-second silent tail, the last frame held under it, so a looping player restarts
  cleanly;
* SRT and WebVTT captions, a 1080x1920 JPEG cover (the scene's last beat, drawn at full
  size whatever the quality), and an entry in shorts.json.

Each scene's finished shorts are cached under its scene key, so a second run only copies.
"""

from __future__ import annotations

import io
import json
import math
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import cache, captions, ffmpeg, files, soundtrack, space
from production.drawing import encoder_options, frame_size
from production.pipeline import VARIANTS, Plan, dispatch, ensure_scenes
from production.run import Made, Output
from production.scene_output import AAC, META, SceneOutput, building, store, timed_passages
from production.timings import Word
from production.workers import Progress

MAX_SECONDS = 180.0  # the longest a short may run (the apps' limit)
TAIL = 0.5  # seconds of silence, the last frame held, at the end of every short
COVER_SIZE = (1080, 1920)
MOST_WORDS = 3  # burned in at a time
MOST_LETTERS = 16  # a group longer than this is cut shorter: one line on a phone
PAUSE = 0.35  # a gap this long between words starts a new group
HOLD = 0.4  # a group stays up this long after its last word, unless the next comes
FONT = "DejaVu Sans"
FONT_SIZE = 0.045  # of the frame's height (86 px at 1920)
INK = "FFFFFF"  # the captions' white, and the spoken word's highlight (the weight colour)
HIGHLIGHT = "FFD54A"
VARIANT = "-shorts"  # the cache variant holding a scene's finished shorts
VARIANTS[VARIANT] = VARIANTS[VARIANT + "-burned"] = (__name__,)


@dataclass(frozen=True)
class Part:
    """One clip of a scene: seconds ``start`` to ``end`` of it, and its beats."""

    index: int  # from 1
    count: int
    start: float
    end: float
    beats: tuple[str, ...]


def parts(beats: list[tuple[str, float, float]], seconds: float,
          limit: float = MAX_SECONDS) -> list[Part]:
    """The scene cut at beat boundaries into parts of at most ``limit`` seconds, the tail
    included ((name, start, end) per beat, in order). A beat longer than that alone is a
    part of its own, cut at the limit: no scene has one."""
    cuts: list[tuple[float, float, list[str]]] = []
    for name, start, end in beats:
        if cuts and end - cuts[-1][0] + TAIL <= limit:
            cuts[-1] = (cuts[-1][0], end, [*cuts[-1][2], name])
        else:
            cuts.append((start, end, [name]))
    pieces = [(a, min(b, a + limit - TAIL), tuple(n)) for a, b, n in cuts]
    return [Part(i + 1, len(pieces), a, b, n) for i, (a, b, n) in enumerate(pieces)]


def groups(words: list[Word]) -> list[list[Word]]:
    """A passage's words in groups of two or three, as they are burned in: a group ends
    at a comma or a full stop, before a pause, or when a third word would make it long."""
    found: list[list[Word]] = []
    for word in words:
        group = found[-1] if found else None
        if (group is None or len(group) >= MOST_WORDS or word.start - group[-1].end > PAUSE
                or group[-1].text[-1:] in ",.;:?!"
                or len(" ".join(w.text for w in [*group, word])) > MOST_LETTERS):
            found.append([word])
        else:
            group.append(word)
    return found


def ass_script(passages: list[list[Word]], size: tuple[int, int], fps: int,
               end: float) -> str:
    """The burned-in captions as an ASS script for a frame of ``size`` pixels: each group
    from its first word's onset, shown until its last word ends (held at most HOLD, never
    into the next group), the word being said in the highlight colour. Every change
    falls half a frame before the first frame at or after its moment, so each shows on
    exactly that frame (libass reads a frame's time in whole milliseconds, rounded down:
    a change stamped on a frame's own time can miss it)."""
    width, height = size
    font = round(height * FONT_SIZE)
    # The band's bottom (descenders included) sits 1.5 % of the frame above the bottom
    # safe zone (20 %).
    margin_v = round(height * 0.215)
    lines = [
        "[Script Info]", "ScriptType: v4.00+", f"PlayResX: {width}", f"PlayResY: {height}",
        "WrapStyle: 0", "ScaledBorderAndShadow: yes", "",
        "[V4+ Styles]",
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
        "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
        "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
        f"Style: Words,{FONT},{font},{_colour(INK)},{_colour(INK)},&H00000000,&H80000000,"
        f"-1,0,0,0,100,100,0,0,1,{max(2, round(font * 0.09))},0,2,{round(width * 0.08)},"
        f"{round(width * 0.08)},{margin_v},1",
        "", "[Events]",
        "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ]
    every = [g for passage in passages for g in groups(passage)]
    for n, group in enumerate(every):
        later = every[n + 1][0].start if n + 1 < len(every) else end
        group_end = min(max(group[-1].end, group[0].start) + HOLD, later, end)
        for k, word in enumerate(group):
            start = group[0].start if k == 0 else word.start
            stop = group[k + 1].start if k + 1 < len(group) else group_end
            start, stop = _between(start, fps), _between(stop, fps)
            if stop <= start:
                continue  # said between two frames: never on screen alone
            text = " ".join(
                f"{{\\c{_colour(HIGHLIGHT)}}}{_plain(w.text)}{{\\c{_colour(INK)}}}" if i == k
                else _plain(w.text) for i, w in enumerate(group))
            lines.append(f"Dialogue: 0,{_stamp(start)},{_stamp(stop)},Words,,0,0,0,,{text}")
    return "\n".join(lines) + "\n"


def _colour(rgb: str) -> str:
    """An RGB hex colour as ASS writes it: &HBBGGRR&."""
    return f"&H{rgb[4:6]}{rgb[2:4]}{rgb[0:2]}&".upper()


def _plain(text: str) -> str:
    """A word as ASS shows it: braces would start an override, a backslash a command."""
    return text.replace("{", "(").replace("}", ")").replace("\\", "/")


def _between(seconds: float, fps: int) -> float:
    """Half a frame before the first frame at or after ``seconds``."""
    return (math.ceil(seconds * fps - 1e-6) - 0.5) / fps


def _stamp(seconds: float) -> str:
    centis = max(0, round(seconds * 100))
    return f"{centis // 360000}:{centis // 6000 % 60:02d}:{centis // 100 % 60:02d}." \
           f"{centis % 100:02d}"


# ----------------------------------------------------------------- making the files


def clip_name(scene: str, part: Part) -> str:
    return scene if part.count == 1 else f"{scene}-part{part.index}"


def make_part(result: SceneOutput, part: Part, quality: str, burn: bool, folder: Path) -> dict:
    """One short into ``folder``: NAME.mp4 (captions burned in unless not ``burn``),
    NAME.srt and NAME.vtt. Returns its entry for shorts.json (less the cover)."""
    name = clip_name(result.name, part)
    length = part.end - part.start
    heard = [[Word(w.text, w.start - part.start, w.end - part.start) for w in passage]
             for p, passage in zip(result.passages, timed_passages(result.passages,
                                                                   result.beat_starts))
             if p.beat in part.beats]
    with tempfile.TemporaryDirectory(dir=folder, prefix=".part-") as scratch:
        work = Path(scratch)
        ffmpeg.run("-ss", f"{part.start:.6f}", "-t", f"{length:.6f}", "-i", str(result.sound),
               "-af", f"apad=pad_dur={TAIL}", "-c:a", "pcm_s16le", str(work / "raw.wav"))
        loudness = soundtrack.normalize(work / "raw.wav", work / "sound.wav")
        width, height, fps = frame_size(quality, "tall")
        video = f"tpad=stop_mode=clone:stop_duration={TAIL}"
        if burn and heard:
            (work / "words.ass").write_text(ass_script(heard, (width, height), fps, length),
                                            encoding="utf-8")
            video = f"ass=words.ass,{video}"
        options = encoder_options(quality)
        ffmpeg.run("-ss", f"{part.start:.6f}", "-t", f"{length:.6f}",
               "-i", str(result.video.resolve()), "-i", "sound.wav",
               "-map", "0:v", "-map", "1:a", "-vf", video,
               "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", options["preset"],
               "-crf", options["crf"], "-profile:v", "high", "-g", options["g"],
               "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
               *AAC, "-shortest", "-movflags", "+faststart", str(folder / f"{name}.mp4"),
               cwd=work)
    cues = captions.build(heard, length + TAIL) if heard else []
    if cues:
        (folder / f"{name}.srt").write_text(captions.to_srt(cues), encoding="utf-8")
        (folder / f"{name}.vtt").write_text(captions.to_vtt(cues), encoding="utf-8")
    return {"name": name, "part": part.index, "parts": part.count,
            "seconds": round(length + TAIL, 3), "beats": list(part.beats),
            "words": [[w.text, round(w.start, 3), round(w.end, 3)]
                      for passage in heard for w in passage],
            "captions_burned": bool(burn and heard), "captions": bool(cues),
            "loudness": {"integrated": loudness.integrated, "true_peak": loudness.true_peak}}


def cover_job(chapter: Any, name: str, settings: dict[str, Any]) -> tuple[bytes, int]:
    """Worker (local or a cluster's): the scene's last beat, drawn tall at 1080x1920, as
    the bytes of a JPEG."""
    from PIL import Image

    from production.drawing import construct_scene

    scene_class = chapter.scene(name)
    last = list(scene_class.beat_seconds)[-1]
    with tempfile.TemporaryDirectory() as media:
        frames = Path(media) / "frames"
        construct_scene(chapter, scene_class, "publish", settings, Path(media), video=False,
                        keyframes=frames, layout="tall")
        picture, = frames.glob(f"{name}-*-{last}.png")
        jpeg = io.BytesIO()
        Image.open(picture).convert("RGB").save(jpeg, "JPEG", quality=90)
    return jpeg.getvalue(), 0


# ----------------------------------------------------------------- the command


def publish(plan: Plan, burn: bool) -> tuple[str, list[int]]:
    """Every chosen scene's shorts into plan.out, with shorts.json; returns the line to
    print and the scene workers' peak memory. The scenes are drawn tall (or taken from
    the cache), then cut, captioned and levelled; finished shorts are kept in the cache."""
    results, peaks = ensure_scenes(plan)
    todo = [sc.__name__ for sc in plan.chosen
            if cache.read_record(plan.entry(sc.__name__, variant(burn)), META) is None]
    with tempfile.TemporaryDirectory(dir=cache.scenes_dir(), prefix=".covers-") as drawn:
        covers = _covers(plan, todo, Path(drawn))
        progress = Progress(len(todo))
        progress.start()
        try:
            for name in todo:
                progress.update([name])
                _build(plan, results[name], burn, covers[name],
                       plan.entry(name, variant(burn)))
                progress.update([], 1)
        finally:
            progress.close()
    clips = []
    for sc in plan.chosen:
        entry = plan.entry(sc.__name__, variant(burn))
        made = json.loads((entry / "shorts.json").read_text(encoding="utf-8"))
        for clip in made:
            written = [f"{clip['name']}.mp4", f"{sc.__name__}.jpg"] + (
                [f"{clip['name']}.srt", f"{clip['name']}.vtt"] if clip["captions"] else [])
            for f in written:
                files.publish(entry / f, plan.out / f)
            title = sc.title + (f" (part {clip['part']} of {clip['parts']})"
                                if clip["parts"] > 1 else "")
            clips.append({"scene": sc.__name__, "title": title,
                          "description": describe(results[sc.__name__]),
                          "file": f"{clip['name']}.mp4", "cover": f"{sc.__name__}.jpg",
                          **{k: v for k, v in clip.items() if k != "name"},
                          **({"srt": f"{clip['name']}.srt", "vtt": f"{clip['name']}.vtt"}
                             if clip["captions"] else {})})
    width, height, fps = frame_size(plan.quality, "tall")
    index = {"chapter": plan.chapter.title, "quality": plan.quality, "width": width,
             "height": height, "fps": fps, "clips": clips}
    files.write_text(plan.out / "shorts.json",
                      json.dumps(index, indent=1, ensure_ascii=False, allow_nan=False) + "\n")
    seconds = sum(c["seconds"] for c in clips)
    return (f"shorts: {len(clips)} clip(s), {seconds:.1f} s in all, {width}x{height} "
            f"{fps} fps -> {plan.out}"), peaks


def describe(result: SceneOutput) -> str:
    """A one-line description: the first sentence the scene's narration says."""
    if not result.passages:
        return ""
    text = " ".join(result.passages[0].text.split())
    first = re.split(r"(?<=[.?!])\s", text, maxsplit=1)[0]
    return first if len(first) <= 150 else first[:149].rsplit(" ", 1)[0] + "…"


def variant(burn: bool) -> str:
    """The cache variant of a scene's finished shorts, with or without burned captions."""
    return VARIANT + ("-burned" if burn else "")


def _covers(plan: Plan, names: list[str], folder: Path) -> dict[str, Path]:
    """Each scene's cover, drawn in worker processes into ``folder``."""
    if not names:
        return {}
    targets = {name: folder / f"{name}.jpg" for name in names}
    jobs = [(f"{name} (cover)", cover_job, (plan.chapter, name, plan.settings))
            for name in names]
    pictures, _ = dispatch(plan, jobs)
    for name in names:
        targets[name].write_bytes(pictures[f"{name} (cover)"])
    return targets


def _build(plan: Plan, result: SceneOutput, burn: bool, cover: Path, entry: Path) -> None:
    """A scene's shorts, cover and list into the cache entry."""
    beats = [(b, result.beat_starts[b], later) for b, later in zip(
        result.beat_starts, [*list(result.beat_starts.values())[1:], result.seconds])]
    with building(entry) as work:
        made = [make_part(result, part, plan.quality, burn, work)
                for part in parts(beats, result.seconds)]
        shutil.move(cover, work / f"{result.name}.jpg")
        (work / "shorts.json").write_text(json.dumps(made, indent=1), encoding="utf-8")
        store(work, entry, {"name": result.name, "clips": len(made)})


class ShortsOutput(Output):
    """`render.py shorts`: every chosen scene drawn tall, cut, captioned (burned in unless
    ``burn`` is false) and levelled, with covers and shorts.json, into out/shorts/."""

    folder = "shorts"
    layout = "tall"

    def __init__(self, burn: bool) -> None:
        self.burn = burn
        self.variants = ("", variant(burn))

    def dry_run(self, plan: Plan) -> list[str]:
        width, height, fps = frame_size(plan.quality, "tall")
        return [f"{'cached' if plan.stored[sc.__name__] else 'render'} {sc.__name__} tall at "
                f"{width}x{height}, {fps} fps -> {plan.out / (sc.__name__ + '.mp4')}"
                for sc in plan.chosen]

    def space(self, plan: Plan) -> dict[str, int]:
        total = plan.total_seconds()  # the finished shorts are kept in the cache too
        return space.needs(plan.quality, plan.missing_seconds(), total,
                           cache=space.picture(plan.quality, total))

    def make(self, plan: Plan) -> Made:
        line, peaks = publish(plan, burn=self.burn)
        return Made(peaks, len(plan.chosen), [line])
