"""Captions (SRT and WebVTT) from the narration text and its measured timings.

Rules: at most 42 characters a line, at most two lines a cue, no cue shorter
than 1 s, none overlapping, none past the end of the video. A passage is split
into cues at word boundaries, and its spoken time is shared among its cues in
proportion to their length in characters.

Cue text is written so each format reads it back as the same text: in WebVTT,
``&``, ``<`` and ``>`` are escaped (``&amp;``, ``&lt;``, ``&gt;``), which also keeps
the timing arrow ``-->`` out of the text. SRT has no escapes, so there a run of two
or more dashes before ``>`` (an arrow a player would take for a timing line) is
written ``->``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_LINE = 42
MAX_LINES = 2
MIN_CUE = 1.0  # seconds


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


def split_passage(text: str) -> list[tuple[str, ...]]:
    """The passage as cues of at most two lines; a new sentence starts a new cue."""
    cues: list[tuple[str, ...]] = []
    for sentence in re.split(r"(?<=[.?!])\s+", text.strip()):
        lines = wrap(sentence)
        cues.extend(tuple(lines[i:i + MAX_LINES]) for i in range(0, len(lines), MAX_LINES))
    return cues


def passage_cues(text: str, start: float, end: float) -> list[Cue]:
    """Cues for one passage spoken from ``start`` to ``end`` seconds."""
    pieces = split_passage(text)
    weights = [sum(len(line) for line in p) for p in pieces]
    span = end - start
    # Merge pieces whose share of the time would fall under the minimum.
    while len(pieces) > 1 and min(w / sum(weights) * span for w in weights) < MIN_CUE:
        k = min(range(len(weights)), key=weights.__getitem__)
        j = k - 1 if k > 0 else k + 1
        a, b = sorted((j, k))
        merged = wrap(" ".join(pieces[a] + pieces[b]))
        if len(merged) > MAX_LINES:
            break
        pieces[a:b + 1] = [tuple(merged)]
        weights[a:b + 1] = [weights[a] + weights[b]]
    # Every cue gets its minimum first when the passage is long enough; the rest of
    # the time is shared in proportion to the cue's length in characters.
    total, floor = sum(weights), MIN_CUE if span >= len(pieces) * MIN_CUE else 0.0
    spare = span - floor * len(pieces)
    cues, t = [], start
    for piece, w in zip(pieces, weights):
        length = floor + spare * w / total
        cues.append(Cue(t, t + length, piece))
        t += length
    return cues


def build(timed: list[tuple[str, float, float]], video_end: float) -> list[Cue]:
    """All cues for (text, start, end) passages: in order, at least 1 s each, none
    overlapping, none past the end of the video (a short cue borrows the silence after it)."""
    cues: list[Cue] = []
    for text, start, end in timed:
        cues.extend(passage_cues(text, start, min(end, video_end)))
    pushed: list[Cue] = []
    previous_end = 0.0
    for cue in cues:
        start = max(cue.start, previous_end)
        end = max(cue.end, start + MIN_CUE)
        pushed.append(Cue(start, end, cue.lines))
        previous_end = end
    fixed: list[Cue] = []
    limit = video_end
    for cue in reversed(pushed):
        end = min(cue.end, limit)
        start = min(cue.start, end - MIN_CUE)
        fixed.append(Cue(start, end, cue.lines))
        limit = start
    return fixed[::-1]


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
