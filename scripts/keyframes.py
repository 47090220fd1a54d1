"""Key frames to look at: the last frame of every beat of the named scenes, in every
frame kind asked for, as PNG, with the layout checks' findings printed.

    .venv/bin/python scripts/keyframes.py SCENE [SCENE ...] [--frame wide tall square]
        [--chapter attention] [--quality preview] [--out keyframes/]

Writes OUT/FRAME/SCENE-NN-BEAT.png. Nothing is encoded, so it takes seconds a scene.
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
    for frame in args.frame:
        for name in names:
            with tempfile.TemporaryDirectory() as media:
                scene = construct_scene(chapter, chapter.scene(name), args.quality, settings,
                                        Path(media), video=False,
                                        keyframes=args.out / frame, layout=frame,
                                        credits=voices.credits(voices.DEFAULT_VOICE))
            for problem in scene.layout_problems + scene.timing_problems:
                print(f"{frame} {name}: {problem}")
                problems += 1
    print(f"key frames in {args.out}/; {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
