"""`render.py course`: every chapter in course order into DIR/NAME/ bundles, then
DIR/course.json and an offline DIR/index.html that plays them with captions.

Two chapters started with `render.py new` in a copy of the project stand in for the
real ones (a few seconds each to render); the end card naming the next chapter is
tested on the attention chapter's own end card (tests/test_scene_end_card.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import av
import pytest

from production.paths import ROOT
from tests import browser as chromium
from tests.browser import outside, requested, wait_for


def command(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", *args], cwd=project,
                          capture_output=True, text=True, timeout=900,
                          env={**os.environ, "EXPLAINER_CACHE": str(project / ".cache")})


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with two new chapters, its course rendered at preview quality."""
    project = tmp_path_factory.mktemp("course") / "project"
    for part in ("core", "scenes", "production", "assets"):
        shutil.copytree(ROOT / part, project / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "render.py", project / "render.py")
    (project / "tests").mkdir()
    for chapter in ("attention", "decoder"):
        shutil.rmtree(project / "scenes" / chapter)
    (project / "scenes" / "course.txt").unlink()
    for name, title in (("second_steps", "Second & <last> steps"), ("first_steps", "First steps")):
        assert command(project, "new", name, "--title", title).returncode == 0
    # the course plays them in the order they were made, not by name
    listed = project / "scenes" / "course.txt"
    assert listed.read_text() == "second_steps\nfirst_steps\n"
    listed.write_text("# the course's title, then its chapters\ntitle: Steps & <more> steps\n\n"
                      + listed.read_text())
    dry = command(project, "course", "--quality", "preview", "--out", "course", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert "would write" in dry.stdout.splitlines()[-1]
    assert not (project / "course").exists()
    made = command(project, "course", "--quality", "preview", "--out", "course")
    assert made.returncode == 0, made.stderr[-2000:]
    assert re.fullmatch(r"course: 2 chapters, 0:\d\d in all -> .*index\.html",
                        made.stdout.splitlines()[-1])
    return project / "course"


def test_course_json_lists_every_chapter_in_order_with_its_files(course: Path):
    written = json.loads((course / "course.json").read_text())
    assert written["title"] == "Steps & <more> steps"  # the course file's title line
    listed = written["chapters"]
    assert [c["name"] for c in listed] == ["second_steps", "first_steps"]
    assert listed[0]["title"] == "Second & <last> steps"
    for c in listed:
        assert set(c) == {"name", "title", "duration", "video", "captions", "thumbnail"}
        with av.open(str(course / c["video"])) as video:
            assert c["duration"] == pytest.approx(video.duration / av.time_base, abs=0.1)
        assert (course / c["captions"]).read_text().startswith("WEBVTT")
        assert (course / c["thumbnail"]).stat().st_size > 1000
        manifest = json.loads((course / c["name"] / "manifest.json").read_text())
        assert manifest["chapter"] == c["name"]


def test_the_page_names_no_network_address_and_escapes_titles(course: Path):
    text = (course / "index.html").read_text(encoding="utf-8")
    assert "://" not in text and "http" not in text
    assert "Second &amp; &lt;last&gt; steps" in text and "<last>" not in text
    assert "<h1>Steps &amp; &lt;more&gt; steps</h1>" in text


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
        assert src == (course / "first_steps" / "chapter.mp4").as_uri()
        titles = driver.execute_script(
            "return Array.from(document.querySelectorAll('h2')).map(h => h.textContent)")
        assert titles == ["1. Second & <last> steps", "2. First steps"]
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
        out = command(project, "course", "--quality", "preview", "--out", "elsewhere")
    finally:
        listed.write_text(before)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("'nosuch' is not a chapter; chapters: first_steps, "
                                       "second_steps")
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (project / "elsewhere").exists()
