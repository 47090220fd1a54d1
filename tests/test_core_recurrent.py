"""The second chapter's model (core/recurrent.py): an RNN encoder and two decoders."""

from __future__ import annotations

import numpy as np
import pytest

from core import recurrent as rnn

WORD_FOR_WORD = (("the", "cat", "sleeps"), ("le", "chat", "dort"))
REORDERED = (("the", "black", "cat", "sleeps"), ("le", "chat", "noir", "dort"))


@pytest.mark.parametrize("pair", [WORD_FOR_WORD, REORDERED, (rnn.SOURCE, rnn.TARGET),
                                  (("the", "white", "dog", "runs"),
                                   ("le", "chien", "blanc", "court"))])
def test_every_step_weights_add_up_to_one_and_the_context_is_their_average(pair):
    t = rnn.translate(*pair)
    states = np.array(t.encoder_states)
    for step in t.steps:
        weights = np.array(step.weights)
        assert weights.sum() == pytest.approx(1.0, abs=1e-12)
        assert (weights >= 0).all()
        assert np.allclose(step.context, weights @ states, atol=1e-12)
        assert np.array(step.probabilities).sum() == pytest.approx(1.0, abs=1e-12)
    # and the attention decoder writes the French
    assert t.written == list(pair[1])


def test_a_word_for_word_pair_aligns_on_the_diagonal_and_a_reordered_pair_does_not():
    straight = np.array(rnn.translate(*WORD_FOR_WORD).alignment)
    assert list(straight.argmax(axis=1)) == [0, 1, 2]
    assert np.diag(straight).min() > 0.9
    moved = np.array(rnn.translate(*REORDERED).alignment)
    # "chat" looks at "cat" (third), "noir" back at "black" (second)
    assert list(moved.argmax(axis=1)) == [0, 2, 1, 3]
    assert moved[1, 1] < 0.1 and moved[2, 2] < 0.1


def test_the_weights_differ_at_every_step():
    t = rnn.translate()
    rows = [tuple(np.round(s.weights, 6)) for s in t.steps]
    assert len(set(rows)) == len(rows)


def test_the_encoder_uses_the_same_weights_at_every_step():
    model = rnn.build_model()
    states = rnn.encode(rnn.SOURCE, model)
    previous = np.zeros(rnn.SIZE)
    for word, state in zip(rnn.SOURCE, states):
        x = model.embeddings[rnn.SOURCE_WORDS.index(word)]
        assert np.allclose(state, np.tanh(rnn.DRIVE * x + model.encoder_recurrence @ previous))
        previous = state
    # a word read after the same words gives the same state, wherever the sentence goes on
    assert np.allclose(rnn.encode(("the", "cat"), model), rnn.encode(("the", "cat", "runs"),
                                                                     model)[:2])


def test_one_context_vector_is_the_bottleneck():
    t = rnn.translate()
    # the last state holds the last word far more than the first ones...
    assert t.kept[-1] > 0.9 and max(t.kept[:-1]) < 0.3
    # ...so the classic decoder, given only it, cannot write the sentence
    assert t.classic_written != t.target
    assert t.classic_written.count(rnn.PHRASE_BOOK[t.source[-1]][1]) >= len(t.target) - 1


def test_the_model_is_fixed_by_its_seed():
    a, b = rnn.translate(), rnn.translate()
    assert a == b
    assert rnn.translate(seed=5).encoder_states != a.encoder_states


def test_unknown_words_are_refused():
    with pytest.raises(ValueError, match="English words must be from"):
        rnn.translate(("the", "cow"), ("le", "chat"))
    with pytest.raises(ValueError, match="French words must be from"):
        rnn.translate(("the", "cat"), ("la", "chat"))
