"""The Spanish edition of both chapters: every scene built in process at every beat in
all three frames with the layout checks (translated text is longer), its on-screen
numbers the English ones written for es, and its catalogue complete. A whole chapter's
worth of builds: the system tier."""

from __future__ import annotations

import re

import pytest
from babel.numbers import parse_decimal

from production import language
from production.chapters import load
from production.translation import catalogue, messages
from scenes.attention.chapter import CHAPTER as ATTENTION
from scenes.decoder.chapter import CHAPTER as DECODER

FRAMES = ("wide", "tall", "square")
SCENES = [(chapter.name, scene.__name__) for chapter in (ATTENTION, DECODER)
          for scene in chapter.scenes]


@pytest.mark.parametrize("name", [c.name for c in (ATTENTION, DECODER)])
def test_the_spanish_catalogue_translates_all_of_the_current_english(name):
    chapter = load(f"scenes.{name}.chapter")
    found = messages.load(chapter, "es")
    assert found.gaps == []
    counts = catalogue.counts(catalogue.read(catalogue.path_of(chapter, "es")))
    assert counts.missing == 0 and counts.fuzzy == 0 and counts.translated > 50


@pytest.mark.system
@pytest.mark.parametrize("frame", FRAMES)
@pytest.mark.parametrize(("chapter", "name"), SCENES, ids=[n for _, n in SCENES])
def test_every_spanish_beat_fits_every_frame(build_scene, chapter, name, frame):
    scene = build_scene(name, layout=frame, chapter=chapter, language="es")
    assert scene.layout_problems == []
    assert scene.timing_problems == []
    assert [b.name for b in scene.beat_log] == list(scene.beat_seconds)


def figures(shown: dict[str, list[str]]) -> list[str]:
    """Every number a scene showed, in order of its beats (markup taken out)."""
    return [w.strip("[](),;:") for texts in shown.values() for t in texts
            for w in re.sub(r"<[^>]+>", " ", t).replace("\xa0%", "%").split()
            if any(c.isdigit() for c in w)]


#: a plain number as each locale writes it (not a version "0.22.0", not a label "q1")
NUMBER = {"en": re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?"),
          "es": re.compile(r"-?\d{1,3}(?:\.\d{3})+(?:,\d+)?|-?\d+(?:,\d+)?")}


def value(written: str, locale: str) -> float | None:
    plain = written.rstrip("%×")
    if not NUMBER[locale].fullmatch(plain):
        return None
    return float(parse_decimal(plain, locale=locale))


@pytest.mark.system
@pytest.mark.parametrize(("chapter", "name"), SCENES, ids=[n for _, n in SCENES])
def test_the_spanish_numbers_on_screen_are_the_ledger_s(build_scene, chapter, name):
    english = figures(build_scene(name, chapter=chapter).shown)
    spanish = figures(build_scene(name, chapter=chapter, language="es").shown)
    assert language.code() == "en"
    english_values = sorted(v for w in english if (v := value(w, "en")) is not None)
    spanish_values = sorted(v for w in spanish if (v := value(w, "es")) is not None)
    assert spanish_values == english_values
    assert not any(re.fullmatch(r"\d+\.\d+", w) for w in spanish)  # no English decimals


@pytest.mark.system
def test_a_spanish_scene_renders_with_captions_that_say_its_narration(tmp_path):
    """SpotlightBudget rendered in Spanish at the test quality: its captions are the
    catalogue's passages with the ledger's numbers written for es, in order."""
    import subprocess
    import sys

    from production.narration.script import script_for
    from production.paths import ROOT
    from tests.conftest import TEST_QUALITY

    done = subprocess.run(
        [sys.executable, "render.py", "render", "SpotlightBudget", "--language", "es",
         "--quality", TEST_QUALITY, "--out", str(tmp_path / "out")],
        cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    spanish = load("scenes.attention.chapter").in_language("es")
    try:
        passages = script_for(spanish, spanish.scene("SpotlightBudget"), {})
    finally:
        language.use(language.SOURCE)
    srt = (tmp_path / "out" / "scenes" / "SpotlightBudget.srt").read_text(encoding="utf-8")
    shown = " ".join(" ".join(block.splitlines()[2:]) for block in srt.strip().split("\n\n"))
    assert shown.split() == " ".join(passages.values()).split()
    assert re.search(r"\d+,\d+|\d\xa0%", shown)  # its numbers written the Spanish way


@pytest.mark.parametrize("name", [c.name for c in (ATTENTION, DECODER)])
def test_every_spanish_scene_title_fits_the_chapter_list(name):
    """As the English ones do (tests/test_scenes.py): at most 49 characters."""
    chapter = load(f"scenes.{name}.chapter")
    on_screen = messages.load(chapter, "es").on_screen
    for scene in chapter.scenes:
        assert 0 < len(on_screen[scene.title]) <= 49, on_screen[scene.title]


def test_a_title_too_long_for_the_chapter_list_is_cut_at_a_word():
    from production.outputs.bundle import MAX_TITLE, shortened

    title = "Un solo vector que desplegar: el cuello de botella"
    assert len(title) > MAX_TITLE
    cut = shortened(title)
    assert cut == "Un solo vector que desplegar: el cuello de…" and len(cut) <= MAX_TITLE
    assert shortened("Lo aprendido") == "Lo aprendido"


def test_every_label_core_gives_is_one_a_translation_can_show():
    """The words core/ names its features, classes and units with are all in
    scenes/core_words.py, and each has a Spanish translation."""
    from core import grid, potion, spotlight
    from scenes.core_words import LABELS

    given = {*spotlight.FEATURES, *grid.FEATURES, *(w.tag for w in grid.VOCABULARY.values()),
             *potion.QUERY_FEATURES, *potion.HIDDEN_UNITS}
    assert given == LABELS
    on_screen = messages.load(ATTENTION, "es").on_screen
    assert all(on_screen.get(label) for label in LABELS)
    with language.active("es", on_screen):
        from scenes.core_words import shown, spotlight_features, told

        assert spotlight_features() == (on_screen["thing"], on_screen["action"])
        assert told("cat") == "cat"  # a word of the sentence stays as it is
        assert shown({"tags": ["animal"], "hidden": {"drowsy": 0.5}, "words": ["the"],
                      "after": {"tags": ["pronoun"]}}) == {
            "tags": [on_screen["animal"]], "hidden": {on_screen["drowsy"]: 0.5},
            "words": ["the"], "after": {"tags": [on_screen["pronoun"]]}}
