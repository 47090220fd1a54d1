"""The decoder chapter tells what its model does for every sentence `decoder.sentence`
allows: each claim its narration makes about the steps and the alignment is checked
against the ledger for all of them, and a sentence it could not tell is refused."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from core import recurrent
from scenes.decoder.chapter import CHAPTER

LEDGER = CHAPTER.ledger
#: what the narration calls "almost nothing": the weight of the word a step skips
ALMOST_NOTHING = 0.1


def _words(kind: str) -> list[str]:
    return [w for w, (c, _) in recurrent.PHRASE_BOOK.items() if c == kind]


SENTENCES = [f"the {a} {n} {v}" for a, n, v in itertools.product(
    _words("adjective"), _words("noun"), _words("verb"))]


def section(name: str, sentence: str) -> dict:
    return LEDGER.section(name, LEDGER.parse_settings([f"decoder.sentence={sentence}"]))


def test_every_adjective_noun_and_verb_pair_up():
    assert len(SENTENCES) == 8


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_steps_passages_hold(sentence):
    n = section("steps", sentence)
    reads = n["reads"]
    weights = [np.asarray(step["weights"]) for step in n["steps"]]
    # second: the weights move to a word, and the word just before it gets almost nothing
    assert reads[1] >= 1 and weights[1][reads[1] - 1] < ALMOST_NOTHING
    # third: "looks back" to the word the last step skipped
    assert reads[2] == reads[1] - 1
    # fourth: the weights move on, past both
    assert reads[3] > reads[1]
    # grown: the second and third French words cross (read out of order)
    assert reads[1] > reads[2]
    # and the French it writes is the phrase book's translation
    assert n["written"] == list(recurrent.french(tuple(sentence.split())))


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_alignment_passages_hold(sentence):
    n = section("alignment", sentence)
    # "ours leaves it": one row jumps ahead, a later one looks back
    assert n["ahead"] is not None and n["back"] is not None
    assert n["reads"][n["ahead"]] > n["ahead"] and n["reads"][n["back"]] < n["back"]
    # the word-for-word pair beside it runs down the diagonal
    assert n["straight"]["reads"] == list(range(len(n["straight"]["source"])))


@pytest.mark.parametrize("sentence", ["the cat sleeps", "the black cat", "a black cat sleeps",
                                      "the black cat sleeps well"])
def test_a_sentence_the_chapter_could_not_tell_is_refused(sentence):
    with pytest.raises(ValueError, match="must be four words: the, then black or white"):
        LEDGER.parse_settings([f"decoder.sentence={sentence}"])
