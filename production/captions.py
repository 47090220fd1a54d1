"""Captions (SRT and WebVTT), cut on the words as they are said.

Rules (the usual ones for subtitles): at most 42 characters a line and two
lines a cue; a cue starts when its first word starts and ends when its last
word ends, held on screen at most 0.5 s longer and never into the next cue;
at least 0.8 s on screen; at most 20 characters a second; no cue spans two
passages (two beats); a new sentence starts a new cue when the one before is
long enough to stand alone. Captions show the written words ("64.8", "56 %"),
timed by the spoken words that say them.

Cue text is written so each format reads it back as the same text: in WebVTT,
``&``, ``<`` and ``>`` are escaped (``&amp;``, ``&lt;``, ``&gt;``), which also keeps
the timing arrow ``-->`` out of the text. SRT has no escapes, so there a run of two
or more dashes before ``>`` (an arrow a player would take for a timing line) is
written ``->``.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from production.timings import Word

MAX_LINE = 42
MAX_LINES = 2
MIN_CUE = 0.8  # seconds on screen, at least
MAX_HOLD = 0.5  # seconds a cue may stay after its last word ends
MAX_RATE = 20.0  # characters a second, at most
_CUE_TIME = re.compile(r"^(\d+):(\d\d):(\d\d)\.(\d{3}) --> (\d+):(\d\d):(\d\d)\.(\d{3})")


@dataclass(frozen=True)
class Cue:
    start: float  # seconds from the start of the video
    end: float
    lines: tuple[str, ...]


def wrap(text: str, width: int = MAX_LINE) -> list[str]:
    """Greedy word wrap; a single word longer than ``width`` gets a line of its own."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _fits(words: list[Word]) -> bool:
    return len(wrap(" ".join(w.text for w in words))) <= MAX_LINES


def _characters(words: list[Word]) -> int:
    return len(" ".join(w.text for w in words))


def ends_sentence(word: Word) -> bool:
    """Whether ``word`` ends a sentence (its full stop, question or exclamation mark,
    colon or semicolon, before any closing quote or bracket)."""
    return word.text.rstrip("\"'\u201d\u2019)").endswith((".", "?", "!", ":", ";"))


#: what a cut costs (lower is better): each cue; a cue that is too short or too fast to
#: read; a sentence that ends inside a cue rather than at its end
_PER_CUE, _UNREADABLE, _SENTENCE_INSIDE = 1.0, 100.0, 1.5


def passage_groups(words: list[Word]) -> list[list[Word]]:
    """One passage's words cut into cues, at the cut that costs least (dynamic
    programming over every cut): few cues, each readable (on screen 0.8 s or more, at
    most 20 characters a second, held at most 0.5 s and not past the next word), and
    sentences ending at a cue's end where that leaves every cue readable."""
    n = len(words)

    def cost(i: int, j: int) -> float | None:
        group = words[i:j]
        if not _fits(group):
            return None
        until = group[-1].end + MAX_HOLD
        if j < n:
            until = min(until, words[j].start)
        shown = max(until, group[-1].end) - group[0].start
        price = _PER_CUE
        if shown < MIN_CUE - 1e-9 or _characters(group) > MAX_RATE * shown + 1e-9:
            price += _UNREADABLE
        price += _SENTENCE_INSIDE * sum(ends_sentence(w) for w in group[:-1])
        return price

    best: list[tuple[float, int]] = [(0.0, 0)] + [(float("inf"), 0)] * n
    for j in range(1, n + 1):
        for i in range(j - 1, -1, -1):
            price = cost(i, j)
            if price is None:
                if j - i > 1:
                    break  # longer groups only grow
                price = _PER_CUE + _UNREADABLE  # a lone word too long for two lines
            if best[i][0] + price < best[j][0]:
                best[j] = (best[i][0] + price, i)
    groups, j = [], n
    while j > 0:
        i = best[j][1]
        groups.append(words[i:j])
        j = i
    return groups[::-1]


def build(passages: list[list[Word]], video_end: float) -> list[Cue]:
    """All cues for the passages (each its written words, timed in seconds of the
    video), in order: none overlapping, none past the end of the video."""
    groups = [g for words in passages if words for g in passage_groups(list(words))]
    cues: list[Cue] = []
    for i, group in enumerate(groups):
        start = max(group[0].start, cues[-1].end if cues else 0.0)
        said = group[-1].end
        limit = min(groups[i + 1][0].start if i + 1 < len(groups) else video_end, video_end)
        # Held long enough to read (0.8 s, and 20 characters a second), at most 0.5 s
        # past its last word, and never into the next cue.
        wanted = max(said, start + MIN_CUE, start + _characters(group) / MAX_RATE)
        end = min(wanted, said + MAX_HOLD, limit)
        end = max(end, min(said, limit), start + 0.001)
        cues.append(Cue(round(start, 3), round(end, 3),
                        tuple(wrap(" ".join(w.text for w in group)))))
    return cues


def _stamp(seconds: float, sep: str) -> str:
    ms = int(round(seconds * 1000))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


_ARROW = re.compile(r"-{2,}>")


def srt_text(line: str) -> str:
    """A line of cue text for SRT: no "-->" (nor any longer arrow) in it."""
    return _ARROW.sub("->", line)


def vtt_text(line: str) -> str:
    """A line of cue text for WebVTT, escaped: & < > as &amp; &lt; &gt;."""
    return line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_srt(cues: list[Cue]) -> str:
    blocks = [
        f"{n}\n{_stamp(c.start, ',')} --> {_stamp(c.end, ',')}\n"
        + "\n".join(srt_text(line) for line in c.lines)
        for n, c in enumerate(cues, 1)
    ]
    return "\n\n".join(blocks) + "\n"


def to_vtt(cues: list[Cue]) -> str:
    blocks = [
        f"{_stamp(c.start, '.')} --> {_stamp(c.end, '.')}\n"
        + "\n".join(vtt_text(line) for line in c.lines)
        for c in cues
    ]
    return "WEBVTT\n\n" + "\n\n".join(blocks) + "\n"


def read_vtt(vtt: str) -> list[tuple[float, float, str]]:
    """The cues of a WebVTT file :func:`to_vtt` wrote: (start s, end s, text as shown)."""
    found: list[tuple[float, float, str]] = []
    lines = vtt.splitlines()
    for i, line in enumerate(lines):
        time = _CUE_TIME.match(line.strip())
        if not time:
            continue
        h1, m1, s1, ms1, h2, m2, s2, ms2 = (int(x) for x in time.groups())
        text = []
        for more in lines[i + 1:]:
            if not more.strip():
                break
            text.append(html.unescape(more))
        found.append((h1 * 3600 + m1 * 60 + s1 + ms1 / 1000,
                      h2 * 3600 + m2 * 60 + s2 + ms2 / 1000, "\n".join(text)))
    return found
