"""Tests for core.seq2seq: the closed book fades with length, attention does not."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.seq2seq import (
    MAX_LENGTH,
    VOCABULARY,
    Seq2SeqResult,
    attention_decode,
    build_model,
    closed_book_decode,
    encode,
    run_seq2seq,
)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def result() -> Seq2SeqResult:
    return run_seq2seq()


@pytest.fixture(scope="module")
def model():
    return build_model()


def sentences(max_length: int = 20):
    return st.lists(
        st.integers(0, len(VOCABULARY) - 1), min_size=1, max_size=max_length
    ).map(np.array)


# --- the measured story ---------------------------------------------------


def test_attention_is_near_perfect_at_every_length(result):
    assert all(acc >= 0.95 for acc in result.attention_accuracy), result.attention_accuracy


def test_closed_book_is_good_on_short_sentences_and_fades_on_long_ones(result):
    acc = result.closed_book_accuracy
    assert acc[0] >= 0.9, acc
    assert acc[0] - acc[-1] >= 0.3, acc
    # Monotone up to sampling noise of a 200-sentence batch.
    assert all(later <= earlier + 0.03 for earlier, later in zip(acc, acc[1:])), acc


def test_attention_beats_the_closed_book_beyond_the_hidden_size(result):
    longer = [i for i, n in enumerate(result.lengths) if n > result.hidden_size]
    assert longer, "the default lengths should reach past the hidden size"
    for i in longer:
        assert result.attention_accuracy[i] > result.closed_book_accuracy[i] + 0.3


def test_closed_book_fails_for_capacity_not_training():
    # A bigger context vector holds more: same lengths, more room, better recall.
    small = run_seq2seq(lengths=(8, 16), hidden=24)
    big = run_seq2seq(lengths=(8, 16), hidden=48)
    for s, b in zip(small.closed_book_accuracy, big.closed_book_accuracy):
        assert b > s + 0.1


def test_one_or_two_words_fit_in_the_context_exactly():
    # One word leaves the context holding exactly its embedding; two words
    # span far fewer directions than the 20 numbers of the words part.
    r = run_seq2seq(lengths=(1, 2))
    assert r.closed_book_accuracy[0] == 1.0
    assert r.closed_book_accuracy[1] >= 0.99


def test_accuracies_are_fractions_and_chance_is_one_in_the_vocabulary(result):
    assert result.chance_accuracy == pytest.approx(1 / len(VOCABULARY))
    for acc in result.closed_book_accuracy + result.attention_accuracy:
        assert 0.0 <= acc <= 1.0
    # Even at its worst the closed book has not dropped far below guessing.
    assert min(result.closed_book_accuracy) > result.chance_accuracy - 0.05


# --- the worked example ---------------------------------------------------


def test_example_alignment_rows_are_shares(result):
    grid = np.array(result.example_alignment)
    n = len(result.example_input)
    assert grid.shape == (n, n)
    assert np.all(grid >= 0)
    assert np.all(np.abs(grid.sum(axis=1) - 1.0) <= 1e-12)


def test_example_alignment_points_at_the_matching_input_word(result):
    grid = np.array(result.example_alignment)
    assert list(grid.argmax(axis=1)) == list(range(len(grid)))


def test_example_is_spelled_in_the_vocabulary(result):
    n = 8
    assert len(result.example_input) == n
    assert len(result.example_closed_book_output) == n
    assert len(result.example_attention_output) == n
    words = set(VOCABULARY)
    for seq in (result.example_input, result.example_closed_book_output,
                result.example_attention_output):
        assert set(seq) <= words
    assert result.example_attention_output == result.example_input


def test_result_holds_only_plain_data(result):
    def plain(x) -> bool:
        if isinstance(x, (tuple, list)):
            return all(plain(i) for i in x)
        return type(x) in (float, int, str)

    for field in dataclasses.fields(result):
        assert plain(getattr(result, field.name)), field.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.hidden_size = 3  # type: ignore[misc]


# --- determinism ----------------------------------------------------------


def test_two_runs_are_equal(result):
    assert run_seq2seq() == result


def test_a_length_is_measured_the_same_whatever_else_is_asked(result):
    alone = run_seq2seq(lengths=(12,))
    i = result.lengths.index(12)
    assert alone.closed_book_accuracy[0] == result.closed_book_accuracy[i]
    assert alone.attention_accuracy[0] == result.attention_accuracy[i]


def test_a_different_seed_gives_a_different_batch(result):
    assert run_seq2seq(seed=1).closed_book_accuracy != result.closed_book_accuracy


# --- the pieces -----------------------------------------------------------


def test_closed_book_takes_only_the_context_vector():
    params = list(inspect.signature(closed_book_decode).parameters)
    assert params == ["context", "length", "model"]


def test_closed_book_ignores_earlier_states_attention_does_not(model):
    words = np.random.default_rng(5).integers(0, len(VOCABULARY), 12)
    states = encode(words, model)
    noisy = states.copy()
    noisy[:-1] += np.random.default_rng(6).normal(0, 3.0, noisy[:-1].shape)
    assert np.array_equal(
        closed_book_decode(states[-1], 12, model), closed_book_decode(noisy[-1], 12, model)
    )
    assert not np.array_equal(
        attention_decode(states, model)[0], attention_decode(noisy, model)[0]
    )


def test_closed_book_feeds_its_mistakes_forward(model):
    # Its own answer is taken out of the context before the next step, so a
    # wrong answer leaves a wrong leftover: mistakes come in runs.
    words = np.random.default_rng(7).integers(0, len(VOCABULARY), (2000, 6))
    right = closed_book_decode(encode(words, model)[:, -1], 6, model) == words
    before, after = right[:, :-1], right[:, 1:]
    slip_after_slip = 1 - after[~before].mean()
    slip_after_hit = 1 - after[before].mean()
    assert slip_after_slip > 2 * slip_after_hit


@settings(max_examples=50, deadline=None)
@given(sentences())
def test_encoder_state_depends_only_on_words_so_far(words):
    model = build_model()
    full = encode(words, model)
    for t in range(len(words)):
        assert np.allclose(encode(words[: t + 1], model)[-1], full[t])


@settings(max_examples=50, deadline=None)
@given(sentences(), st.floats(min_value=-200, max_value=200, allow_nan=False))
def test_attention_shares_add_to_one_each_step(words, sharpness):
    model = build_model()
    _, grid = attention_decode(encode(words, model), model, sharpness)
    assert grid.shape == (len(words), len(words))
    assert np.all(grid >= 0)
    assert np.allclose(grid.sum(axis=1), 1.0, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(sentences(max_length=MAX_LENGTH))
def test_attention_copies_any_sentence(words):
    model = build_model()
    copied, grid = attention_decode(encode(words, model), model)
    assert np.array_equal(copied, words)
    assert np.array_equal(grid.argmax(axis=1), np.arange(len(words)))


def test_batched_and_single_decoding_agree(model):
    words = np.random.default_rng(8).integers(0, len(VOCABULARY), (5, 10))
    states = encode(words, model)
    batch_cb = closed_book_decode(states[:, -1], 10, model)
    batch_at, _ = attention_decode(states, model)
    for i in range(5):
        assert np.array_equal(closed_book_decode(states[i, -1], 10, model), batch_cb[i])
        assert np.array_equal(attention_decode(states[i], model)[0], batch_at[i])


def test_model_shape_and_embeddings(model):
    assert model.hidden_size == 24
    emb = model.embeddings
    assert emb.shape == (len(VOCABULARY), model.words_size)
    assert np.allclose(emb @ emb.T, np.eye(len(VOCABULARY)))
    # The recurrence only fades: every direction shrinks by exactly `decay`.
    singular = np.linalg.svd(model.recurrence, compute_uv=False)
    assert np.allclose(singular, model.decay)


# --- bad arguments --------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"lengths": ()},
        {"lengths": (0,)},
        {"lengths": (4, -1)},
        {"lengths": (MAX_LENGTH + 1,)},
        {"lengths": (4.5,)},
        {"lengths": (True,)},
        {"example_length": 0},
        {"hidden": 8},
        {"sequences": 0},
        {"seed": -1},
        {"sharpness": 0.0},
        {"sharpness": float("inf")},
        {"decay": 0.0},
        {"decay": 1.5},
    ],
)
def test_bad_arguments_raise(kwargs):
    with pytest.raises(ValueError):
        run_seq2seq(**kwargs)


def test_bad_pieces_raise(model):
    with pytest.raises(ValueError):
        encode([0, len(VOCABULARY)], model)
    with pytest.raises(ValueError):
        encode([], model)
    with pytest.raises(ValueError):
        encode([0.5, 1.0], model)
    with pytest.raises(ValueError):
        closed_book_decode(np.zeros(model.hidden_size + 1), 3, model)
    with pytest.raises(ValueError):
        closed_book_decode(np.zeros(model.hidden_size), 0, model)
    with pytest.raises(ValueError):
        attention_decode(np.zeros(model.hidden_size), model)


def test_module_does_not_import_manim():
    code = "import sys, core.seq2seq; assert 'manim' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
