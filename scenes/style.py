"""The chapter's one palette, type scale and spacing.

Colours are given per role, so a query is the same colour in every scene.
Type sizes are Manim font sizes. A line of text at MIN_FONT_SIZE is about
0.34 scene units from ascender to descender, which is 20 px at 854x480 (the
frame is 8 units tall); the layout check refuses anything smaller.
"""

from __future__ import annotations

from manim import ManimColor

# ------------------------------------------------------------------ palette
BACKGROUND = ManimColor("#14161B")
INK = ManimColor("#ECE8E1")  # ordinary text
MUTED = ManimColor("#9AA0A8")  # captions, axes, secondary labels
FAINT = ManimColor("#3A3F47")  # outlines, empty cells, guides

QUERY = ManimColor("#F2A541")  # what a word asks for (amber)
KEY = ManimColor("#4FB3BF")  # what a word offers (teal)
VALUE = ManimColor("#B58BE0")  # what a word hands over (violet)
WEIGHT = ManimColor("#F4D35E")  # a share of attention / light (warm yellow)

GOOD = ManimColor("#7BC67B")  # came back as it went in
BAD = ManimColor("#E5645B")  # came back wrong
ROOM = ManimColor("#6C8EBF")  # the fixed room / throat
READER = ManimColor("#6C8EBF")  # the encoder
WRITER = ManimColor("#D98AA6")  # the decoder

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
