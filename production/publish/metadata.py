"""What the site is told about a video or a playlist: its fields, from three layers (an
option over the folder's publish.toml over what the bundle says), and the API bodies
made from them.

A field is one of :data:`FIELDS`. publish.toml sets any of them at its top level, for
every video published from its folder; in a shorts folder a table named after a clip
(``[DecoderQuestion]``) sets them for that clip alone. In a course folder it sets the
playlist's title, description, privacy and language.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from production.errors import UsageError
from production.publish.site import Body

TOML = "publish.toml"

#: every field, and the type publish.toml gives it in
FIELDS: dict[str, type] = {"title": str, "description": str, "tags": list, "category": str,
                           "language": str, "privacy": str, "made_for_kids": bool,
                           "captions_name": str}
#: the fields a playlist has
PLAYLIST_FIELDS = ("title", "description", "privacy", "language")
PRIVACY = ("private", "unlisted", "public")
EDUCATION = "27"  # the site's video category for Education
DEFAULTS: dict[str, Any] = {"description": "", "tags": [], "category": EDUCATION,
                            "language": "en", "privacy": "private", "made_for_kids": False}
LANGUAGE = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$")  # a BCP-47 tag, loosely

Layer = dict[str, Any]


@dataclass(frozen=True)
class Metadata:
    """Every field of one video (or playlist), resolved."""

    title: str
    description: str
    tags: tuple[str, ...]
    category: str  # the site's category id, digits
    language: str  # BCP-47: the title's, the spoken language's and the captions'
    privacy: str  # one of PRIVACY
    made_for_kids: bool
    captions_name: str  # the caption track's name, as the player lists it


def resolve(*layers: Layer) -> Metadata:
    """The fields from ``layers``, a later one over an earlier, over :data:`DEFAULTS`."""
    merged: Layer = dict(DEFAULTS)
    for layer in layers:
        merged.update({k: v for k, v in layer.items() if v is not None})
    merged.setdefault("captions_name", captions_name(merged["language"]))
    merged["tags"] = tuple(merged["tags"])
    return Metadata(**merged)


def captions_name(language: str) -> str:
    """The caption track's name unless one is set: the language's name in itself
    ("English", "español"), else the tag."""
    from production.language import name_of

    return name_of(language)


def video_body(m: Metadata) -> Body:
    """videos.insert's and videos.update's body: snippet and status."""
    return {"snippet": {"title": m.title, "description": m.description, "tags": list(m.tags),
                        "categoryId": m.category, "defaultLanguage": m.language,
                        "defaultAudioLanguage": m.language},
            "status": {"privacyStatus": m.privacy, "selfDeclaredMadeForKids": m.made_for_kids}}


def parts_of(body: Body) -> str:
    """The ``part`` a videos.update of ``body`` names: snippet and status, and its
    localizations when it has some (a title and description per language)."""
    return "snippet,status" + (",localizations" if body.get("localizations") else "")


def playlist_body(m: Metadata) -> Body:
    """playlists.insert's and playlists.update's body: snippet and status."""
    return {"snippet": {"title": m.title, "description": m.description,
                        "defaultLanguage": m.language},
            "status": {"privacyStatus": m.privacy}}


# ----------------------------------------------------------------- the bundle's own


def description(*parts: str) -> str:
    """A description of ``parts`` (a chapter's: its one-paragraph summary, its chapter
    list from 0:00, its credits), a blank line between two; an empty part is left out."""
    return "\n\n".join(part.strip() for part in parts if part.strip())


def credits(voice: dict[str, Any] | None, versions: dict[str, str]) -> str:
    """The voice the narration was spoken in with its licence, and the tools with their
    versions (as manifest.json records them)."""
    lines = []
    if voice:
        model = Path(str(voice.get("model", ""))).stem
        lines.append(f"Narration: the {voice.get('engine', '')} voice {model} "
                     f"({voice.get('licence', '')}).")
    if versions:
        lines.append("Made with " + ", ".join(f"{k} {v}" for k, v in versions.items()) + ".")
    return "\n".join(lines)


# ----------------------------------------------------------------- publish.toml, options


def read_toml(folder: Path, fields: tuple[str, ...] = tuple(FIELDS),
              tables: tuple[str, ...] = ()) -> dict[str, Layer]:
    """The layers ``folder``/publish.toml sets: "" for its top level, and one per table
    named in ``tables``; {} when there is no such file. A key or table it may not have,
    or a value of the wrong kind, is a UsageError naming the file and the key."""
    path = folder / TOML
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: not a valid TOML file ({error})") from None
    layers: dict[str, Layer] = {"": {}}
    for key, value in data.items():
        if isinstance(value, dict) and key in tables:
            layers[key] = {k: _checked(k, v, f"{path} [{key}]", fields)
                           for k, v in value.items()}
        else:
            layers[""][key] = _checked(key, value, str(path), fields, tables)
    return layers


def _checked(key: str, value: Any, where: str, fields: tuple[str, ...],
             tables: tuple[str, ...] = ()) -> Any:
    if key not in fields:
        takes = ", ".join(fields) + (f"; and a table per clip ({', '.join(tables)})"
                                     if tables else "")
        raise UsageError(f"{where}: unknown key {key!r}; it takes {takes}")
    if key == "category" and isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    kind = FIELDS[key]
    if not isinstance(value, kind) or key == "tags" and not all(
            isinstance(t, str) for t in value):
        said = {str: "a string", list: "a list of strings", bool: "true or false"}[kind]
        raise UsageError(f"{where}: {key} must be {said}")
    return valid(key, value, f"{where}: {key}")


def options(given: dict[str, Any]) -> Layer:
    """The layer the command's options make (None: not given); --tags is comma-separated."""
    layer = {}
    for key, value in given.items():
        if value is None:
            continue
        if key == "tags":
            value = [t.strip() for t in value.split(",") if t.strip()]
        layer[key] = valid(key, value, f"--{key.replace('_', '-')}")
    return layer


def valid(key: str, value: Any, where: str) -> Any:
    """``value`` when it is one the site takes for the field ``key``; else a UsageError."""
    if key == "privacy" and value not in PRIVACY:
        raise UsageError(f"{where}: {value!r} is not a privacy; it is one of "
                         f"{', '.join(PRIVACY)}")
    if key == "category" and not value.isdigit():
        raise UsageError(f"{where}: {value!r} is not a category id; it is a number, such as "
                         f"{EDUCATION} (Education)")
    if key == "language" and not LANGUAGE.match(value):
        raise UsageError(f"{where}: {value!r} is not a language tag; give one such as en or "
                         "en-GB")
    if key == "title" and not value.strip():
        raise UsageError(f"{where}: the title is empty; a video needs one")
    if key == "tags":
        value = [t.strip() for t in value if t.strip()]
    return value
