"""What a Spanish voice is given to say: numbers and symbols in Spanish words.

The written passage keeps Spanish numerals for the captions ("0,74", "56 %",
"1.000"); the voice hears "cero coma setenta y cuatro", "cincuenta y seis por ciento",
"mil". The rules have the shape of the English ones (production/narration/spoken.py).
"""

from __future__ import annotations

import re

_UNITS = ("cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece "
          "catorce quince dieciséis diecisiete dieciocho diecinueve veinte veintiuno "
          "veintidós veintitrés veinticuatro veinticinco veintiséis veintisiete veintiocho "
          "veintinueve").split()
_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta",
         8: "ochenta", 9: "noventa"}
_HUNDREDS = {1: "ciento", 2: "doscientos", 3: "trescientos", 4: "cuatrocientos",
             5: "quinientos", 6: "seiscientos", 7: "setecientos", 8: "ochocientos",
             9: "novecientos"}


def _counting(words: str) -> str:
    """A number said before a noun ('mil', 'millones'): 'uno' is 'un', 'veintiuno'
    'veintiún'."""
    if words.endswith("veintiuno"):
        return words[:-len("veintiuno")] + "veintiún"
    return words[:-len("uno")] + "un" if words.endswith("uno") else words


def whole(n: int) -> str:
    """A whole number in Spanish words: 56 -> 'cincuenta y seis', 1000 -> 'mil',
    2500000 -> 'dos millones quinientos mil'."""
    if n < 0:
        return "menos " + whole(-n)
    if n < 30:
        return _UNITS[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f" y {_UNITS[ones]}" if ones else "")
    if n == 100:
        return "cien"
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return _HUNDREDS[hundreds] + (f" {whole(rest)}" if rest else "")
    if n < 10 ** 6:
        thousands, rest = divmod(n, 1000)
        head = "mil" if thousands == 1 else f"{_counting(whole(thousands))} mil"
        return head + (f" {whole(rest)}" if rest else "")
    if n < 10 ** 12:
        millions, rest = divmod(n, 10 ** 6)
        head = "un millón" if millions == 1 else f"{_counting(whole(millions))} millones"
        return head + (f" {whole(rest)}" if rest else "")
    return " ".join(_UNITS[int(d)] for d in str(n))


def number(text: str) -> str:
    """A number written the Spanish way in words: '0,74' -> 'cero coma setenta y
    cuatro', '0,05' -> 'cero coma cero cinco', '1.000' -> 'mil', '-2' -> 'menos dos'."""
    sign, digits = ("menos ", text[1:]) if text[:1] in "-\u2212" else ("", text)
    integer, _, fraction = digits.replace(".", "").partition(",")
    said = whole(int(integer or "0"))
    if fraction:
        if len(fraction) <= 2 and not fraction.startswith("0"):
            said += " coma " + whole(int(fraction))
        else:
            said += " coma " + " ".join(_UNITS[int(d)] for d in fraction)
    return sign + said


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")

#: a number as Spanish writes it: 1.000.000 grouped with points, decimals after a comma
NUMBER = r"[-\u2212]?(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?"

RULES: tuple[tuple[re.Pattern[str], object], ...] = (
    # 2,87×10⁵⁶: a power of ten
    (re.compile(rf"({NUMBER})\s*[x\u00d7]\s*10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)"),
     lambda m: f"{number(m.group(1))} por diez elevado a "
               f"{number(m.group(2).translate(_SUPERSCRIPTS))}"),
    # 1,5×, 1,5 veces
    (re.compile(rf"({NUMBER})\s*[x\u00d7](?![A-Za-z])"),
     lambda m: f"{number(m.group(1))} veces"),
    (re.compile(rf"({NUMBER})\s*%"), lambda m: f"{number(m.group(1))} por ciento"),
    (re.compile(r"\s*[\u00b7\u22c5]\s*|\s+\.\s+"), " por "),  # q · k
    (re.compile(r"\s*(?:->|\u2192)\s*"), " a "),
    (re.compile(r"\s*<\s*"), " menos de "),
    (re.compile(r"\s*>\s*"), " más de "),
    (re.compile(r"\s*=\s*"), " igual a "),
    (re.compile(r"\s*\+\s*"), " más "),
    (re.compile(r"(?<=\d)\s*/\s*(?=\d)"), " de "),
    (re.compile(r"\[([^\]]*)\]"), lambda m: m.group(1)),
    (re.compile(rf"(?<![\w,.]){NUMBER}(?![\w])"), lambda m: number(m.group(0))),
)

__all__ = ["NUMBER", "RULES", "number", "whole"]
