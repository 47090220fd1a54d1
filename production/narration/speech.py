"""Spoken passages and their cache: a passage is spoken by a voice engine
(production/voices/) and cached in ``voice/`` in the cache under a hash of its text and
the engine's key (:func:`speech_key`), so an unchanged passage is never spoken twice.

Text stays text: the voice hears the passage's spoken form (production/narration/spoken.py)
and nothing else. Every cached file is written under a unique hidden name
(:func:`writing`), checked (a readable WAV of plausible length, :func:`speech_problem`)
and only then put in place (:func:`keep_first`); a cached file is checked again when it
is read, and a damaged one is made again.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import wave
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import production.narration.spoken as spoken
from production import files, paths, timings
from production.errors import NarrationError, SpeechDiskFull, is_disk_full
from production.voices.base import VoiceEngine, require, short


def speech_dir() -> Path:
    """Where spoken passages and converted recordings are cached (``voice/`` in the cache)."""
    return paths.cache() / "voice"


def wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def checked_seconds(path: Path) -> float:
    """The length of a WAV file in seconds, reading every frame; ValueError (one line)
    when it is not a whole, readable WAV."""
    try:
        with wave.open(str(path)) as w:
            frames, rate = w.getnframes(), w.getframerate()
            block = w.getsampwidth() * w.getnchannels()
            data = w.readframes(frames)
    except EOFError:
        raise ValueError("not a readable WAV (the file ends inside its header)") from None
    except (OSError, wave.Error) as error:
        raise ValueError(f"not a readable WAV ({error})") from None
    if rate <= 0 or block <= 0:
        raise ValueError("not a readable WAV (no rate or sample size)")
    if len(data) != frames * block:
        raise ValueError(f"cut short ({len(data) // block} of the {frames} frames it promises)")
    return frames / rate


#: Bumped when the way a passage is spoken changes (2: the text after "--", checked).
SPEECH_VERSION = "2"


def speech_key(text: str, voice: VoiceEngine) -> str:
    """The cache key of a passage's speech: text, the voice's key (engine, version,
    settings) and how it is spoken."""
    key = f"speech {SPEECH_VERSION}\n{voice.key()}\n{text}"
    return hashlib.sha256(key.encode()).hexdigest()[:20]


def passage_key(text: str, voice: VoiceEngine) -> str:
    """The key :func:`synthesize` caches the speech of the passage ``text`` under (that of
    its spoken form), found without speaking it."""
    return speech_key(spoken.speakable(text), voice)


#: Plausible speech, in seconds at 150 words a minute (scaled by the voice's speed).
#: Every passage of the chapter lasts 0.081 to 0.146 s per letter or digit; short ones
#: longer (a lone "a" lasts 0.7 s; "--", with nothing to say, 0.01 s). The lower bound
#: catches a WAV cut off by a full disk (espeak-ng still exits 0, with a header that
#: matches what it wrote).
MIN_PER_LETTER = 0.04
MAX_PER_CHARACTER = 2.0  # a spelled-out symbol or emoji takes a second or more
MAX_EXTRA = 5.0
WAV_BYTES_PER_SECOND = 22050 * 2  # espeak-ng writes 16-bit mono at 22.05 kHz
ROOMY_PER_CHARACTER = 0.2  # seconds: speech at least this long fits the space asked for
SPACE_MARGIN = 1024 * 1024  # room beyond the file itself, bytes


def plausible_seconds(text: str, voice: VoiceEngine) -> tuple[float, float]:
    """The shortest and longest speech (seconds) that can be ``text`` spoken by ``voice``."""
    pace = 150 / voice.rate
    letters = len(re.findall(r"\w", text))
    return MIN_PER_LETTER * letters * pace, (MAX_PER_CHARACTER * len(text) + MAX_EXTRA) * pace


def speech_problem(path: Path, text: str, voice: VoiceEngine) -> str | None:
    """Why the WAV at ``path`` is not ``text`` spoken whole, or None when it is."""
    try:
        seconds = checked_seconds(path)
    except ValueError as error:
        return str(error)
    low, high = plausible_seconds(text, voice)
    if not low <= seconds <= high:
        return (f"{seconds:.2f} s long, where {len(text)} characters take "
                f"{low:.2f} to {high:.0f} s")
    return None


def free_space(folder: Path) -> int:
    """Bytes free on the disk of ``folder`` (0 when it cannot be told)."""
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def touch(path: Path) -> None:
    """Mark a cache entry used (see cache.prune); a read-only cache is still read."""
    try:
        os.utime(path)
    except OSError:
        pass


@contextmanager
def writing(cache: Path, target: Path, needed: int) -> Iterator[Path]:
    """A unique temporary name beside ``target`` in ``cache`` (:func:`files.temporary`:
    hidden, so a killed render's leftover is pruned; tagged with this process, so a render
    that kills its speaking worker removes it), removed on the way out unless renamed into
    place. A write that fails for lack of space is a SpeechDiskFull naming the folder and
    the space needed.
    Not :func:`production.files.writing`, which renames over the target: the checked file
    is put in place by :func:`keep_first`, which keeps an entry another render put there."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        partial = files.temporary(cache, target.stem, ".wav")
    except OSError as error:
        if is_disk_full(error):
            raise SpeechDiskFull(cache, needed) from None
        raise NarrationError(f"cannot write in the speech cache {cache}: "
                             f"{error.strerror or error}") from None
    try:
        yield partial
    except OSError as error:
        if is_disk_full(error):
            raise SpeechDiskFull(cache, needed) from None
        raise NarrationError(f"cannot write in the speech cache {cache}: "
                             f"{error.strerror or error}") from None
    finally:
        partial.unlink(missing_ok=True)


def keep_first(partial: Path, target: Path) -> bool:
    """Put a checked file in place, unless another render put one there meanwhile: the
    first one stays (the same bytes: speech is deterministic, and a scene's key counts on
    it), and a reader never sees it replaced. True when ``partial`` is the entry."""
    try:
        os.link(partial, target)
    except FileExistsError:
        return False  # theirs is the entry (checked when it is read)
    except OSError:  # a file system without hard links
        os.replace(partial, target)
    return True


def last_line(said: bytes | str | None) -> str:
    """The last line a tool said (its stderr), for a message of one line."""
    text = said.decode(errors="replace") if isinstance(said, bytes) else said or ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


#: what stands in for ``voice.speak`` where a test passes ``speak``: (text, voice, target)
Speak = Callable[[str, Any, Path], object]


def synthesize(text: str, voice: VoiceEngine, cache: Path | None = None,
               speak: Speak | None = None) -> Path:
    """The cached WAV for ``text`` in ``voice``; speaks it only when not cached.

    The voice is given the passage's spoken form (production/narration/spoken.py: "64.8" as
    "sixty-four point eight", respellings from assets/pronunciation.txt); the
    captions keep the written text. A cached WAV is checked when it is read (a
    whole WAV, as long as the text can take): a damaged one is deleted and spoken
    again. A new one is spoken (by
    ``voice.speak``, after ``voice.check()``; or by ``speak(text, voice, target)``
    when given) into a unique temporary name, checked, and only then renamed into
    place; when the check fails and the folder's disk is (nearly) full, that is a
    SpeechDiskFull.
    """
    cache = cache if cache is not None else speech_dir()
    text = spoken.speakable(text)  # the voice hears numbers and symbols in words
    target = cache / f"{speech_key(text, voice)}.wav"
    if target.exists():
        if speech_problem(target, text, voice) is None:
            touch(target)
            return target
        target.unlink(missing_ok=True)  # damaged (say, by a full disk): speak it again
    needed = int(ROOMY_PER_CHARACTER * len(text) * 150 / voice.rate
                 * WAV_BYTES_PER_SECOND) + SPACE_MARGIN
    if speak is None:
        require(voice)
    with writing(cache, target, needed) as partial:
        try:
            if speak is None:
                said = voice.speak(text, partial)
            else:
                said = speak(text, voice, partial)
        except subprocess.CalledProcessError as error:
            if is_disk_full(error):
                raise SpeechDiskFull(cache, needed) from None
            raise NarrationError(f"{voice.engine} could not speak {short(text)}: "
                                 f"{last_line(error.stderr)}") from None
        problem = speech_problem(partial, text, voice)
        if problem is not None:
            if free_space(cache) < needed:
                raise SpeechDiskFull(cache, needed)
            raise NarrationError(f"the speech for {short(text)} is {problem}; "
                                 f"it was not cached (in {cache})")
        if keep_first(partial, target) and isinstance(said, list) and \
                timings.problem(said, text, wav_seconds(target)) is None:
            timings.save(said, target, text, files.sha256_once(target))
    return target
