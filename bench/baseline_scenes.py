"""A chapter's scenes for the plain-Manim baseline, made as render.py makes them.

render.py draws each scene through a subclass made for its render (``made_for``): the
numbers of its ledger section, each beat stretched to its narration, the mark times and
the end card's credits. A plain `manim render` of the chapter's classes would have no
numbers to show and draw the shorter default beats. Here each scene is made the same
way, from the same speech (spoken, or read from the voice cache), by the pipeline's own
functions, so both sides draw the same frames; only the subclass lives in this module,
where `manim render` looks for scenes.

bench.py says what to make in the environment: BENCH_CHAPTER, the chapter's module
(default scenes.attention.chapter), and BENCH_SCENES, scene names separated by spaces
(default every scene of the chapter). Only those are made, so that a run on one scene
speaks only that scene's narration.
"""

from __future__ import annotations

import os
from typing import Any

from production import cache, voices
from production.chapters import load
from production.narration.passages import beat_lengths, mark_times
from production.narration.script import numbers_of

CHAPTER = load(os.environ.get("BENCH_CHAPTER", "scenes.attention.chapter"))
SETTINGS = CHAPTER.ledger.parse_settings([])  # the defaults, as a render without --set


def made(scene_class: Any) -> Any:
    """``scene_class`` as a default render with the default voice draws it, as a class of
    this module."""
    passages = cache.speech(CHAPTER, scene_class, SETTINGS)
    lengths = beat_lengths(scene_class.beat_seconds, passages)
    drawn = scene_class.made_for(
        numbers=numbers_of(CHAPTER, scene_class, SETTINGS), durations=lengths,
        mark_times=mark_times(CHAPTER, scene_class, SETTINGS, passages, lengths),
        credits=voices.credits(voices.DEFAULT_VOICE, CHAPTER.next_title()))
    return type(scene_class.__name__, (drawn,), {"__module__": __name__})


for _name in os.environ.get("BENCH_SCENES", "").split() or list(CHAPTER.by_name()):
    globals()[_name] = made(CHAPTER.scene(_name))
