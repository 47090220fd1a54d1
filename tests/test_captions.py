"""Caption rules: 42 characters a line, two lines a cue, at least 1 s, in order, inside."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from production import captions

word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
sentence = st.lists(word, min_size=1, max_size=30).map(lambda ws: " ".join(ws) + ".")
passage = st.lists(sentence, min_size=1, max_size=4).map(" ".join)


def check(cues, end):
    for c in cues:
        assert 1 <= len(c.lines) <= captions.MAX_LINES
        assert all(len(line) <= captions.MAX_LINE for line in c.lines)
        assert c.end - c.start >= captions.MIN_CUE - 1e-9
        assert c.end <= end + 1e-9
    for a, b in zip(cues, cues[1:]):
        assert a.end <= b.start + 1e-9


@settings(max_examples=150, deadline=None)
@given(st.lists(passage, min_size=1, max_size=5), st.floats(min_value=1.5, max_value=12.0))
def test_rules_hold_for_any_narration(passages, spacing):
    timed, t = [], 0.0
    for text in passages:
        length = max(1.2, 0.35 * len(text.split()))
        timed.append((text, t + 0.4, t + 0.4 + length))
        t += 0.4 + length + spacing
    cues = captions.build(timed, t)
    check(cues, t)
    spoken = " ".join(" ".join(c.lines) for c in cues).split()
    assert spoken == " ".join(text for text, _, _ in timed).split()


def test_cues_never_run_past_the_video():
    cues = captions.build([("A short passage at the very end.", 9.5, 11.0)], 10.0)
    assert cues[-1].end <= 10.0


def test_srt_and_vtt_formats():
    cues = captions.build([("Hello there, reader.", 0.4, 2.0)], 3.0)
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
    cues = captions.build([(HOSTILE, 0.4, 6.0)], 7.0)
    read = parse_vtt(captions.to_vtt(cues))
    assert [(round(a, 3), round(b, 3)) for a, b, _ in read] == [
        (round(c.start, 3), round(c.end, 3)) for c in cues]
    assert " ".join(text for _, _, text in read) == HOSTILE


def test_srt_never_holds_an_arrow_in_its_text():
    cues = captions.build([(HOSTILE, 0.4, 6.0)], 7.0)
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
    timed = [(text, 5.0 * i + 0.4, 5.0 * i + 4.0) for i, text in enumerate(texts)]
    cues = captions.build(timed, 5.0 * len(texts))
    read = parse_vtt(captions.to_vtt(cues))
    assert " ".join(t for _, _, t in read).split() == " ".join(texts).split()
    srt = parse_srt(captions.to_srt(cues))
    assert len(srt) == len(cues)
