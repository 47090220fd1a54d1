"""Narration: one passage per beat, spoken offline or taken from a recording.

The text lives in ``assets/narration/SCENE.txt``, one passage per beat::

    [beat_name]
    The words spoken over that beat, on one or more lines.

A recording replaces the synthetic voice for one passage when a WAV file is
dropped at ``assets/voice/SCENE/BEAT.wav``; the beat then follows the
recording's length. Synthetic speech comes from espeak-ng and is cached by a
hash of text, voice and settings, so an unchanged passage is never spoken twice.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NARRATION_DIR = ROOT / "assets" / "narration"
VOICE_DIR = ROOT / "assets" / "voice"
CACHE_DIR = Path(os.environ.get("EXPLAINER_CACHE", ROOT / ".cache")) / "voice"

LEAD_IN = 0.4  # seconds of picture before a passage starts
TAIL = 0.8  # seconds of picture after a passage ends, before the next beat


class NarrationError(Exception):
    """A problem a user can fix (missing text, missing espeak-ng); one line."""


@dataclass(frozen=True)
class Voice:
    """The offline voice: espeak-ng voice name, speed in words per minute, pitch 0-99."""

    name: str = "en-us"
    rate: int = 150
    pitch: int = 40

    def key(self) -> str:
        return f"espeak-ng:{self.name}:{self.rate}:{self.pitch}"


@dataclass(frozen=True)
class Passage:
    """One beat's narration and the sound file that speaks it."""

    scene: str
    beat: str
    text: str
    audio: Path
    seconds: float  # length of the speech
    recorded: bool  # True when a user's recording replaced the synthetic voice


_HEADER = re.compile(r"^\[([A-Za-z0-9_]+)\]\s*$")


def parse(text: str, source: str = "narration") -> dict[str, str]:
    """Passages by beat name, in file order. Lines before the first header are an error."""
    passages: dict[str, list[str]] = {}
    current: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        header = _HEADER.match(stripped)
        if header:
            current = header.group(1)
            if current in passages:
                raise NarrationError(f"{source}:{number}: beat [{current}] appears twice")
            passages[current] = []
        elif current is None:
            raise NarrationError(f"{source}:{number}: text before the first [beat] header")
        else:
            passages[current].append(stripped)
    return {beat: " ".join(lines) for beat, lines in passages.items()}


def script_path(scene: str, root: Path = NARRATION_DIR) -> Path:
    return root / f"{scene}.txt"


def read_script(scene: str, beats: list[str], root: Path = NARRATION_DIR) -> dict[str, str]:
    """The passages of one scene; every beat must have one, and no others."""
    path = script_path(scene, root)
    if not path.exists():
        raise NarrationError(f"no narration for {scene}: expected {path}")
    passages = parse(path.read_text(encoding="utf-8"), str(path))
    missing = [b for b in beats if not passages.get(b)]
    extra = [b for b in passages if b not in beats]
    if missing:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: no passage for beat [{missing[0]}]; beats: {known}")
    if extra:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: unknown beat [{extra[0]}]; beats: {known}")
    return passages


def wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def espeak(text: str, voice: Voice, target: Path) -> None:
    """Speak ``text`` into the WAV file ``target`` with espeak-ng."""
    subprocess.run(
        ["espeak-ng", "-v", voice.name, "-s", str(voice.rate), "-p", str(voice.pitch),
         "-w", str(target), text],
        check=True, capture_output=True,
    )


def require_espeak() -> None:
    if shutil.which("espeak-ng") is None:
        raise NarrationError(
            "espeak-ng is missing: install it with `apt-get install espeak-ng` "
            "(or `make video` does it), or render silently with --no-narration"
        )


def speech_key(text: str, voice: Voice) -> str:
    return hashlib.sha256(f"{voice.key()}\n{text}".encode()).hexdigest()[:20]


def synthesize(text: str, voice: Voice, cache: Path = CACHE_DIR,
               speak: Callable[[str, Voice, Path], None] = espeak) -> Path:
    """The cached WAV for ``text`` in ``voice``; speaks it only when not cached."""
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"{speech_key(text, voice)}.wav"
    if target.exists():
        os.utime(target)  # used: the cache keeps what renders use (see cache.prune)
    else:
        partial = target.with_suffix(".part.wav")
        speak(text, voice, partial)
        partial.replace(target)
    return target


def recording_path(scene: str, beat: str, root: Path = VOICE_DIR) -> Path:
    return root / scene / f"{beat}.wav"


DEFAULT_VOICE = Voice()


def spoken_values(scene_class: Any, settings: dict[str, Any] | None) -> dict[str, str]:
    """The values a scene's narration may name, from its ledger section."""
    from core import ledger

    numbers = ledger.section(scene_class.section, settings) if scene_class.section else {}
    return scene_class.spoken(numbers)


def script_for(scene_class: Any, settings: dict[str, Any] | None,
               narration_dir: Path = NARRATION_DIR) -> dict[str, str]:
    """The scene's passages with their values filled in, by beat."""
    name = scene_class.__name__
    beats = list(scene_class.beat_seconds)
    values = spoken_values(scene_class, settings)
    script = read_script(name, beats, narration_dir)
    return {beat: fill(text, values, f"{script_path(name, narration_dir)} [{beat}]")
            for beat, text in script.items()}


def fill(template: str, values: dict[str, str], where: str) -> str:
    """Put the scene's spoken values into {name} slots of a passage."""
    try:
        return template.format_map(values)
    except KeyError as missing:
        known = ", ".join(values) or "none"
        raise NarrationError(f"{where}: unknown value {{{missing.args[0]}}}; known: {known}") \
            from None
    except (ValueError, IndexError) as error:
        raise NarrationError(f"{where}: bad {{...}} slot ({error})") from None


def prepare(scene: str, beats: list[str], voice: Voice = DEFAULT_VOICE, *,
            values: dict[str, str] | None = None,
            narration_dir: Path = NARRATION_DIR, voice_dir: Path = VOICE_DIR,
            cache: Path = CACHE_DIR,
            speak: Callable[[str, Voice, Path], None] = espeak) -> list[Passage]:
    """Every passage of a scene, in beat order, with its sound file and length.

    ``values`` fill the {name} slots of the passages (numbers from the ledger).
    """
    script = read_script(scene, beats, narration_dir)
    script = {beat: fill(text, values or {}, f"{script_path(scene, narration_dir)} [{beat}]")
              for beat, text in script.items()}
    passages = []
    for beat in beats:
        recorded = recording_path(scene, beat, voice_dir)
        if recorded.exists():
            audio = recorded
        else:
            if speak is espeak:
                require_espeak()
            audio = synthesize(script[beat], voice, cache, speak)
        passages.append(Passage(scene, beat, script[beat], audio, wav_seconds(audio),
                                recorded.exists()))
    return passages


def beat_lengths(defaults: dict[str, float], passages: list[Passage]) -> dict[str, float]:
    """Each beat lasts its default or its passage plus lead-in and tail, whichever is longer."""
    spoken = {p.beat: LEAD_IN + p.seconds + TAIL for p in passages}
    return {beat: max(seconds, spoken.get(beat, 0.0)) for beat, seconds in defaults.items()}
