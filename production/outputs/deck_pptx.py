"""deck.pptx: one PowerPoint slide per scene, its clip embedded with its poster frame,
and the narration in the speaker notes (python-pptx)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core import palette
from production.files import writing

SLIDE_WIDTH_IN = 13.333  # a 16:9 slide, inches
SLIDE_HEIGHT_IN = 7.5
BACKGROUND = palette.rgb(palette.BACKGROUND)  # the chapter's, behind the clip


def write_pptx(slides: list[Any], folder: Path, target: Path, title: str) -> Path:
    """Write the deck; ``slides`` are deck_html.Slide records whose files are in ``folder``."""
    from pptx import Presentation
    from pptx.dml.color import RGBColor
    from pptx.util import Inches

    deck = Presentation()
    deck.core_properties.title = title
    deck.slide_width, deck.slide_height = Inches(SLIDE_WIDTH_IN), Inches(SLIDE_HEIGHT_IN)
    blank = deck.slide_layouts[6]
    for s in slides:
        slide = deck.slides.add_slide(blank)
        fill = slide.background.fill
        fill.solid()
        fill.fore_color.rgb = RGBColor(*BACKGROUND)
        slide.shapes.add_movie(str(folder / s.video), 0, 0, deck.slide_width,
                               deck.slide_height, poster_frame_image=str(folder / s.poster),
                               mime_type="video/mp4")
        slide.notes_slide.notes_text_frame.text = s.notes
    with writing(target) as partial:
        deck.save(str(partial))
    return target
