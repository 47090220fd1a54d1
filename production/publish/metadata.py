"""What the site is told about a video or a playlist: its fields, from three layers (an
option over the folder's publish.toml over what the bundle says), and the API bodies
made from them.

A field is one of :data:`FIELDS`. publish.toml sets any of them at its top level, for
every video published from its folder; in a shorts folder a table named after a clip
(``[DecoderQuestion]``) sets them for that clip alone. In a course folder it sets the
playlist's title, description, privacy and language.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core import digits
from production import schemas
from production.errors import UsageError, quoted
from production.language import known
from production.publish.site import Body

TOML = "publish.toml"

#: every field, as publish.toml's schema declares them (production/schemas/)
FIELDS: tuple[str, ...] = tuple(schemas.schema(TOML)["properties"])
#: the fields a playlist has
PLAYLIST_FIELDS = ("title", "description", "privacy", "language")
PRIVACY = ("private", "unlisted", "public")
EDUCATION = "27"  # the site's video category for Education
DEFAULTS: dict[str, Any] = {"description": "", "tags": [], "category": EDUCATION,
                            "language": "en", "privacy": "private", "made_for_kids": False}

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


def read_toml(folder: Path, fields: tuple[str, ...] = FIELDS,
              tables: tuple[str, ...] = ()) -> dict[str, Layer]:
    """The layers ``folder``/publish.toml sets: "" for its top level, and one per table
    named in ``tables``; {} when there is no such file. It is read through its schema,
    narrowed to ``fields`` and ``tables``: a key or table it may not have, or a value of
    the wrong kind, is a UsageError naming the file and the key."""
    path = folder / TOML
    if not path.exists():  # a folder there is refused, as a file that does not read is
        return {}
    data = schemas.read(path, toml_schema(fields, tables),
                        "docs/publishing.md lists its keys")
    layers: dict[str, Layer] = {"": {}}
    for key, value in data.items():
        where = f"{path}: {key}" if key in fields else f"{path}: {key}."
        if key in fields:
            layers[""][key] = _taken(key, value, where)
        else:
            layers[key] = {k: _taken(k, v, where + k) for k, v in value.items()}
    return layers


def toml_schema(fields: tuple[str, ...], tables: tuple[str, ...]) -> dict[str, Any]:
    """publish.toml's schema with only ``fields`` at its top level, and a table of them
    for each of ``tables`` (a shorts folder's clips)."""
    declared = schemas.schema(TOML)
    own = {key: declared["properties"][key] for key in fields}
    table = {"type": "object", "additionalProperties": False, "properties": own,
             "description": f"a table of {', '.join(fields)}"}
    return {**declared, "properties": {**own, **{name: table for name in tables}}}


def _taken(key: str, value: Any, where: str) -> Any:
    if key == "category" and isinstance(value, int):  # the schema took it: digits
        value = str(value)
    return valid(key, value, where)


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
    if key == "category" and not digits.NATURAL.fullmatch(value):
        raise UsageError(f"{where}: {quoted(value)} is not a category id; it is a number "
                         f"{digits.WRITTEN}, such as {EDUCATION} (Education)")
    if key == "language" and not known(value):
        raise UsageError(f"{where}: {schemas.key_of(str(value))} is not a language tag; give "
                         "one such as en or en-GB")
    if key == "language":
        value = value.replace("_", "-")  # a code as --language takes it, as a tag
    if key == "title" and not value.strip():
        raise UsageError(f"{where}: the title is empty; a video needs one")
    if key == "tags":
        value = [t.strip() for t in value if t.strip()]
    return value
