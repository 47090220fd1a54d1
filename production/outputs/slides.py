"""Clips for slides: every scene as files that presentation tools take as they are.

For each scene, out/slides/ gets:
  SCENE.mp4            H.264 + AAC, faststart, with the scene's narration
  SCENE-silent.mp4     the same picture without sound
  SCENE-alpha.webm     VP9 with alpha (transparent background), Opus sound: browser decks
  SCENE-alpha.mov      ProRes 4444 with alpha, PCM sound: Keynote and video editors
  SCENE.gif            a looping preview under 8 MB, palette-optimised
  SCENE.png            the poster frame (the scene's last frame)
  SCENE.srt/.vtt       its captions
and once: deck.html (plays the scenes as slides), deck.pptx, index.json.

Each format is one registered writer, chosen by name (after manim-slides'
converters): ``@writer("gif")`` for a file per scene, ``@deck_writer("pptx")`` for
a file per set. :func:`assemble` runs every writer in the order registered, then
writes index.json, which lists what they wrote.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from production import cache, ffmpeg, files, space, voices, written
from production.language import _
from production.outputs import bundle, deck_html, deck_pptx
from production.pipeline import (
    VARIANTS,
    Plan,
    SceneTask,
    ensure_scenes,
    peak_memory,
    render_missing,
)
from production.run import Made, Output
from production.scene_output import (
    META,
    Draw,
    SceneOutput,
    building,
    draw_and_mix,
    store,
    video_seconds,
)

GIF_LIMIT = 8 * 1024 * 1024  # bytes
GIF_STEPS = ((640, 12), (480, 10), (400, 8), (320, 6))  # (width px, fps), tried in turn


# ----------------------------------------------------------------- transparent clips


def alpha_files(folder: Path, name: str) -> tuple[Path, Path]:
    return folder / f"{name}-alpha.webm", folder / f"{name}-alpha.mov"


def produce_alpha(chapter: Any, scene_class: Any, entry: Path, render: Draw, *,
                  narrate: bool, settings: dict[str, Any] | None = None,
                  voice: voices.VoiceEngine = voices.DEFAULT_VOICE) -> dict[str, Any]:
    """The scene on a transparent background as VP9-alpha WebM and ProRes 4444 MOV.

    ``render`` must draw with a transparent background (Manim writes lossless
    QuickTime Animation with alpha); both clips are encoded from it, with the
    same narration mix as the opaque clip.
    """
    name = scene_class.__name__
    with building(entry) as work:
        d = draw_and_mix(chapter, scene_class, work, render, narrate=narrate, settings=settings,
                         voice=voice)
        webm, mov = alpha_files(work, name)
        ffmpeg.run("-i", str(d.silent), "-i", str(d.sound), "-map", "0:v:0", "-map", "1:a:0",
                "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "34",
                "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                "-auto-alt-ref", "0", "-c:a", "libopus", "-b:a", "128k", str(webm))
        ffmpeg.run("-i", str(d.silent), "-i", str(d.sound), "-map", "0:v:0", "-map", "1:a:0",
                "-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le",
                "-vendor", "apl0", "-c:a", "pcm_s16le", str(mov))
        d.sound.unlink()
        meta = {"name": name, "seconds": d.seconds}
        store(work, entry, meta)
    return meta


def load_alpha(entry: Path, name: str) -> bool:
    """Whether ``entry`` holds the scene's transparent clips, whole (a broken entry is
    deleted)."""
    return cache.read_record(entry, META) is not None and \
        all(f.exists() for f in alpha_files(entry, name))


# ----------------------------------------------------------------- derived files


def silent_copy(video: Path, target: Path) -> None:
    with files.writing(target) as partial:
        ffmpeg.run("-i", str(video), "-map", "0:v:0", "-c:v", "copy", "-an", "-movflags",
                "+faststart", "-f", "mp4", str(partial))


def poster(video: Path, target: Path) -> None:
    """The last frame of ``video`` as PNG."""
    seconds = video_seconds(video)
    image = bundle.frame_at(video, max(0.0, seconds - 0.05))
    with files.writing(target) as partial:
        image.save(partial, "PNG")


def gif(video: Path, target: Path) -> None:
    """A looping, palette-optimised GIF under 8 MB (smaller and slower until it fits)."""
    with tempfile.TemporaryDirectory() as tmp:
        trial = Path(tmp) / "clip.gif"
        for width, fps in GIF_STEPS:
            ffmpeg.run("-i", str(video), "-filter_complex",
                    f"fps={fps},scale={width}:-2:flags=lanczos,split[a][b];"
                    "[a]palettegen=max_colors=128:stats_mode=diff[p];"
                    "[b][p]paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle",
                    "-loop", "0", str(trial))
            if trial.stat().st_size < GIF_LIMIT:
                break
        files.publish(trial, target)


# ----------------------------------------------------------------- writers

#: writes one scene's files: (scene class, its finished opaque output, the folder of
#: its transparent clips, the slides folder) -> the files it wrote in the slides folder
SceneWriter = Callable[[Any, SceneOutput, Path, Path], list[Path]]
#: writes a file for the whole set: (a slide per scene, the slides folder) -> its files
DeckWriter = Callable[[list[deck_html.Slide], Path], list[Path]]

#: every scene's output formats by name, in the order they are written
WRITERS: dict[str, SceneWriter] = {}
#: the files written once for the set, after every scene's, by name, in order
DECK_WRITERS: dict[str, DeckWriter] = {}


def _register(registry: dict[str, Any], name: str) -> Callable[[Any], Any]:
    def add(function: Any) -> Any:
        if name in registry:
            raise ValueError(f"a slides writer named {name!r} is already registered")
        registry[name] = function
        return function
    return add


def writer(name: str) -> Callable[[SceneWriter], SceneWriter]:
    """Register a per-scene output format: ``@writer("gif")`` over a SceneWriter."""
    return _register(WRITERS, name)


def deck_writer(name: str) -> Callable[[DeckWriter], DeckWriter]:
    """Register a file for the whole set: ``@deck_writer("pptx")`` over a DeckWriter."""
    return _register(DECK_WRITERS, name)


def copies(name: str, sources: Callable[[SceneOutput, Path], list[Path]],
           what: str) -> SceneWriter:
    """Register a format the render already made: ``sources(result, alpha folder)`` are
    copied into the slides folder under their own names."""
    def write(scene_class: Any, result: SceneOutput, alpha: Path, out: Path) -> list[Path]:
        return [files.publish(source, out / source.name) for source in sources(result, alpha)]

    write.__doc__ = what
    return writer(name)(write)


def derives(name: str, suffix: str, make: Callable[[Path, Path], None],
            what: str) -> SceneWriter:
    """Register a format made from the scene's MP4: ``make(video, target)`` writes
    SCENE``suffix`` in the slides folder."""
    def write(scene_class: Any, result: SceneOutput, alpha: Path, out: Path) -> list[Path]:
        target = out / f"{result.name}{suffix}"
        make(result.video, target)
        return [target]

    write.__doc__ = what
    return writer(name)(write)


copies("mp4", lambda result, alpha: [result.video],
       "SCENE.mp4: the scene as rendered, H.264 + AAC with its narration.")
derives("silent-mp4", "-silent.mp4", silent_copy, "SCENE-silent.mp4: the picture, no sound.")
copies("alpha-webm", lambda result, alpha: [alpha_files(alpha, result.name)[0]],
       "SCENE-alpha.webm: VP9 with a transparent background, for browser decks.")
copies("alpha-mov", lambda result, alpha: [alpha_files(alpha, result.name)[1]],
       "SCENE-alpha.mov: ProRes 4444 with alpha, for Keynote and video editors.")
derives("gif", ".gif", gif, "SCENE.gif: a looping preview under 8 MB.")
derives("poster", ".png", poster,
        "SCENE.png: the poster frame (the decks show it before the clip plays).")
copies("captions", lambda result, alpha: result.captions,
       "SCENE.srt and SCENE.vtt (none for a silent render).")


@deck_writer("html")
def write_html(slides: list[deck_html.Slide], out: Path, title: str) -> list[Path]:
    """deck.html: the scenes as slides in a browser, from disk."""
    return [deck_html.write_deck(slides, out / "deck.html", title)]


@deck_writer("pptx")
def write_pptx(slides: list[deck_html.Slide], out: Path, title: str) -> list[Path]:
    """deck.pptx: a PowerPoint slide per scene, clip, poster frame and speaker notes."""
    return [deck_pptx.write_pptx(slides, out, out / "deck.pptx", title)]


# ----------------------------------------------------------------- the slides folder


def slide(scene_class: Any, result: SceneOutput) -> deck_html.Slide:
    """What the decks show of one scene: its clip (SCENE.mp4), poster frame (SCENE.png),
    captions and narration as speaker notes."""
    name = result.name
    return deck_html.Slide(
        name=name, title=_(scene_class.title), video=f"{name}.mp4", poster=f"{name}.png",
        captions=[(c.start, c.end, "\n".join(c.lines)) for c in result.cues],
        notes=" ".join(p.text for p in result.passages), seconds=result.seconds)


def assemble(scenes: list[tuple[Any, SceneOutput, Path]], out: Path,
             title: str, earlier: Path | None = None) -> dict[str, Any]:
    """Write every scene's files (WRITERS), the set's files (DECK_WRITERS, given the
    chapter's ``title``) and index.json into ``out``; returns the index.

    ``scenes`` holds (scene class, its finished opaque output, its alpha folder);
    ``earlier`` is the slides folder ``out`` is then published into, when it is not
    that folder itself (see :func:`write_index`).
    """
    out.mkdir(parents=True, exist_ok=True)
    slides, entries = [], []
    for scene_class, result, alpha in scenes:
        written = [path for write in WRITERS.values()
                   for path in write(scene_class, result, alpha, out)]
        slides.append(slide(scene_class, result))
        entries.append((result.name, result.seconds, written))
    for write in DECK_WRITERS.values():
        write(slides, out, title)
    return write_index(out, entries, earlier)


def media_seconds(path: Path) -> float | None:
    """Duration of a video or GIF in seconds (None for stills and text)."""
    import av

    if path.suffix not in (".mp4", ".webm", ".mov", ".gif"):
        return None
    with av.open(str(path)) as container:
        if container.duration is not None:
            return container.duration / av.time_base
        stream = container.streams.video[0]
        return float(stream.duration * stream.time_base) if stream.duration else None


def write_index(out: Path, scenes: list[tuple[str, float, list[Path]]],
                earlier: Path | None = None) -> dict[str, Any]:
    """index.json: every file of the slides folder with its duration (seconds, None for
    stills and text) and size (bytes); per scene, its length and the files its writers
    wrote. ``scenes`` holds (name, seconds, files written). With ``earlier`` (the slides
    folder ``out`` is published into), the files an earlier run wrote there are listed
    too, not those of anyone else."""
    found = {p.name: p for p in out.iterdir() if p.is_file()}
    if earlier is not None:
        found = {name: earlier / name for name in written.recorded(earlier)
                 if "/" not in name and (earlier / name).is_file()} | found
    listed = [found[name] for name in sorted(found)
              if not name.startswith(".") and name != "index.json"]
    index = {
        "scenes": [{"name": n, "seconds": s, "files": sorted(p.name for p in written)}
                   for n, s, written in scenes],
        "files": [{"name": p.name, "bytes": p.stat().st_size, "seconds": media_seconds(p)}
                  for p in listed],
    }
    text = json.dumps(index, indent=1, allow_nan=False)
    files.write_text(out / "index.json", text + "\n")
    return index


# ----------------------------------------------------------------- the output


ALPHA = "-alpha"  # the cache variant holding a scene's transparent clips
VARIANTS[ALPHA] = (__name__,)


def alpha_job(task: SceneTask) -> tuple[dict[str, Any], int]:
    """Worker process: the scene's transparent clips into its cache entry."""
    return task.draw(produce_alpha, transparent=True), peak_memory()


class SlidesOutput(Output):
    """`render.py slides`: every chosen scene as clips for slides (opaque and transparent),
    with the decks and index.json, into out/slides/."""

    folder = "slides"
    variants = ("", ALPHA)

    def dry_run(self, plan: Plan) -> list[str]:
        return [f"slides for {sc.__name__} -> {plan.out}" for sc in plan.chosen]

    def space(self, plan: Plan) -> dict[str, int]:
        # the transparent clips: lossless in the cache, VP9 and ProRes in out/, besides
        # the silent copy, the GIF and the poster
        todo, total = plan.missing_seconds(), plan.total_seconds()
        return space.needs(plan.quality, todo, total,
                           cache=space.ALPHA * space.picture(plan.quality, todo),
                           out=(space.ALPHA / 2 + 3) * space.picture(plan.quality, total))

    def make(self, plan: Plan) -> Made:
        results, peaks = ensure_scenes(plan)
        missing = [sc for sc in plan.chosen
                   if not load_alpha(plan.entry(sc.__name__, ALPHA), sc.__name__)]
        _, alpha_peaks = render_missing(plan, missing, alpha_job, variant=ALPHA,
                                        label="{} (transparent)")
        with written.publishing(plan.out, last="index.json") as stage:
            index = assemble([(sc, results[sc.__name__], plan.entry(sc.__name__, ALPHA))
                              for sc in plan.chosen], stage, plan.chapter.title, plan.out)
        return Made(peaks + alpha_peaks, 2 * len(plan.chosen),
                    [f"slides: {len(index['files'])} files for {len(plan.chosen)} scenes "
                     f"-> {plan.out}"])
