"""`render.py course`: every chapter in course order into DIR/NAME/ bundles, then
DIR/course.json and an offline DIR/index.html that plays them with captions.

A copy of the project whose chapters are the fixture chapter and one started with
`render.py new` stands in for the real ones (seconds to render at the test quality, and
cached in the session's cache); the end card naming the next chapter is tested on the
attention chapter's own end card (tests/test_scene_end_card.py). The page playing in
Chromium is the system tier's.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import av
import pytest

from tests import browser as chromium
from tests.browser import outside, requested, wait_for
from tests.conftest import TEST_QUALITY, render_in

#: the chapter `render.py new` starts beside the fixture chapter: its name comes before
#: "fixture" by name, after it in the course (the order they were made)
NEW, NEW_TITLE = "after_all", "After & <all> that"


def command(project: Path, *args: str) -> subprocess.CompletedProcess:
    return render_in(project, *args, timeout=900)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory, fixture_project: Path) -> Path:
    """A project with the fixture chapter and a new one, its course rendered at the test
    quality."""
    project = tmp_path_factory.mktemp("course") / "project"
    shutil.copytree(fixture_project, project, ignore=shutil.ignore_patterns("__pycache__"))
    (project / "tests").mkdir(exist_ok=True)
    assert command(project, "new", NEW, "--title", NEW_TITLE).returncode == 0
    # the course plays them in the order they were made, not by name
    listed = project / "scenes" / "course.txt"
    chapters = [line for line in listed.read_text().splitlines()
                if not line.startswith("title:")]
    assert chapters == ["fixture", NEW]
    listed.write_text("# the course's title, then its chapters\ntitle: Steps & <more> steps\n\n"
                      + "\n".join(chapters) + "\n")
    made = command(project, "course", "--quality", TEST_QUALITY, "--out", "course")
    assert made.returncode == 0, made.stderr[-2000:]
    assert re.fullmatch(r"course: 2 chapters, 0:\d\d in all -> .*index\.html",
                        made.stdout.splitlines()[-1])
    return project / "course"


def test_a_dry_run_says_what_it_would_write_and_writes_nothing(course: Path):
    project = course.parent
    dry = command(project, "course", "--quality", TEST_QUALITY, "--out", "dry", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would write" in dry.stdout.splitlines()[-1]
    assert not (project / "dry").exists()


def test_course_json_lists_every_chapter_in_order_with_its_files(course: Path):
    written = json.loads((course / "course.json").read_text())
    assert written["title"] == "Steps & <more> steps"  # the course file's title line
    listed = written["chapters"]
    assert [c["name"] for c in listed] == ["fixture", NEW]
    assert [c["title"] for c in listed] == ["Scores become weights", NEW_TITLE]
    for c in listed:
        assert set(c) == {"name", "title", "duration", "video", "captions", "thumbnail",
                          *(["demo", "demo_link"] if c["name"] == "fixture" else [])}
        with av.open(str(course / c["video"])) as video:
            assert c["duration"] == pytest.approx(video.duration / av.time_base, abs=0.1)
        assert (course / c["captions"]).read_text().startswith("WEBVTT")
        assert (course / c["thumbnail"]).stat().st_size > 1000
        manifest = json.loads((course / c["name"] / "manifest.json").read_text())
        assert manifest["chapter"] == c["name"]


def test_a_chapter_with_a_demo_has_it_beside_its_bundle_linked_both_ways(course: Path):
    listed = json.loads((course / "course.json").read_text())["chapters"]
    assert listed[0]["demo"] == "fixture/demo/index.html" and "demo" not in listed[1]
    demo = course / "fixture" / "demo"
    assert sorted(p.name for p in (demo / "clips").iterdir()) == [
        "gentle.mp4", "gentle.png", "gentle.vtt", "sharper.mp4", "sharper.png", "sharper.vtt"]
    assert json.loads((demo / "demo.json").read_text())["title"] == "Try the weights"
    page = (course / "index.html").read_text(encoding="utf-8")
    assert page.count('<p class="demo"><a href="fixture/demo/index.html">Try the weights</a>') == 1
    back = (demo / "index.html").read_text(encoding="utf-8")
    assert '<p class="back"><a href="../../index.html">' in back


def test_the_page_names_no_network_address_and_escapes_titles(course: Path):
    text = (course / "index.html").read_text(encoding="utf-8")
    assert "://" not in text and "http" not in text
    assert "After &amp; &lt;all&gt; that" in text and "<all>" not in text
    assert "<h1>Steps &amp; &lt;more&gt; steps</h1>" in text


@pytest.mark.system
def test_the_page_plays_a_chapter_with_captions_loading_only_its_own_files(course: Path,
                                                                         tmp_path: Path):
    driver = chromium.driver(tmp_path / "profile", "no-user-gesture-required")
    try:
        driver.get_log("performance")  # Debian's Chromium opens on its own new-tab page
        driver.get((course / "index.html").as_uri())
        wait_for(lambda: driver.execute_script("return window.course !== undefined"),
                 "the page's script")
        # the second chapter's entry, 5 s in: it plays there with a caption showing
        driver.execute_script("window.course.play(1, 5)")
        wait_for(lambda: driver.execute_script(
            "var v = window.course.current(); return !v.paused && v.currentTime > 5.2"),
            "the second chapter to play from 5 s")
        shown = wait_for(lambda: driver.execute_script(
            "var t = window.course.current().textTracks;"
            "var cues = t[t.length - 1].activeCues;"
            "return cues && cues.length ? cues[0].text : null"), "a caption to show")
        assert shown.strip()
        src = driver.execute_script("return window.course.current().currentSrc")
        assert src == (course / NEW / "chapter.mp4").as_uri()
        titles = driver.execute_script(
            "return Array.from(document.querySelectorAll('h2')).map(h => h.textContent)")
        assert titles == ["1. Scores become weights", f"2. {NEW_TITLE}"]
        urls = requested(driver.get_log("performance"))
        assert (course / "index.html").as_uri() in urls
        assert outside(urls, course) == []
        severe = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
    finally:
        driver.quit()


def test_a_course_file_naming_no_chapter_is_one_line(course: Path):
    project = course.parent
    listed = project / "scenes" / "course.txt"
    before = listed.read_text()
    listed.write_text(before + "nosuch\n")
    try:
        out = command(project, "course", "--quality", TEST_QUALITY, "--out", "elsewhere")
    finally:
        listed.write_text(before)
    assert out.returncode == 2
    assert out.stderr.strip().endswith(f"'nosuch' is not a chapter; chapters: {NEW}, fixture")
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (project / "elsewhere").exists()


def test_a_later_chapter_without_narration_is_one_line_before_anything_is_drawn(course: Path):
    """The course drew every chapter before it found that a later one's narration was
    missing; now every chapter is checked first."""
    project = course.parent
    narration = project / "scenes" / NEW / "narration" / "FirstLook.txt"
    kept = narration.read_bytes()
    narration.unlink()
    try:
        for extra in ([], ["--dry-run"]):
            out = command(project, "course", "--quality", TEST_QUALITY, "--out", "elsewhere",
                          *extra)
            assert out.returncode == 2, out.stderr
            lines = out.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith(f"render.py: error: course: "
                                                           f"chapter {NEW}: "), lines
            assert "FirstLook" in lines[0]
            assert not (project / "elsewhere").exists()  # the fixture chapter not drawn
    finally:
        narration.write_bytes(kept)


def test_a_course_file_in_another_encoding_is_one_line(course: Path):
    project = course.parent
    listed = project / "scenes" / "course.txt"
    before = listed.read_bytes()
    listed.write_bytes("title: Décodeur\nfixture\n".encode("latin-1"))
    try:
        out = command(project, "course", "--quality", TEST_QUALITY, "--out", "elsewhere")
    finally:
        listed.write_bytes(before)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("course.txt: not UTF-8 text (byte 8); save it as UTF-8")
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_course_file_naming_a_chapter_twice_is_one_line(course: Path):
    project = course.parent
    listed = project / "scenes" / "course.txt"
    before = listed.read_text()
    listed.write_text(before + "fixture\n")
    try:
        out = command(project, "course", "--quality", TEST_QUALITY, "--out", "elsewhere")
    finally:
        listed.write_text(before)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("course.txt: 'fixture' is listed twice; a course "
                                       "plays each chapter once")
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (project / "elsewhere").exists()


def test_a_course_in_spanish_sits_beside_the_english_one_and_each_page_offers_both(
        course: Path):
    """`course --language es --draft-language`: the fixture chapter in Spanish (its
    catalogue), the new chapter, which has none, in English; the Spanish course in
    course/es/, each page linking the other."""
    made = command(course.parent, "course", "--quality", TEST_QUALITY, "--out", "course",
                   "--language", "es", "--draft-language")
    assert made.returncode == 0, made.stderr[-2000:]
    assert "a draft in es" in made.stderr
    spanish = json.loads((course / "es" / "course.json").read_text())
    assert spanish["language"] == "es"
    assert [c["title"] for c in spanish["chapters"]] == ["Las puntuaciones se vuelven pesos",
                                                         NEW_TITLE]
    assert json.loads((course / "es" / "fixture" / "manifest.json").read_text())[
        "language"] == "es"
    page = (course / "es" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in page
    assert ('<a href="../index.html" hreflang="en" lang="en">English</a>' in page
            and 'hreflang="es" lang="es" aria-current="page">español</a>' in page)
    english = (course / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in english
    assert '<a href="es/index.html" hreflang="es" lang="es">español</a>' in english
    assert 'hreflang="en" lang="en" aria-current="page">English</a>' in english
    assert json.loads(page.split('id="course-data">')[1].split("</script>")[0])[
        "language"] == "es"
    # the fixture chapter's demo in Spanish, beside its Spanish bundle, linked in Spanish
    assert '<p class="demo"><a href="fixture/demo/index.html">Prueba los pesos</a>' in page
    demo = json.loads((course / "es" / "fixture" / "demo" / "demo.json").read_text())
    assert (demo["language"], demo["title"]) == ("es", "Prueba los pesos")
    assert [m["title"] for m in demo["moments"]] == ["Con nitidez 1", "Con nitidez 2"]
    said = " ".join(text for m in demo["moments"] for _, _, text in m["captions"])
    assert "pesos" in said and "weights" not in said
    shown = (course / "es" / "fixture" / "demo" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in shown and "Escúchalo explicado" in shown


def test_a_chapters_manifest_is_read_through_its_schema(tmp_path):
    """The course reads each chapter's manifest back: a byte-order mark is forgiven, a
    field of the wrong kind is one line naming the file and the field."""
    from production.errors import UsageError
    from production.outputs.course import entry
    from tests.fixture.chapter import CHAPTER

    folder = tmp_path / CHAPTER.name
    folder.mkdir()
    manifest = folder / "manifest.json"
    manifest.write_bytes(b"\xef\xbb\xbf" + json.dumps({"title": "Scores", "duration": 12.5})
                         .encode())
    assert entry(CHAPTER, tmp_path)["title"] == "Scores"
    manifest.write_text(json.dumps({"title": ["not", "text"], "duration": 12.5}))
    with pytest.raises(UsageError) as refused:
        entry(CHAPTER, tmp_path)
    assert str(manifest) in str(refused.value) and "title" in str(refused.value)
    assert "\n" not in str(refused.value)
