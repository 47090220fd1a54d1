"""Key frames to look at: the last frame of every beat of the named scenes, in every
frame kind asked for, as PNG, with the layout checks' findings printed; and every join
between two of them that follow each other in the chapter.

    .venv/bin/python scripts/keyframes.py SCENE [SCENE ...] [--frame wide tall square]
        [--chapter attention] [--quality preview] [--out keyframes/]

Writes OUT/FRAME/SCENE-NN-BEAT.png, and OUT/FRAME/joins/NN-FIRST-SECOND.png: the first
scene's last frame beside the second's first, where the cut between them falls. Nothing is
encoded, so it takes seconds a scene.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from production import voices
    from production.chapters import discover, pick
    from production.drawing import construct_scene
    from scenes.frame import FRAMES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help="default: every scene")
    parser.add_argument("--frame", nargs="+", choices=list(FRAMES), default=list(FRAMES))
    parser.add_argument("--chapter", default="attention")
    parser.add_argument("--quality", default="preview")
    parser.add_argument("--set", dest="settings", action="append", default=[])
    parser.add_argument("--out", type=Path, default=Path("keyframes"))
    args = parser.parse_args()
    chapter = pick(discover("scenes", ROOT / "scenes"), args.chapter)
    names = args.scenes or [s.__name__ for s in chapter.scenes]
    settings = chapter.ledger.parse_settings(args.settings)
    problems = 0
    order = [s.__name__ for s in chapter.scenes]
    for frame in args.frame:
        ends: dict[str, tuple] = {}
        for name in names:
            with tempfile.TemporaryDirectory() as media:
                scene = construct_scene(chapter, chapter.scene(name), args.quality, settings,
                                        Path(media), video=False,
                                        keyframes=args.out / frame, layout=frame,
                                        credits=voices.credits(voices.DEFAULT_VOICE,
                                                               chapter.next_title()))
            for problem in scene.layout_problems + scene.timing_problems:
                print(f"{frame} {name}: {problem}")
                problems += 1
            ends[name] = (scene.opening, scene.closing)
        for k, (first, second) in enumerate(zip(order, order[1:]), 1):
            if first in ends and second in ends:
                path = args.out / frame / "joins" / f"{k:02d}-{first}-{second}.png"
                path.parent.mkdir(parents=True, exist_ok=True)
                side_by_side(ends[first][1], ends[second][0]).save(path)
    print(f"key frames in {args.out}/; {problems} problem(s)")
    return 1 if problems else 0


def side_by_side(left, right):
    """Two frames next to each other with a gap between them: a join to look at."""
    from PIL import Image

    gap = left.width // 40
    both = Image.new("RGB", (left.width + gap + right.width, left.height), "white")
    both.paste(left, (0, 0))
    both.paste(right, (left.width + gap, 0))
    return both


if __name__ == "__main__":
    sys.exit(main())
