"""A moment's clip: its beats cut from its scene as a short is cut
(:func:`production.outputs.shorts.make_part`: levelled, a half-second tail, captions timed
from the voice's words), kept in the cache beside the scene under a variant named for the
beats, keyed by the scene's key and this code (not the page's: a new page cuts nothing).
"""

from __future__ import annotations

from pathlib import Path

from production import pipeline
from production.demo.spec import Moment
from production.outputs.shorts import Part, make_part
from production.scene_output import SceneOutput, building, store

VARIANT = "-demo"


def variant(m: Moment) -> str:
    """The cache variant of a clip of ``m``'s beats (registered on first use)."""
    name = f"{VARIANT}-{'-'.join(m.beats)}"
    pipeline.VARIANTS.setdefault(name, (__name__,))
    return name


def clip(result: SceneOutput, m: Moment, quality: str, entry: Path) -> None:
    """Cut ``m``'s beats from its scene into the cache entry: NAME.mp4, NAME.vtt."""
    starts = list(result.beat_starts)
    ends = {b: (result.beat_starts[starts[i + 1]] if i + 1 < len(starts) else result.seconds)
            for i, b in enumerate(starts)}
    begin = min(result.beat_starts[b] for b in m.beats)
    end = max(ends[b] for b in m.beats)
    with building(entry) as work:
        made = make_part(result, Part(1, 1, begin, end, m.beats), quality, False, work,
                         "wide")
        for suffix in (".mp4", ".vtt", ".srt"):
            (work / f"{made['name']}{suffix}").rename(work / f"clip{suffix}")
        store(work, entry, {"scene": m.scene, "beats": list(m.beats),
                            "seconds": made["seconds"]})
