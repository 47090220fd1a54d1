"""The language a chapter is drawn and spoken in, for this process: the words on screen
(:func:`_`, the gettext convention; :func:`N_` marks a string translated where it is
shown) and the way a number is written (:func:`localized`: "0.74" is "0,74" and "56%" is
"56 %" in Spanish, from the locale data of Babel).

English is the source language: with it active (the default) every function here returns
its argument unchanged, so an English render's bytes do not depend on this module. A
render in another language activates that language's messages once per process
(:func:`use`, done by :meth:`production.chapters.Chapter.in_language`), before any scene
code runs; a worker process that unpickles the chapter does the same.

This module draws nothing and imports neither Manim nor the scenes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field

#: the language of the source: the chapters' code and narration are written in it
SOURCE = "en"


class MissingTranslation(LookupError):
    """A string shown on screen has no translation in the active language."""

    def __init__(self, code: str, text: str) -> None:
        self.code, self.text = code, text
        super().__init__(f"no {code} translation of the on-screen string {text!r}; run "
                         f"`render.py translate --language {code}` and translate it, or "
                         "render with --draft-language")


@dataclass
class _Active:
    code: str = SOURCE
    messages: Mapping[str, str] = field(default_factory=dict)
    strict: bool = True
    fell_back: set[str] = field(default_factory=set)


_ACTIVE = _Active()


def code() -> str:
    """The active language's code ('en' unless a render chose another)."""
    return _ACTIVE.code


def use(language: str, messages: Mapping[str, str] | None = None, *,
        strict: bool = True) -> None:
    """Make ``language`` active, with its on-screen ``messages`` (English source ->
    translation). ``strict``: a string without a translation is an error
    (:class:`MissingTranslation`); otherwise it is shown in English and counted."""
    global _ACTIVE
    _ACTIVE = _Active(language, dict(messages or {}), strict)


@contextmanager
def active(language: str, messages: Mapping[str, str] | None = None, *,
           strict: bool = True) -> Iterator[None]:
    """``language`` active for the block, then the one before it again (for tests and
    in-process builds)."""
    global _ACTIVE
    before = _ACTIVE
    use(language, messages, strict=strict)
    try:
        yield
    finally:
        _ACTIVE = before


def fell_back() -> set[str]:
    """The on-screen strings shown in English for want of a translation (a draft)."""
    return set(_ACTIVE.fell_back)


def _(text: str) -> str:
    """``text``, an on-screen string written in English, in the active language."""
    if _ACTIVE.code == SOURCE:
        return text
    found = _ACTIVE.messages.get(text)
    if found:
        return found
    if _ACTIVE.strict:
        raise MissingTranslation(_ACTIVE.code, text)
    _ACTIVE.fell_back.add(text)
    return text


def N_(text: str) -> str:  # noqa: N802 (the gettext convention's name)
    """Marks ``text`` for the catalogue without translating it here: for a string kept
    in a class attribute or a table and passed through :func:`_` where it is shown."""
    return text


# ------------------------------------------------------------------ numbers
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


@dataclass(frozen=True)
class Symbols:
    """How a locale writes a number: its decimal sign, its grouping sign, and what
    stands between a number and its percent sign."""

    decimal: str = "."
    group: str = ","
    before_percent: str = ""


def symbols(language: str) -> Symbols:
    """The number symbols of ``language`` from Babel's locale data (CLDR)."""
    if language == SOURCE:
        return Symbols()
    from babel import Locale
    from babel.numbers import get_decimal_symbol, get_group_symbol

    locale = Locale.parse(language)
    pattern = locale.percent_formats[None].pattern  # '#,##0\xa0%' in Spanish
    space = pattern[pattern.rindex("0") + 1:pattern.index("%")] if "%" in pattern else ""
    return Symbols(get_decimal_symbol(locale), get_group_symbol(locale), space)


#: a language as the project writes one: a code as --language takes it (es, pt_BR) or a
#: BCP-47 tag as a video site takes it (es, pt-BR, es-419, zh-Hant)
TAG = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*\Z")
LONGEST_TAG = 35  # characters: BCP-47 asks that a tag of up to 35 be kept whole


def known(tag: object) -> bool:
    """Whether ``tag`` names a language: a code or a BCP-47 tag (:data:`TAG`) of at most
    :data:`LONGEST_TAG` characters whose language (its first part) Babel's locale data
    (CLDR) knows. The one check of a language code, wherever one enters."""
    if not isinstance(tag, str) or len(tag) > LONGEST_TAG or not TAG.match(tag):
        return False
    from babel import localedata

    return localedata.exists(tag.replace("-", "_").split("_")[0].lower())


def name_of(tag: str) -> str:
    """A language's name in itself, from its code or BCP-47 tag: 'English', 'español',
    'português (Brasil)'; the tag itself for one Babel does not know."""
    if tag.replace("_", "-").split("-")[0].lower() == SOURCE:
        return "English"
    from babel import Locale, UnknownLocaleError

    code = tag.replace("-", "_")
    try:
        return Locale.parse(code).get_display_name(code) or tag
    except (UnknownLocaleError, ValueError, TypeError):
        return tag


def separator(language: str | None = None) -> str:
    """What stands between the numbers of a list ('[0.82, 0.17]'): a comma, or a
    semicolon where the comma is the decimal sign ('[0,82; 0,17]')."""
    return "; " if symbols(language or _ACTIVE.code).decimal == "," else ", "


def localized(text: str, language: str | None = None) -> str:
    """A number written the English way ('0.74', '1,000,000', '56%', '2.87×10⁵⁶',
    '1.5×') written the way ``language`` (default: the active one) writes it. Only the
    signs change: the digits are the ledger's, rounded as before."""
    language = language or _ACTIVE.code
    if language == SOURCE:
        return text
    s = symbols(language)
    swap = {".": s.decimal, ",": s.group}
    text = _NUMBER.sub(lambda m: "".join(swap.get(c, c) for c in m.group()), text)
    return text.replace("%", s.before_percent + "%") if s.before_percent else text


__all__ = ["LONGEST_TAG", "SOURCE", "TAG", "MissingTranslation", "N_", "Symbols", "_", "active",
           "code", "fell_back", "known", "localized", "name_of", "separator", "symbols", "use"]
