"""The chapter's palette, font and spacing, as the scenes draw them.

The colours are core/palette.py's (the decks and the thumbnail read the same
hex strings), given per role, so a query is the same colour in every scene.
Type sizes are each frame's type scale (scenes/frame.py).
"""

from __future__ import annotations

from manim import ManimColor

from core import palette

# ------------------------------------------------------------------ palette
# core/palette.py's colours by role (what each is for is written there)
BACKGROUND, INK, MUTED, FAINT = map(ManimColor, (palette.BACKGROUND, palette.INK, palette.MUTED,
                                                 palette.FAINT))
QUERY, KEY, VALUE, WEIGHT = map(ManimColor, (palette.QUERY, palette.KEY, palette.VALUE,
                                             palette.WEIGHT))
GOOD, BAD, ROOM, READER, WRITER = map(ManimColor, (palette.GOOD, palette.BAD, palette.ROOM,
                                                   palette.READER, palette.WRITER))

# ------------------------------------------------------------------ type
# the sizes are each frame's type scale (scenes/frame.py)
FONT = "DejaVu Sans"

# ------------------------------------------------------------------ spacing (scene units)
EDGE = 0.5  # keep everything this far inside the frame
GAP = 0.35  # between neighbouring items
LINE_GAP = 0.2  # between lines of a block
CELL = 0.5  # side of a grid cell / number box

# ------------------------------------------------------------------ pacing (seconds)
MIN_READ = 1.5  # a number that appears stays at least this long before it changes
