"""What was published from a folder: its publish.json, so that nothing is sent twice.

One record per uploaded video file (by its name in the folder): the file's SHA-256, the
video id, the body last sent (insert or update), the thumbnail and caption files set on
it (their hashes, the caption track's id), the ids of earlier videos a changed file
replaced, and the upload session of an upload under way (its URI, the hash of the file
it carries and the body it was opened with), so that a killed run resumes it. A course
folder's publish.json holds its playlist's record: id, body, and its items in order.

Records are kept per API root (``{"sites": {ROOT: {"videos": ..., "playlist": ...}}}``):
ids one host gave mean nothing to another, so publishing to another root (a stand-in, an
API-compatible host) starts afresh there and leaves the other's records as they are.

The file is rewritten whole (temporary name, then rename) after every step, and read
through its schema (production/schemas/publish.json.schema.json): a hand edit that leaves
a record of the wrong kind, without the body it was sent with, with a language that is
none, or with an upload session on another site than its own (a resumed upload sends the
signed-in request there), is one line naming the field.
"""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path
from typing import Any

from production import files, schemas
from production.errors import UsageError, one_line, quoted

FILE = "publish.json"

Record = dict[str, Any]


class State:
    """publish.json of one folder, for one API root. ``keep`` False (a dry run) reads it
    and never writes."""

    def __init__(self, folder: Path, api_root: str, *, keep: bool) -> None:
        self.path = folder / FILE
        self.api_root = api_root
        self.keep = keep
        self.data = self._read()
        self.records: Record = self.data.setdefault("sites", {}).setdefault(api_root, {})

    def _read(self) -> Record:
        if not self.path.exists():  # a folder there is refused: it could not be written
            return {}
        again = "it records what was published: mend it, or move it away to publish " \
                "everything anew"
        data = schemas.read(self.path, FILE, again)
        for site, records in data.get("sites", {}).items():
            for name, record in records.get("videos", {}).items():
                uri = record.get("session", {}).get("uri")
                if uri is not None and _origin(uri) != _origin(site):
                    # a resumed upload sends the signed-in request there: never elsewhere
                    raise UsageError(one_line(
                        f"{self.path}: sites[{site!r}].videos[{name!r}].session.uri is "
                        f"{quoted(uri)}; it should be an address on {_origin(site)} (the "
                        f"site it was opened on); {again}"))
        return data

    def video(self, name: str) -> Record:
        """The record of the video file ``name`` (empty until a step fills it)."""
        return self.records.setdefault("videos", {}).setdefault(name, {})

    def playlist(self) -> Record:
        return self.records.setdefault("playlist", {})

    def save(self) -> None:
        """Write the records (only this folder's, whole) unless this is a dry run."""
        if self.keep:
            files.write_text(self.path, json.dumps(self.data, indent=1, ensure_ascii=False,
                                                   sort_keys=True) + "\n")


def _origin(address: str) -> str:
    """scheme://host[:port] of an address, as a browser tells one site from another."""
    parts = urllib.parse.urlsplit(address)
    return f"{parts.scheme}://{parts.netloc}".lower()
