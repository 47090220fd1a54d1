"""Narration: one passage per beat, spoken offline or taken from a recording.

The text lives in ``scenes/CHAPTER/narration/SCENE.txt``, one passage per beat
(the format: script.py). Synthetic speech comes from a voice engine (production/voices/)
and is cached by a hash of text and the engine's key (speech.py); a WAV file dropped at
``assets/voice/SCENE/BEAT.wav`` replaces it for one passage (recordings.py). A scene's
passages, their lengths and words, and its beats' lengths: passages.py. Marks in the
text: marks.py; the spoken form of text: spoken.py; the forced aligner: align.py.

This file only gathers the public names, so ``narration.prepare(...)`` reads as before;
code in this package imports from the module that holds a name, never from here.
"""

from production.errors import NarrationError, SpeechDiskFull
from production.narration.passages import (
    Passage,
    beat_lengths,
    mark_times,
    passage_words,
    prepare,
    sound_keys,
)
from production.narration.recordings import (
    ACCEPTED,
    check_recordings,
    peak_dbfs,
    recorded_sound,
    recording_key,
    recording_path,
)
from production.narration.script import (
    SLOT_RULE,
    decode,
    fill,
    marked_script,
    numbers_of,
    parse,
    read_script,
    script_for,
    script_path,
    spoken_values,
)
from production.narration.speech import (
    SPEECH_VERSION,
    Speak,
    checked_seconds,
    passage_key,
    plausible_seconds,
    speech_dir,
    speech_key,
    speech_problem,
    synthesize,
    wav_seconds,
)
from production.soundtrack import LEAD_IN, TAIL
from production.voices import (
    DEFAULT_VOICE,
    JOE_MODEL,
    JOE_RATE,
    NATURAL_PACE,
    PIPER_THREADS,
    VOICE_NAMES,
    Espeak,
    Piper,
    Voice,
    VoiceEngine,
    VoiceInfo,
    available_voices,
    joe_model,
    piper_licence,
    release_voices,
    require,
    voice_named,
    voice_record,
    voices_text,
)

__all__ = [
    "ACCEPTED", "DEFAULT_VOICE", "JOE_MODEL", "JOE_RATE", "LEAD_IN", "NATURAL_PACE",
    "PIPER_THREADS", "SLOT_RULE", "SPEECH_VERSION", "TAIL", "VOICE_NAMES", "Espeak",
    "NarrationError", "Passage", "Piper", "Speak", "SpeechDiskFull", "Voice", "VoiceEngine",
    "VoiceInfo", "available_voices", "beat_lengths", "check_recordings", "checked_seconds",
    "decode", "fill", "joe_model", "mark_times", "marked_script", "numbers_of", "parse",
    "passage_key", "passage_words", "peak_dbfs", "piper_licence", "plausible_seconds",
    "prepare", "read_script", "recorded_sound", "recording_key", "recording_path",
    "release_voices", "require", "script_for", "script_path", "sound_keys", "speech_dir",
    "speech_key", "speech_problem", "spoken_values", "synthesize", "voice_named",
    "voice_record", "voices_text", "wav_seconds",
]
