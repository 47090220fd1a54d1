"""One palette, without Manim: the scenes wrap it, the decks and the thumbnail read it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from core import palette

ROOT = Path(__file__).resolve().parents[1]
COLOURS = {name: value for name, value in vars(palette).items() if name.isupper()}


def test_importing_the_palette_imports_no_drawing_library():
    # A subprocess: pytest itself may already have manim loaded.
    code = "import sys, core.palette; print('manim' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_every_colour_is_a_hex_string():
    roles = {"BACKGROUND", "INK", "MUTED", "FAINT", "QUERY", "KEY", "VALUE", "WEIGHT"}
    assert roles <= set(COLOURS)
    for name, value in COLOURS.items():
        assert re.fullmatch(r"#[0-9A-F]{6}", value), name


def test_rgb():
    assert palette.rgb(palette.BACKGROUND) == (20, 22, 27)
    assert palette.rgb("#ffFFff") == (255, 255, 255)
    with pytest.raises(ValueError):
        palette.rgb("#FFF")


def test_the_scenes_style_wraps_the_palette():
    from scenes import style

    for name, value in COLOURS.items():
        assert getattr(style, name).to_hex().upper() == value, name


def test_the_decks_and_the_thumbnail_read_the_palette():
    from production.outputs import bundle, deck_html, deck_pptx

    assert deck_html.BACKGROUND == palette.BACKGROUND
    assert deck_pptx.BACKGROUND == palette.rgb(palette.BACKGROUND)
    assert "palette.rgb(palette.BACKGROUND)" in Path(bundle.__file__).read_text()


def test_no_colour_of_the_palette_is_written_anywhere_else():
    """A palette colour spelt out in a scene or in production/ would drift from the palette."""
    spelt = [value.lower() for value in COLOURS.values()]
    spelt += [", ".join(str(c) for c in palette.rgb(v)) for v in COLOURS.values()]
    for folder in ("scenes", "production"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text().lower()
            for colour in spelt:
                assert colour not in text, f"{path.relative_to(ROOT)} spells {colour}"
