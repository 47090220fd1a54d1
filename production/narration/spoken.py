"""What a voice is given to say: the written passage with its numbers and symbols in
words, and the words a voice gets wrong respelled.

The passage keeps its written form for the captions ("64.8", "56%"); only the
synthesiser hears "sixty-four point eight", "fifty-six percent". The same
normaliser serves every voice engine. Respellings live in
``assets/pronunciation.txt`` (``word = how to say it``, one a line).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from production import paths
from production.errors import NarrationError
from production.language import code as active_language

LEXICON = paths.ASSETS / "pronunciation.txt"

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million"),
           (1000, "thousand"), (100, "hundred"))


def whole(n: int) -> str:
    """A whole number in words: 64 -> 'sixty-four', 1300 -> 'one thousand three hundred'."""
    if n < 0:
        return "minus " + whole(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    for size, name in _SCALES:
        if n >= size:
            high, rest = divmod(n, size)
            return f"{whole(high)} {name}" + (f" {whole(rest)}" if rest else "")
    raise AssertionError(n)  # every n >= 100 has a scale


def number(text: str) -> str:
    """A written number in words: '64.8' -> 'sixty-four point eight', '1,000' -> 'one
    thousand', '-0.25' -> 'minus zero point two five'."""
    sign, digits = ("minus ", text[1:]) if text[:1] in "-\u2212" else ("", text)
    integer, _, fraction = digits.replace(",", "").partition(".")
    said = whole(int(integer or "0"))
    if fraction:
        said += " point " + " ".join(_ONES[int(d)] for d in fraction)
    return sign + said


_NUMBER = r"[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_RULES: tuple[tuple[re.Pattern[str], object], ...] = (
    # 1.5x, 1.5×, 1.5 times: a half is said as one
    (re.compile(rf"({_NUMBER})\s*(?:[x\u00d7](?![A-Za-z])|\s+times\b)"),
     lambda m: _times(m.group(1))),
    (re.compile(rf"({_NUMBER})\s*%"), lambda m: f"{number(m.group(1))} percent"),
    (re.compile(r"\s*[\u00b7\u22c5]\s*|\s+\.\s+"), " dot "),  # q · k, q . k
    (re.compile(r"\s*(?:->|\u2192)\s*"), " to "),
    (re.compile(r"\s*<\s*"), " less than "),
    (re.compile(r"\s*>\s*"), " more than "),
    (re.compile(r"\s*=\s*"), " equals "),
    (re.compile(r"\s*\+\s*"), " plus "),
    (re.compile(r"(?<=\d)\s*/\s*(?=\d)"), " out of "),
    (re.compile(r"\[([^\]]*)\]"), lambda m: m.group(1)),  # [1.0, 0.0]: the numbers, in turn
    (re.compile(rf"(?<![\w.]){_NUMBER}(?![\w])"), lambda m: number(m.group(0))),
)


def _times(written: str) -> str:
    if written.endswith(".5"):
        head = written[:-2]
        return ("half" if head in ("0", "") else f"{number(head)} and a half") + " times"
    return f"{number(written)} times"


@functools.lru_cache(maxsize=4)
def lexicon(path: Path = LEXICON) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The respellings: (a whole word, case ignored; how to say it), from ``path``: UTF-8
    text, with or without a byte order mark. A file that cannot be read or a line that is
    not a respelling is a NarrationError naming it."""
    entries = []
    if not path.exists():
        return ()
    if path.is_dir():
        raise NarrationError(f"{path}: a folder, not a file; the respellings are a text "
                             "file of 'word = how to say it' lines")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise NarrationError(f"{path}: cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise NarrationError(f"{path}: not UTF-8 text (byte {error.start}); save it as "
                             "UTF-8") from None
    for number_, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, sep, said = (part.strip() for part in line.partition("="))
        if not sep or not word or not said:
            raise NarrationError(f"{path}:{number_}: expected 'word = how to say it'")
        entries.append((re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE), said))
    return tuple(entries)


def rules(language: str) -> tuple[tuple[re.Pattern[str], object], ...]:
    """The rules that put numbers and symbols in words for ``language``'s voice; none for
    a language without rules here (its voice reads numbers its own way)."""
    from production.narration.spoken_es import RULES as SPANISH

    return {"en": _RULES, "es": SPANISH}.get(language.split("_")[0], ())


def speakable(text: str, path: Path = LEXICON, language: str | None = None) -> str:
    """``text`` as a voice should be given it: respellings (English), then symbols and
    numbers in words, in ``language`` (default: the active one, production/language.py)."""
    language = language or active_language()
    if language == "en":
        for pattern, said in lexicon(path):
            text = pattern.sub(said, text)
    for pattern, replacement in rules(language):
        text = pattern.sub(replacement, text)
    return re.sub(r"\s{2,}", " ", text).strip()


#: what must never reach a synthesiser: a digit, or a symbol it would spell or skip
UNSPOKEN = re.compile(r"[\d%\u00d7\u00b7\u22c5=+/<>\[\]{}_^*#@&|\\~]")


def spans(text: str, path: Path = LEXICON, language: str | None = None
          ) -> list[tuple[int, int]]:
    """For each written word of ``text`` (split on white space), the words of its spoken
    form (``speakable(text).split()``) that say it, as a range [first, last + 1).

    "64.8" is said as four words, "%" after "56" as one ("percent"); punctuation alone
    may be said as none. Found by speaking ever longer beginnings of the text: the words
    a written word adds are the ones that say it.
    """
    written = text.split()
    total = len(speakable(text, path, language).split())
    ranges, done = [], 0
    for end in range(1, len(written) + 1):
        said = total if end == len(written) else \
            min(total, len(speakable(" ".join(written[:end]), path, language).split()))
        said = max(said, done)
        ranges.append((done, said))
        done = said
    return ranges
