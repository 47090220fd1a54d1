"""Which voice speaks which language: espeak-ng's voice for a language (it speaks about a
hundred, offline), and the language a Piper voice file says it speaks (its .onnx.json).

A language is a code as --language takes it: ``en``, ``es``, ``pt_BR``; two codes are the
same language when their first parts are (``es`` and ``es_MX``).
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path

from production.errors import NarrationError

#: espeak-ng's voice for a language where its own first choice is not ours
ESPEAK_CHOICE = {"en": "en-us"}


def family(language: str) -> str:
    """The language without its region: 'es_MX' -> 'es'."""
    return language.replace("-", "_").split("_")[0].lower()


@functools.lru_cache(maxsize=1)
def espeak_languages() -> dict[str, str]:
    """espeak-ng's languages: its code (``es``, ``es-419``, ``pt-br``) -> its voice's
    name; empty when espeak-ng is missing."""
    try:
        listing = subprocess.run(["espeak-ng", "--voices"], capture_output=True, text=True,
                                 check=False).stdout
    except OSError:
        return {}
    found: dict[str, str] = {}
    for line in listing.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 5 and not parts[4].startswith("mb/"):
            found.setdefault(parts[1], parts[3].replace("_", " "))
    return found


def espeak_voice(language: str) -> str:
    """espeak-ng's voice name for ``language`` ('es' -> 'es', 'pt_BR' -> 'pt-br', 'en' ->
    'en-us'); a NarrationError (one line) when espeak-ng has none."""
    if language in ESPEAK_CHOICE:
        return ESPEAK_CHOICE[language]
    have = espeak_languages()
    wanted = language.replace("_", "-").lower()
    for name in (wanted, family(language)):
        if name in have:
            return name
    if not have:  # espeak-ng is missing: the voice's own check says so, with the fix
        return wanted
    raise NarrationError(f"espeak-ng has no voice for the language {language!r}; "
                         "`render.py voices` lists the languages it speaks")


def piper_language(config: Path) -> str:
    """The language a Piper voice speaks, from its .onnx.json (``language.code``, such as
    'en_US'); '' when the file does not say."""
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    code = (settings.get("language") or {}).get("code") if isinstance(settings, dict) else ""
    return code if isinstance(code, str) else ""


__all__ = ["ESPEAK_CHOICE", "espeak_languages", "espeak_voice", "family", "piper_language"]
