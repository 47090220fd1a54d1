"""The numbers of the chapter
Inside the attention decoder, one step at a time,
in numpy: every number its scenes show or say is computed here (by core/recurrent.py's
encoder-decoder), and its ledger hands each scene its section.

``--set decoder.sentence="the white dog runs"`` translates another sentence;
``--set decoder.sharpness=1`` scores less sharply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import numpy as np

from core import recurrent
from core.ledgers import Ledger, Param, number

#: the word-for-word pair the alignment scene sets beside the chapter's sentence
STRAIGHT = ("the", "cat", "sleeps")
ALLOWED = ("four words: the, then black or white, then cat or dog, then sleeps or runs, "
           "e.g. \"the white dog runs\"")


def _by_class(kind: str) -> tuple[str, ...]:
    return tuple(w for w, (c, _) in recurrent.PHRASE_BOOK.items() if c == kind)


def sentence(text: str) -> tuple[str, ...]:
    """An English sentence the phrase book can translate and the chapter can tell: the
    adjective noun verb. The adjective is what the narration follows: in French it moves
    behind the noun, so one step reads ahead and the next looks back (a sentence without
    one would translate word for word, and the chapter would say what did not happen)."""
    words = tuple(text.split())
    if (len(words) != 4 or words[0] != "the" or words[1] not in _by_class("adjective")
            or words[2] not in _by_class("noun") or words[3] not in _by_class("verb")):
        raise ValueError("not a sentence the chapter can tell")
    return words


PARAMS = {
    "decoder": {
        "sentence": Param(" ".join(recurrent.SOURCE), sentence, ALLOWED),
        "sharpness": Param(recurrent.SHARPNESS, number(0, high=50),
                           "a number above 0, at most 50"),
    },
}


def translation(s: Mapping[str, Any]) -> dict[str, Any]:
    """The chapter's sentence through both decoders, as plain data."""
    source = s["decoder"]["sentence"]
    t = recurrent.translate(source, recurrent.french(source),
                            sharpness=s["decoder"]["sharpness"])
    return {**asdict(t), "sharpness": s["decoder"]["sharpness"], "size": recurrent.SIZE,
            "vocabulary": list(recurrent.TARGET_WORDS)}


def _question(s: Mapping[str, Any]) -> dict[str, Any]:
    """The translation, and for each French word the place of the English word it reads
    most (its alignment row's largest weight), and whether that link leaves the straight
    line (reads another place than its own)."""
    t = translation(s)
    reads = [int(np.argmax(row)) for row in t["alignment"]]
    return {**t, "reads": reads, "crossing": [r != i for i, r in enumerate(reads)]}


def _encoder(s: Mapping[str, Any]) -> dict[str, Any]:
    """The question's numbers, and how much of each word read so far each encoder state
    holds: ``holds[i][j]`` for word j <= i, a fraction of state i's length (the model's
    ``kept``, taken after each word as if the sentence ended there)."""
    q = _question(s)
    model = recurrent.build_model()
    states = np.asarray(q["encoder_states"])
    source = q["source"]
    return {**q, "holds": [recurrent.kept(states[:i + 1], source[:i + 1], model)
                           for i in range(len(source))]}


def _classic(s: Mapping[str, Any]) -> dict[str, Any]:
    """The translation, and for each word the classic decoder wrote whether it is the
    French word it should have written."""
    t = translation(s)
    return {**t, "classic_right": [w == r for w, r in zip(t["classic_written"], t["target"])]}


def _alignment(s: Mapping[str, Any]) -> dict[str, Any]:
    def _reads(alignment: list[list[float]]) -> list[int]:
        """For each French word (a row), the English word (a column) it gives most weight."""
        return [int(i) for i in np.argmax(np.asarray(alignment), axis=1)]

    t = translation(s)
    straight = recurrent.translate(STRAIGHT, recurrent.french(STRAIGHT),
                                   sharpness=s["decoder"]["sharpness"])
    reads = _reads(t["alignment"])
    # the rows that leave the diagonal: the first that reads ahead of its own place, the
    # first that looks back behind it (None when the sentence stays on the diagonal)
    ahead = next((i for i, j in enumerate(reads) if j > i), None)
    back = next((i for i, j in enumerate(reads) if j < i), None)
    return {**t, "reads": reads, "ahead": ahead, "back": back,
            "straight": {"source": straight.source, "target": straight.target,
                         "alignment": straight.alignment,
                         "reads": _reads(straight.alignment)}}


def _order(s: Mapping[str, Any]) -> dict[str, Any]:
    t = translation(s)
    n = len(t["source"])
    backwards = list(range(n))[::-1]
    in_order = recurrent.order_blind(t["source"], list(range(n)), sharpness=t["sharpness"])
    model = recurrent.build_model()
    return {**t, "backwards": [t["source"][i] for i in backwards],
            "backwards_order": backwards,
            "in_order": in_order,
            "reversed": recurrent.order_blind(t["source"], backwards,
                                              sharpness=t["sharpness"]),
            "looking_for": "noun",
            # the word the decoder, looking for a noun, gives most weight (by its place)
            "sought": int(np.argmax(in_order)),
            # each word's state with the recurrence taken out: its word alone
            "alone": [recurrent.encode([w], model)[0].tolist() for w in t["source"]],
            # each word's place in the sentence, counted from one: what a position adds
            "positions": list(range(1, n + 1))}


def _start() -> list[float]:
    """The attention decoder's state before its first step (the model's own start)."""
    return recurrent.build_model().start.tolist()


def _steps(s: Mapping[str, Any]) -> dict[str, Any]:
    """Every step: the state it starts from, the English word it weighs most, and the
    probability of the French word it writes."""
    t = translation(s)
    return {**t, "previous_states": [_start()] + [st["state"] for st in t["steps"][:-1]],
            "reads": [int(np.argmax(st["weights"])) for st in t["steps"]],
            "word_probabilities": [float(np.max(st["probabilities"])) for st in t["steps"]]}


def _scores(s: Mapping[str, Any]) -> dict[str, Any]:
    """The first step's scores and weights, and the state they are scored against."""
    t = _steps(s)
    first = t["steps"][0]
    return {**t, "first": first, "previous": _start(),
            "top": int(np.argmax(first["weights"])),
            "weight_total": float(np.sum(first["weights"]))}


def _step(s: Mapping[str, Any]) -> dict[str, Any]:
    """The first step whole: its weights, context, new state and output, ranked."""
    t = _scores(s)
    probabilities = np.asarray(t["first"]["probabilities"])
    ranked = np.argsort(-probabilities, kind="stable")
    return {**t, "ranking": [t["vocabulary"][i] for i in ranked],
            "ranked_probabilities": probabilities[ranked].tolist()}


SECTIONS = {
    "question": _question,
    "encoder": _encoder,
    "classic": _classic,
    "scores": _scores,
    "step": _step,
    "steps": _steps,
    "alignment": _alignment,
    "order": _order,
    "decoder_end": lambda s: {},
}

LEDGER = Ledger(PARAMS, SECTIONS)
