"""A chapter in a second language: the catalogue round trip (`render.py translate`), a
render's strictness and its draft, numbers written and spoken the Spanish way, and the
voice a language speaks with."""

from __future__ import annotations

import importlib
import shutil
import sys

import pytest
from babel.numbers import format_decimal, format_percent, parse_decimal

from production import language
from production.chapters import load
from production.errors import NarrationError, UsageError
from production.narration.spoken import spans, speakable
from production.translation import catalogue
from production.voices import Espeak, Piper, default_voice, joe_model, voice_named
from tests.conftest import FIXTURE

pytestmark = pytest.mark.builds("fixture")


@pytest.fixture
def own_chapter(tmp_path, monkeypatch):
    """A copy of the fixture chapter, importable as its own package, to edit."""
    package = tmp_path / "translated_pkg"
    shutil.copytree(FIXTURE, package / "fixture",
                    ignore=shutil.ignore_patterns("__pycache__", "locale"))
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "cache"))
    yield load("translated_pkg.fixture.chapter")
    for name in [m for m in sys.modules if m.startswith("translated_pkg")]:
        del sys.modules[name]
    language.use(language.SOURCE)


def translate_all(chapter, table):
    """Fill the Spanish catalogue from ``table`` (English -> Spanish) and write it."""
    path = catalogue.path_of(chapter, "es")
    po = catalogue.read(path)
    for message in po:
        if message.id:
            message.string = table[message.id]
            message.flags.discard("fuzzy")
    path.write_bytes(catalogue.text_of(po))
    return path


SPANISH = {message.id: message.string
           for message in catalogue.read(FIXTURE / "locale" / "es.po") if message.id}


def test_the_catalogue_round_trip_keeps_translations_and_marks_changed_english_fuzzy(
        own_chapter):
    path, counts = catalogue.update(own_chapter, "es")
    assert counts == catalogue.Counts(0, 0, len(SPANISH))
    po = catalogue.read(path)
    passage = po.get("Here are three scores, one for each word.", "Scores [scores]")
    assert passage is not None and "{slot}" in " ".join(passage.auto_comments)
    assert po.get("the weights add up to {total}") is not None  # marked in scene code
    assert po.get("Three scores") is not None  # a scene's title, marked with N_

    translate_all(own_chapter, SPANISH)
    before = path.read_bytes()
    assert catalogue.update(own_chapter, "es")[1] == catalogue.Counts(len(SPANISH), 0, 0)
    assert path.read_bytes() == before  # nothing changed: the same bytes

    # the English of a passage and of an on-screen string change
    narration = own_chapter.narration / "Scores.txt"
    narration.write_text("[scores]\nHere are three scores, one for every word.\n")
    code = FIXTURE.name and (own_chapter.narration.parent / "scenes.py")
    code.write_text(code.read_text().replace('N_("Three scores become weights.")',
                                             'N_("Three scores become two weights.")'))
    path, counts = catalogue.update(own_chapter, "es")
    assert counts == catalogue.Counts(len(SPANISH) - 2, 2, 0)
    po = catalogue.read(path)
    changed = po.get("Here are three scores, one for every word.", "Scores [scores]")
    assert changed.fuzzy and changed.string == SPANISH["Here are three scores, one for "
                                                       "each word."]
    assert catalogue.previous(changed) == ["Here are three scores, one for each word."]
    moved = po.get("Three scores become two weights.")
    assert moved.fuzzy and moved.string == SPANISH["Three scores become weights."]
    assert po.get("Three scores become weights.") is None
    assert catalogue.update(own_chapter, "es")[1].fuzzy == 2  # still fuzzy until looked at
    again = catalogue.read(path).get("Here are three scores, one for every word.",
                                     "Scores [scores]")
    assert catalogue.previous(again) == ["Here are three scores, one for each word."]


def test_a_render_refuses_a_gap_by_scene_and_string_and_a_draft_counts_them(own_chapter):
    catalogue.update(own_chapter, "es")
    with pytest.raises(UsageError, match=r"^--language es: chapter fixture: the missing "
                                         r"translation of 'Scores become weights' .*\(and "
                                         rf"{len(SPANISH) - 1} more\).*--draft-language"):
        own_chapter.in_language("es")
    table = dict(SPANISH, **{"the weights add up to {total}": ""})
    translate_all(own_chapter, table)
    with pytest.raises(UsageError, match=r"Scores: the missing translation of 'the weights "
                                         r"add up to \{total\}'"):
        own_chapter.in_language("es")
    draft = own_chapter.in_language("es", draft=True)
    assert draft.fallbacks == 1 and draft.title == "Las puntuaciones se vuelven pesos"
    assert language._("the weights add up to {total}") == "the weights add up to {total}"
    assert language.fell_back() == {"the weights add up to {total}"}
    assert language._("Three scores") == "Tres puntuaciones"


def test_a_translation_that_drops_a_slot_or_a_mark_is_one_line(own_chapter):
    catalogue.update(own_chapter, "es")
    translate_all(own_chapter, dict(SPANISH, **{
        "Each score becomes a weight, and the weights add up to <total>{total}.":
            "Cada puntuación se vuelve un peso, y los pesos suman {total}."}))
    with pytest.raises(UsageError, match=r"es\.po:\d+: Weights \[weights\]: its translation "
                                         r"drops the mark <total>"):
        own_chapter.in_language("es")


def test_an_unknown_language_names_the_ones_there_are(own_chapter):
    with pytest.raises(UsageError, match=r"has no fr translation .* languages: en$|"
                                         r"languages: en \(start one"):
        own_chapter.in_language("fr")


def test_the_spanish_narration_is_the_catalogue_s_with_its_marks(own_chapter):
    catalogue.update(own_chapter, "es")
    translate_all(own_chapter, SPANISH)
    spanish = own_chapter.in_language("es")
    from production.narration.script import marked_script

    weights = spanish.scene("Weights")
    text, marks = marked_script(spanish, weights, {})["weights"]
    assert text == "Cada puntuación se vuelve un peso, y los pesos suman 1,00."
    assert text.split()[marks["total"]] == "1,00."
    assert spanish.narration != own_chapter.narration
    assert load("translated_pkg.fixture.chapter").language == "en"


# ----------------------------------------------------------------- numbers


@pytest.mark.parametrize("value", [0.7412, 0.5643, 0.0026, 0.125, 1234.5, 0.0])
def test_spanish_numbers_are_babel_s_formatting_of_the_same_value(value):
    from scenes.numbers import decimal, percent, setting

    with language.active("es"):
        assert decimal(value) == format_decimal(value, format="0.00", locale="es")
        if value <= 1:  # a share
            assert percent(value) == format_percent(value, locale="es")
        assert parse_decimal(decimal(value, 3), locale="es") == \
            parse_decimal(decimal.__wrapped__(value, 3), locale="en")
    assert setting(1_000_000) == "1,000,000"
    with language.active("es"):
        assert setting(1_000_000) == "1.000.000"


def test_every_number_a_spanish_scene_names_is_the_english_one_written_for_es():
    from production.narration.script import spoken_values

    for module in ("scenes.attention.chapter", "scenes.decoder.chapter"):
        chapter = load(module)
        for scene in chapter.scenes:
            english = spoken_values(chapter, scene, {})
            with language.active("es", strict=False):  # words aside: the numbers
                spanish = spoken_values(chapter, scene, {})
            assert spanish.keys() == english.keys()
            for key, said in english.items():
                if any(c.isdigit() for c in said) and not any(c.isalpha() for c in said):
                    figure = said.replace(",", "").rstrip("%×")
                    assert float(parse_decimal(spanish[key].rstrip("%×\xa0"), locale="es")) \
                        == float(figure), (scene.__name__, key)


@pytest.mark.parametrize(("written", "said"), [
    ("0,74", "cero coma setenta y cuatro"),
    ("56 %", "cincuenta y seis por ciento"),
    ("el 0,05 de 21.000", "el cero coma cero cinco de veintiún mil"),
    ("1,5×", "uno coma cinco veces"),
    ("2,87×10⁵⁶", "dos coma ochenta y siete por diez elevado a cincuenta y seis"),
    ("32/60", "treinta y dos de sesenta"),
    ("100 y 115", "cien y ciento quince"),
    ("1.000.000", "un millón"),
])
def test_a_spanish_voice_hears_numbers_in_spanish_words(written, said):
    assert speakable(written, language="es") == said
    assert not any(c.isdigit() for c in speakable(written, language="es"))


def test_each_written_spanish_word_maps_to_the_spoken_words_that_say_it():
    text = "los pesos suman 0,74 hoy"
    ranges = spans(text, language="es")
    spoken = speakable(text, language="es").split()
    assert [" ".join(spoken[a:b]) for a, b in ranges] == [
        "los", "pesos", "suman", "cero coma setenta y cuatro", "hoy"]


# ----------------------------------------------------------------- voices


def test_each_language_has_its_voice():
    assert isinstance(default_voice("en"), Piper)
    assert default_voice("es") == Espeak(name="es")
    assert voice_named("espeak", "es") == Espeak(name="es")
    assert voice_named("espeak", "pt_BR").name == "pt-br"
    with pytest.raises(NarrationError, match="speaks en_US, not es"):
        voice_named("piper", "es")
    with pytest.raises(NarrationError, match="espeak-ng has no voice for the language 'xx'"):
        voice_named("espeak", "xx")


def test_a_piper_voice_given_by_path_speaks_and_times_its_words(tmp_path):
    from production.narration.speech import wav_seconds

    voice = voice_named(f"piper:{joe_model()}", "en")
    assert isinstance(voice, Piper) and voice.model == joe_model()
    with pytest.raises(NarrationError, match="speaks en_US, not es"):
        voice_named(f"piper:{joe_model()}", "es")
    text = "Every word asks a question."
    words = voice.speak(text, tmp_path / "said.wav")
    seconds = wav_seconds(tmp_path / "said.wav")
    assert [w.text for w in words] == text.split()
    assert all(a.start < b.start for a, b in zip(words, words[1:]))
    assert 0 <= words[0].start and words[-1].end <= seconds + 1e-6 and seconds > 1.0


def test_the_chapters_without_a_catalogue_stay_importable():
    for module in ("scenes.attention.chapter", "scenes.decoder.chapter"):
        assert importlib.import_module(module).CHAPTER.language == "en"


# ----------------------------------------------------------------- the command


@pytest.mark.parametrize(("argv", "said"), [
    (["render", "--language", "../es", "--dry-run"], "--language '../es': not a language code"),
    (["render", "--language", "fr", "--dry-run"], "chapter attention has no fr translation"),
    (["render", "--language", "es", "--draft-language", "--voice", "piper", "--dry-run"],
     "--voice piper: the voice speaks en_US, not es"),
    (["render", "--draft-language", "--dry-run"], "--draft-language: English is the source"),
    (["translate", "--chapter", "attention", "--language", "en"], "English is the chapters'"),
    (["translate", "--chapter", "attention", "--language", "qq"], "not a language Babel knows"),
])
def test_a_bad_language_is_one_line_and_exit_status_2(run_command, argv, said):
    ran = run_command(*argv)
    assert ran.code == 2 and ran.out == ""
    *notes, line = ran.err.splitlines()
    assert line.startswith("render.py: error: ") and said in line
    assert all(note.startswith("render.py: a draft in es: ") for note in notes)
