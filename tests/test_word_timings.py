"""Word timings from real speech: the default Piper voice's own (its phoneme
alignments), checked against the sound and against an independent forced aligner, and
kept beside the speech in its cache. The speech is the session's (tests/conftest.py);
a test that damages what is kept beside a sound works on a copy of its own."""

from __future__ import annotations

import json
import shutil
import wave

import numpy as np
import pytest

from core import ledger
from production import captions, files, narration, timings
from production.narration import align, marks, spoken
from production.scene_output import timed_passages
from scenes.attention.chapter import CHAPTER

PASSAGES = [
    narration.script_for(CHAPTER, CHAPTER.by_name()["SpotlightBudget"], ledger.resolve())["trace"],
    narration.script_for(CHAPTER, CHAPTER.by_name()["OneAttentionWeight"],
                         ledger.resolve())[list(CHAPTER.by_name()["OneAttentionWeight"]
                                                .beat_seconds)[-1]],
    "One misreading to head off: 56 % is not 1.5x, and q . k is [1.0, 0.0].",
]


def voiced(path) -> tuple[float, float]:
    """The first and last moment the sound is above -40 dBFS (20 ms windows)."""
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        samples = np.frombuffer(w.readframes(w.getnframes()), np.int16).astype(float)
    window = int(0.02 * rate)
    level = np.array([np.sqrt(np.mean(samples[i:i + window] ** 2))
                      for i in range(0, len(samples) - window, window)])
    loud = np.nonzero(level > 32768 * 10 ** (-40 / 20))[0]
    return loud[0] * window / rate, (loud[-1] + 1) * window / rate


@pytest.fixture(scope="module")
def spoken_passages():
    """The passages and their sounds, from the session's speech (spoken there once)."""
    return [(text, narration.synthesize(text, narration.DEFAULT_VOICE)) for text in PASSAGES]


def test_piper_times_every_word_inside_its_sound(spoken_passages):
    for text, sound in spoken_passages:
        said = spoken.speakable(text)
        words = timings.load(sound, said, files.sha256_once(sound))
        assert words is not None, "the synthesiser's own timings are kept with the sound"
        seconds = narration.wav_seconds(sound)
        assert timings.problem(words, said, seconds) is None
        onsets = [w.start for w in words if w.end > w.start]
        assert all(a < b for a, b in zip(onsets, onsets[1:]))  # they increase
        first, last = voiced(sound)
        assert abs(words[0].start - first) <= 0.15
        assert abs(words[-1].end - last) <= 0.25


def test_piper_timings_agree_with_the_forced_aligner(spoken_passages):
    """Two independent readings of one sound: the voice's phoneme alignments and
    PocketSphinx reading the sound against the text. Where words end agrees (most
    within 0.15 s, half within 0.1 s). The aligner gives a word the short gap before
    it, so its onset may come earlier, back to where the word before ends, but never
    much later."""
    for text, sound in spoken_passages:
        said = spoken.speakable(text)
        own = timings.load(sound, said, files.sha256_once(sound))
        heard = align.align(sound, said)
        ends = np.array([abs(a.end - b.end) for a, b in zip(own, heard)])
        assert np.median(ends) <= 0.1 and np.mean(ends <= 0.15) >= 0.8, ends
        agree = [(before.end - 0.1 if before else 0.0) <= b.start <= a.start + 0.1
                 for before, a, b in zip([None, *own], own, heard)]
        assert np.mean(agree) >= 0.9, list(zip(own, heard, agree))


def test_written_words_take_the_time_of_the_spoken_words_that_say_them(spoken_passages):
    text, sound = spoken_passages[2]
    said = spoken.speakable(text)
    words = timings.load(sound, said, files.sha256_once(sound))
    passage = narration.Passage("S", "b", text, sound, narration.wav_seconds(sound), False,
                                tuple(words))
    heard = passage.heard(10.0)
    assert [w.text for w in heard] == text.split()
    by_word = {w.text: w for w in heard}
    said_words = said.split()
    first = said_words.index("fifty-six")
    assert by_word["56"].start == pytest.approx(10.0 + words[first].start)
    times = said_words.index("times,")  # "1.5x," is said as "one and a half times,"
    assert by_word["1.5x,"].start == pytest.approx(10.0 + words[times - 4].start)
    assert by_word["1.5x,"].end == pytest.approx(10.0 + words[times].end)


def test_captions_start_on_their_first_word(spoken_passages):
    passages = [narration.Passage("S", f"b{i}", text, sound, narration.wav_seconds(sound),
                                  False, tuple(timings.load(sound, spoken.speakable(text),
                                                            files.sha256_once(sound))))
                for i, (text, sound) in enumerate(spoken_passages)]
    starts, t = {}, 0.0
    for p in passages:
        starts[p.beat] = t
        t += narration.LEAD_IN + p.seconds + narration.TAIL
    heard = timed_passages(passages, starts)
    cues = captions.build(heard, t)
    words = [w for passage in heard for w in passage]
    at = 0
    for cue in cues:
        first = words[at]
        assert cue.lines[0].split()[0] == first.text
        assert abs(cue.start - first.start) <= 0.1
        at += len(" ".join(cue.lines).split())
    assert at == len(words)


def test_timings_lost_or_damaged_are_read_again_from_the_sound(spoken_passages, tmp_path):
    text, shared = spoken_passages[0]
    said = spoken.speakable(text)
    # a copy of the sound and its timings: the session's are left as they are
    sound = shutil.copy2(shared, tmp_path / shared.name)
    shutil.copy2(timings.path_for(shared, said), timings.path_for(sound, said))
    kept = timings.path_for(sound, said)
    record = json.loads(kept.read_text(encoding="utf-8"))
    kept.write_text(json.dumps(record | {"sound_sha256": "0" * 64}), encoding="utf-8")
    words = narration.passage_words(sound, said)  # not these bytes' timings: aligned again
    assert timings.problem(list(words), said, narration.wav_seconds(sound)) is None
    assert json.loads(kept.read_text(encoding="utf-8"))["sound_sha256"] == \
        files.sha256_once(sound)
    kept.unlink()
    assert narration.passage_words(sound, said) == words  # the aligner reads the same


def test_a_recording_is_timed_by_the_aligner_and_its_marks_follow_it(tmp_path):
    """A user's recording (here: real speech after a second of silence) gets its word
    timings from the forced aligner, and a mark in its passage falls on its word."""
    text = "The exponentials add up to 64.8 today."
    spoken_take = narration.synthesize(text, narration.DEFAULT_VOICE)  # the session's
    said = spoken.speakable(text)
    own = timings.load(spoken_take, said, files.sha256_once(spoken_take))
    with wave.open(str(spoken_take)) as w:
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    recording = tmp_path / "voice" / "Custom" / "one.wav"
    recording.parent.mkdir(parents=True)
    with wave.open(str(recording), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(2 * rate) + frames)  # a second of silence first
    (tmp_path / "narration").mkdir()
    (tmp_path / "narration" / "Custom.txt").write_text(
        "[one]\nThe exponentials add up to <total>64.8 today.\n", encoding="utf-8")
    passage, = narration.prepare("Custom", ["one"], narration.DEFAULT_VOICE,
                                 narration_dir=tmp_path / "narration",
                                 voice_dir=tmp_path / "voice", cache=tmp_path / "cache")
    assert passage.recorded and passage.text == text
    assert timings.problem(list(passage.words), said, passage.seconds) is None
    ends = np.array([abs(mine.end - (1.0 + theirs.end))
                     for mine, theirs in zip(passage.words, own)])
    assert np.median(ends) <= 0.1 and ends.max() <= 0.25, ends
    assert abs(passage.words[0].start - (1.0 + own[0].start)) <= 0.15
    onset = marks.onsets(dict(passage.marks), passage.words, spoken.spans(text))["total"]
    assert onset == passage.words[said.split().index("sixty-four")].start
    assert abs(onset - (1.0 + own[said.split().index("sixty-four")].start)) <= 0.15


def test_espeak_gives_its_own_word_timings():
    """`--voice espeak` speaks through espeak-ng's library, whose word events are kept
    with the sound; they agree with the forced aligner on where words end."""
    text = PASSAGES[0]
    sound = narration.synthesize(text, narration.Espeak())  # the session's speech
    said = spoken.speakable(text)
    own = timings.load(sound, said, files.sha256_once(sound))
    assert own is not None
    assert timings.problem(own, said, narration.wav_seconds(sound)) is None
    heard = align.align(sound, said)
    ends = np.array([abs(a.end - b.end) for a, b in zip(own, heard)])
    assert np.median(ends) <= 0.1, ends
