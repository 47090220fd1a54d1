"""The chapter's colours, as hex strings: one palette for the scenes, the decks and the thumbnail.

Plain strings and the standard library only, never Manim: ``scenes/style.py``
wraps each colour for drawing (``ManimColor(palette.INK)``), and production/
reads them as they are for the HTML deck, the PowerPoint deck and the
thumbnail. Colours are given per role, so a query is the same colour everywhere.
"""

from __future__ import annotations

BACKGROUND = "#14161B"
INK = "#ECE8E1"  # ordinary text
MUTED = "#9AA0A8"  # captions, axes, secondary labels
FAINT = "#3A3F47"  # outlines, empty cells, guides

QUERY = "#F2A541"  # what a word asks for (amber)
KEY = "#4FB3BF"  # what a word offers (teal)
VALUE = "#B58BE0"  # what a word hands over (violet)
WEIGHT = "#F4D35E"  # a share of attention / light (warm yellow)

GOOD = "#7BC67B"  # came back as it went in
BAD = "#E5645B"  # came back wrong
ROOM = "#6C8EBF"  # the fixed room / throat
READER = "#6C8EBF"  # the encoder
WRITER = "#D98AA6"  # the decoder


def rgb(colour: str) -> tuple[int, int, int]:
    """A palette colour as 8-bit red, green, blue: '#14161B' -> (20, 22, 27)."""
    digits = colour.removeprefix("#")
    if len(digits) != 6:
        raise ValueError(f"not a #RRGGBB colour: {colour!r}")
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
