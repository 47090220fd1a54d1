"""Caption rules: cut on words; 42 characters a line, two lines a cue; from the first
word's onset to at most 0.5 s after the last word's end; at least 0.8 s; at most 20
characters a second; no cue across two passages; in order, inside the video."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from production import captions
from production.timings import Word

letters = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)


def evenly(text: str, start: float, end: float) -> list[Word]:
    """``text``'s words said one after another from ``start`` to ``end``, each for a time
    in proportion to its letters (for tests that are not about timing)."""
    written = text.split()
    share = (end - start) / sum(len(w) + 1 for w in written)
    timed, at = [], start
    for w in written:
        timed.append(Word(w, at, at + len(w) * share))
        at += (len(w) + 1) * share
    return timed


@st.composite
def spoken_passages(draw):
    """Passages said at a person's pace: 60 to 90 ms a letter (at least 0.2 s a word),
    pauses of up to 0.3 s between words and a second or more between passages; a
    sentence ends now and then."""
    passages, t = [], draw(st.floats(0.0, 2.0))
    for _ in range(draw(st.integers(1, 4))):
        words = []
        for _ in range(draw(st.integers(2, 40))):
            text = draw(letters) + draw(st.sampled_from(["", "", "", ",", "."]))
            length = max(0.2, len(text) * draw(st.floats(0.06, 0.09)))
            words.append(Word(text, t, t + length))
            t += length + draw(st.floats(0.0, 0.3))
        passages.append(words)
        t += draw(st.floats(1.0, 3.0))
    return passages, t


@settings(max_examples=200, deadline=None)
@given(spoken_passages())
def test_rules_hold_for_any_narration(spoken):
    passages, video_end = spoken
    cues = captions.build(passages, video_end)
    words = [w for p in passages for w in p]
    shown = " ".join(" ".join(c.lines) for c in cues).split()
    assert shown == [w.text for w in words]  # every word, once, in order
    onsets = {}  # which word each cue starts with
    at = 0
    for c in cues:
        n = len(" ".join(c.lines).split())
        onsets[c] = (words[at], words[at + n - 1])
        at += n
    ends_of_passages = {id(p[-1]) for p in passages}
    for c in cues:
        first, last = onsets[c]
        assert 1 <= len(c.lines) <= captions.MAX_LINES
        assert all(len(line) <= captions.MAX_LINE for line in c.lines)
        assert abs(c.start - first.start) <= 0.001  # starts on its first word
        assert last.end - 0.001 <= c.end <= last.end + captions.MAX_HOLD + 0.001
        assert c.end - c.start >= captions.MIN_CUE - 0.002
        assert len(" ".join(c.lines)) <= captions.MAX_RATE * (c.end - c.start) + 0.05
        assert c.end <= video_end + 1e-9
        # no cue spans two passages: its words all belong to one
        span = words[words.index(first):words.index(last) + 1]
        assert not any(id(w) in ends_of_passages for w in span[:-1])
    for a, b in zip(cues, cues[1:]):
        assert a.end <= b.start + 1e-9


def test_a_new_sentence_starts_a_new_cue_when_the_last_can_stand_alone():
    words = evenly("The total never changes. Turned up, the winner takes it.", 0.4, 4.0)
    cues = captions.build([words], 5.0)
    assert [" ".join(c.lines) for c in cues] == ["The total never changes.",
                                                  "Turned up, the winner takes it."]


def test_cues_never_run_past_the_video():
    cues = captions.build([evenly("A short passage at the very end.", 9.0, 9.9)], 10.0)
    assert cues[-1].end <= 10.0


def test_srt_and_vtt_formats():
    cues = captions.build([evenly("Hello there, reader.", 0.4, 2.0)], 3.0)
    srt, vtt = captions.to_srt(cues), captions.to_vtt(cues)
    assert srt.startswith("1\n00:00:00,400 --> ")
    assert vtt.startswith("WEBVTT\n\n00:00:00.400 --> ")


# ----------------------------------------------------------------- hostile text

TIMING = re.compile(r"^(\d{2,}):([0-5]\d):([0-5]\d)[.,](\d{3}) --> "
                    r"(\d{2,}):([0-5]\d):([0-5]\d)[.,](\d{3})$")
ENTITY = re.compile(r"&(amp|lt|gt);")


def _seconds(h: str, m: str, s: str, ms: str) -> float:
    return int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000


def parse_vtt(text: str) -> list[tuple[float, float, str]]:
    """A strict WebVTT reader (the spec's cue rules): a timing line, then payload lines
    none of which holds "-->"; in the payload "<" always opens a tag (none expected
    here) and "&" starts one of the escapes &amp; &lt; &gt;."""
    assert text.startswith("WEBVTT\n\n")
    cues = []
    for block in text[len("WEBVTT\n\n"):].rstrip("\n").split("\n\n"):
        timing, *payload = block.split("\n")
        stamp = TIMING.match(timing)
        assert stamp and "," not in timing, timing
        assert payload and all(line and "-->" not in line for line in payload), block
        lines = []
        for line in payload:
            assert "<" not in line and ">" not in line, line
            assert "&" not in ENTITY.sub("", line), line
            lines.append(ENTITY.sub(lambda m: {"amp": "&", "lt": "<", "gt": ">"}[m[1]], line))
        cues.append((_seconds(*stamp.groups()[:4]), _seconds(*stamp.groups()[4:]),
                     " ".join(lines)))
    return cues


def parse_srt(text: str) -> list[tuple[float, float, str]]:
    """A strict SRT reader: number, timing line, text lines, none holding "-->"."""
    cues = []
    for n, block in enumerate(text.rstrip("\n").split("\n\n"), 1):
        number, timing, *lines = block.split("\n")
        stamp = TIMING.match(timing)
        assert number == str(n) and stamp and "." not in timing, block
        assert lines and all(line and "-->" not in line for line in lines), block
        cues.append((_seconds(*stamp.groups()[:4]), _seconds(*stamp.groups()[4:]),
                     " ".join(lines)))
    return cues


HOSTILE = "If a < b & c --> d, then <b>bold</b> &amp; x ---> y -> z."


def test_vtt_escapes_the_text_and_reads_back_exactly():
    cues = captions.build([evenly(HOSTILE, 0.4, 6.0)], 7.0)
    read = parse_vtt(captions.to_vtt(cues))
    assert [(round(a, 3), round(b, 3)) for a, b, _ in read] == [
        (round(c.start, 3), round(c.end, 3)) for c in cues]
    assert " ".join(text for _, _, text in read) == HOSTILE


def test_srt_never_holds_an_arrow_in_its_text():
    cues = captions.build([evenly(HOSTILE, 0.4, 6.0)], 7.0)
    read = parse_srt(captions.to_srt(cues))
    assert len(read) == len(cues)
    # "-->" (and any longer run of dashes before ">") is written as "->" in SRT.
    assert " ".join(text for _, _, text in read) == (
        "If a < b & c -> d, then <b>bold</b> &amp; x -> y -> z.")


printable = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                    min_size=1, max_size=200).filter(str.strip)


@settings(max_examples=150, deadline=None)
@given(st.lists(printable, min_size=1, max_size=4))
def test_any_text_round_trips_through_vtt(texts):
    timed = [evenly(text, 5.0 * i + 0.4, 5.0 * i + 4.0) for i, text in enumerate(texts)]
    cues = captions.build(timed, 5.0 * len(texts))
    read = parse_vtt(captions.to_vtt(cues))
    assert " ".join(t for _, _, t in read).split() == " ".join(texts).split()
    srt = parse_srt(captions.to_srt(cues))
    assert len(srt) == len(cues)
