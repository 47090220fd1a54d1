"""Bookmarks: a word of a passage that a scene waits for.

In a narration file a mark is a name in angle brackets right before a word::

    [sweep]
    The exponentials add up to <total>{total}.

The voice does not say it and the captions do not show it; the scene's
``self.at("total")`` starts its next animation when the voice starts the
marked word. A scene lists the marks it waits for, beat by beat
(``ChapterScene.marks``); a mark the passage lacks, or one no scene waits
for, is a one-line error naming the file and line, and so is what is shaped
like a mark but whose name is no identifier (``<1st>``, ``<über>``): it is
never read aloud as "less than". A ``<`` or ``>`` with a space beside it is
a comparison, and said as one.
"""

from __future__ import annotations

import re
from pathlib import Path

from production.errors import quoted
from production.timings import Word

#: a mark: <name>, a name of letters, digits and _
MARK = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)>")
#: what starts like a mark but is not one: "<" then a letter, not closed right
_OPENING = re.compile(r"<(?=[A-Za-z_])")
#: what is shaped like a mark, whatever its name: brackets around a run of anything but
#: spaces and brackets, an ASCII < or > on at least one side (‹this› alone is a quotation)
_SHAPED = re.compile(r"[<\u2039][^\s<>\u2039\u203a]*[>\u203a]")
RULE = ("a mark is <name> right before a word, after a space (a name of letters, "
        "digits and _), such as 'add up to <total>{total}'")
NAME_RULE = ("a mark's name is an identifier (ASCII letters, digits and _, not starting "
             "with a digit) between < and >, right before a word: <total>, <share_2>")


class MarkError(ValueError):
    """A mark that is malformed, missing or waited for by no scene (one line)."""


def split(text: str, path: Path, beat: str) -> tuple[str, dict[str, int]]:
    """The passage of ``beat`` in the narration file ``path`` without its marks, and
    each mark's word (its index in ``text.split()`` of the passage without marks)."""
    if "<" not in text and ">" not in text:
        return text, {}

    def where(fragment: str) -> str:
        return f"{path}:{line_of(path, beat, fragment)}"

    # Shaped like a mark, it was meant as one: refused, not read aloud as "less than".
    for shaped in _SHAPED.finditer(text):
        bad = shaped.group()
        if ("<" in bad or ">" in bad) and not MARK.fullmatch(bad):
            raise MarkError(f"{where(bad)}: {quoted(bad)} is not a mark: {NAME_RULE}")

    marks: dict[str, int] = {}
    clean: list[str] = []
    at = 0
    for opening in _OPENING.finditer(text):
        if opening.start() < at:
            continue
        mark = MARK.match(text, opening.start())
        if mark is None:
            bad = text[opening.start():opening.start() + 20].split(" ")[0]
            raise MarkError(f"{where(bad)}: malformed mark {bad!r}: {RULE}")
        before = text[at:mark.start()]
        name = mark.group(1)
        if mark.start() > 0 and not text[mark.start() - 1].isspace():
            raise MarkError(f"{where(mark.group())}: mark <{name}> is glued to the word "
                            f"before it: {RULE}")
        if name in marks:
            raise MarkError(f"{where(mark.group())}: mark <{name}> appears twice in [{beat}]")
        clean.append(before)
        marks[name] = len("".join(clean).split())
        at = mark.end()
    clean.append(text[at:])
    passage = "".join(clean)
    passage = re.sub(r"\s{2,}", " ", passage).strip()
    count = len(passage.split())
    for name, index in marks.items():
        if index >= count:
            raise MarkError(f"{where(f'<{name}>')}: mark <{name}> has no word after it: {RULE}")
    return passage, marks


def line_of(path: Path, beat: str, fragment: str) -> int:
    """The first line of ``beat``'s passage in ``path`` that holds ``fragment`` (else its
    header's line; 0 when the file cannot be read)."""
    header = 0
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == f"[{beat}]":
            header = number
        elif header and line.strip().startswith("["):
            break
        elif header and fragment in line:
            return number
    return header


def lines(path: Path) -> dict[tuple[str, str | None], int]:
    """Line numbers in a narration file: (beat, None) for each beat's header, (beat,
    mark) for each mark, so an error can name the line."""
    found: dict[tuple[str, str | None], int] = {}
    beat = ""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return found
    for number, line in enumerate(text.splitlines(), 1):
        header = re.match(r"^\s*\[([A-Za-z0-9_]+)\]\s*$", line)
        if header:
            beat = header.group(1)
            found[(beat, None)] = number
            continue
        for mark in MARK.finditer(line):
            found.setdefault((beat, mark.group(1)), number)
    return found


def check(scene: str, wanted: dict[str, tuple[str, ...]],
          found: dict[str, dict[str, int]], path: Path) -> None:
    """Every mark the scene waits for is in its beat's passage, and every mark in a
    passage is waited for; otherwise a MarkError naming the file and line."""
    where = lines(path)
    for beat, names in found.items():
        for name in names:
            if name not in wanted.get(beat, ()):
                waits = ", ".join(f"<{m}>" for m in wanted.get(beat, ())) or "none"
                raise MarkError(f"{path}:{where.get((beat, name), 0)}: mark <{name}> in "
                                f"[{beat}] is not one {scene} waits for there "
                                f"(it waits for: {waits})")
    for beat, names in wanted.items():
        for name in names:
            if name not in found.get(beat, {}):
                raise MarkError(f"{path}:{where.get((beat, None), 0)}: [{beat}] has no mark "
                                f"<{name}>, which {scene} waits for; {RULE}")


def onsets(marks: dict[str, int], words: tuple[Word, ...] | list[Word],
           spans: list[tuple[int, int]]) -> dict[str, float]:
    """When each mark's word starts, in seconds from the start of its passage's sound:
    the onset of the first spoken word that says the marked written word."""
    times = {}
    for name, index in marks.items():
        first, last = spans[index]
        if first < last:
            times[name] = words[first].start
        else:  # said as nothing (a dash): the moment after the word before it
            times[name] = words[first - 1].end if first else 0.0
    return times


def estimated(marks: dict[str, int], text: str, seconds: float) -> dict[str, float]:
    """Mark times without speech (a silent render): each mark's share of the passage's
    letters before it, of ``seconds``."""
    written = text.split()
    letters = [len(w) + 1 for w in written]
    total = sum(letters) or 1
    return {name: seconds * sum(letters[:index]) / total for name, index in marks.items()}
