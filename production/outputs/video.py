"""The chapter bundle (`render.py render`): the scenes and the whole chapter into out/
(chapter.mp4, captions, chapters.txt, thumbnail, manifest)."""

from __future__ import annotations

import dataclasses
from typing import Any

from production import cache, files, qualities, space, voices, written
from production.errors import UsageError
from production.language import _
from production.narration.passages import Passage
from production.outputs import bundle, joining
from production.pipeline import Plan, ensure_scenes
from production.run import Made, Output
from production.scene_output import SceneOutput, timed_passages


class BundleOutput(Output):
    """`render.py render`: every chosen scene into out/scenes/ and, when no scene was
    named (``whole``), the chapter joined with its captions, chapter list, thumbnail and
    manifest into out/."""

    def __init__(self, whole: bool) -> None:
        self.whole = whole

    def plan(self, request: Any) -> Any:
        """Check the request (and, for the whole chapter, that its thumbnail's scene and
        beat are there: found after drawing, it left a mixed bundle) and plan it."""
        if self.whole:
            check_thumbnail(request.chapter)
        return super().plan(request)

    def dry_run(self, plan: Plan) -> list[str]:
        width, height, fps = qualities.size(plan.quality)
        return [f"{'cached' if plan.stored[sc.__name__] else 'render'} {sc.__name__} at "
                f"{width}x{height}, {fps} fps -> {plan.out / 'scenes' / (sc.__name__ + '.mp4')}"
                for sc in plan.chosen]

    def space(self, plan: Plan) -> dict[str, int]:
        joined = plan.total_seconds() if self.whole else 0.0
        # the chapter joins the picture twice (the joined picture, then the muxed chapter)
        return space.needs(plan.quality, plan.missing_seconds(), plan.total_seconds(),
                           cache=2 * space.picture(plan.quality, joined)
                           + joined * space.SOUND,
                           out=space.picture(plan.quality, joined))

    def make(self, plan: Plan) -> Made:
        """Draw what is missing, then write the bundle into a hidden folder in out/ and
        move it into place only when complete (production/written.py): a failure after
        drawing (joining, the thumbnail, the manifest) leaves the bundle that was there
        whole, and a file in the way that the project did not write is left alone."""
        results, peaks = ensure_scenes(plan)
        with written.publishing(plan.out) as stage:
            staged = dataclasses.replace(plan, out=stage)
            scenes(staged, results)
            line = chapter(staged, results) if self.whole else ""
        if line:
            print(line.replace(str(stage), str(plan.out)))
        return Made(peaks, len(plan.chosen))


def check_thumbnail(chapter: Any) -> None:
    """A UsageError unless the chapter's thumbnail names one of its scenes and a beat of
    that scene."""
    scene, beat = chapter.thumbnail
    by_name = chapter.by_name()
    if scene not in by_name:
        raise UsageError(f"{chapter.module}: its thumbnail names scene {scene!r}, which is not "
                         f"one of its scenes ({', '.join(by_name)})")
    if beat not in by_name[scene].beat_seconds:
        raise UsageError(f"{chapter.module}: its thumbnail names beat {beat!r} of {scene}, "
                         f"which has the beats {', '.join(by_name[scene].beat_seconds)}")


def scenes(plan: Plan, results: dict[str, SceneOutput]) -> None:
    """Every chosen scene's MP4 and captions into out/scenes/."""
    for sc in plan.chosen:
        result = results[sc.__name__]
        for f in (result.video, *result.captions):
            files.publish(f, plan.out / "scenes" / f.name)


def chapter(plan: Plan, results: dict[str, SceneOutput]) -> str:
    """The whole chapter into out/: chapter.mp4 and its captions (joined once and cached),
    chapters.txt, thumbnail.jpg and manifest.json. Returns the line to print."""
    out, ordered = plan.out, [results[sc.__name__] for sc in plan.chosen]
    key = cache.chapter_key([plan.keys[r.name] for r in ordered], plan.quality)
    joined = joining.load(cache.chapters_dir() / key)
    if joined is None:
        joined = joining.assemble(ordered, cache.chapters_dir() / key)
    cache.mark_used([cache.chapters_dir() / key])
    for f in joined.files():
        files.publish(f, out / f.name)
    titled = [(_(sc.title), r.seconds) for sc, r in zip(plan.chosen, ordered)]
    files.write_text(out / "chapters.txt", bundle.chapters_text(bundle.chapters(titled)))
    bundle.thumbnail(joined.video,
                     _thumbnail_time(ordered, joined.starts, plan.chapter.thumbnail),
                     out / "thumbnail.jpg", plan.chapter.title)
    width, height, fps = qualities.size(plan.quality)
    written = [out / f.name for f in joined.files()] + [out / "chapters.txt",
                                                      out / "thumbnail.jpg"]
    bundle.manifest({
        "title": plan.chapter.title,
        "chapter": plan.chapter.name,
        **({"language": plan.chapter.language} if plan.chapter.language != "en" else {}),
        "summary": plan.chapter.summary,
        "tags": list(plan.chapter.tags),
        "quality": {"name": plan.quality, "width": width, "height": height, "frame_rate": fps},
        "duration": joined.seconds,
        "voice": voices.voice_record(plan.voice) if plan.narrate else None,
        "loudness": None if joined.loudness is None else
        {"integrated_lufs": joined.loudness.integrated,
         "true_peak_dbtp": joined.loudness.true_peak},
        "files": {f.name: {"sha256": files.sha256(f), "bytes": f.stat().st_size}
                  for f in written},
        "scenes": [
            {"name": r.name, "title": _(sc.title), "start": start, "duration": r.seconds,
             "content_key": plan.keys[r.name],
             "words_per_minute": words_per_minute(r.passages) if plan.narrate else None,
             "words": heard_words(r),
             "files": {f"scenes/{f.name}": files.sha256(f)
                       for f in (r.video, *r.captions)}}
            for sc, r, start in zip(plan.chosen, ordered, joined.starts)
        ],
        "versions": bundle.versions(),
        "ledger": plan.chapter.ledger.compute(plan.settings),
    }, out / "manifest.json")
    loud = (f", {joined.loudness.integrated:.1f} LUFS, true peak "
            f"{joined.loudness.true_peak:.1f} dBTP" if joined.loudness else "")
    return f"chapter: {joined.seconds:.1f} s{loud} -> {out / joined.video.name}"


def words_per_minute(passages: list[Passage]) -> float | None:
    """The pace of a scene's speech: the words of its passages (as written) over the
    minutes they are spoken for, the pauses between passages left out; None when nothing
    is spoken."""
    seconds = sum(p.seconds for p in passages)
    if seconds <= 0:
        return None
    return round(sum(len(p.text.split()) for p in passages) / seconds * 60, 1)


def heard_words(scene: SceneOutput) -> list[dict[str, Any]]:
    """When each written word of the scene's narration is said (seconds from the scene's
    start), with its beat and, for a marked word, its mark."""
    heard = []
    for p, words in zip(scene.passages, timed_passages(scene.passages, scene.beat_starts)):
        marked = {index: name for name, index in p.marks}
        for index, w in enumerate(words):
            heard.append({"beat": p.beat, "word": w.text, "start": round(w.start, 3),
                          "end": round(w.end, 3)} | ({"mark": marked[index]}
                                                     if index in marked else {}))
    return heard


def _thumbnail_time(ordered: list[SceneOutput], starts: tuple[float, ...],
                    frame: tuple[str, str]) -> float:
    """Seconds into the chapter of the last frame of the beat ``frame`` = (scene, beat)."""
    scene_name, beat = frame
    index = [r.name for r in ordered].index(scene_name)
    picked = ordered[index]
    beats = list(picked.beat_starts)
    following = beats.index(beat) + 1
    end = picked.beat_starts[beats[following]] if following < len(beats) else picked.seconds
    return starts[index] + end - 0.1
