"""A catalogue is read strictly: a PO file that does not parse, an entry defined twice, a
path that is not a readable file, or a locale folder that cannot be written is one line
naming the file (and the line), exit status 2, and the catalogue left byte for byte as it
was; `render.py translate` keeps every translation and comment a translator wrote; a
byte-order mark is not part of the first line."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from production import files
from production.errors import UsageError
from production.translation import catalogue, messages, pofile
from tests.conftest import FIXTURE, run_command
from tests.test_translation import SPANISH, own_chapter, translate_all  # noqa: F401

pytestmark = pytest.mark.builds("fixture")

SOURCE = FIXTURE / "locale" / "es.po"
WORD = 'msgstr "atención"'  # the translation of the fixture's tag "attention"
PASSAGE = ('msgctxt "Scores [scores]"\nmsgid "Here are three scores, one for each word."\n'
           'msgstr "Tres puntuaciones."\n')


@pytest.fixture
def spanish(own_chapter, monkeypatch) -> Path:  # noqa: F811
    """The fixture's Spanish catalogue in a copy of the fixture chapter, which
    `render.py --chapter fixture` (in process) finds."""
    import render

    monkeypatch.setattr(render, "chapters", lambda: {own_chapter.name: own_chapter})
    path = catalogue.path_of(own_chapter, "es")
    path.parent.mkdir()
    shutil.copyfile(SOURCE, path)
    return path


def translate():
    return run_command("translate", "--chapter", "fixture", "--language", "es")


def refused(ran, start: str, said: str) -> None:
    """``ran`` stopped with one line that starts with ``start`` and says ``said``."""
    assert ran.code == 2 and ran.out == ""
    assert ran.err.count("\n") == 1 and "Traceback" not in ran.err
    line = ran.err.removeprefix("render.py: error: ").rstrip("\n")
    assert line.startswith(start) and said in line, line


def line_of(text: str, line: str, last: bool = False) -> int:
    """The number of ``line`` in ``text`` (its first, or its last, occurrence)."""
    numbers = [n for n, each in enumerate(text.split("\n"), 1) if each == line]
    return numbers[-1 if last else 0]


def _replace(new: str, at: str | None = None):
    """An edit of the fixture's catalogue: its WORD line replaced by ``new``; refused at
    the line ``at`` (the last of ``new`` when None)."""
    def edit(text: str) -> tuple[str, int]:
        edited = text.replace(WORD, new, 1)
        return edited, line_of(edited, new.split("\n")[-1] if at is None else at)
    return edit


def _append(entry: str, first: str, *, twice_of: str):
    """An edit of the fixture's catalogue: ``entry`` added at its end; refused at its line
    ``first``, which repeats the entry at ``twice_of``."""
    def edit(text: str) -> tuple[str, int]:
        edited = text + "\n" + entry
        return edited, line_of(edited, first, last=True)
    edit.twice_of = twice_of
    return edit


BROKEN = {
    "a string without its closing quote": (_replace('msgstr "atención'), "is not closed"),
    "a continued string without it": (_replace('msgstr ""\n"atención'), "is not closed"),
    "a string without its opening quote": (_replace("msgstr atención\""),
                                           "after msgstr comes a string in double quotes"),
    "a line that is not PO": (_replace(WORD + "\natención, por favor"), "a line is blank"),
    "an unknown escape": (_replace('msgstr "aten\\qción"'), "the escape '\\\\q'"),
    "text after a string": (_replace(WORD + ' (tag)'), "after the closing \""),
    "a quote not escaped": (_replace('msgstr "la "atención""'), "after the closing \""),
    "a second msgstr": (_replace(WORD + '\nmsgstr "cuidado"'), "msgstr out of place"),
    "a msgid without msgstr": (_replace("", at='msgid "attention"'), "without its msgstr"),
    "a line partly obsolete": (_replace('#~ msgstr "atención"'), "partly obsolete"),
    "an entry defined twice": (_append('msgid "attention"\nmsgstr "cuidado"\n',
                                       'msgid "attention"', twice_of='msgid "attention"'),
                               "msgid 'attention' is defined twice"),
    "a passage defined twice": (_append(PASSAGE, 'msgctxt "Scores [scores]"',
                                        twice_of='msgctxt "Scores [scores]"'),
                                "(msgctxt 'Scores [scores]') is defined twice"),
    "an entry and an obsolete one": (_append('#~ msgid "attention"\n#~ msgstr "cuidado"\n',
                                             '#~ msgid "attention"',
                                             twice_of='msgid "attention"'),
                                     "is defined twice"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_catalogue_that_is_not_strictly_po_is_one_line_and_left_as_it_was(
        spanish, own_chapter, case):  # noqa: F811
    edit, said = BROKEN[case]
    text, line = edit(SOURCE.read_text(encoding="utf-8"))
    if hasattr(edit, "twice_of"):
        said += f", also at line {line_of(text, edit.twice_of)}; keep one"
    spanish.write_text(text, encoding="utf-8")
    before = spanish.read_bytes()

    refused(translate(), f"{spanish}:{line}: not a PO catalogue", said)
    assert spanish.read_bytes() == before  # nothing rewritten, nothing lost
    assert [p.name for p in spanish.parent.iterdir()] == ["es.po"]
    for draft in (False, True):  # a render in Spanish reads it the same way
        with pytest.raises(UsageError, match=rf"^{spanish}:{line}: not a PO catalogue"):
            own_chapter.in_language("es", draft=draft)


def test_text_not_in_the_catalogue_s_charset_names_its_line(spanish):
    data = SOURCE.read_bytes().replace(WORD.encode(), WORD.encode("latin-1"), 1)
    spanish.write_bytes(data)
    line = data.split(b"\n").index(WORD.encode("latin-1")) + 1
    refused(translate(), f"{spanish}:{line}: ", "not utf-8 text")
    assert spanish.read_bytes() == data


def test_a_catalogue_that_is_a_folder_is_one_line(spanish, own_chapter):  # noqa: F811
    spanish.unlink()
    (spanish / "kept.txt").mkdir(parents=True)
    refused(translate(), f"{spanish}: a folder, not a PO file", "")
    with pytest.raises(UsageError, match=rf"^{spanish}: a folder"):
        own_chapter.in_language("es", draft=True)
    assert (spanish / "kept.txt").is_dir()


def test_a_catalogue_that_cannot_be_read_is_one_line(spanish, monkeypatch):
    # the tests may run as root, who reads any file: the refusal the system gives
    # anyone else is made here
    opened = Path.open

    def refuse(self, *args, **kwargs):
        if self == spanish:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return opened(self, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(Path, "open", refuse)
        refused(translate(), f"{spanish}: cannot read the catalogue", "Permission denied")
    assert spanish.read_bytes() == SOURCE.read_bytes()


def test_a_locale_folder_that_cannot_be_written_is_one_line(spanish, own_chapter,  # noqa: F811
                                                            monkeypatch):
    def refuse(folder, name, suffix=".part"):  # as a read-only folder refuses anyone but root
        raise PermissionError(errno.EACCES, "Permission denied", str(folder))

    with monkeypatch.context() as patched:
        patched.setattr(files, "temporary", refuse)
        refused(translate(), f"{spanish.parent}: cannot write the catalogue es.po there",
                "Permission denied")
    assert spanish.read_bytes() == SOURCE.read_bytes()

    shutil.rmtree(spanish.parent)  # a file where the locale folder goes
    spanish.parent.write_text("not a folder\n")
    refused(translate(), f"{spanish.parent}: cannot write the catalogue es.po there",
            "(not a folder)")
    assert spanish.parent.read_text() == "not a folder\n"


def test_a_byte_order_mark_is_not_part_of_the_first_line(spanish, own_chapter):  # noqa: F811
    def content(po):
        return [(m.id, m.context, m.string, sorted(m.flags), m.user_comments, m.lineno)
                for m in po]

    plain = messages.load(own_chapter, "es", gaps=False)
    spanish.write_bytes(pofile.BOM + SOURCE.read_bytes())
    assert content(catalogue.read(spanish)) == content(catalogue.read(SOURCE))
    marked = messages.load(own_chapter, "es", gaps=False)
    assert (marked.on_screen, marked.passages) == (plain.on_screen, plain.passages)
    assert plain.on_screen["attention"] == "atención"

    assert translate().code == 0  # written back as any catalogue: without the mark
    written = spanish.read_bytes()
    spanish.write_bytes(SOURCE.read_bytes())
    assert translate().code == 0 and spanish.read_bytes() == written


def test_translate_brings_back_an_obsolete_translation_and_keeps_comments(
        own_chapter, monkeypatch):  # noqa: F811
    import render

    monkeypatch.setattr(render, "chapters", lambda: {own_chapter.name: own_chapter})
    assert translate().code == 0
    path = translate_all(own_chapter, SPANISH)
    text = path.read_text(encoding="utf-8")
    # a translator's note on an entry left untranslated
    text = text.replace('msgid "Three scores"\nmsgstr "Tres puntuaciones"',
                        '# ask the author\nmsgid "Three scores"\nmsgstr ""')
    path.write_text(text, encoding="utf-8")

    code = own_chapter.narration.parent / "scenes.py"
    source = code.read_text()
    code.write_text(source.replace('N_("Three scores become weights.")',
                                   '"Three scores become weights."')
                          .replace('N_("Three scores")', '"Three scores"'))
    assert translate().code == 0
    po = catalogue.read(path)
    assert po.get("Three scores become weights.") is None
    kept = po.obsolete["Three scores become weights."]
    assert kept.string == SPANISH["Three scores become weights."]
    assert po.obsolete["Three scores"].user_comments == ["ask the author"]

    code.write_text(source)  # the English comes back, and its translation with it
    assert translate().code == 0
    po = catalogue.read(path)
    back = po.get("Three scores become weights.")
    assert back.string == SPANISH["Three scores become weights."] and back.fuzzy
    assert po.get("Three scores").user_comments == ["ask the author"]
    assert not po.obsolete
