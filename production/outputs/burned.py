"""Captions burned into a short, word by word: an ASS script that ffmpeg's libass draws.

Two or three words at a time in a band above the bottom safe zone, the word being said
in the highlight colour. Every word stays inside the frame's side margins: a word too
wide for them at the usual size is drawn smaller (an ``\\fs`` override for its group),
down to half the size, and one too wide even then is broken over lines. Widths are
measured with the font file libass draws with (DejaVu Sans Bold) at libass's scale.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from production.timings import Word

MOST_WORDS = 3  # burned in at a time
MOST_LETTERS = 16  # a group longer than this is cut shorter: one line on a phone
PAUSE = 0.35  # a gap this long between words starts a new group
HOLD = 0.4  # a group stays up this long after its last word, unless the next comes
FONT = "DejaVu Sans"
FONT_FILE = "DejaVuSans-Bold.ttf"  # what fontconfig gives libass for FONT in bold
MARGIN = 0.08  # of the frame's width, each side: no letter is drawn nearer the edge


@dataclass(frozen=True)
class Band:
    """Where a frame's captions go: their font size as a share of the frame's width, and
    the bottom of their band (descenders included) as a share of its height, just above
    the zone the apps draw over (scenes/frame.py keeps the band free of pictures)."""

    font: float
    bottom: float


#: tall: 86 px at 1080x1920, 1.5 % above the bottom 20 %; square: 76 px at 1080x1080,
#: just above the bottom 5 %
BANDS = {"tall": Band(font=0.08, bottom=0.215), "square": Band(font=0.07, bottom=0.055)}
SMALLEST = 0.5  # of the usual size: a long word is shrunk at most this far, then broken
INK = "FFFFFF"  # the captions' white, and the spoken word's highlight (the weight colour)
HIGHLIGHT = "FFD54A"


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
               end: float, frame: str = "tall") -> str:
    """The burned-in captions as an ASS script for a frame of ``size`` pixels: each group
    from its first word's onset, shown until its last word ends (held at most HOLD, never
    into the next group), the word being said in the highlight colour. Every change
    falls half a frame before the first frame at or after its moment, so each shows on
    exactly that frame (libass reads a frame's time in whole milliseconds, rounded down:
    a change stamped on a frame's own time can miss it). ``frame`` ("tall" or "square")
    says where the band is (:data:`BANDS`)."""
    width, height = size
    font = round(width * BANDS[frame].font)
    outline = max(2, round(font * 0.09))
    margin = round(width * MARGIN)
    margin_v = round(height * BANDS[frame].bottom)
    lines = [
        "[Script Info]", "ScriptType: v4.00+", f"PlayResX: {width}", f"PlayResY: {height}",
        "WrapStyle: 0", "ScaledBorderAndShadow: yes", "",
        "[V4+ Styles]",
        "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
        "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
        "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
        f"Style: Words,{FONT},{font},{_colour(INK)},{_colour(INK)},&H00000000,&H80000000,"
        f"-1,0,0,0,100,100,0,0,1,{outline},0,2,{margin},{margin},{margin_v},1",
        "", "[Events]",
        "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ]
    every = [g for passage in passages for g in groups(passage)]
    for n, group in enumerate(every):
        later = every[n + 1][0].start if n + 1 < len(every) else end
        group_end = min(max(group[-1].end, group[0].start) + HOLD, later, end)
        # the letters may use the width between the margins, less the outline each side
        scale, shown = fit([_plain(w.text) for w in group], font, width - 2 * margin
                           - 2 * outline)
        sized = "" if scale == font else f"{{\\fs{scale}}}"
        for k, word in enumerate(group):
            start = group[0].start if k == 0 else word.start
            stop = group[k + 1].start if k + 1 < len(group) else group_end
            start, stop = _between(start, fps), _between(stop, fps)
            if stop <= start:
                continue  # said between two frames: never on screen alone
            text = " ".join(
                f"{{\\c{_colour(HIGHLIGHT)}}}{w}{{\\c{_colour(INK)}}}" if i == k else w
                for i, w in enumerate(shown))
            lines.append(f"Dialogue: 0,{_stamp(start)},{_stamp(stop)},Words,,0,0,0,,"
                         f"{sized}{text}")
    return "\n".join(lines) + "\n"


def fit(words: list[str], font: int, room: float) -> tuple[int, list[str]]:
    """The font size a group is drawn at and its words as drawn, so that no word is wider
    than ``room`` pixels (libass wraps a group between its words, never inside one): the
    usual ``font`` when every word fits; else smaller, down to SMALLEST of it; a word
    still too wide is broken into lines (``\\N``) that fit."""
    widest = max((text_width(w, font) for w in words), default=0.0)
    if widest <= room:
        return font, words
    size = max(math.floor(font * room / widest), math.ceil(font * SMALLEST))
    return size, [_broken(w, size, room) for w in words]


def _broken(word: str, size: int, room: float) -> str:
    """``word`` broken into lines (ASS ``\\N``) each at most ``room`` pixels wide at ``size``."""
    pieces = [""]
    for letter in word:
        if pieces[-1] and text_width(pieces[-1] + letter, size) > room:
            pieces.append("")
        pieces[-1] += letter
    return "\\N".join(pieces)


def text_width(text: str, size: float) -> float:
    """How wide libass draws ``text`` (one line, no outline) at ASS font size ``size``, in
    pixels. libass sizes a font by its height (ascender plus descender), not its em, so
    the width is the font's advance at 1000 px scaled by size / (ascent + descent). When
    the font file cannot be found, every letter is taken to be as wide as the widest."""
    face = _face()
    if face is None:
        return len(text) * size * _WIDEST
    ascent, descent = face.getmetrics()
    # a little room for shaping that differs from Pillow's (kerning, hinting)
    return face.getlength(text) * size / (ascent + descent) * 1.02


_WIDEST = 1.0  # of the font size: wider than any letter of DejaVu Sans Bold (W: 0.95)


@functools.lru_cache(maxsize=1)
def _face() -> Any:
    from PIL import ImageFont

    try:  # Pillow looks the file up in the system's font folders, as fontconfig does
        return ImageFont.truetype(FONT_FILE, 1000)
    except OSError:
        return None


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
