"""A text file publishing reads back (chapters.txt) as UTF-8 text, or one line saying why
not. The JSON and TOML files a bundle keeps are read through their schemas instead
(production/schemas/)."""

from __future__ import annotations

from pathlib import Path

from production.errors import UsageError


def text_of(path: Path, again: str) -> str:
    """``path`` read as UTF-8 text; ``again``: how to make the file anew."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path}: cannot be read ({error.strerror}); {again}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{path}: not UTF-8 text (byte {error.start}); save it as UTF-8, "
                         f"or {again}") from None
