"""Shorts of long things: a beat longer than a short may run is split so every second of
it is in some part, with its captions; a word too long for the tall frame is made to fit
inside it (measured on real pixels burned by libass)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from core import palette
from production import captions
from production.outputs import burned, shorts
from production.timings import Word

PAUSE_EVERY = 0.6  # seconds from one word's onset to the next's
SAID = 0.45  # seconds a word lasts
SENTENCE = 9  # words a sentence


def spoken(start: float, end: float) -> list[Word]:
    """A passage filling ``start`` to ``end``: a word every 0.6 s, a full stop every
    ninth word."""
    words, at, n = [], start + 0.4, 0
    while at + SAID <= end - 0.8:
        n += 1
        words.append(Word(f"word{n}" + ("." if n % SENTENCE == 0 else ""), at, at + SAID))
        at += PAUSE_EVERY
    return words


BEATS = [("intro", 0.0, 30.0), ("long", 30.0, 430.0), ("outro", 430.0, 450.0)]
PASSAGES = [spoken(start, end) for _, start, end in BEATS]


def test_a_beat_longer_than_a_short_is_split_at_sentence_ends():
    cut = shorts.parts(BEATS, 450.0, pauses=shorts.pauses(PASSAGES))
    assert [p.index for p in cut] == list(range(1, len(cut) + 1))
    assert all(p.count == len(cut) for p in cut)
    assert cut[0].start == 0.0 and cut[-1].end == 450.0  # every second is in a part...
    assert all(a.end == b.start for a, b in zip(cut, cut[1:]))  # ...and in one only
    assert all(p.end - p.start + shorts.TAIL <= shorts.MAX_SECONDS + 1e-9 for p in cut)
    words = [w for passage in PASSAGES for w in passage]
    for p in cut[:-1]:
        assert not [w for w in words if w.start < p.end < w.end]  # never inside a word
        if BEATS[1][1] < p.end < BEATS[1][2]:  # inside the long beat: after a sentence
            before = max((w for w in words if w.end <= p.end), key=lambda w: w.end)
            assert before.text.endswith("."), (p, before)
    for name, start, end in BEATS:
        assert [p.index for p in cut if name in p.beats] == \
            [p.index for p in cut if p.start < end and p.end > start]
    assert sum("long" in p.beats for p in cut) >= 3


def test_a_long_beat_with_no_pause_is_cut_at_the_limit():
    cut = shorts.parts([("hold", 0.0, 400.0)], 400.0)
    assert [(p.start, p.end) for p in cut] == [
        (0.0, 179.5), (179.5, 359.0), (359.0, 400.0)]
    assert all(p.beats == ("hold",) for p in cut)


def test_each_part_has_its_own_words_and_captions_inside_it():
    cut = shorts.parts(BEATS, 450.0, pauses=shorts.pauses(PASSAGES))
    again = []
    for p in cut:
        length = p.end - p.start
        heard = shorts.heard_in(p, PASSAGES)
        assert heard and all(0.0 <= w.start <= w.end <= length for ws in heard for w in ws)
        again += [Word(w.text, w.start + p.start, w.end + p.start) for ws in heard for w in ws]
        for cue in captions.build(heard, length + shorts.TAIL):
            assert 0.0 <= cue.start < cue.end <= length + shorts.TAIL
        timed = [line.split(",")[1:3] for line in
                 burned.ass_script(heard, (480, 854), 15, length).splitlines()
                 if line.startswith("Dialogue:")]
        assert timed and all(0.0 <= seconds(a) < seconds(b) <= length for a, b in timed)
    # every word said is in exactly one part, at the moment it is said
    assert [w.text for w in again] == [w.text for ws in PASSAGES for w in ws]
    assert np.allclose([(w.start, w.end) for w in again],
                       [(w.start, w.end) for ws in PASSAGES for w in ws], atol=1e-9)


def seconds(stamp: str) -> float:
    h, m, s = stamp.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


# ----------------------------------------------------------------- a long word, burned in

def ink(script: str, size: tuple[int, int], fps: int, at: float, tmp_path) -> np.ndarray:
    """Where ffmpeg's libass draws ``script`` at ``at`` seconds, over the short's background
    (a mask of the pixels that differ from the same frame with no caption up, in RGB: no
    encoding, the pixels libass drew)."""
    (tmp_path / "words.ass").write_text(script, encoding="utf-8")
    width, height = size
    shown, bare = round(at * fps), round(1.1 * fps)  # nothing is up after 1 s
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
         f"color=c=0x{palette.BACKGROUND[1:]}:s={width}x{height}:r={fps}:d=1.2", "-vf",
         f"format=rgb24,ass=words.ass,format=rgb24,select=eq(n\\,{shown})+eq(n\\,{bare})",
         "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
        cwd=tmp_path, capture_output=True, check=True).stdout
    frames = np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3).astype(int)
    assert len(frames) == 2
    shown, bare = frames
    return np.abs(shown - bare).max(axis=2) > 0


@pytest.mark.parametrize("size,fps", [((1080, 1920), 60), ((480, 854), 15)])
@pytest.mark.parametrize("word", [
    "Antidisestablishmentarianism",  # 28 letters: fits when smaller
    "WWWWWWWWWWWWWWWW",  # 16 of the widest letter: a group as long as one may be
    "Pneumonoultramicroscopicsilicovolcanoconiosis",  # 45: too long for one line
])
def test_a_long_word_burned_in_stays_inside_the_frame(word, size, fps, tmp_path):
    """Every pixel libass draws for the caption (letters and outline) lies inside the
    frame's side margins (8 % each side) while the word is lit; and the word is not
    shrunk to nothing: at least half as tall as its first letters at the usual size."""
    width, height = size
    said = [[Word("a", 0.0, 0.2), Word(word, 0.3, 0.9)]]
    rows, columns = np.nonzero(ink(burned.ass_script(said, size, fps, 1.0), size, fps, 0.6,
                                   tmp_path))
    margin = round(width * 0.08)
    assert columns.size, "nothing was drawn"
    assert columns.min() >= margin and columns.max() <= width - 1 - margin, \
        (columns.min(), columns.max(), width)
    start = [[Word(word[:6], 0.3, 0.9)]]
    usual = np.nonzero(ink(burned.ass_script(start, size, fps, 1.0), size, fps, 0.6,
                           tmp_path))[0]
    assert rows.max() - rows.min() + 1 >= 0.5 * (usual.max() - usual.min() + 1)
