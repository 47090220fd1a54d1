"""The espeak-ng voice (:class:`Espeak`), offline, and the version of espeak-ng that
speaks it (:func:`engine_version`, part of its key)."""

from __future__ import annotations

import functools
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from production.errors import NarrationError
from production.timings import Word
from production.voices.base import VoiceEngine, short


@functools.lru_cache(maxsize=1)
def engine_version() -> str:
    """espeak-ng's version line (its voices change with it); empty when it is missing."""
    try:
        return subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True,
                              check=False).stdout.strip()
    except OSError:
        return ""


@dataclass(frozen=True)
class Espeak(VoiceEngine):
    """espeak-ng, offline: its voice name, speed in words per minute, pitch 0-99."""

    name: str = "en-us"
    rate: int = 150
    pitch: int = 40
    engine: ClassVar[str] = "espeak-ng"

    def key(self) -> str:
        """espeak-ng's version line, then the voice's settings."""
        return f"{engine_version()}\nespeak-ng:{self.name}:{self.rate}:{self.pitch}"

    def model_name(self) -> str:
        return self.name

    def licence(self) -> str:
        return "espeak-ng: GPL-3.0-or-later"

    def check(self) -> str | None:
        if shutil.which("espeak-ng") is None:
            return ("espeak-ng is missing: install it with `apt-get install espeak-ng` "
                    "(or `./run video` does it), or render silently with --no-narration")
        return None

    def speak(self, text: str, target: Path) -> list[Word]:
        """Spoken by espeak-ng's library (production/voices/espeak_words.py), which writes
        the same WAV as the ``espeak-ng`` command and reports when each word starts. The
        text is only ever spoken: never an option, SSML, phonemes or an embedded command."""
        import production.voices.espeak_words as espeak_words

        try:
            return espeak_words.speak(text, target, name=self.name, rate=self.rate,
                                      pitch=self.pitch)
        except RuntimeError as error:
            raise NarrationError(f"espeak-ng could not speak {short(text)}: "
                                 f"{str(error).strip().splitlines()[0]}") from None


#: the espeak-ng engine under its first name (``Voice(rate=120)``)
Voice = Espeak
