"""Caption rules: 42 characters a line, two lines a cue, at least 1 s, in order, inside."""

from __future__ import annotations

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
