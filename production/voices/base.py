"""What a voice is: the :class:`VoiceEngine` interface every engine implements, and
:func:`require`, which says in one line why a voice cannot speak here."""

from __future__ import annotations

import abc
from pathlib import Path
from typing import ClassVar

from production.errors import NarrationError
from production.timings import Word


class VoiceEngine(abc.ABC):
    """A voice: one way of turning a passage into speech (after manim-voiceover's
    ``SpeechService``). An engine is a class with three methods; everything else (the
    speech cache, the checks on what it wrote, recordings that win over it) is the same
    for every engine and lives in :func:`production.narration.speech.synthesize` and
    :func:`production.narration.passages.prepare`.

    Adding a voice is a subclass: ``key()``, ``check()`` and ``speak()``, plus ``rate``
    and ``engine`` when the defaults below do not fit.
    """

    #: about how many words a minute it speaks: scales the lengths of speech
    #: :func:`~production.narration.speech.plausible_seconds` accepts for a passage, and
    #: the space asked for it
    rate: int = 150
    #: its name in messages ("espeak-ng could not speak ...")
    engine: ClassVar[str] = "the voice"

    @abc.abstractmethod
    def key(self) -> str:
        """Everything besides the text that changes the sound (the engine, its version,
        its model, its settings), as one string. It goes into the cache key of every
        passage it speaks and of every scene it speaks in."""

    def check(self) -> str | None:
        """None when the voice can speak on this machine; otherwise one line saying why
        not and what to install."""
        return None

    def model_name(self) -> str:
        """Which voice of the engine speaks (a model's file name, a voice's name), for
        manifest.json."""
        return type(self).__name__

    def licence(self) -> str:
        """The licence line of the voice (its data and its runtime), as `render.py voices`
        prints it and manifest.json records it."""
        return "unknown"

    @abc.abstractmethod
    def speak(self, text: str, target: Path) -> list[Word] | None:
        """Speak ``text`` into the WAV file ``target`` (16-bit PCM, any rate, mono or
        stereo). The text is data: never an option or markup to the engine. A tool that
        fails raises subprocess.CalledProcessError (its last line of stderr is shown).

        Returns when each word of ``text.split()`` is said, if the engine can tell
        (one :class:`~production.timings.Word` per word); None lets the forced aligner
        read them from the sound.
        """


def require(voice: VoiceEngine) -> None:
    """Raise NarrationError (one line) when ``voice`` cannot speak here."""
    problem = voice.check()
    if problem is not None:
        raise NarrationError(problem)


def short(text: str, width: int = 60) -> str:
    """A passage as messages quote it: its repr, cut to ``width`` characters."""
    return repr(text if len(text) <= width else text[:width - 3] + "...")
