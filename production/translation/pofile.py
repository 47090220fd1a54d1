"""A PO file read strictly: its bytes, checked line by line before Babel reads them.

Babel's reader is lenient even with ``abort_invalid``: a string without its closing
quote loses its last character, an unknown escape stays as a backslash and a letter
(written back doubled), a second entry with the same msgctxt and msgid is merged into
the first, and text after a string or a ``msgstr`` without a ``msgid`` is dropped. A
catalogue is a translator's work, so here each of those is one line naming the file and
the line, and nothing is read (or rewritten) until it is mended.

What is checked: every line is blank, a comment (``#``), a keyword (``msgctxt``,
``msgid``, ``msgid_plural``, ``msgstr``, ``msgstr[N]``) followed by one string, or a
string continuing the one before; a string is in double quotes, closed on its line,
with only the escapes Babel reads (``\\n \\t \\r \\" \\\\``); the keywords come in
their order (``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr``); an obsolete entry
(``#~``) is obsolete on all its lines; no two entries, obsolete ones included, share a
msgctxt and msgid; and the text is in the charset its header names (UTF-8 by default).
A UTF-8 byte-order mark at the start is not part of the first line.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from production.errors import UsageError

BOM = codecs.BOM_UTF8

#: a keyword line: the keyword, a plural index, then what follows the space
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])? (.*)\Z", re.S)
#: a whole string: double quotes around characters and escapes, nothing after it
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"\Z', re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)
#: the escapes Babel's reader turns back into characters
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
#: a string opened and closed, whatever follows it
_OPEN = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
#: the header's Content-Type line, naming the charset
_CHARSET = re.compile(rb'"Content-Type:[^"]*charset=([A-Za-z0-9._:-]+)')
#: how much of what a translator wrote an error quotes
SHOWN = 40


def _shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN else text[:SHOWN - 3] + "...")


def contents(path: Path) -> bytes:
    """The bytes of the PO file at ``path``; a UsageError when it is a folder or cannot be
    read."""
    if path.is_dir():
        raise UsageError(f"{path}: a folder, not a PO file; move it away (a catalogue is "
                         "one file)")
    try:
        return path.read_bytes()
    except OSError as error:
        raise UsageError(f"{path}: cannot read the catalogue ({error.strerror or error})"
                         ) from None


#: the keyword each keyword may follow ("start": between entries)
_AFTER = {"msgctxt": ("start", "msgstr"), "msgid": ("start", "msgstr", "msgctxt"),
          "msgid_plural": ("msgid",), "msgstr": ("msgid",)}
_WHERE = {"msgctxt": "at the start of an entry", "msgid": "at the start of an entry or "
          "after its msgctxt", "msgid_plural": "after a msgid", "msgstr": "once, after a msgid"}
NO_MSGSTR = "an entry without its msgstr; every msgid is followed by a msgstr"


@dataclass
class _Entry:
    """The entry being read: where it starts, whether obsolete, its msgctxt and msgid."""

    line: int
    obsolete: bool
    context: list[str] | None = None
    msgid: list[str] = field(default_factory=list)
    plural: int = -1  # the index of the last msgstr[N] read


class _Reader:
    """One pass over a PO file's lines, refusing the first that breaks the format."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.state = "start"  # the last keyword read, or "start" between entries
        self.entry: _Entry | None = None
        self.seen: dict[tuple[str | None, str], int] = {}

    def refuse(self, number: int, problem: str) -> UsageError:
        return UsageError(f"{self.path}:{number}: not a PO catalogue this can read: "
                          f"{problem}")

    def close(self) -> None:
        """The entry read so far is complete: a refusal when it lacks its msgstr or
        repeats an entry's msgctxt and msgid."""
        entry = self.entry
        if entry is None:
            return
        if self.state in ("msgctxt", "msgid", "msgid_plural"):
            raise self.refuse(entry.line, NO_MSGSTR)
        key = ("".join(entry.context) if entry.context is not None else None,
               "".join(entry.msgid))
        if key in self.seen:
            said = f"msgid {_shown(key[1])}" + (
                f" (msgctxt {_shown(key[0])})" if key[0] is not None else "")
            raise self.refuse(entry.line, f"{said} is defined twice, also at line "
                                          f"{self.seen[key]}; keep one of them")
        self.seen[key] = entry.line
        self.entry, self.state = None, "start"

    def line(self, number: int, stripped: str) -> None:
        """Read one line, its spaces stripped (not blank, not a `#~|` line)."""
        obsolete = stripped.startswith("#~")
        if stripped.startswith("#") and not obsolete:  # a comment ends an entry
            if self.state not in ("start", "msgstr"):
                raise self.refuse(self.entry.line if self.entry else number, NO_MSGSTR)
            self.close()
            return
        body = stripped[2:].lstrip() if obsolete else stripped
        if body.startswith('"'):
            text = _string(body, number, self.refuse)
            if self.entry is None:
                raise self.refuse(number, "a string outside an entry: it continues a "
                                          "msgctxt, msgid or msgstr on the line before")
            self.same_entry(number, obsolete)
            if self.state == "msgctxt":
                self.entry.context.append(text)
            elif self.state == "msgid":
                self.entry.msgid.append(text)
            return
        match = _KEYWORD.match(body)
        if match is None:
            raise self.refuse(number, f"{_shown(body)}: a line is blank, a # comment, a "
                                      "keyword (msgctxt, msgid, msgid_plural, msgstr) and "
                                      "a string, or a string in double quotes")
        keyword, index, rest = match.groups()
        text = _string(rest.strip(), number, self.refuse, keyword)
        if index is not None:
            self.plural(number, keyword, int(index), obsolete)
            return
        if keyword in ("msgctxt", "msgid") and self.state in ("msgid", "msgid_plural"):
            raise self.refuse(self.entry.line, NO_MSGSTR)
        if self.state not in _AFTER[keyword]:
            hint = ("; an entry with msgid_plural takes msgstr[0], msgstr[1], ..."
                    if self.state == "msgid_plural" else "")
            raise self.refuse(number, f"{keyword} out of place: it comes "
                                      f"{_WHERE[keyword]}{hint}")
        if keyword == "msgctxt" or (keyword == "msgid" and self.state != "msgctxt"):
            self.close()
            self.entry = _Entry(number, obsolete)
        self.same_entry(number, obsolete)
        if keyword == "msgctxt":
            self.entry.context = [text]
        elif keyword == "msgid":
            self.entry.msgid = [text]
        self.state = keyword

    def plural(self, number: int, keyword: str, index: int, obsolete: bool) -> None:
        entry = self.entry
        follows = (self.state == "msgid_plural" and index == 0) or (
            self.state == "msgstr" and entry is not None and entry.plural + 1 == index > 0)
        if keyword != "msgstr" or not follows:
            raise self.refuse(number, f"{keyword}[{index}] out of place: msgstr[0], "
                                      "msgstr[1], ... follow a msgid_plural, in order")
        self.same_entry(number, obsolete)
        entry.plural, self.state = index, "msgstr"

    def same_entry(self, number: int, obsolete: bool) -> None:
        if self.entry is not None and obsolete != self.entry.obsolete:
            raise self.refuse(number, "an entry partly obsolete: mark all of its lines #~ "
                                      "or none")


def lines(data: bytes, path: Path) -> list[str]:
    """``data``, a PO file's bytes (a byte-order mark at the start is ignored), as lines
    of text for Babel's reader; a UsageError naming ``path`` and the line when it is not
    a PO file written as this module's docstring says."""
    raw = data.removeprefix(BOM).split(b"\n")
    charset = _charset(raw, path)
    named = "the charset its header names" if charset != "utf-8" else \
        "a PO catalogue's charset unless its header names another"
    reader, text = _Reader(path), []
    for number, line_bytes in enumerate(raw, 1):
        try:
            line = line_bytes.decode(charset)
        except UnicodeDecodeError:
            raise reader.refuse(number, f"not {charset} text ({named})") from None
        stripped = line.strip()
        if stripped.startswith("#~") and stripped[2:].lstrip().startswith("|"):
            # an obsolete entry's previous English (gettext's `#~|`): not a translator's
            # text, and Babel's reader takes it for a keyword, so it is left out
            line = ""
        elif stripped:
            reader.line(number, stripped)
        text.append(line)
    reader.close()
    return text


def _string(body: str, number: int, refuse: Callable[[int, str], UsageError],
            keyword: str | None = None) -> str:
    """The text of the quoted string ``body`` (its escapes read); a refusal when it is not
    one closed string with escapes Babel reads."""
    match = _STRING.match(body)
    if match is None:
        closed = _OPEN.match(body)
        if not body.startswith('"'):
            raise refuse(number, f"after {keyword} comes a string in double quotes, not "
                                 f"{_shown(body)}")
        if closed is None:
            raise refuse(number, f"the string {_shown(body)} is not closed: end it with \" "
                                 "on its line")
        raise refuse(number, f"{_shown(body[closed.end():].strip())} after the closing \" "
                             "of a string; write a \" inside a string as \\\"")
    for escape in _ESCAPE.finditer(match.group(1)):
        if escape.group(1) not in ESCAPES:
            raise refuse(number, f"the escape {_shown(escape.group(0))} in a string; a PO "
                                 "string takes \\n, \\t, \\r, \\\" and \\\\")
    return _ESCAPE.sub(lambda m: ESCAPES[m.group(1)], match.group(1))


def _charset(raw: list[bytes], path: Path) -> str:
    """The charset the header's Content-Type names (UTF-8 when it names none)."""
    for number, line in enumerate(raw, 1):
        found = _CHARSET.match(line.strip().removeprefix(b"#~").strip())
        if found:
            name = found.group(1).decode("ascii")
            try:
                return codecs.lookup(name).name
            except LookupError:
                raise UsageError(f"{path}:{number}: not a PO catalogue this can read: the "
                                 f"charset {_shown(name)} is not one Python knows; use "
                                 "UTF-8") from None
    return "utf-8"


__all__ = ["BOM", "ESCAPES", "contents", "lines"]
