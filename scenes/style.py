"""The chapter's palette, type scale and spacing, as the scenes draw them.

The colours are core/palette.py's (the decks and the thumbnail read the same
hex strings), given per role, so a query is the same colour in every scene.
Type sizes are Manim font sizes. A line of text at MIN_FONT_SIZE is about
0.34 scene units from ascender to descender, which is 20 px at 854x480 (the
frame is 8 units tall); the layout check refuses anything smaller.
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
FONT = "DejaVu Sans"
TITLE = 60
HEADING = 44
BODY = 36
LABEL = 32
SMALL = 28
MIN_FONT_SIZE = 26

# ------------------------------------------------------------------ spacing (scene units)
EDGE = 0.5  # keep everything this far inside the frame
GAP = 0.35  # between neighbouring items
LINE_GAP = 0.2  # between lines of a block
CELL = 0.5  # side of a grid cell / number box

# ------------------------------------------------------------------ pacing (seconds)
MIN_READ = 1.5  # a number that appears stays at least this long before it changes

# ------------------------------------------------------------------ the tall frame (shorts)
# A short is 9:16: 8 scene units wide (the wide frame is 8 tall), 14.22 tall. Phone apps
# draw their own buttons over the top 10 % and the bottom 20 %; the burned captions sit
# in a band just above the bottom zone. A scene's pictures stay in the area between.
TALL_WIDTH = 8.0
TALL_HEIGHT = TALL_WIDTH * 16 / 9
SAFE_TOP = 0.10 * TALL_HEIGHT  # scene units kept clear at the top
SAFE_BOTTOM = 0.20 * TALL_HEIGHT  # ... and at the bottom
CAPTION_BAND = 1.7  # scene units above the bottom zone, for the burned captions
TALL_MIN_FONT_SIZE = 32  # legible on a phone held upright (about 4 mm a line)
