"""Numbers and symbols reach a voice as a person says them; captions keep the written form."""

from __future__ import annotations

import pytest

from core import ledger
from production import narration
from production.errors import NarrationError
from production.narration.spoken import UNSPOKEN, lexicon, number, spans, speakable, whole
from scenes.attention.chapter import CHAPTER


@pytest.mark.parametrize("written,said", [
    ("64.8", "sixty-four point eight"),
    ("56 %", "fifty-six percent"),
    ("56%", "fifty-six percent"),
    ("1.5x", "one and a half times"),
    ("1.5\u00d7", "one and a half times"),
    ("2x", "two times"),
    ("1.5 times", "one and a half times"),
    ("3 times", "three times"),
    ("q . k", "q dot k"),
    ("q\u00b7k", "q dot k"),
    ("[1.0, 0.0]", "one point zero, zero point zero"),
    ("0.74", "zero point seven four"),
    ("1,000", "one thousand"),
    ("3, 56, 2 and 38", "three, fifty-six, two and thirty-eight"),
    ("32/60", "thirty-two out of sixty"),
    ("it -> cat", "it to cat"),
    ("-0.25", "minus zero point two five"),
])
def test_what_is_written_is_said_in_words(written, said):
    assert speakable(written) == said


def test_whole_numbers():
    assert whole(0) == "zero"
    assert whole(13) == "thirteen"
    assert whole(40) == "forty"
    assert whole(91) == "ninety-one"
    assert whole(100) == "one hundred"
    assert whole(1300) == "one thousand three hundred"
    assert whole(2_000_005) == "two million five"
    assert number("12.05") == "twelve point zero five"


def test_sentence_punctuation_is_left_to_the_voice():
    assert speakable("It keeps 40.") == "It keeps forty."
    assert speakable("Add them: 3, then 4.") == "Add them: three, then four."


def test_the_lexicon_respells_whole_words_for_every_voice(tmp_path):
    words = tmp_path / "lexicon.txt"
    words.write_text("# comment\nsoftmax = soft max\nmüde = mooda\n", encoding="utf-8")
    assert speakable("Softmax, then softmaxes; müde.", words) == \
        "soft max, then softmaxes; mooda."


def test_a_malformed_lexicon_line_names_file_and_line(tmp_path):
    words = tmp_path / "lexicon.txt"
    words.write_text("softmax = soft max\nseq2seq sequence to sequence\n", encoding="utf-8")
    with pytest.raises(NarrationError, match=r"lexicon\.txt:2: expected 'word = how to say it'"):
        lexicon(words)


def test_the_shipped_lexicon_reads():
    assert any(pattern.search("softmax") for pattern, _ in lexicon())


SETTINGS = [{}, ledger.parse_settings(["spotlight.sharpness=8", "bottleneck.length=90",
                                        "grid.sharpness=3", "potion.sharpness=1.5"])]


@pytest.mark.parametrize("settings", SETTINGS, ids=["defaults", "changed"])
def test_no_digit_or_symbol_of_any_passage_reaches_a_voice(settings):
    passages = 0
    for scene in CHAPTER.scenes:
        for beat, text in narration.script_for(CHAPTER, scene, settings).items():
            said = speakable(text)
            left = UNSPOKEN.findall(said)
            assert left == [], f"{scene.__name__} [{beat}]: {said!r} still has {left}"
            passages += 1
    assert passages >= 40  # every passage of the chapter, not a few


@pytest.mark.parametrize("written,says", [
    ("add up to 64.8, then", ["add", "up", "to", "sixty-four point eight,", "then"]),
    ("56 % of it", ["fifty-six", "percent", "of", "it"]),
    ("q . k", ["q", "dot", "k"]),
    ("is [1.0, 0.0] now", ["is", "one point zero,", "zero point zero", "now"]),
    ("so 1.5x — done", ["so", "one and a half times", "\u2014", "done"]),
])
def test_each_written_word_knows_the_spoken_words_that_say_it(written, says):
    said = speakable(written).split()
    ranges = spans(written)
    assert len(ranges) == len(written.split())
    assert [" ".join(said[a:b]) for a, b in ranges] == says
    assert ranges[-1][1] == len(said)  # every spoken word belongs to a written one
