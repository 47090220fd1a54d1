"""The chapter's scenes for the plain-Manim baseline, drawn as long as render.py draws them.

render.py stretches each beat to its narration; a plain `manim render` of the
scene classes would draw the shorter default beats and so less video. Here each
scene is a variant (a subclass) whose beat lengths come from the same narration
(read from the voice cache), so both sides draw the same frames.
"""

from __future__ import annotations

from production import narration
from scenes.attention.chapter import CHAPTER

for _scene in CHAPTER.scenes:
    _passages = narration.prepare(_scene.__name__, list(_scene.beat_seconds),
                                  values=narration.spoken_values(CHAPTER, _scene, None),
                                  narration_dir=CHAPTER.narration)
    globals()[_scene.__name__] = type(_scene.__name__, (_scene,), {
        "durations": narration.beat_lengths(_scene.beat_seconds, _passages),
        "__module__": __name__,
    })
