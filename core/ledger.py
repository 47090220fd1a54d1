"""The ledger: every number the chapter shows, by section, from the models.

A section is named after the part of the chapter that shows it; the scenes read
their numbers from here (or from the same model calls), and
``python render.py numbers`` prints the whole ledger as JSON. ``--set
SECTION.PARAM=VALUE`` changes a default; every value is checked here and a bad
one raises :class:`SettingError` with a one-line message that names the
parameter and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from core import bottleneck, grid, potion, seq2seq, spotlight
from core.ledgers import Ledger, Param, SettingError, Settings
from core.ledgers import boolean as _boolean
from core.ledgers import choice as _choice
from core.ledgers import number as _number


def _sentence(text: str) -> tuple[str, ...]:
    words = tuple(text.split())
    if not 2 <= len(words) <= grid.MAX_WORDS or any(w not in grid.VOCABULARY for w in words):
        raise ValueError("not a sentence of vocabulary words")
    return words


def _swap(text: str) -> tuple[str, str] | None:
    if text == "auto":
        return None
    old, sep, new = text.partition(":")
    if not sep or old not in grid.VOCABULARY or new not in grid.VOCABULARY or old == new:
        raise ValueError("not OLD:NEW")
    return old, new


GRID_WORDS = ", ".join(grid.VOCABULARY)

#: The spotlight's hand trace writes out e^(sharpness x score) and their total
#: (SpotlightBudget's table, the narration's "add up to"). The largest score of any
#: asker is 0.9, and e^x stops being a number (a float) past x = 709.8, so above a
#: sharpness of about 787 the table would read "too big" and the ledger would hold
#: Infinity, which JSON cannot. 750 keeps every exponential and total a number
#: (at most about 10^293). The grid and the potion shift their exponentials (or only
#: show shares), so they take any sharpness up to a million.
SPOTLIGHT_MAX_SHARPNESS = 750

PARAMS: dict[str, dict[str, Param]] = {
    "bottleneck": {
        "room": Param(bottleneck.DEFAULT_ROOM, _number(1, whole=True, high=bottleneck.MAX_SIZE),
                      f"a whole number from 1 to {bottleneck.MAX_SIZE}"),
        "length": Param(bottleneck.DEFAULT_LENGTH,
                        _number(1, whole=True, high=bottleneck.MAX_SIZE),
                        f"a whole number from 1 to {bottleneck.MAX_SIZE}"),
    },
    "spotlight": {
        "sharpness": Param(spotlight.DEFAULT_SHARPNESS,
                           _number(0, high=SPOTLIGHT_MAX_SHARPNESS),
                           f"a number above 0, at most {SPOTLIGHT_MAX_SHARPNESS} (beyond that "
                           "e^(sharpness x score) is too large to write)"),
        "asker": Param(spotlight.DEFAULT_ASKER, _choice(spotlight.WORDS),
                       "one of " + ", ".join(spotlight.WORDS)),
        "lookback": Param(False, _boolean, "true or false"),
    },
    "grid": {
        "sharpness": Param(grid.DEFAULT_SHARPNESS, _number(0, high=1e6),
                           "a number above 0, at most 1000000"),
        "sentence": Param(" ".join(grid.SENTENCE), _sentence,
                          f"2 to {grid.MAX_WORDS} words from: {GRID_WORDS}"),
        "reader": Param(grid.DEFAULT_READER, _choice(grid.VOCABULARY),
                        "a word of the sentence"),
        "swap": Param("auto", _swap,
                      f"auto, or OLD:NEW with two different words from: {GRID_WORDS}"),
    },
    "seq2seq": {
        "length": Param(seq2seq.DEFAULT_EXAMPLE_LENGTH, _number(1, whole=True, high=32),
                        "a whole number from 1 to 32"),
    },
    "potion": {
        "sharpness": Param(potion.SHARPNESS, _number(0, high=1e6),
                           "a number above 0, at most 1000000"),
    },
}


def _grid_rules(out: Settings) -> None:
    """The grid's reader and swapped word must be words of its sentence."""
    g = out["grid"]
    if g["reader"] not in g["sentence"]:
        raise SettingError(
            f"--set grid.reader={g['reader']}: must be a word of the sentence "
            f"({' '.join(g['sentence'])})"
        )
    if g["swap"] is not None and g["swap"][0] not in g["sentence"]:
        raise SettingError(
            f"--set grid.swap: {g['swap'][0]!r} is not in the sentence ({' '.join(g['sentence'])})"
        )


def swapped(words: tuple[str, ...], swap: tuple[str, str]) -> tuple[str, ...]:
    """The sentence with the first ``old`` replaced by ``new``."""
    old, new = swap
    i = words.index(old)
    return words[:i] + (new,) + words[i + 1:]


# ----------------------------------------------------------------- sections


def bottleneck_numbers(room: int, length: int) -> dict[str, Any]:
    main = bottleneck.squeeze(room, length)
    sweep_lengths = sorted({max(1, room // 2), room, length, min(bottleneck.MAX_SIZE,
                                                                   round(room * 2.25))})
    sweep = []
    for n in sweep_lengths:
        s = main if n == length else bottleneck.squeeze(room, n)
        sweep.append({k: v for k, v in asdict(s).items()
                      if k not in ("example_in", "example_out", "rule")})
    return {**asdict(main), "sweep": sweep}


def grid_numbers(sharpness: float, sentence: tuple[str, ...], reader: str,
                 swap: tuple[str, str] | None) -> dict[str, Any]:
    """The grid, and the grid again with one word changed.

    With no swap given, the reader's top word is changed for the next word of
    the vocabulary with the same tag (cat -> dog).
    """
    before = grid.weight_grid(sentence, reader, sharpness)
    if swap is None:
        tag = grid.VOCABULARY[before.top_word].tag
        same = [w for w in grid.VOCABULARY if grid.VOCABULARY[w].tag == tag]
        swap = (before.top_word, same[(same.index(before.top_word) + 1) % len(same)])
    after_words = swapped(sentence, swap)
    after_reader = reader if reader in after_words else after_words[before.reader_index]
    after = grid.weight_grid(after_words, after_reader, sharpness)
    return {**asdict(before), "swap": list(swap), "changed": asdict(after)}


def spotlight_numbers(sharpness: float, asker: str, lookback: bool) -> dict[str, Any]:
    main = spotlight.trace(asker, sharpness, lookback)
    return {
        **asdict(main),
        "budget_points": spotlight.BUDGET_POINTS,
        "sharpness_sweep": [
            {"sharpness": s, "shares": list(spotlight.trace(asker, s, lookback).shares)}
            for s in (1.0, 4.0, 8.0)
        ],
        "askers": {w: list(spotlight.trace(w, sharpness, lookback).shares)
                   for w in spotlight.WORDS},
        "lookback_rule": {w: asdict(spotlight.trace(w, sharpness, True))
                          for w in spotlight.WORDS},
    }


def _grid_part(s: Mapping[str, Any]) -> dict[str, Any]:
    g = s["grid"]
    return grid_numbers(g["sharpness"], g["sentence"], g["reader"], g["swap"])


def _ask_offer(s: Mapping[str, Any]) -> dict[str, Any]:
    part = _grid_part(s)
    keep = ("words", "features", "reader", "reader_index", "top_word", "top_index", "top_match",
            "products", "sharpness")
    return {k: part[k] for k in keep} | {
        "query": part["queries"][part["reader_index"]],
        "key": part["keys"][part["top_index"]],
    }


def _formula(s: Mapping[str, Any]) -> dict[str, Any]:
    part = _grid_part(s)
    i, j = part["reader_index"], part["top_index"]
    sharpness = part["sharpness"]
    # e^(s * match) along the reader's row: the formula's numerator and denominator.
    # Only when they would overflow are they shifted by the row's largest exponent
    # (exp_shift), as the softmax itself always does; the ratio is the same.
    row = [sharpness * m for m in part["matches"][i]]
    top = max(row) if max(row) > 700 else 0.0
    exps = [math.exp(x - top) for x in row]
    return {
        "reader": part["reader"],
        "top_word": part["top_word"],
        "features": list(part["features"]),
        "query": list(part["queries"][i]),
        "key": list(part["keys"][j]),
        "match": part["top_match"],
        "row_matches": list(part["matches"][i]),
        "row_weights": list(part["row_weights"]),
        "exp_shift": top,
        "numerator": exps[j],
        "denominator": sum(exps),
        "weight": part["top_weight"],
        "row_total": part["row_total"],
        "sharpness": sharpness,
        # the grid it is one weight of: the scene opens with the reader's row of it
        "grid": part,
    }


def _writing(s: Mapping[str, Any]) -> dict[str, Any]:
    """The sentence read and the sentence written; and the bottleneck section (worked out
    once for both): the scene opens on the squeeze's room where SqueezeTheRow left it,
    and those numbers decide where that is."""
    seq = seq2seq.run_seq2seq(example_length=s["seq2seq"]["length"])
    return {"input": list(seq.example_input), "output": list(seq.example_closed_book_output),
            "bottleneck": section("bottleneck", {"bottleneck": dict(s["bottleneck"])})}


def _potion(s: Mapping[str, Any]) -> dict[str, Any]:
    sharpness = s["potion"]["sharpness"]
    shuffled = tuple(reversed(potion.WORDS))
    return asdict(potion.mix_potions(sharpness=sharpness)) | {
        "shuffled_words": list(shuffled),
        "shuffled_flasks": potion.flasks(shuffled, sharpness=sharpness),
        "flasks": potion.flasks(potion.WORDS, sharpness=sharpness),
    }


def _assembly(s: Mapping[str, Any]) -> dict[str, Any]:
    pot = asdict(potion.mix_potions(sharpness=s["potion"]["sharpness"]))
    keep = ("words", "last_word", "last_flask", "hidden", "distilled", "vocabulary",
            "probabilities", "ranking", "predicted")
    return {k: pot[k] for k in keep}


def _misreading(s: Mapping[str, Any]) -> dict[str, Any]:
    part = _grid_part(s)
    pot = potion.mix_potions(sharpness=s["potion"]["sharpness"])
    return {
        "prompt": list(pot.words),
        "predicted": pot.predicted,
        "words": list(part["words"]),
        "reader": part["reader"],
        "reader_index": part["reader_index"],
        "row_weights": list(part["row_weights"]),
    }


#: A function per section of the chapter, in chapter order.
SECTIONS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "title": lambda s: {},
    "two_jobs": lambda s: {},
    "bottleneck": lambda s: bottleneck_numbers(**s["bottleneck"]),
    "writing": _writing,
    "open_book": lambda s: asdict(seq2seq.run_seq2seq(example_length=s["seq2seq"]["length"])),
    "ask_offer": _ask_offer,
    "grid": _grid_part,
    "formula": _formula,
    "spotlight": lambda s: spotlight_numbers(**s["spotlight"]),
    "potion": _potion,
    "assembly": _assembly,
    "misreading": _misreading,
    "end_card": lambda s: {},
}


#: the attention chapter's ledger
LEDGER = Ledger(PARAMS, SECTIONS, _grid_rules)
parse_settings = LEDGER.parse_settings
resolve = LEDGER.resolve
section = LEDGER.section
compute = LEDGER.compute

__all__ = ["LEDGER", "PARAMS", "SECTIONS", "Param", "SettingError", "compute", "parse_settings",
           "resolve", "section"]
