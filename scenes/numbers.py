"""How the chapter writes its numbers: one formatter per kind, for every scene.

A scene formats the numbers core/ computed, it never computes them; these
functions only choose the written form, never the value. Percentages are
written as in the source lessons, the sign straight after the number ("56%");
the narration says them in words ("56 percent"), from ``percent_figure``.

- ``percent``: a share (a fraction of one) as a percent, "56%", "12.5%", "0.3%".
- ``decimal``: a fixed number of decimals, "0.74", "1.000"; powers of ten past
  what reads that way, "2.87×10⁵⁶" (compact, to fit a table's column).
- ``short``: a score or a label as a person writes it, "0.8", "0.15", "4.0".
- ``setting``: a --set value as typed, "4", "0.25", "1,000,000".
- ``factor``: how many times over, "1.5×"; ``out_of``: a count of a total, "32/60".

Each is written the way the active language writes numbers (production/language.py:
"0,74", "56 %" in Spanish); the digits and their rounding are the same in every language.

This module draws nothing and imports no Manim.
"""

from __future__ import annotations

import math

from production.language import localized

#: where a decimal gives way to a power of ten (absolute value)
LARGE = 1e4

_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def _trim(text: str) -> str:
    """Trailing zeros after the decimal point dropped, and the point if nothing follows."""
    return text.rstrip("0").rstrip(".") if "." in text else text


def _unsigned_zero(text: str) -> str:
    """'-0.00' is written '0.00': a value that rounds to zero has no sign."""
    return text.lstrip("-") if float(text) == 0 else text


# ------------------------------------------------------------------ percentages
def _percent_figure(share: float, places: int = 0, *, small: bool = False) -> str:
    """The number of ``percent(share, places, small=small)`` without its sign ('56')."""
    p = 100 * share
    if small and 0 < p < 0.95:
        if p < 0.0095:
            return "<0.01"
        places = max(places, 1 if p >= 0.095 else 2)
    return _trim(f"{p:.{places}f}")


def _percent(share: float, places: int = 0, *, small: bool = False) -> str:
    """A share (a fraction of one) as a percent, to at most ``places`` decimals.

    0.5643 -> '56%'; 0.125 at one place -> '12.5%', 0.5 -> '50%' (no trailing
    zeros). With ``small``, a share under 1% keeps a readable digit or two
    (0.0026 -> '0.3%', 0.00049 -> '0.05%'), and one under 0.01% is '<0.01%'.
    """
    return _percent_figure(share, places, small=small) + "%"


def _whole_percent(points: int) -> str:
    """A percent the ledger already rounded to a whole number: 56 -> '56%'."""
    return f"{points}%"


# ------------------------------------------------------------------ decimals
def _power_of_ten(x: float, places: int) -> str:
    """``x`` as a mantissa with ``places`` decimals times a power of ten: '2.87×10⁵⁶'."""
    if not math.isfinite(x):
        raise ValueError(f"not a number that can be shown: {x}")
    mantissa, exponent = f"{x:.{places}e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def _decimal(x: float, places: int = 2, *, low: float = 0.0) -> str:
    """``x`` with ``places`` decimals: 0.7400 -> '0.74', never '-0.00'.

    A number too large to read that way (``abs(x)`` at least LARGE), or, when
    ``low`` is given, too small (above zero, below ``low``), is written as a
    power of ten instead (``power_of_ten``).
    """
    if abs(x) >= LARGE or 0 < abs(x) < low or not math.isfinite(x):
        return _power_of_ten(x, places)
    return _unsigned_zero(f"{x:.{places}f}")


def _short(x: float) -> str:
    """A score or a label as a person writes it: two decimals at most, one at least.

    0.8 -> '0.8', 0.15 -> '0.15', 3.6 -> '3.6', 4.0 -> '4.0'; past LARGE, a power of ten.
    """
    if abs(x) >= LARGE or not math.isfinite(x):
        return _power_of_ten(x, 1)
    text = _unsigned_zero(f"{x:.2f}")
    return text[:-1] if text.endswith("0") else text


def _setting(x: float) -> str:
    """A --set value as typed: whole numbers without decimals, with thousands
    separators (4, 1,000,000), others as short as exact (0.25)."""
    return f"{x:,.0f}" if x == int(x) else f"{x:,g}"


def _factor(x: float) -> str:
    """How many times over, to at most two decimals: 1.5 -> '1.5×', 2.25 -> '2.25×', 1 -> '1×'."""
    return _factor_figure(x) + "×"


def _factor_figure(x: float) -> str:
    """The number of ``factor(x)`` without its sign ('1.5'), for narration."""
    return _trim(f"{x:.2f}")


def _out_of(count: int, total: int) -> str:
    """A count out of a total: '32/60'."""
    return f"{count}/{total}"


def _public(inner):
    """``inner`` with its result written the way the active language writes numbers."""
    def outer(*args, **kwargs):
        return localized(inner(*args, **kwargs))
    outer.__name__ = inner.__name__.lstrip("_")
    outer.__qualname__ = outer.__name__
    outer.__doc__ = inner.__doc__
    outer.__wrapped__ = inner
    return outer


percent_figure = _public(_percent_figure)
percent = _public(_percent)
whole_percent = _public(_whole_percent)
power_of_ten = _public(_power_of_ten)
decimal = _public(_decimal)
short = _public(_short)
setting = _public(_setting)
factor = _public(_factor)
factor_figure = _public(_factor_figure)
out_of = _public(_out_of)

__all__ = ["LARGE", "decimal", "factor", "factor_figure", "out_of", "percent", "percent_figure",
           "power_of_ten", "setting", "short", "whole_percent"]
