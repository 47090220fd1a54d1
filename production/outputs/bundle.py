"""The publish bundle: chapter list, thumbnail and manifest (every file written whole:
production/files.py)."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from production import files

MIN_CHAPTER = 10.0  # seconds: the shortest chapter a video site accepts
MAX_TITLE = 49
THUMBNAIL_SIZE = (1280, 720)


# ----------------------------------------------------------------- chapters.txt


@dataclass(frozen=True)
class Chapter:
    start: float  # seconds
    seconds: float
    title: str


def timestamp(seconds: float) -> str:
    whole = int(seconds)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def shortened(title: str, most: int = MAX_TITLE) -> str:
    """``title`` as a chapter list shows it: whole, or cut after its last whole word that
    fits in ``most`` characters, with an ellipsis."""
    if len(title) <= most:
        return title
    cut = title[:most - 1].rsplit(" ", 1)[0].rstrip(" ,;:.-")
    return (cut or title[:most - 1]) + "…"


def chapters(parts: list[tuple[str, float]]) -> list[Chapter]:
    """Chapters from (title, seconds) of each scene in order.

    A scene shorter than MIN_CHAPTER is joined to the scene after it (the last
    to the one before it), so every chapter meets the video sites' minimum.
    """
    items, t = [], 0.0
    for title, seconds in parts:
        items.append(Chapter(t, seconds, shortened(title)))
        t += seconds
    merged = True
    while merged and len(items) > 1:
        merged = False
        for i, c in enumerate(items):
            if c.seconds < MIN_CHAPTER:
                j = i + 1 if i + 1 < len(items) else i - 1
                a, b = sorted((i, j))
                items[a:b + 1] = [Chapter(items[a].start, items[a].seconds + items[b].seconds,
                                          items[j].title)]
                merged = True
                break
    return items


def chapters_text(items: list[Chapter]) -> str:
    """The description block: one `0:00 Title` line per chapter."""
    return "".join(f"{timestamp(c.start)} {c.title}\n" for c in items)


# ----------------------------------------------------------------- thumbnail


def _bold_font() -> str:
    found = subprocess.run(["fc-match", "-f", "%{file}", "DejaVu Sans:bold"],
                           capture_output=True, text=True)
    return found.stdout.strip() or "DejaVuSans-Bold.ttf"


def frame_at(video: Path, seconds: float) -> Any:
    """The decoded frame of ``video`` nearest after ``seconds``, as a PIL image."""
    import av

    with av.open(str(video)) as container:
        stream = container.streams.video[0]
        container.seek(int(seconds / stream.time_base), stream=stream, backward=True)
        last = None
        for frame in container.decode(stream):
            last = frame
            if frame.time is not None and frame.time >= seconds:
                break
        return last.to_image()


def thumbnail(video: Path, seconds: float, target: Path, title: str) -> Path:
    """A 1280x720 JPEG: the chapter's title on a band, the frame at ``seconds`` below it."""
    from PIL import Image, ImageDraw, ImageFont

    from core import palette

    width, height = THUMBNAIL_SIZE
    margin, band = 40, 150
    canvas = Image.new("RGB", THUMBNAIL_SIZE, palette.rgb(palette.BACKGROUND))
    draw = ImageDraw.Draw(canvas)
    size = 72
    while True:  # the largest type that fits the width
        font = ImageFont.truetype(_bold_font(), size)
        box = draw.textbbox((0, 0), title, font=font)
        if box[2] - box[0] <= width - 2 * margin or size <= 24:
            break
        size -= 2
    draw.text(((width - (box[2] - box[0])) / 2 - box[0], (band - (box[3] - box[1])) / 2 - box[1]),
              title, font=font, fill=palette.rgb(palette.INK))
    frame = frame_at(video, seconds).convert("RGB")
    scale = min((width - 2 * margin) / frame.width, (height - band - margin / 2) / frame.height)
    frame = frame.resize((round(frame.width * scale), round(frame.height * scale)), Image.LANCZOS)
    canvas.paste(frame, ((width - frame.width) // 2, band))
    with files.writing(target) as partial:
        canvas.save(partial, "JPEG", quality=88, optimize=True)
    return target


# ----------------------------------------------------------------- manifest


def versions() -> dict[str, str]:
    return {p: metadata.version(p) for p in ("manim", "numpy", "pydub")}


def manifest(data: dict[str, Any], target: Path) -> Path:
    text = json.dumps(data, indent=1, ensure_ascii=False, allow_nan=False)
    return files.write_text(target, text + "\n")
