"""The chapter's demo (`render.py demo`): the spotlight of the lesson, worked by the
viewer. Choose which word of "the cat ate fish" is asking, slide the sharpness from 1.0
to 8.0, let words only look back, and the four bars show the shares of the light.

Every state is core's :func:`core.spotlight.trace` at that setting, formatted with the
chapter's formatters, so a bar reads what the scenes show; "Run it" shows
:func:`core.spotlight.attention` and the core function it shares the light with, and
what the first prints for the setting. The narrated moments are the beats of
SpotlightBudget and LookBackRule where the lesson stops at a setting, rendered at it.
"""

from __future__ import annotations

from typing import Any

from core import attention, spotlight
from production.demo.spec import Bar, Box, Choice, Demo, Moment, Slider, State
from production.language import N_, _
from scenes.base import quoted
from scenes.numbers import decimal, percent


def state(asker: str, sharpness: float, lookback: bool) -> State:
    """What the page shows with ``asker`` asking at ``sharpness``, looking back or not."""
    t = spotlight.trace(asker, sharpness, lookback)
    bars = tuple(Bar(word, share, percent(share) if seen else _("hidden"), not seen)
                 for word, share, seen in zip(t.words, t.shares, t.visible))
    said = _("{asker} asks at sharpness {sharpness}: {bars}").format(
        asker=quoted(asker), sharpness=decimal(sharpness, 1),
        bars=", ".join(f"{b.label} {b.value}" for b in bars))
    total, top = percent(t.exact_total), quoted(t.top_word)
    note = _("The shares add up to {total}. Most of the light goes to {top}.").format(
        total=total, top=top) if t.rounded_total_percent == 100 else _(
        "The shares add up to {total}; rounded as shown, to {rounded}. Most of the light "
        "goes to {top}.").format(total=total, rounded=percent(t.rounded_total_percent / 100),
                                  top=top)
    return State(bars, said, note, spotlight.printed(sharpness, lookback, asker),
                 t.shares_percent)


def _trace_shares(numbers: dict[str, Any]) -> tuple[int, ...]:
    return tuple(numbers["shares_percent"])


def _lookback_shares(asker: str):
    def shows(numbers: dict[str, Any]) -> tuple[int, ...]:
        return tuple(numbers["lookback_rule"][asker]["shares_percent"])
    return shows


def _sharpness(value: float) -> str:
    return decimal(value, 1)


def _traced(name: str, title: str, asker: str, sharpness: float) -> Moment:
    """The hand trace's total and shares (SpotlightBudget) at one setting."""
    return Moment(name, title, dict(asker=asker, sharpness=sharpness, lookback=False),
                  "SpotlightBudget", ("trace", "shares"),
                  (f"spotlight.asker={asker}", f"spotlight.sharpness={sharpness}"),
                  _trace_shares)


DEMO = Demo(
    title=N_("Try the spotlight yourself"),
    intro=N_("Each word of “the cat ate fish” wears a label of two numbers (thing, action) "
             "and asks a question in the same two numbers. Pick the word that asks, set how "
             "sharply the best fit wins, and watch its 100 points of light shared out."),
    controls=(
        Choice("asker", N_("Which word is asking?"), spotlight.WORDS, spotlight.DEFAULT_ASKER,
               quoted),
        Slider("sharpness", N_("Sharpness"), spotlight.DEMO_SHARPNESS,
               spotlight.DEFAULT_SHARPNESS, _sharpness),
        Box("lookback", N_("Words may only look back")),
    ),
    state=state,
    moments=(
        _traced("sharpness-4", N_("At sharpness {sharpness}, {asker} asks"), "ate", 4.0),
        _traced("sharpness-1", N_("Sharpness turned down to {sharpness}"), "ate", 1.0),
        _traced("sharpness-8", N_("Sharpness turned up to {sharpness}"), "ate", 8.0),
        _traced("cat-asks", N_("{asker} asks"), "cat", 4.0),
        _traced("the-asks", N_("{asker} asks"), "the", 4.0),
        Moment("look-back", N_("Looking back only, {asker} asks"),
               dict(asker="ate", sharpness=4.0, lookback=True), "LookBackRule",
               ("hide",), ("spotlight.asker=ate", "spotlight.sharpness=4.0"),
               _lookback_shares("ate")),
        Moment("first-word", N_("Looking back only, {asker} sees only itself"),
               dict(asker="the", sharpness=4.0, lookback=True), "LookBackRule",
               ("alone",), ("spotlight.asker=ate", "spotlight.sharpness=4.0"),
               _lookback_shares("the")),
    ),
    code=(spotlight.attention, attention.match, attention.lookback_mask, attention.shares,
          attention.blend),
    code_intro=N_("The chapter's numbers come from this function of its core, shown as it "
                  "is: it does the four steps for every word at once. Under it is what it "
                  "prints at the setting above; compare the asking word's row with the bars."),
    bars_label=N_("The shares of the light"),
    link=N_("Try it yourself: the demo"),
)
