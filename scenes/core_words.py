"""The words core/ labels its features, word classes and hidden units with, as a viewer
reads them: in the active language (production/language.py).

The models compute on numbers; these labels only name what a number stands for (the
spotlight's "thing" and "action", the grid's word classes, the potion's recipe
features and hidden units), so a translation may show them in its own words. The example
sentences and the vocabulary the models read stay as they are. Every label core/ gives
is in :data:`LABELS` (tests/test_spanish.py keeps it so): a new one must be added here
to be translated.
"""

from __future__ import annotations

from typing import Any

from production.language import N_, _

LABELS = frozenset({
    # core/spotlight.py FEATURES
    N_("thing"), N_("action"),
    # core/grid.py FEATURES and the vocabulary's word classes
    N_("something that acts"), N_("something being done"), N_("a place to be"),
    N_("animal"), N_("place word"), N_("pronoun"), N_("surface"), N_("the"),
    # core/potion.py QUERY_FEATURES and HIDDEN_UNITS
    N_("a flat surface"), N_("about honesty"), N_("about resting"), N_("a person"),
    N_("a link word"), N_("worn out"), N_("drowsy"), N_("lying"),
})

#: the ledger's entries that hold such labels: lists of them, or a dict keyed by them
LISTS = ("features", "tags", "query_features")
KEYED = ("hidden",)


def told(label: str) -> str:
    """A label of core/'s in the active language (anything else as it is)."""
    return _(label) if label in LABELS else label


def spotlight_features() -> tuple[str, ...]:
    """The spotlight's two features ("thing", "action") in the active language."""
    from core.spotlight import FEATURES

    return tuple(told(f) for f in FEATURES)


def shown(numbers: dict[str, Any]) -> dict[str, Any]:
    """A scene's ledger section with its labels in the active language (a copy), its
    parts too; the numbers and the sentences' words as they are."""
    out = {key: shown(value) if isinstance(value, dict) and key not in KEYED else value
           for key, value in numbers.items()}  # a part of the section (its swap's "after")
    for key in LISTS:
        if isinstance(out.get(key), (list, tuple)):
            out[key] = [told(x) if isinstance(x, str) else x for x in out[key]]
    for key in KEYED:
        if isinstance(out.get(key), dict):
            out[key] = {told(k): v for k, v in out[key].items()}
    return out


__all__ = ["KEYED", "LABELS", "LISTS", "shown", "spotlight_features", "told"]
