"""What a publish sends, read from a folder: a chapter bundle (one video, its thumbnail
and captions), a course folder (each chapter's bundle in course order, then a playlist
of them) or a shorts folder (each short as its own video with its captions).

Nothing here touches the network or writes a file: a folder that is none of these, or a
bundle missing a part, is a UsageError saying what is missing and how to make it. The
listings (manifest.json, course.json, shorts.json) are read through their schemas
(production/schemas/): a field of the wrong kind or a language that is none is one line
naming the file and the field.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from production import schemas
from production.chapters import untitled_course
from production.errors import UsageError
from production.publish import fields, metadata
from production.publish.limits import TITLE
from production.publish.metadata import Layer, Metadata

MANIFEST = "manifest.json"
VIDEO = "chapter.mp4"
THUMBNAIL = "thumbnail.jpg"
CAPTIONS = "chapter.srt"
CHAPTERS = "chapters.txt"
COURSE = "course.json"
SHORTS = "shorts.json"
SHORTS_DIR = "shorts"
SHORTS_TAG = "#Shorts"


@dataclass(frozen=True)
class Video:
    """One video to publish, with what goes with it."""

    folder: Path  # where its publish.json (and publish.toml) are
    file: Path
    thumbnail: Path | None
    captions: Path | None  # SRT
    seconds: float  # how long it runs
    short: bool
    metadata: Metadata
    label: str  # how messages name it: its path from the folder the command was given

    @property
    def name(self) -> str:
        """Its key in publish.json: the file's name in its folder."""
        return self.file.name

    def part(self, file: Path) -> str:
        """How messages name ``file``, a file of this video's (thumbnail, captions)."""
        return str(Path(self.label).parent / file.name)


@dataclass(frozen=True)
class Playlist:
    """A course's playlist: its chapters' videos in course order."""

    folder: Path  # the course folder: its publish.json holds the playlist's record
    metadata: Metadata
    videos: tuple[Video, ...]


@dataclass(frozen=True)
class Localization:
    """A language's bundle added to a video published from another folder: its title and
    description as that video's localization, its captions as a track of that video."""

    original: Video  # the video published before (its folder's publish.json has its id)
    language: str  # BCP-47, as the site takes it: "es", "pt-BR"
    title: str
    description: str
    captions: Path | None  # SRT
    captions_name: str
    label: str  # how messages name it: "es/chapter.mp4 as es of chapter.mp4"


@dataclass(frozen=True)
class Publication:
    """Everything one publish sends, in order: the videos, then the playlist (if any),
    then the localizations of videos published before (if any)."""

    videos: tuple[Video, ...]
    playlist: Playlist | None = None
    localizations: tuple[Localization, ...] = ()


def read(folder: Path, *, shorts: bool, given: Layer) -> Publication:
    """What publishing ``folder`` sends, its metadata resolved over the options ``given``
    (a layer from :func:`metadata.options`)."""
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such folder; give a publish bundle (out/ after "
                         "`render.py render`) or a course folder")
    if shorts:
        return Publication(read_shorts(shorts_folder(folder), folder, given))
    if (folder / COURSE).exists():
        return read_course(folder, given)
    if (folder / SHORTS).exists():
        raise UsageError(f"{folder} holds shorts, not a chapter: publish them with --shorts")
    return Publication((read_chapter(folder, folder, given),))


def per_video(given: Layer) -> Layer:
    """The options that apply to every video when they cannot all share one title."""
    return {k: v for k, v in given.items() if k not in ("title", "description")}


# ----------------------------------------------------------------- a chapter


def read_manifest(folder: Path) -> dict[str, Any]:
    """The bundle's manifest.json, as its schema says it is."""
    path = folder / MANIFEST
    if not path.exists():
        raise UsageError(f"{folder} is not a publish bundle: it has no {MANIFEST} (render one "
                         "with `render.py render`, or give a bundle or a course folder)")
    return schemas.read(path, MANIFEST, AGAIN)


#: how to make a bundle's files anew
AGAIN = "render the bundle again"


def credits_of(manifest: dict[str, Any]) -> str:
    """The credits line of a bundle: its voice and the tools' versions, as its manifest
    records them."""
    return metadata.credits(manifest.get("voice") or None, manifest.get("versions") or {})


def read_chapter(folder: Path, root: Path, given: Layer) -> Video:
    """The chapter bundle in ``folder`` as one video (``root``: the folder the command was
    given, which labels are relative to)."""
    manifest = read_manifest(folder)
    video = folder / VIDEO
    if not video.is_file():
        raise UsageError(f"{folder} is not a publish bundle: it has no {VIDEO} (render the "
                         "whole chapter with `render.py render`)")
    chapters = folder / CHAPTERS
    listed = fields.text_of(chapters, AGAIN) if chapters.is_file() else ""
    if listed and not listed.startswith("0:00 "):
        raise UsageError(f"{chapters}: the chapter list must start at 0:00, as the site "
                         "reads it from a description")
    own = {"title": manifest["title"], "tags": manifest.get("tags") or [],
           **({"language": manifest["language"].replace("_", "-")}
              if manifest.get("language") else {}),
           "description": metadata.description(manifest.get("summary") or "", listed,
                                               credits_of(manifest))}
    toml = metadata.read_toml(folder).get("", {})
    return Video(folder, video, _present(folder / THUMBNAIL), _present(folder / CAPTIONS),
                 float(manifest.get("duration") or 0.0), False,
                 metadata.resolve(own, toml, given), _label(video, root))


def _present(path: Path) -> Path | None:
    return path if path.is_file() else None


def _label(path: Path, root: Path) -> str:
    return os.path.relpath(path, root)


# ----------------------------------------------------------------- a course


def read_course(folder: Path, given: Layer) -> Publication:
    """A course folder (course.json): each chapter's bundle in course order, and their
    playlist, titled as the course is. --title and --description name the playlist; the
    other options apply to every chapter too."""
    path = folder / COURSE
    listing = schemas.read(path, COURSE, "make it again with `render.py course`")
    names: list[str] = [c["name"] for c in listing["chapters"]]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise UsageError(f"{path}: chapters[{i}].name: {name!r} is listed twice; a "
                             "course publishes each chapter once")
    videos = tuple(read_chapter(folder / str(name), folder, per_video(given)) for name in names)
    titles = [v.metadata.title for v in videos]
    own = {"title": listing.get("title") or untitled_course(titles),
           "description": "\n".join(f"{i}. {t}" for i, t in enumerate(titles, 1))}
    toml = metadata.read_toml(folder, metadata.PLAYLIST_FIELDS).get("", {})
    chosen = {k: v for k, v in given.items() if k in metadata.PLAYLIST_FIELDS}
    return Publication(videos, Playlist(folder, metadata.resolve(own, toml, chosen), videos))


# ----------------------------------------------------------------- localizations


def language_of(folder: Path) -> str:
    """The language a chapter bundle or course folder was rendered in, as a BCP-47 tag
    ("en" when its listing names none)."""
    course = (folder / COURSE).exists()
    listing = folder / COURSE if course else folder / MANIFEST
    if not listing.exists():
        return "en"
    code = schemas.read(listing, COURSE if course else MANIFEST, AGAIN).get("language")
    return (code or "en").replace("_", "-")


def read_localization(folder: Path, original: Path, given: Layer) -> Publication:
    """``folder``, a bundle (or course) in another language, as localizations of the
    videos published from ``original``, the same chapter's bundle (or the same course)
    in its first language: each video's title, description and captions in the
    language."""
    language = given.get("language") or language_of(folder)
    if language.split("-")[0] == language_of(original).split("-")[0]:
        raise UsageError(f"--as-localization: {folder} and {original} are both in "
                         f"{language}; a localization adds another language to a video")
    if (folder / COURSE).exists() != (original / COURSE).exists():
        raise UsageError(f"--as-localization: {folder} and {original} should both be "
                         "chapter bundles or both course folders")
    if (folder / COURSE).exists():
        ours, theirs = read_course(folder, per_video(given)), read_course(original, {})
        by_name = {v.folder.name: v for v in theirs.videos}
        pairs = []
        for video in ours.videos:
            if video.folder.name not in by_name:
                raise UsageError(f"--as-localization: the course in {original} has no "
                                 f"chapter {video.folder.name!r}")
            pairs.append((video, by_name[video.folder.name]))
    else:
        ours_chapter = read_manifest(folder).get("chapter") or ""
        theirs_chapter = read_manifest(original).get("chapter") or ""
        if ours_chapter != theirs_chapter:
            raise UsageError(f"--as-localization: {folder} holds chapter "
                             f"{schemas.key_of(ours_chapter)} and {original} chapter "
                             f"{schemas.key_of(theirs_chapter)}; give the same chapter's "
                             "bundles")
        pairs = [(read_chapter(folder, folder, given), read_chapter(original, original, {}))]
    return Publication((), None, tuple(
        Localization(theirs, language, ours.metadata.title, ours.metadata.description,
                     ours.captions, ours.metadata.captions_name
                     if given.get("captions_name") else metadata.captions_name(language),
                     f"{_label(ours.file, folder.parent)} as {language} of "
                     f"{_label(theirs.file, original.parent)}")
        for ours, theirs in pairs))


# ----------------------------------------------------------------- shorts


def shorts_folder(folder: Path) -> Path:
    """The shorts of ``folder``: its shorts/ (as `render.py shorts` writes beside a
    bundle), or the folder itself when it holds shorts.json."""
    for candidate in (folder / SHORTS_DIR, folder):
        if (candidate / SHORTS).exists():
            return candidate
    raise UsageError(f"{folder} has no shorts (no {SHORTS_DIR}/{SHORTS}): make them with "
                     "`render.py shorts` (into out/shorts/), then publish with --shorts")


def read_shorts(folder: Path, root: Path, given: Layer) -> tuple[Video, ...]:
    """Every clip shorts.json lists, as its own video: its title ending in #Shorts, its
    one-line description, its captions; credits and tags from the chapter's manifest when
    the shorts sit in its bundle. --title and --description would name every short alike:
    set them per clip in publish.toml ([NAME] tables) instead."""
    for option in ("title", "description"):
        if option in given:
            raise UsageError(f"--{option} would give every short the same {option}; set it "
                             f"per short in {folder / metadata.TOML} (a [NAME] table per "
                             "clip)")
    path = folder / SHORTS
    listing = schemas.read(path, SHORTS, "make it again with `render.py shorts`")
    clips = listing["clips"]
    parent = folder.parent / MANIFEST
    manifest = read_manifest(folder.parent) if parent.exists() else None
    credits = credits_of(manifest) if manifest else ""
    tags = (manifest.get("tags") or []) if manifest else []
    stems = tuple(Path(c["file"]).stem for c in clips)
    toml = metadata.read_toml(folder, tables=stems)
    return tuple(_short(folder, root, clip, listing.get("chapter") or "", credits, tags, toml,
                        given) for clip in clips)


def _short(folder: Path, root: Path, clip: dict[str, Any], chapter: str, credits: str,
           tags: list[str], toml: dict[str, Layer], given: Layer) -> Video:
    named = clip["file"]
    file = folder / named
    if not named or Path(named).name != named or not file.is_file():
        raise UsageError(f"{folder / SHORTS}: lists {schemas.key_of(named)}, which is not "
                         "there; make the shorts again with `render.py shorts`")
    parts = clip.get("parts") or 1
    title = clip.get("title") or file.stem
    if parts > 1:
        title += f" ({clip.get('part') or 1}/{parts})"
    from_chapter = f"From the chapter “{chapter}”." if chapter else ""
    own = {"title": title,
           "description": metadata.description(clip.get("description") or "",
                                               from_chapter, credits),
           "tags": tags}
    resolved = metadata.resolve(own, toml.get("", {}), toml.get(file.stem, {}), given)
    srt = clip.get("srt") or ""
    captions = folder / srt if srt and Path(srt).name == srt else None
    return Video(folder, file, None, _present(captions) if captions else None,
                 float(clip.get("seconds") or 0.0), True,
                 _as_short(resolved, set_by_user=("title" in toml.get("", {})
                                                  or "title" in toml.get(file.stem, {}))),
                 _label(file, root))


def _as_short(m: Metadata, *, set_by_user: bool) -> Metadata:
    """``m`` with its title ending in #Shorts: a title of the clip's own is cut (at a word,
    with an ellipsis) to fit the site's 100 characters; one the user set is not cut (the
    limits say so if it is too long)."""
    title = m.title.strip()
    if title.endswith(SHORTS_TAG):
        return replace(m, title=title)
    room = TITLE - len(SHORTS_TAG) - 1
    if len(title) > room and not set_by_user:
        cut = title[:room - 1].rsplit(" ", 1)[0].rstrip(" ,;:.-")
        title = cut + "…"
    return replace(m, title=f"{title} {SHORTS_TAG}")
