"""The attention chapter's demo rendered at the test quality and worked in headless
Chromium (system tier): from the keyboard and the mouse, as a reader would.

What the page shows is checked against core/ (:func:`core.spotlight.trace`, worked here
to whole percent), never against the page's own data; the lesson's figures (seed 001)
are written out: 3, 56, 2, 38 % at sharpness 4 with "ate" asking, 91 % on "cat" when
words may only look back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from core import spotlight
from production.paths import ROOT
from tests import browser as chromium
from tests.browser import outside, requested, wait_for
from tests.conftest import TEST_QUALITY, keep_speech, seed_speech

pytestmark = pytest.mark.system

WORDS = ("the", "cat", "ate", "fish")
SCREENSHOTS = Path("/tmp/demo-screenshots")


def cores(asker: str, sharpness: float, lookback: bool = False) -> list[str]:
    """The bars' values as core's shares give them: whole percent, or "hidden"."""
    t = spotlight.trace(asker, sharpness, lookback)
    return [f"{round(100 * s)}%" if seen else "hidden" for s, seen in zip(t.shares, t.visible)]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`render.py demo` of the attention chapter at the test quality, once."""
    root = tmp_path_factory.mktemp("attention-demo")
    cache = seed_speech(root / "cache")
    made = subprocess.run(
        [sys.executable, "render.py", "demo", "--quality", TEST_QUALITY, "--out",
         str(root / "demo")], cwd=ROOT, capture_output=True, text=True, timeout=1200,
        env={**os.environ, "EXPLAINER_CACHE": str(cache)})
    keep_speech(cache)
    assert made.returncode == 0, made.stderr[-3000:]
    assert made.stdout.splitlines()[-1].startswith("demo: 568 settings, 7 narrated moments;")
    return root / "demo"


@pytest.fixture(scope="module")
def page(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    driver = chromium.driver(tmp_path_factory.mktemp("profile"), "no-user-gesture-required")
    try:
        driver.get_log("performance")  # Debian's Chromium opens on its own new-tab page
        driver.get((demo / "index.html").as_uri())
        wait_for(lambda: driver.execute_script("return window.demo !== undefined"),
                 "the page's script")
        yield driver
    finally:
        driver.quit()


def values(driver: webdriver.Chrome) -> list[str]:
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#bars .value")]


def slider(driver: webdriver.Chrome):
    return driver.find_element(By.ID, "c-sharpness")


def set_sharpness(driver: webdriver.Chrome, tenths: int) -> None:
    """The slider to ``tenths`` / 10, from the keyboard: Home (1.0), then arrows."""
    s = slider(driver)
    s.send_keys(Keys.HOME)
    for _ in range(tenths - 10):
        s.send_keys(Keys.ARROW_RIGHT)


def ask(driver: webdriver.Chrome, word: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f"input[name=asker][value='{WORDS.index(word)}']"
                        ).click()


def look_back(driver: webdriver.Chrome, on: bool) -> None:
    box = driver.find_element(By.ID, "c-lookback")
    if box.is_selected() != on:
        box.send_keys(Keys.SPACE)  # from the keyboard


def shot(driver: webdriver.Chrome, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def test_it_opens_on_the_hand_trace(page: webdriver.Chrome):
    assert values(page) == ["3%", "56%", "2%", "38%"] == cores("ate", 4.0)
    assert page.find_element(By.ID, "o-sharpness").text == "4.0"
    assert "the 3%, cat 56%, ate 2%, fish 38%" in page.find_element(By.ID, "said"
                                                                    ).get_attribute("textContent")
    # the asking word's row of what "Run it" prints reads as the trace
    printed = page.find_element(By.ID, "printed").text.splitlines()
    assert printed[3].split() == ["ate", "0.03", "0.56", "0.02", "0.38"]
    # before anything plays, the clip of this setting waits, its poster its last frame
    assert page.execute_script("return window.demo.video().poster").endswith(
        "/clips/sharpness-4.png")
    with Image.open(shot(page, "1-sharpness-4")) as picture:
        assert picture.size[0] >= 1000


def test_the_slider_at_one_and_at_eight_shows_cores_shares(page: webdriver.Chrome):
    look_back(page, False)
    ask(page, "ate")
    set_sharpness(page, 10)
    assert values(page) == cores("ate", 1.0)
    assert slider(page).get_attribute("aria-valuetext") == "1.0"
    assert page.find_element(By.ID, "o-sharpness").text == "1.0"
    shot(page, "2-sharpness-1")
    slider(page).send_keys(Keys.END)
    assert values(page) == cores("ate", 8.0)
    assert slider(page).get_attribute("aria-valuetext") == "8.0"
    for tenths in (23, 57):  # and any stop between
        set_sharpness(page, tenths)
        assert values(page) == cores("ate", tenths / 10)


def test_each_asking_word_shows_its_own_row(page: webdriver.Chrome):
    look_back(page, False)
    set_sharpness(page, 40)
    rows = {}
    for word in WORDS:
        ask(page, word)
        rows[word] = values(page)
        assert rows[word] == cores(word, 4.0), word
    assert len({tuple(r) for r in rows.values()}) == 4
    radio = page.find_element(By.CSS_SELECTOR, "input[name=asker][value='3']")
    radio.send_keys(Keys.ARROW_LEFT)  # the keyboard moves the choice to "ate"
    assert values(page) == cores("ate", 4.0)


def test_looking_back_gives_cat_91_percent_and_the_keeps_everything(page: webdriver.Chrome):
    set_sharpness(page, 40)
    ask(page, "ate")
    look_back(page, True)
    assert values(page) == cores("ate", 4.0, True) == ["6%", "91%", "4%", "hidden"]
    shot(page, "3-look-back")
    ask(page, "the")
    assert values(page) == ["100%", "hidden", "hidden", "hidden"]
    look_back(page, False)


def test_a_moment_plays_when_the_controls_reach_it_and_pauses_when_they_leave(
        page: webdriver.Chrome, demo: Path):
    look_back(page, False)
    ask(page, "ate")
    set_sharpness(page, 40)
    set_sharpness(page, 10)  # Home: the lesson's sharpness 1.0
    wait_for(lambda: page.execute_script("return window.demo.playing()") ==
             {"moment": "sharpness-1", "playing": True}, "the sharpness 1 clip to play")
    video = page.execute_script("return window.demo.video().currentSrc")
    assert video == (demo / "clips" / "sharpness-1.mp4").as_uri()
    shown = wait_for(lambda: page.execute_script(
        "var t = window.demo.video().textTracks; var cues = t[t.length - 1].activeCues;"
        "return cues && cues.length ? cues[0].text : null"), "a caption to show", 15)
    assert shown.strip()
    # the clip says the figures the bars show at this setting
    made = json.loads((demo / "demo.json").read_text(encoding="utf-8"))
    moment = next(m for m in made["moments"] if m["name"] == "sharpness-1")
    said = " ".join(text for _, _, text in moment["captions"])
    figures = [v.rstrip("%") for v in values(page)]
    assert f"{', '.join(figures[:3])} and {figures[3]} percent" in said
    slider(page).send_keys(Keys.ARROW_RIGHT)  # 1.1: no moment there
    wait_for(lambda: page.execute_script("return window.demo.video().paused"),
             "the clip to pause when the setting leaves its moment")
    # a moment's button takes the controls there, and its clip plays
    page.find_element(By.CSS_SELECTOR, "button[data-moment='5']").click()
    wait_for(lambda: page.execute_script("return window.demo.playing()") ==
             {"moment": "look-back", "playing": True}, "the look-back clip to play")
    assert page.find_element(By.ID, "c-lookback").is_selected()
    assert values(page)[1] == "91%"
    look_back(page, False)


def test_every_clip_says_what_its_setting_shows(demo: Path):
    made = json.loads((demo / "demo.json").read_text(encoding="utf-8"))
    for m in made["moments"]:
        said = " ".join(text for _, _, text in m["captions"])
        figures = made["states"][m["when"]]["figures"]
        if m["scene"] == "SpotlightBudget":
            assert (f"{figures[0]}, {figures[1]}, {figures[2]} and {figures[3]} percent"
                    in said), m["name"]
        elif m["name"] == "look-back":
            assert f"{max(figures)} percent" in said


def test_the_page_loads_only_its_own_files_and_logs_no_error(page: webdriver.Chrome,
                                                             demo: Path):
    urls = requested(page.get_log("performance"))
    assert (demo / "index.html").as_uri() in urls
    assert outside(urls, demo) == []
    assert [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
