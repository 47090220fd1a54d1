"""Numbers as a user types them: in the ASCII digits 0-9, and nothing else.

Python's ``int()`` and ``float()`` read more: other scripts' digits (Arabic-Indic "٣",
full-width "３"), a digit group's underscore ("1_000"), white space around the number
(" 4 ", "4\\n"), and for ``float()`` "nan", "inf" and "infinity". No option or setting
takes those: every number a user gives (``--set``, ``--jobs``, ``--port``, ...) is read
here. A whole number is ``[+-]?[0-9]+``; a decimal is written with the digits, a point
and an exponent (``2``, ``-1.5``, ``.25``, ``1e6``). A refusal is a :class:`NotDigits`
(a ValueError); the caller names the option and what it allows.
"""

from __future__ import annotations

import re

WHOLE = re.compile(r"[+-]?[0-9]+")
NATURAL = re.compile(r"[0-9]+")  # a whole number without a sign: an id, a count
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: what a refusal says the number must be written in
WRITTEN = "in the digits 0-9"


class NotDigits(ValueError):
    """Text that is not a number written in the ASCII digits 0-9."""


def whole(text: str) -> int:
    """``text`` as a whole number, ``[+-]?[0-9]+``; NotDigits otherwise (and for more
    digits than Python reads, 4300)."""
    if not WHOLE.fullmatch(text):
        raise NotDigits(f"not a whole number {WRITTEN}")
    try:
        return int(text)
    except ValueError:  # longer than int() converts
        raise NotDigits(f"a whole number of {len(text)} digits is too long") from None


def decimal(text: str) -> float:
    """``text`` as a number written in the digits 0-9, with a point and an exponent if
    need be; NotDigits otherwise. Too large a number is infinity, as in ``float()``: a
    caller that wants a finite one checks."""
    if not DECIMAL.fullmatch(text):
        raise NotDigits(f"not a number {WRITTEN}")
    return float(text)
