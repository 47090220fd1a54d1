"""`render.py translate --chapter NAME --language CODE`: write or bring up to date the
chapter's PO catalogue for a language (production/translation/catalogue.py), and say
how many of its entries are translated, fuzzy and missing. A render in that language
reads it back (production/translation/messages.py).
"""

from __future__ import annotations

import argparse
from typing import Any

HELP = "write or update a chapter's translation catalogue (a PO file) for a language"
DESCRIPTION = ("Write scenes/CHAPTER/locale/CODE.po, a standard PO catalogue holding every "
               "on-screen string of the chapter's scenes and every narration passage (its "
               "{slots} and <marks> in the text), or bring it up to date: translations "
               "still wanted are kept, ones whose English changed become fuzzy. Prints "
               "how many entries are translated, fuzzy and missing. Translate in any PO "
               "editor, then render with --language CODE (docs/translating.md).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from production import options

    options.add_chapter(parser)
    parser.add_argument("--language", required=True, metavar="CODE",
                        help="the language to translate into: a code such as es or pt_BR")


def handle(args: argparse.Namespace, chapter: Any) -> int:
    """`render.py translate`, for ``chapter`` (in English); the exit status."""
    from production import options
    from production.errors import UsageError
    from production.paths import ROOT
    from production.translation import catalogue

    code = args.language
    if not options.LANGUAGE.match(code):
        raise UsageError(f"--language {code!r}: not a language code; use one like es or pt_BR")
    if code == "en":
        raise UsageError("--language en: English is the chapters' source language; name the "
                         "language to translate into")
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        raise UsageError(f"--language {code!r}: not a language Babel knows; use a code such "
                         "as es, fr, de or pt_BR") from None
    path, counts = catalogue.update(chapter, code)
    try:
        shown = path.relative_to(ROOT)
    except ValueError:
        shown = path
    print(counts.line(str(shown)))
    return 0


__all__ = ["DESCRIPTION", "HELP", "add_arguments", "handle"]
