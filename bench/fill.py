"""How much of the frame the pictures fill: prints figures, asserts nothing.

Renders the chapter (or the named scenes) at preview quality (wide: `render.py render`;
tall or square: `render.py shorts --frame F --no-burn`, so captions do not count as
pictures), samples every clip every few seconds, and measures the box around everything
drawn (pixels that differ from the background). It prints, per frame kind, the median and the tenth
percentile of that box's area as a share of the room the pictures may take: the whole
frame when wide; tall and square, the area between the top zone the apps draw over and
the band kept for the captions (scenes/frame.py). Also the scenes with the emptiest
samples, to say where to look.

    .venv/bin/python bench/fill.py [--frame wide tall square] [--every 3] [--out DIR]
    .venv/bin/python bench/fill.py --chapter decoder --scenes DecoderQuestion --every 1

With --out, the renders go into DIR (and are reused when they are there: --reuse).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from production.chapters import load  # noqa: E402
from production.qualities import QUALITIES  # noqa: E402
from scenes.frame import FRAMES  # noqa: E402

THRESHOLD = 40  # an RGB channel this far from the background's is drawn
SPECKS = 3  # rows or columns with fewer drawn pixels than this are noise (antialiasing)


def render(frame: str, out: Path, chapter: str = "attention", scenes: list[str] | None = None,
           quality: str = "preview") -> list[Path]:
    """The clips of ``chapter`` (its ``scenes``, default all) in ``frame`` at ``quality``,
    rendered into ``out``."""
    chosen = [*(scenes or []), "--chapter", chapter, "--quality", quality, "--out", str(out)]
    if frame == "wide":
        args = ["render", *chosen]
    else:
        args = ["shorts", *chosen, "--frame", frame, "--no-burn"]
    run = subprocess.run([sys.executable, "render.py", *args], cwd=ROOT, text=True,
                         capture_output=True)
    if run.returncode != 0:
        sys.exit(f"fill: render.py {' '.join(args)} failed:\n{run.stderr[-2000:]}")
    return clips(frame, out, scenes)


def clips(frame: str, out: Path, scenes: list[str] | None = None) -> list[Path]:
    """The clips a render of ``scenes`` (default: the whole chapter) made in ``out``."""
    if frame == "wide":
        # with scenes named, render.py makes no chapter.mp4: the scenes' own files
        return [out / "scenes" / f"{name}.mp4" for name in scenes] if scenes else \
            [out / "chapter.mp4"]
    listing = json.loads((out / "shorts.json").read_text(encoding="utf-8"))
    return [out / c["file"] for c in listing["clips"] if c.get("frame", "tall") == frame]


def room(frame: str, width: int, height: int) -> tuple[int, int, int, int]:
    """(left, right, top, bottom) in pixels of the room the pictures may take."""
    f = FRAMES[frame]
    if frame == "wide":
        return 0, width, 0, height
    per_unit = height / f.height
    _, _, bottom, top = f.area()
    return 0, width, round((f.height / 2 - top) * per_unit), round((f.height / 2 - bottom)
                                                                     * per_unit)


def samples(path: Path, every: float):
    """(seconds, RGB picture) every ``every`` seconds of the clip."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        due = every / 2
        for picture in container.decode(stream):
            if picture.time is not None and picture.time >= due:
                yield picture.time, picture.to_ndarray(format="rgb24")
                due += every


def filled(picture: np.ndarray, box: tuple[int, int, int, int], colour: str) -> float:
    """The share of ``box`` covered by the box around everything drawn inside it (what is
    not the background ``colour``, "#RRGGBB")."""
    left, right, top, bottom = box
    background = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)])
    part = picture[top:bottom, left:right].astype(int)
    drawn = np.abs(part - background).max(axis=2) > THRESHOLD
    rows = np.nonzero(drawn.sum(axis=1) >= SPECKS)[0]
    columns = np.nonzero(drawn.sum(axis=0) >= SPECKS)[0]
    if len(rows) == 0 or len(columns) == 0:
        return 0.0
    area = (rows[-1] - rows[0] + 1) * (columns[-1] - columns[0] + 1)
    return area / ((bottom - top) * (right - left))


def scene_at(path: Path, seconds: float) -> tuple[str, float]:
    """The scene playing ``seconds`` into ``path`` and the seconds into that scene: from
    the bundle's manifest for the chapter, the clip itself for a short."""
    manifest = path.parent / "manifest.json"
    if path.name != "chapter.mp4" or not manifest.exists():
        return path.stem, seconds
    scenes = json.loads(manifest.read_text(encoding="utf-8"))["scenes"]
    playing = [s for s in scenes if s["start"] <= seconds] or scenes[:1]
    return playing[-1]["name"], seconds - playing[-1]["start"]


def measure(frame: str, paths: list[Path], every: float, background: str
            ) -> list[tuple[str, float, float]]:
    """(scene, seconds into it, share filled) of every sample."""
    found = []
    for path in paths:
        for seconds, picture in samples(path, every):
            height, width = picture.shape[:2]
            found.append((*scene_at(path, seconds),
                          filled(picture, room(frame, width, height), background)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chapter", default="attention", metavar="NAME",
                        help="the chapter, from `render.py list` (default: attention)")
    parser.add_argument("--scenes", nargs="*", default=[], metavar="SCENE",
                        help="only these (default: the whole chapter)")
    parser.add_argument("--quality", default="preview", choices=list(QUALITIES))
    parser.add_argument("--frame", nargs="+", choices=list(FRAMES), default=["wide", "tall"])
    parser.add_argument("--every", type=float, default=3.0, help="seconds between samples")
    parser.add_argument("--out", type=Path, help="render into DIR/FRAME (kept)")
    parser.add_argument("--reuse", action="store_true",
                        help="measure what is in --out without rendering again")
    args = parser.parse_args()
    background = load(f"scenes.{args.chapter}.chapter").palette.BACKGROUND
    with tempfile.TemporaryDirectory() as scratch:
        base = args.out or Path(scratch)
        for frame in args.frame:
            out = base / frame
            paths = (clips(frame, out, args.scenes) if args.reuse else
                     render(frame, out, args.chapter, args.scenes, args.quality))
            found = measure(frame, paths, args.every, background)
            shares = np.array([share for _, _, share in found])
            print(f"{frame}: {len(shares)} samples every {args.every:g} s; filled: median "
                  f"{np.median(shares):.0%}, tenth percentile {np.percentile(shares, 10):.0%}, "
                  f"least {shares.min():.0%}")
            emptiest = sorted(found, key=lambda f: f[2])[:max(1, len(found) // 10)]
            print("  the emptiest tenth: " + ", ".join(f"{name} at {seconds:.0f} s ({share:.0%})"
                                            for name, seconds, share in emptiest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
