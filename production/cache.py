"""The content cache: a scene is rendered again only when something it shows changed.

A scene's key is a hash of everything that decides its files: the project's
drawing and model code, the scene's ledger numbers (so --set values count), its
narration text with values filled in and where its marks are, any recordings that
replace the voice (their bytes), the voice settings, the quality, and the versions of
the tools that encode. Speech is deterministic (the same text and voice give the same
bytes), so the key names the text and the voice, not the sound: it is known before
anything is spoken, and a dry run speaks nothing.
Finished scenes live in ``.cache/scenes/KEY/``; the chapter in ``.cache/chapters/KEY/``;
spoken passages in ``.cache/voice/``; set text in ``.cache/texts/``
(production/text_store.py); each play's video segment in ``.cache/segments/``
(production/beat_cache.py), so a scene drawn again after an edit draws only the
beats that changed. An entry is built under a unique hidden name, checked,
and renamed into place; its record holds the size and hash of every file in it, and
an entry whose files no longer match is deleted and built again. Every render marks
what it used; after it, entries that no render has used for 30 days are removed, and
so are hidden build folders more than a day old (left by a render that was killed).
Pruning touches only what the project wrote: entries named as it names them (a content
key) and, for a finished folder, carrying the project's record.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from production import beat_cache, files, imports, paths, text_store, voices
from production.narration.passages import Passage, prepare, sound_keys
from production.narration.script import marked_script, numbers_of, spoken_values
from production.narration.speech import speech_dir

ROOT = paths.ROOT


def scenes_dir() -> Path:
    """Finished scenes (and their variants): ``scenes/KEY[-VARIANT]/``."""
    return paths.cache() / "scenes"


def chapters_dir() -> Path:
    """Joined chapters: ``chapters/KEY/``."""
    return paths.cache() / "chapters"
CACHE_VERSION = "3"
#: written into every record, so pruning knows an entry is the project's own
MARKER = "attention-explainer cache entry"


#: the modules that draw, mix and encode a scene (each scene's own code comes on top)
DRAWING = ("production.drawing", "production.scene_output", "production.stills")
#: the modules that join scenes into the chapter
JOINING = ("production.outputs.joining",)


@functools.lru_cache(maxsize=1)
def tool_versions() -> str:
    return "\n".join(f"{package}={metadata.version(package)}"
                     for package in ("manim", "numpy", "pydub", "av"))


def code_fingerprint(modules: tuple[str, ...] = DRAWING, roots: tuple[Path, ...] = (ROOT,)
                     ) -> str:
    """A hash of the code ``modules`` run (their files and the project files they import,
    transitively: see production/imports.py) and of the tool versions."""
    return _digest({"version": CACHE_VERSION, "tools": tool_versions(),
                    "code": imports.fingerprint(modules, tuple(dict.fromkeys((*roots, ROOT))))})


def scene_code(chapter: Any, scene_class: Any) -> str:
    """A hash of the code drawing ``scene_class`` runs: its module and what that imports,
    and the drawing and encoding code; not other scenes, not the outputs' code."""
    return code_fingerprint((scene_class.__module__, *DRAWING), chapter.roots())


def _digest(parts: dict[str, Any]) -> str:
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def scene_key(chapter: Any, scene_class: Any, quality: str, settings: dict[str, Any],
              narrate: bool,
              voice: voices.VoiceEngine = voices.DEFAULT_VOICE,
              encoder: dict[str, str] | None = None, layout: str = "wide") -> str:
    """The content key of one scene's finished files (``encoder``: the video encoder's
    options; ``layout``: the frame it is laid out for), known before anything is spoken:
    a dry run and a render of the same source find the same entry."""
    name = scene_class.__name__
    parts: dict[str, Any] = {
        "scene": name,
        "code": scene_code(chapter, scene_class),
        "numbers": numbers_of(chapter, scene_class, settings),
        "quality": quality,
        "encoder": encoder or {},
        "narrate": narrate,
    }
    if layout != "wide":  # the chapter's keys stay as they were
        parts["layout"] = layout
    if getattr(chapter, "language", "en") != "en":  # its words on screen: the catalogue's
        parts["language"] = [chapter.language, chapter.translation, chapter.draft]
    if getattr(scene_class, "names_next", False):  # an end card: "next: TITLE"
        parts["next"] = chapter.next_title()
    waits = bool(getattr(scene_class, "marks", None))
    if narrate or waits:
        # The text and where its marks are: an animation that waits for a mark starts at
        # its word (heard, or placed by the letters before it when the scene is silent).
        passages = marked_script(chapter, scene_class, settings)
        parts["script"] = {beat: text for beat, (text, _) in passages.items()}
        if waits:
            parts["marks"] = {beat: found for beat, (_, found) in passages.items()}
    if narrate:
        # What each passage's sound is made from, not the sound itself: speech is
        # deterministic (the voice's key covers its engine, model and settings), so the
        # key is known without speaking, and a recording counts by its own bytes. The
        # sound's length and word timings follow from it.
        parts["voice"] = voice.key()
        parts["sound"] = sound_keys(name, parts["script"], voice, chapter.recordings)
    return _digest(parts)


def speech(chapter: Any, scene_class: Any, settings: dict[str, Any] | None,
           voice: voices.VoiceEngine = voices.DEFAULT_VOICE) -> list[Passage]:
    """The scene's passages, spoken (or taken from the speech cache)."""
    return prepare(scene_class.__name__, list(scene_class.beat_seconds), voice,
                   values=spoken_values(chapter, scene_class, settings),
                   narration_dir=chapter.narration, voice_dir=chapter.recordings)


def variant_key(scene_key: str, modules: tuple[str, ...], roots: tuple[Path, ...]) -> str:
    """The key of what an output makes from a finished scene: the scene's key and the
    code of that output (``modules`` and what they import)."""
    return _digest({"scene": scene_key, "code": code_fingerprint(modules, roots)})


def chapter_key(scene_keys: list[str], quality: str) -> str:
    return _digest({"scenes": scene_keys, "quality": quality,
                    "code": code_fingerprint(JOINING)})


# ----------------------------------------------------------------- entries


def seal(folder: Path, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The size and hash of each named file in ``folder``, for its record."""
    return {name: {"bytes": (folder / name).stat().st_size, "sha256": files.sha256(folder / name)}
            for name in names}


def intact(folder: Path, sealed: Any) -> bool:
    """Whether every file ``seal`` recorded is still there with its size and hash."""
    if not isinstance(sealed, dict) or not sealed:
        return False
    for name, facts in sealed.items():
        try:
            path = folder / name
            if path.stat().st_size != facts["bytes"] or files.sha256(path) != facts["sha256"]:
                return False
        except (OSError, KeyError, TypeError):
            return False
    return True


def read_record(folder: Path, record: str, name: str | None = None, *,
                tidy: bool = True) -> dict[str, Any] | None:
    """An entry's record when the entry is whole (made by the project for the key it is
    named by, ``name`` or else the folder's own, every file as sealed); a broken entry,
    or one made for another key (copied over this one), is deleted (unless ``tidy`` is
    False: a dry run writes nothing) and None returned, so it is built again."""
    if not folder.is_dir():
        return None
    try:
        data = json.loads((folder / record).read_text(encoding="utf-8"))
        whole = data.get("made_by") == MARKER and data.get("entry") == (name or folder.name) \
            and intact(folder, data.get("files"))
    except (OSError, ValueError, AttributeError):
        data, whole = None, False
    if not whole:
        if tidy:
            discard(folder)
        return None
    return data


def write_record(folder: Path, record: str, data: dict[str, Any], files: Iterable[str],
                 entry: str) -> None:
    """Write ``record`` into ``folder`` (built to be renamed ``entry``: its key) with the
    marker, that name and the seal of ``files``."""
    sealed = {**data, "made_by": MARKER, "entry": entry, "files": seal(folder, files)}
    (folder / record).write_text(json.dumps(sealed, indent=1, allow_nan=False),
                                 encoding="utf-8")


def discard(entry: Path) -> None:
    """Remove an entry; first renamed aside, so no reader sees it half-deleted."""
    try:
        aside = Path(tempfile.mkdtemp(dir=entry.parent, prefix=f".{entry.name}-gone-"))
        os.replace(entry, aside / entry.name)
    except OSError:
        aside = entry
    shutil.rmtree(aside, ignore_errors=True)


def put(work: Path, entry: Path) -> None:
    """Rename the finished folder ``work`` to ``entry``. When another render stored the
    same entry meanwhile (same key, same content), ours is dropped."""
    try:
        os.replace(work, entry)
    except OSError as error:
        if not entry.is_dir() or error.errno not in (errno.ENOTEMPTY, errno.EEXIST):
            raise
        shutil.rmtree(work, ignore_errors=True)


# ----------------------------------------------------------------- pruning

KEEP_DAYS = 30  # an entry no render has used for this long is removed
BUILD_DAYS = 1  # a hidden build folder this old belongs to no running render


def mark_used(entries: Iterable[Path]) -> None:
    """Record that a render used these cache entries (their modification time)."""
    for entry in entries:
        if entry.exists():
            os.utime(entry)


_KEY = r"[0-9a-f]{16,64}"  # a content key, as names hold it
_TEMP = r"[a-z0-9_]{8}"  # the random tail the tempfile module adds to a name
#: the names the project gives what it writes into the cache's folders (scenes/,
#: chapters/, voice/, texts/, segments/): a finished folder (a scene, a chapter, or what
#: an output made from a scene: KEY-alpha, KEY-shorts, KEY-shorts-burned), which must also hold its
#: record; a spoken passage or a converted recording (KEY.wav); a passage's word timings
#: beside its sound (KEY.TEXT.words.json); a set text's glyphs (KEY.glyphs); a play's
#: segment, a scene's mix and its encoding (KEY.segment, KEY.sound, KEY.audio); and, hidden,
#: what is being written or was left by a killed render: a build folder, an entry being
#: deleted, a file's temporary name (.KEY-..., .KEY.wav....part), shorts' covers being
#: drawn (.covers-XXXXXXXX)
_FINISHED = re.compile(rf"^{_KEY}(-[a-z]+)*$")
_SOUND = re.compile(rf"^{_KEY}\.wav$")
_GLYPHS = re.compile(rf"^{_KEY}{re.escape(text_store.SUFFIX)}$")
_SEGMENT = re.compile(rf"^{_KEY}({'|'.join(re.escape(s) for s in beat_cache.KINDS)})$")
_TIMINGS = re.compile(rf"^(?P<sound>{_KEY})\.[0-9a-f]{{12}}\.words\.json$")
_LEFT = re.compile(rf"^\.({_KEY}[-.].+|covers-{_TEMP})$")
#: what the project leaves in the cache folder itself, hidden, while a render runs: a
#: cluster render's token (.cluster-PID-NANOSECONDS), the check that the folder takes
#: files (.probe-XXXXXXXX)
_LEFT_AT_ROOT = re.compile(rf"^\.(cluster-\d+-\d+|probe-{_TEMP})$")
_RECORDS = ("scene.json", "chapter.json")


def is_ours(entry: Path) -> bool:
    """Whether the project wrote ``entry`` (in one of the cache's folders): named as the
    project names what it writes there, and (for a finished folder) holding the
    project's record. A user's own files never match."""
    name = entry.name
    if entry.is_symlink():
        return False
    if _LEFT.match(name):
        return True
    if _SOUND.match(name) or _TIMINGS.match(name) or _GLYPHS.match(name) \
            or _SEGMENT.match(name):
        return entry.is_file()
    if not _FINISHED.match(name) or not entry.is_dir():
        return False
    for record in _RECORDS:
        try:
            data = json.loads((entry / record).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("made_by") == MARKER:
            return True
    return False


def _last_used(entry: Path) -> float | None:
    """When a render last used ``entry`` (its modification time), None if it is gone (a
    render beside this one renamed its file into place); word timings are used with their
    sound, so theirs is the later of the two."""
    try:
        used = entry.lstat().st_mtime
    except FileNotFoundError:
        return None
    timings = _TIMINGS.match(entry.name)
    if timings:
        try:
            used = max(used, entry.with_name(f"{timings['sound']}.wav").stat().st_mtime)
        except OSError:
            pass  # its sound is gone: the timings serve nothing
    return used


def prune(folders: Iterable[Path] | None = None, *, now: float | None = None) -> list[Path]:
    """Remove the project's entries unused for KEEP_DAYS and its hidden leftovers older
    than BUILD_DAYS from the cache's folders (by default scenes/, chapters/, voice/,
    texts/ and segments/, and the leftovers in the cache folder itself); returns what was
    removed. Anything else in those folders is left alone."""
    now = time.time() if now is None else now
    scan = [(folder, is_ours) for folder in folders] if folders is not None else [
        (scenes_dir(), is_ours), (chapters_dir(), is_ours), (speech_dir(), is_ours),
        (text_store.texts_dir(), is_ours), (beat_cache.segments_dir(), is_ours),
        (paths.cache(), lambda entry: bool(_LEFT_AT_ROOT.match(entry.name))
         and not entry.is_symlink())]
    removed = []
    for folder, ours in scan:
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir()):
            if not ours(entry):
                continue
            days = BUILD_DAYS if entry.name.startswith(".") else KEEP_DAYS
            used = _last_used(entry)
            if used is not None and used < now - days * 86400:
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
                removed.append(entry)
    return removed
