"""espeak-ng speech with the time each word is said, from espeak-ng's own library.

The espeak-ng command writes only a sound; its C library (libespeak-ng) also reports
each word as it says it: where the word is in the text and when it starts in the
sound. :func:`speak` drives the library through ctypes with the command's settings,
writes the WAV and returns one :class:`~production.timings.Word` per word of the text,
for captions and cues.

Each passage is spoken by a fresh library in a short-lived child process. The library
keeps state from one passage to the next (the phase of the voice, pauses), so in a
long-lived process a passage comes out a few samples to a tenth of a second unlike the
command's, depending on what was said before; and espeak-ng 1.51 hangs when shut down
and started again in one process. A fresh library writes exactly the command's WAV.

The text is only spoken, never read as SSML, ``[[phonemes]]`` or an embedded command.
"""

from __future__ import annotations

import array
import bisect
import ctypes
import errno
import json
import os
import subprocess
import sys
import threading
import wave
from pathlib import Path

from production.timings import Word

LIBRARY = "libespeak-ng.so.1"
INSTALL = "apt-get install espeak-ng"

SILENT = 128  # a sample quieter than this (of 32767) is silence when trimming the end

# speak_lib.h / espeak_ng.h (espeak-ng 1.49 to 1.52 share these)
_EVENT_END_OF_LIST, _EVENT_WORD = 0, 1
_OUTPUT_SYNCHRONOUS = 0x0001  # ENOUTPUT_MODE_SYNCHRONOUS
_POS_CHARACTER = 1
_CHARS_UTF8, _ENDPAUSE = 1, 0x1000  # never espeakSSML (0x10) nor espeakPHONEMES (0x100)
_RATE, _PITCH = 1, 3
_OK = 0


class _Id(ctypes.Union):
    _fields_ = [("number", ctypes.c_int), ("name", ctypes.c_char_p),
                ("string", ctypes.c_char * 8)]


class _Event(ctypes.Structure):
    """espeak_EVENT."""

    _fields_ = [("type", ctypes.c_int), ("unique_identifier", ctypes.c_uint),
                ("text_position", ctypes.c_int), ("length", ctypes.c_int),
                ("audio_position", ctypes.c_int), ("sample", ctypes.c_int),
                ("user_data", ctypes.c_void_p), ("id", _Id)]


class _Voice(ctypes.Structure):
    """espeak_VOICE, for the command's fallback of a voice chosen by its language."""

    _fields_ = [("name", ctypes.c_char_p), ("languages", ctypes.c_char_p),
                ("identifier", ctypes.c_char_p), ("gender", ctypes.c_ubyte),
                ("age", ctypes.c_ubyte), ("variant", ctypes.c_ubyte), ("xx1", ctypes.c_ubyte),
                ("score", ctypes.c_int), ("spare", ctypes.c_void_p)]


_Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int,
                             ctypes.POINTER(_Event))

_LOCK = threading.Lock()
_lib: ctypes.CDLL | None = None
_rate = 0
_chunks: list[bytes] = []
_events: list[tuple[int, int, int]] = []  # (text_position, length, audio_position ms)
_failure: list[BaseException] = []


@_Callback
def _collect(wav, count, events):  # type: ignore[no-untyped-def]
    """The synth callback: keeps the samples and the word events; 1 stops synthesis."""
    try:
        if wav and count > 0:
            _chunks.append(ctypes.string_at(wav, count * 2))
        i = 0
        while events and events[i].type != _EVENT_END_OF_LIST:
            e = events[i]
            if e.type == _EVENT_WORD:
                _events.append((e.text_position, e.length, e.audio_position))
            i += 1
        return 0
    except BaseException as error:  # noqa: BLE001 - nothing may unwind through C
        _failure.append(error)
        return 1


def _message(lib: ctypes.CDLL, status: int) -> str:
    text = ctypes.create_string_buffer(512)
    lib.espeak_ng_GetStatusCodeMessage(status, text, len(text))
    return text.value.decode(errors="replace") or f"status {status:#x}"


def _library(path: str = LIBRARY) -> ctypes.CDLL:
    """The library, initialised once (the caller holds the lock)."""
    global _lib, _rate
    if _lib is not None:
        return _lib
    try:  # RTLD_LOCAL: its symbols stay its own (Piper's bridge has another espeak-ng)
        lib = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_LOCAL)
    except OSError as error:
        raise OSError(errno.ENOENT, f"espeak-ng's library {path} cannot be loaded "
                      f"({error}): install it with `{INSTALL}`") from None
    lib.espeak_ng_InitializePath.argtypes = [ctypes.c_char_p]
    lib.espeak_ng_Initialize.argtypes = [ctypes.c_void_p]
    lib.espeak_ng_InitializeOutput.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p]
    lib.espeak_ng_GetStatusCodeMessage.argtypes = [ctypes.c_int, ctypes.c_char_p,
                                                   ctypes.c_size_t]
    lib.espeak_ng_GetStatusCodeMessage.restype = None
    lib.espeak_SetSynthCallback.argtypes = [_Callback]
    lib.espeak_SetSynthCallback.restype = None
    lib.espeak_ng_SetVoiceByName.argtypes = [ctypes.c_char_p]
    lib.espeak_ng_SetVoiceByProperties.argtypes = [ctypes.POINTER(_Voice)]
    lib.espeak_ng_SetParameter.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
    lib.espeak_ng_Synthesize.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint,
                                         ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
                                         ctypes.c_void_p, ctypes.c_void_p]
    for name in ("espeak_ng_Initialize", "espeak_ng_InitializeOutput",
                 "espeak_ng_SetVoiceByName", "espeak_ng_SetVoiceByProperties",
                 "espeak_ng_SetParameter", "espeak_ng_Synthesize", "espeak_ng_Synchronize"):
        getattr(lib, name).restype = ctypes.c_int
    lib.espeak_ng_GetSampleRate.restype = ctypes.c_int
    # as the command starts: default data path, synchronous output to our callback
    lib.espeak_ng_InitializePath(None)
    status = lib.espeak_ng_Initialize(None)
    if status != _OK:
        raise OSError(errno.ENOENT, f"espeak-ng cannot start ({_message(lib, status)}): "
                      f"reinstall it with `{INSTALL}`")
    status = lib.espeak_ng_InitializeOutput(_OUTPUT_SYNCHRONOUS, 0, None)
    if status != _OK:
        raise RuntimeError(f"espeak-ng's output cannot be set up: {_message(lib, status)}")
    lib.espeak_SetSynthCallback(_collect)
    _rate = lib.espeak_ng_GetSampleRate()
    _lib = lib
    return lib


def _srand() -> None:
    """Seed C's rand() as a fresh process has it: espeak-ng's breath noise (whispering
    voice variants) draws from it, and the command always starts from this seed."""
    try:
        ctypes.CDLL(None).srand(1)
    except (OSError, AttributeError):
        pass


def _plain(text: str) -> str:
    """The text with control characters (espeak-ng reads U+0001 as the start of an
    embedded command, "[" U+0002 as phonemes) and lone surrogates (not UTF-8) as spaces,
    so that it is only spoken; one character for one, so positions stay those of ``text``."""
    return "".join(" " if (c < " " and c not in "\t\n\r") or "\x7f" <= c <= "\x9f"
                   or "\ud800" <= c <= "\udfff" else c for c in text)


def _synthesize(text: str, name: str, rate: int, pitch: int, library: str = LIBRARY
                ) -> tuple[bytes, list[tuple[int, int, int]], int]:
    """The samples (16-bit, native order), word events and sample rate for ``text``,
    from the library in this process."""
    if not name or "\x00" in name:
        raise ValueError(f"not an espeak-ng voice name: {name!r}")
    data = _plain(text).encode("utf-8")
    with _LOCK:
        lib = _library(library)
        status = lib.espeak_ng_SetVoiceByName(name.encode())
        if status != _OK:  # as the command does: then a voice for that language
            wanted = _Voice(languages=name.encode())
            status = lib.espeak_ng_SetVoiceByProperties(ctypes.byref(wanted))
        if status != _OK:
            raise RuntimeError(f"espeak-ng has no voice {name!r}: {_message(lib, status)}")
        # the command's parameters, set after the voice and only when given, as it does
        if rate > 0:
            lib.espeak_ng_SetParameter(_RATE, rate, 0)
        if pitch >= 0:
            lib.espeak_ng_SetParameter(_PITCH, pitch, 0)
        _chunks.clear(), _events.clear(), _failure.clear()
        _srand()
        try:
            status = lib.espeak_ng_Synthesize(data, len(data) + 1, 0, _POS_CHARACTER, 0,
                                              _CHARS_UTF8 | _ENDPAUSE, None, None)
            if status == _OK:
                status = lib.espeak_ng_Synchronize()
            if _failure:
                raise RuntimeError(f"espeak-ng's output could not be collected: {_failure[0]}")
            if status != _OK:
                raise RuntimeError(f"espeak-ng could not speak the text: {_message(lib, status)}")
            return b"".join(_chunks), list(_events), _rate
        finally:
            _chunks.clear(), _events.clear(), _failure.clear()


def _write(target: Path, samples: bytes, rate: int) -> None:
    """A 16-bit mono PCM WAV; a failed write (a full disk) raises its OSError and leaves
    no partial file."""
    try:
        with open(target, "wb") as f, wave.open(f, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(rate)
            w.writeframes(samples)  # native order in, little-endian out
    except BaseException:
        if target.is_file():  # never a device (/dev/full) or what else it may be
            try:
                target.unlink()
            except OSError:
                pass
        raise


def _spans(text: str) -> list[tuple[int, int]]:
    """Where each word of ``text.split()`` is: (first, past-last) character indices."""
    spans, start = [], None
    for i, c in enumerate(text):
        if c.isspace():
            if start is not None:
                spans.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        spans.append((start, len(text)))
    return spans


def _voiced_end(samples: bytes, rate: int) -> float:
    """Seconds to just after the last sample at or above :data:`SILENT`."""
    sound = array.array("h", samples)
    for i in range(len(sound) - 1, -1, -1):
        if abs(sound[i]) >= SILENT:
            return (i + 1) / rate
    return 0.0


def _weight(word: str) -> int:
    """How much of its group's time a word without a word event of its own gets: its
    letters and digits (a dash or a quote mark alone gets none)."""
    return sum(c.isalnum() for c in word)


def _words(text: str, events: list[tuple[int, int, int]], end: float) -> list[Word]:
    """One Word per word of ``text.split()`` from espeak-ng's word events (1-based
    character position, length, ms) and the end of the voiced sound.

    An event times the word its position falls in (the next word when it falls in
    white space), unless that word or a later one is timed already or it goes back in
    time. espeak-ng gives such events: a stray one of length 0 at a clause's end, and
    one for the second word of a dictionary phrase ("déjà vu") that points at the
    phrase's second character; the latter times the first untimed word after the word
    timed before it. A word left untimed ("am" in "I am", one phrase for espeak-ng; a
    dash) shares the time of the timed word before it (the first one after it, at the
    start), split by letters and digits, so a dash alone takes no time. Each word ends
    where the next starts, the last at ``end``."""
    spans = _spans(text)
    words = [text[a:b] for a, b in spans]
    if not words:
        return []
    ends = [b for _, b in spans]
    onset: dict[int, float] = {}
    astray: list[float] = []  # times of events that point back at a word already timed
    last_word, last_time = -1, 0.0
    for position, length, ms in events:
        k = bisect.bisect_right(ends, position - 1)  # the word it is in, or the next one
        seconds = max(0.0, min(ms / 1000.0, end))
        if k >= len(words) or seconds < last_time:
            continue
        if k <= last_word:
            if length > 0 and seconds > last_time:
                astray.append(seconds)
            continue
        onset[k] = seconds
        last_word, last_time = k, seconds
    # the second word of a dictionary phrase ("déjà vu") has its event at the phrase's
    # second character: it times the first untimed word after the word timed before it
    for seconds in astray:
        before = [k for k in onset if onset[k] < seconds]
        after = [k for k in onset if onset[k] > seconds]
        k = max(before) + 1 if before else 0
        if k < (min(after) if after else len(words)) and k not in onset:
            onset[k] = seconds
    anchored = sorted(onset)
    if not anchored:
        anchored, onset = [0], {0: 0.0}
    # groups: the words before the first anchored word (from the start of the sound),
    # then each anchored word with the unanchored words after it
    groups = [(0, anchored[0], 0.0)] if anchored[0] else []
    for j, k in enumerate(anchored):
        groups.append((k, anchored[j + 1] if j + 1 < len(anchored) else len(words), onset[k]))
    result: list[Word] = []
    for j, (first, past, start) in enumerate(groups):
        stop = groups[j + 1][2] if j + 1 < len(groups) else max(end, start)
        weights = [_weight(w) for w in words[first:past]]
        if not any(weights):
            weights = [1] + [0] * (len(weights) - 1)
        total, done = sum(weights), 0
        for k, weight in zip(range(first, past), weights):
            a = start + (stop - start) * done / total
            done += weight
            b = stop if done == total else start + (stop - start) * done / total
            result.append(Word(words[k], a, b))
    return result


def speak(text: str, target: Path, *, name: str = "en-us", rate: int = 150,
          pitch: int = 40) -> list[Word]:
    """Speak ``text`` with the espeak-ng voice ``name`` at ``rate`` words a minute and
    ``pitch`` (0-99) into the WAV ``target`` (16-bit mono PCM at espeak-ng's 22050 Hz:
    what ``espeak-ng -v NAME -s RATE -p PITCH -w TARGET -- TEXT`` writes) and return
    when each word of ``text.split()`` is said, in seconds from the start of the sound.

    Each call runs a fresh library in a child process (about 0.1 s), so threads may
    call it at once. OSError when espeak-ng's library is missing, or from writing
    ``target`` (a full disk: ENOSPC); RuntimeError (one line) when espeak-ng cannot
    speak the text (no such voice); ValueError for a voice name with a NUL in it."""
    samples, events, rate_hz = _in_child(text, name, rate, pitch)
    target = Path(target)
    _write(target, samples, rate_hz)
    return _words(text, events, _voiced_end(samples, rate_hz))


# ------------------------------------------------------- the child process

_ROOT = str(Path(__file__).resolve().parents[2])  # where the production package is
_HERE = str(Path(__file__).resolve())
#: the child runs this file alone: not through the production.voices package, whose
#: other voices import what an isolated Python without site-packages lacks (numpy)
_STARTER = ("import sys, importlib.util as u; sys.path.insert(0, sys.argv[1]); "
            "s = u.spec_from_file_location('espeak_words', sys.argv[2]); "
            "m = u.module_from_spec(s); s.loader.exec_module(m); sys.exit(m._child())")


def _in_child(text: str, name: str, rate: int, pitch: int, library: str = LIBRARY
              ) -> tuple[bytes, list[tuple[int, int, int]], int]:
    """:func:`_synthesize` in a fresh Python (isolated, no site-packages) with a fresh
    library: the request on its stdin, the answer (a JSON line, then the samples) on its
    stdout; its errors raised here as the same kind with the same one line."""
    request = json.dumps({"text": text, "name": name, "rate": int(rate), "pitch": int(pitch),
                          "library": library}).encode()
    try:
        done = subprocess.run([sys.executable, "-I", "-S", "-c", _STARTER, _ROOT, _HERE],
                              input=request, capture_output=True,
                              timeout=60 + len(text) / 100)
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"espeak-ng did not finish speaking {len(text)} characters "
                           "within its time") from None
    head, _, samples = done.stdout.partition(b"\n")
    try:
        answer = json.loads(head)
    except ValueError:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise RuntimeError(f"espeak-ng's child process failed (exit status {done.returncode})"
                           + (f": {said[-1]}" if said else "")) from None
    if "error" in answer:
        if answer["error"] == "OSError":
            raise OSError(answer.get("errno") or errno.EIO, answer["message"])
        raise (ValueError if answer["error"] == "ValueError" else RuntimeError)(answer["message"])
    if len(samples) != 2 * answer["samples"]:
        raise RuntimeError(f"espeak-ng's child process sent {len(samples)} bytes of sound "
                           f"for {answer['samples']} samples")
    return samples, [tuple(e) for e in answer["events"]], answer["rate"]


def _child() -> int:
    """The child's side (``python -m production.voices.espeak_words`` runs it too): one JSON
    request on stdin (text, name, rate, pitch), a JSON line on stdout (rate, samples,
    events: [position, length, ms]) and the samples, or a JSON line with the error."""
    out = sys.stdout.buffer
    try:
        asked = json.loads(sys.stdin.buffer.read())
        samples, events, rate = _synthesize(asked["text"], asked["name"], asked["rate"],
                                            asked["pitch"], asked.get("library", LIBRARY))
    except (OSError, RuntimeError, ValueError, KeyError, TypeError) as error:
        if isinstance(error, OSError):
            answer = {"error": "OSError", "errno": error.errno,
                      "message": error.strerror or str(error)}
        else:
            kind = "ValueError" if isinstance(error, ValueError) else "RuntimeError"
            answer = {"error": kind, "message": str(error)}
        out.write(json.dumps(answer).encode() + b"\n")
        return 1
    out.write(json.dumps({"rate": rate, "samples": len(samples) // 2,
                          "events": events}).encode() + b"\n")
    out.write(samples)
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(_child())
