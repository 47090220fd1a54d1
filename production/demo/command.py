"""`render.py demo`: the chapter's demo as one offline folder (default out/demo/).

    index.html            the page: controls, bars, clips, "Run it"
    demo.json             its data: every state, the moments, the code
    clips/NAME.mp4 .vtt   each moment's narrated clip and its captions
    clips/NAME.png        its poster: its last frame, as the bars show the moment

Each moment's scene is rendered at the moment's --set values with the sweep's machinery
(one plan per scene and settings, :func:`production.pipeline.with_settings`, all drawn
in one worker pool by :func:`production.pipeline.render_plans`; a scene another render
drew is taken from the cache). Its beats are then cut from the scene as a short is
(:func:`production.outputs.shorts.make_part`: levelled, a half-second tail, captions
timed from the voice's words), and the clip is kept in the cache beside the scene.
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import cache, captions, files, paths, pipeline, qualities, space, written
from production.chapters import Chapter
from production.demo import data, page
from production.demo.clips import clip, variant
from production.demo.spec import Moment
from production.outputs import slides
from production.run import Made, Output, Request
from production.scene_output import META, SceneOutput

CLIPS = "clips"


@dataclass
class DemoPlan:
    """What a demo render will do: the page's data, a plan per (scene, settings) its
    moments need (the first made first, the others sharing its workers), and each
    moment's plan."""

    chapter: Chapter
    data: dict[str, Any]
    plans: list[pipeline.Plan]
    of: dict[str, pipeline.Plan]  # by moment name

    @property
    def out(self) -> Path:
        return self.plans[0].out

    @property
    def quality(self) -> str:
        return self.plans[0].quality

    @property
    def narrate(self) -> bool:
        return True

    @property
    def folders(self) -> dict[str, Path]:
        return self.plans[0].folders

    def close(self) -> None:
        self.plans[0].close()

    def moments(self) -> list[Moment]:
        return list(self.chapter.demo.moments)

    def entry(self, m: Moment) -> Path:
        """The cache folder of a moment's finished clip: its scene's key, its beats."""
        return self.of[m.name].entry(m.scene, variant(m))


def plan(request: Request) -> DemoPlan:
    """Check everything, build the page's data, and plan every moment's scene (spoken,
    unless a dry run, and looked up in the cache); nothing is written to the output
    folder."""
    chapter = request.chapter
    built = data.build(chapter)
    moments = list(chapter.demo.moments)
    wanted = list(dict.fromkeys((m.scene, m.settings) for m in moments))
    scene, settings = wanted[0]
    first = pipeline.plan(chapter, scenes=[scene], quality=request.quality,
                          settings=list(settings), out=request.out,
                          default_out=paths.out_for(chapter) / "demo", jobs=request.jobs,
                          narrate=True, voice=request.voice, scheduler=request.scheduler,
                          dry_run=request.dry_run)
    try:
        plans = [first, *(pipeline.with_settings(first, list(s), scenes=[sc])
                          for sc, s in wanted[1:])]
    except BaseException:
        first.close()
        raise
    by_want = dict(zip(wanted, plans))
    return DemoPlan(chapter, built, plans, {m.name: by_want[(m.scene, m.settings)]
                                            for m in moments})


class DemoOutput(Output):
    """`render.py demo`: the page, its data and a clip per moment, into out/demo/."""

    folder = "demo"

    def __init__(self, back: str = "") -> None:
        self.back = back  # a relative link to the page the demo belongs to (the course's)

    def plan(self, request: Request) -> DemoPlan:
        return plan(request)

    def dry_run(self, p: DemoPlan) -> list[str]:
        width, height, fps = qualities.size(p.quality)
        lines = []
        for m in p.moments():
            how = "cached" if cache.read_record(p.entry(m), META, tidy=False) is not None else \
                "cut" if p.of[m.name].stored[m.scene] is not None else "render"
            lines.append(f"{m.name}: {m.scene} [{', '.join(m.beats)}] at "
                         f"{', '.join(m.settings) or 'its defaults'}: {how} at {width}x{height}, "
                         f"{fps} fps -> {p.out / CLIPS / (m.name + '.mp4')}")
        return [*lines, f"would write {p.out / 'index.html'} and {p.out / data.NAME} "
                        f"({len(p.data['states'])} settings)"]

    def space(self, p: DemoPlan) -> dict[str, int]:
        todo = {q.keys[sc.__name__]: q.seconds[sc.__name__] for q in p.plans
                for sc in q.chosen if q.stored[sc.__name__] is None}
        return space.needs(p.quality, sum(todo.values()),
                           sum(q.total_seconds() for q in p.plans))

    def writes_into(self, p: DemoPlan) -> list[Path]:
        return [p.out, p.out / CLIPS]

    def lock(self, p: DemoPlan) -> None:
        super().lock(p.plans[0])
        files.clear_partials(*self.writes_into(p))

    def make(self, p: DemoPlan) -> Made:
        """Render the scenes missing from the cache, cut the clips, and publish them with
        the data and the page (production/written.py: whole, and over no file the project
        did not write)."""
        records, peaks = pipeline.render_plans(p.plans, [_label(q) for q in p.plans])
        built = p.data
        with written.publishing(p.out, last="index.html") as stage:
            for m, shown in zip(p.moments(), built["moments"]):
                q = p.of[m.name]
                entry = p.entry(m)
                record = cache.read_record(entry, META)  # every file's hash checked: once
                if record is None:
                    key = q.keys[m.scene]
                    result = q.stored[m.scene] if key not in records else \
                        SceneOutput.from_json(records[key], q.entry(m.scene))
                    clip(result, m, p.quality, entry)
                    record = cache.read_record(entry, META)
                for suffix in (".mp4", ".vtt"):
                    target = stage / CLIPS / f"{m.name}{suffix}"
                    target.parent.mkdir(exist_ok=True)
                    shutil.copyfile(entry / f"clip{suffix}", target)
                # shown before it plays: where the moment ends, as the bars show it
                slides.poster(entry / "clip.mp4", stage / CLIPS / f"{m.name}.png")
                shown["video"] = f"{CLIPS}/{m.name}.mp4"
                shown["poster"] = f"{CLIPS}/{m.name}.png"
                shown["captions"] = captions.read_vtt(
                    (entry / "clip.vtt").read_text(encoding="utf-8"))
                shown["seconds"] = record["seconds"]
                print(f"{m.name}: {m.scene} [{', '.join(m.beats)}] {shown['seconds']:.1f} s "
                      f"-> {p.out / CLIPS / (m.name + '.mp4')}", flush=True)
            (stage / data.NAME).write_text(data.text(built), encoding="utf-8")
            (stage / "index.html").write_text(page.render(built, p.chapter.palette, self.back),
                                              encoding="utf-8")
        return Made(peaks, len(p.plans))

    def summary(self, p: DemoPlan, made: Made, started: float) -> str:
        drawn = f"rendered {len(made.peaks)} scene(s)" if made.peaks else "no scene to render"
        return (f"demo: {len(p.data['states'])} settings, {len(p.data['moments'])} narrated "
                f"moments; {drawn} in {time.monotonic() - started:.1f} s -> "
                f"{p.out / 'index.html'}")

    def keep(self, p: DemoPlan) -> None:
        cache.mark_used([*(q.entry(sc.__name__) for q in p.plans for sc in q.chosen),
                         *(p.entry(m) for m in p.moments())])
        cache.prune()


def _label(q: pipeline.Plan) -> str:
    """A plan's scene and settings, in the progress display."""
    return ", ".join(f"{section}.{k}={v}" for section, values in sorted(q.settings.items())
                     for k, v in sorted(values.items()))
