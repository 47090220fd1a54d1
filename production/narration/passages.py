"""A scene's passages: one per beat, spoken offline or taken from a recording
(:func:`prepare`), each with its sound file, its length and when each of its words is
said (:class:`Passage`); how long each beat then lasts (:func:`beat_lengths`: a passage
plays :data:`~production.soundtrack.LEAD_IN` after its beat starts and is followed by
:data:`~production.soundtrack.TAIL`), and when each mark's word starts (:func:`mark_times`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import production.narration.marks as marks
import production.narration.spoken as spoken
from production import files, timings
from production.narration.recordings import recorded_sound, recording_key, recording_path
from production.narration.script import filled, marked_script
from production.narration.speech import Speak, passage_key, speech_dir, synthesize, wav_seconds
from production.soundtrack import LEAD_IN, TAIL
from production.timings import Word
from production.voices import DEFAULT_VOICE
from production.voices.base import VoiceEngine


@dataclass(frozen=True)
class Passage:
    """One beat's narration and the sound file that speaks it."""

    scene: str
    beat: str
    text: str
    audio: Path  # the speech, or a recording's conversion, in the speech cache
    seconds: float  # length of the speech
    recorded: bool  # True when a user's recording replaced the synthetic voice
    #: when each word of the spoken form (spoken.speakable(text)) is said, from the start
    #: of ``audio``
    words: tuple[Word, ...] = ()
    #: the marks of the passage: (name, index of its word in ``text.split()``)
    marks: tuple[tuple[str, int], ...] = ()

    def heard(self, offset: float = 0.0) -> list[Word]:
        """The written words (``text.split()``: "64.8", not "sixty-four point eight"),
        each from the start of the first spoken word that says it to the end of the
        last, in seconds from ``offset`` before the sound starts. Without word timings,
        the passage's length is shared among its words by their letters."""
        written = self.text.split()
        if not self.words:
            share = self.seconds / max(1, sum(len(w) + 1 for w in written))
            heard, at = [], offset
            for token in written:
                heard.append(Word(token, at, at + len(token) * share))
                at += (len(token) + 1) * share
            return heard
        heard, last = [], 0.0
        for token, (first, after) in zip(written, spoken.spans(self.text)):
            if first < after:
                start, end = self.words[first].start, self.words[after - 1].end
            else:  # said as nothing (a dash alone): the moment the word before ended
                start = end = last
            heard.append(Word(token, offset + start, offset + end))
            last = end
        return heard


def prepare(scene: str, beats: list[str], voice: VoiceEngine = DEFAULT_VOICE, *,
            values: dict[str, str] | None = None,
            narration_dir: Path, voice_dir: Path | None = None,
            cache: Path | None = None, speak: Speak | None = None) -> list[Passage]:
    """Every passage of a scene, in beat order, with its sound file and length.

    ``values`` fill the {name} slots of the passages (numbers from the ledger), read
    from ``narration_dir``/SCENE.txt. A recording's sound (``voice_dir``/SCENE/BEAT.wav)
    is its conversion in the speech cache (see :func:`recorded_sound`); every other
    passage is spoken by ``voice`` (see :func:`synthesize`).
    """
    cache = cache if cache is not None else speech_dir()
    script = filled(scene, beats, values or {}, narration_dir)
    passages = []
    for beat in beats:
        recording = recording_of(scene, beat, voice_dir)
        if recording is not None:
            audio = recorded_sound(recording, cache)
        else:
            audio = synthesize(script[beat][0], voice, cache, speak)
        text, found = script[beat]
        passages.append(Passage(scene, beat, text, audio, wav_seconds(audio),
                                recording is not None,
                                passage_words(audio, spoken.speakable(text)),
                                tuple(found.items())))
    return passages


def recording_of(scene: str, beat: str, voice_dir: Path | None) -> Path | None:
    """The user's recording that replaces the voice for ``beat`` (``voice_dir``/SCENE/
    BEAT.wav), or None: the beat is spoken."""
    if voice_dir is None:
        return None
    recording = recording_path(scene, beat, voice_dir)
    return recording if os.path.lexists(recording) else None


def sound_keys(scene: str, texts: dict[str, str], voice: VoiceEngine,
               voice_dir: Path | None) -> dict[str, str]:
    """What each passage's sound is made from, by beat (``texts``: the passages, values
    filled in and marks taken out), found without speaking or converting anything: a
    recording's bytes (:func:`recording_key`), or the key its speech is cached under, a
    hash of its spoken form and the voice's key (:func:`passage_key`). Speech is
    deterministic (the same text and voice give the same bytes and word timings), so what
    :func:`prepare` would make of a passage is known from this alone."""
    keys = {}
    for beat, text in texts.items():
        recording = recording_of(scene, beat, voice_dir)
        keys[beat] = f"recording {recording_key(recording)}" if recording is not None \
            else f"speech {passage_key(text, voice)}"
    return keys


def passage_words(audio: Path, said: str) -> tuple[Word, ...]:
    """When each word of ``said`` is said in ``audio``: the synthesiser's own timings,
    kept beside the sound when it spoke, else read from the sound by the forced aligner
    (a recording; or speech whose timings were lost), and kept for next time."""
    digest = files.sha256_once(audio)
    words = timings.load(audio, said, digest)
    if words is None or timings.problem(words, said, wav_seconds(audio)) is not None:
        from production.narration.align import align

        words = align(audio, said)
        timings.save(words, audio, said, digest)
    return tuple(words)


def beat_lengths(defaults: dict[str, float], passages: list[Passage]) -> dict[str, float]:
    """Each beat lasts its default or its passage plus lead-in and tail, whichever is longer."""
    spoken = {p.beat: LEAD_IN + p.seconds + TAIL for p in passages}
    return {beat: max(seconds, spoken.get(beat, 0.0)) for beat, seconds in defaults.items()}


def mark_times(chapter: Any, scene_class: Any, settings: dict[str, Any] | None,
               passages: list[Passage], durations: dict[str, float]
               ) -> dict[str, dict[str, float]]:
    """When each mark's word starts, in seconds from the start of its beat, by beat: from
    the passage's word timings, or, with no speech, estimated from where the word sits
    in the passage's letters over the beat's length."""
    if passages:
        return {p.beat: {name: LEAD_IN + at for name, at in
                         marks.onsets(dict(p.marks), p.words, spoken.spans(p.text)).items()}
                for p in passages if p.marks}
    if not getattr(scene_class, "marks", None):
        return {}
    timed = {}
    for beat, (text, found) in marked_script(chapter, scene_class, settings).items():
        if found:
            speaking = max(0.0, durations[beat] - LEAD_IN - TAIL)
            timed[beat] = {name: LEAD_IN + at
                           for name, at in marks.estimated(found, text, speaking).items()}
    return timed
