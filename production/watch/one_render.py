"""One render of a watched scene, in a process forked from the watch: the project's
modules imported afresh, the scene rendered through the beat cache with its key frames,
and what the page shows (or the error, with the author's file and line) as result.json."""

from __future__ import annotations

import json
import os
import shutil
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production import files, paths

RESULT = "result.json"


@dataclass
class Spec:
    """What one watch renders."""

    chapter: str
    scene: str
    frame: str
    quality: str
    language: str = "en"
    draft: bool = False  # --draft-language: English where the translation has a gap



def _forget_project() -> None:
    """Forget every module of the project (not the libraries in its .venv), so the next
    import reads the files as they are now."""
    root = paths.ROOT.resolve()
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if not where or name == "__main__":
            continue
        path = Path(where).resolve()
        if path.is_relative_to(root) and not path.relative_to(root).parts[0].startswith("."):
            del sys.modules[name]


def render_here(spec: Spec, target: Path) -> None:
    """In the forked process: render the scene into ``target`` and write result.json
    there (what the page shows, or the error with its file and line)."""
    from production import workers

    workers._become_worker(os.getppid())
    _forget_project()
    try:
        result = _render(spec, target)
    except SyntaxError as error:
        result = {"ok": False, "error": {"file": _shown(error.filename), "line": error.lineno,
                                         "message": f"SyntaxError: {error.msg}"}}
    except BaseException as error:  # shown on the page; the watch goes on
        result = {"ok": False, "error": _described(error)}
    files.write_text(target / RESULT, json.dumps(result, indent=1))


def _shown(filename: str | None) -> str | None:
    """A file's path as the author knows it: from the project's folder when inside."""
    if not filename:
        return None
    path = Path(filename).resolve()
    root = paths.ROOT.resolve()
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def _described(error: BaseException) -> dict[str, Any]:
    """The error's message, and the author's line it came from: the last frame of the
    traceback in the project's own files, outside production/ when there is one."""
    from production.errors import UsageError

    frames = traceback.extract_tb(error.__traceback__)
    root = paths.ROOT.resolve()
    ours = [f for f in frames if Path(f.filename).resolve().is_relative_to(root)
            and not Path(f.filename).resolve().relative_to(root).parts[0].startswith(".")]
    authored = [f for f in ours if Path(f.filename).resolve().relative_to(root).parts[0]
                not in ("production",)]
    where = (authored or ours or [None])[-1]
    if isinstance(error, UsageError) or where is None:
        return {"file": None, "line": None, "message": str(error) or type(error).__name__}
    return {"file": _shown(where.filename), "line": where.lineno,
            "message": f"{type(error).__name__}: {error}",
            "trace": "".join(traceback.format_exception(error)[-12:])}


def _render(spec: Spec, target: Path) -> dict[str, Any]:
    """Render the scene (its beats from the beat cache where unchanged) with key frames;
    its video, captions and key frames linked into ``target``; what the page shows."""
    from production import pipeline
    from production.chapters import discover, pick
    from production.scene_output import SceneOutput

    chapter = pick(discover("scenes", paths.ROOT / "scenes"), spec.chapter).in_language(
        spec.language, draft=spec.draft)
    frames = target / "frames"
    plan = pipeline.plan(chapter, scenes=[spec.scene], quality=spec.quality, settings=[],
                         out=str(target), default_out=target, jobs=1, keyframes=str(frames),
                         layout=spec.frame)
    try:
        record, _ = pipeline.render_job(pipeline.task(plan, chapter.scene(spec.scene)))
    finally:
        plan.close()
    done = SceneOutput.from_json(record, plan.entry(spec.scene))
    for path in done.files():
        if path.suffix in (".mp4", ".vtt"):
            _link(path, target / path.name)
    text = {p.beat: p.text for p in done.passages}
    keyframes = {p.name.split("-", 2)[2][:-4]: f"frames/{p.name}"
                 for p in sorted(frames.glob(f"{spec.scene}-*.png"))}
    starts = list(done.beat_starts.items())
    beats = [{"name": name, "start": round(start, 3),
              "end": round(starts[i + 1][1] if i + 1 < len(starts) else done.seconds, 3),
              "text": text.get(name, ""), "keyframe": keyframes.get(name),
              "marks": [m for m in done.layout_marks if m["beat"] == name]}
             for i, (name, start) in enumerate(starts)]
    drawn = record.get("drawn_beats") or []
    return {"ok": True, "first_changed": drawn[0] if drawn else None,
            "summary": f"{len(drawn)} of {len(beats)} beats drawn",
            "current": {"video": f"{spec.scene}.mp4",
                        "captions": f"{spec.scene}.vtt" if done.cues else None,
                        "seconds": done.seconds, "beats": beats, "drawn": drawn,
                        "problems": done.layout_problems + done.timing_problems}}


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
