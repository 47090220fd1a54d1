"""A render's narration: every chosen scene's passages spoken, in a worker process, before
any scene is drawn (:func:`speak_all`), and the user's recordings checked
(:func:`warn_recordings`). A dry run speaks nothing: it checks the recordings without
converting them, and the scenes' keys come from the passages' text
(:func:`production.cache.scene_key`)."""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from production import cache, files, voices
from production.chapters import Chapter
from production.errors import NarrationError, UsageError
from production.narration.passages import Passage
from production.narration.recordings import check_recordings
from production.narration.speech import speech_dir
from production.workers import Silent, peak_memory, run_workers


def speak_all(chapter: Chapter, chosen: list[Any], settings: dict[str, Any], narrate: bool,
              voice: voices.VoiceEngine = voices.DEFAULT_VOICE
              ) -> dict[str, list[Passage]]:
    """Every chosen scene's passages, spoken (a few at once) or taken from the cache;
    a warning line for each recording that names no beat or is silent. Spoken in a worker
    process: the engine's calls cannot be interrupted, a process can (Ctrl-C, SIGTERM:
    it is killed, what it was writing removed, the passages it finished stay cached)."""
    if not narrate:
        return {sc.__name__: [] for sc in chosen}
    warn_recordings(chapter, chosen)
    try:
        results, _ = run_workers(
            [("the narration", _speak_scenes, (chapter, chosen, settings, voice))], 1, Silent(),
            doing="speaking", tidy=lambda pids: files.clear_partials_of(speech_dir(), pids))
        return results["the narration"]
    except NarrationError as error:
        raise UsageError(str(error)) from None


def warn_recordings(chapter: Chapter, chosen: list[Any], *, convert: bool = True) -> None:
    """Check the chosen scenes' recordings (converting each once, unless not ``convert``:
    a dry run), a warning line for each that names no beat or is silent; a UsageError
    names one that cannot be used."""
    try:
        for sc in chosen:
            for warning in check_recordings(sc.__name__, list(sc.beat_seconds),
                                            chapter.recordings, convert=convert):
                print(f"render.py: warning: {warning}", file=sys.stderr)
    except NarrationError as error:
        raise UsageError(str(error)) from None


def _speak_scenes(chapter: Chapter, chosen: list[Any], settings: dict[str, Any],
                  voice: voices.VoiceEngine) -> tuple[dict[str, list[Passage]], int]:
    """In the speaking worker: each scene's passages, a few scenes at once; peak KiB."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as speakers:
        spoken = list(speakers.map(lambda sc: cache.speech(chapter, sc, settings, voice),
                                   chosen))
    return {sc.__name__: passages for sc, passages in zip(chosen, spoken)}, peak_memory()
