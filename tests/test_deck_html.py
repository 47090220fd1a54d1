"""deck.html in a real browser: headless Chromium, driven through selenium.

Two short clips (a test pattern with a 440 Hz tone) and their posters are made
here with ffmpeg; the deck is opened from disk (file://), as a presenter would.
What the page's text holds is checked in the default tier; everything that opens
Chromium is the system tier's. Without Chromium those tests fail, never skip:
`bash scripts/setup.sh test` installs it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from production.outputs.deck_html import Slide, render, write_deck
from tests import browser as chromium
from tests.browser import outside, requested, wait_for

CLIP_SECONDS = 6.0
SCREENSHOT_COPY = Path("/tmp/deck_screenshot.png")

# Text that must come through the JSON block and the WebVTT cue parser exactly as written.
TRICKY_NOTES = 'Q·K < 1 & "softmax" </script><script>window.pwned = 1</script> — done'
TRICKY_CUE = "Scores < 1 & weights > 0 <b>not bold</b>"


def _ffmpeg(*args: str) -> None:
    if shutil.which("ffmpeg") is None:
        pytest.fail("ffmpeg is missing: run bash scripts/setup.sh", pytrace=False)
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


def _make_clip(folder: Path, name: str, frequency: int) -> tuple[str, str]:
    """An H.264/AAC clip of CLIP_SECONDS seconds and a PNG poster; their file names."""
    video, poster = f"{name}.mp4", f"{name}.png"
    _ffmpeg("-f", "lavfi", "-i", "testsrc=size=320x240:rate=15",
            "-f", "lavfi", "-i", f"sine=frequency={frequency}:sample_rate=48000",
            "-t", str(CLIP_SECONDS), "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-c:a", "aac", "-shortest", "-movflags", "+faststart", str(folder / video))
    _ffmpeg("-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1", str(folder / poster))
    return video, poster


SLIDE_CUES = [
    [(0.0, 3.0, "Two jobs for one vector."), (3.0, CLIP_SECONDS, TRICKY_CUE)],
    [(0.0, CLIP_SECONDS, "The spotlight picks a row.")],
]


@pytest.fixture(scope="module")
def deck_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("deck")
    slides = []
    for i, (name, title, notes) in enumerate([
        ("TwoJobs", "Two jobs <one vector>", TRICKY_NOTES),
        ("Spotlight", "The spotlight", "The spotlight moves to the best match."),
    ]):
        video, poster = _make_clip(folder, name, 440 + 220 * i)
        slides.append(Slide(name, title, video, poster, SLIDE_CUES[i], notes, CLIP_SECONDS))
    return write_deck(slides, folder / "deck.html", title="Attention & friends")


def _playing(driver: webdriver.Chrome, index: int) -> bool:
    return driver.execute_script(
        "var v = document.querySelectorAll('#stage video')[arguments[0]];"
        "return !v.paused && v.currentTime > 0;", index)


@pytest.fixture(scope="module")
def browser(deck_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """The deck open in Chromium, with the logs gathered while it loaded and began playing."""
    driver = chromium.driver(tmp_path_factory.mktemp("profile"), "no-user-gesture-required")
    try:
        # Debian's Chromium opens on its own new-tab page: drop what that loaded.
        driver.get_log("performance")
        driver.get(deck_file.as_uri())
        wait_for(lambda: _playing(driver, 0), "the first clip to play")
        yield {
            "driver": driver,
            "performance": driver.get_log("performance"),
            "console": driver.get_log("browser"),
        }
    finally:
        driver.quit()


def _press(driver: webdriver.Chrome, key: str) -> None:
    ActionChains(driver).send_keys(key).perform()


def test_the_html_names_no_outside_url_and_escapes_its_text(deck_file: Path) -> None:
    text = deck_file.read_text(encoding="utf-8")
    assert "://" not in text and "http" not in text
    assert "</script><script>" not in text  # the notes cannot close the JSON block
    assert "Two jobs &lt;one vector&gt;" in text
    assert "<title>Attention &amp; friends</title>" in text
    with pytest.raises(ValueError):
        render([Slide("A", "A", "https://example.invalid/a.mp4", "a.png", [], "", 1.0)], "x")
    with pytest.raises(ValueError):
        render([], "x")


@pytest.mark.system
def test_loads_nothing_but_local_files(browser: dict, deck_file: Path) -> None:
    """Everything the deck asks for is a file in its own folder (or inline data): no
    http(s), ws(s), ftp, or protocol-relative URL, which from a file:// page becomes
    file://HOST/... and so lies outside the folder too."""
    urls = requested(browser["performance"])
    assert deck_file.as_uri() in urls, urls
    assert outside(urls, deck_file.parent) == [], "the deck reached outside its folder"
    severe = [e for e in browser["console"] if e["level"] == "SEVERE"]
    assert severe == [], severe


@pytest.mark.system
def test_first_clip_plays_with_captions_showing(browser: dict) -> None:
    driver = browser["driver"]
    assert driver.execute_script("return deck.count()") == 2
    assert driver.execute_script("return deck.index()") == 0
    assert _playing(driver, 0)
    tracks = driver.execute_script("""
        var v = deck.current();
        return Array.prototype.map.call(v.textTracks, function (t) {
          return {kind: t.kind, lang: t.language, mode: t.mode,
                  cues: Array.prototype.map.call(t.cues, function (c) {
                    return [c.startTime, c.endTime, c.getCueAsHTML().textContent];
                  })};
        });""")
    assert len(tracks) == 1
    track = tracks[0]
    assert (track["kind"], track["lang"], track["mode"]) == ("captions", "en", "showing")
    assert [tuple(c) for c in track["cues"]] == SLIDE_CUES[0]


@pytest.mark.system
def test_right_arrow_moves_on_and_plays_the_next_clip(browser: dict) -> None:
    driver = browser["driver"]
    driver.execute_script("deck.go(0)")
    wait_for(lambda: _playing(driver, 0), "the first clip to play")
    _press(driver, Keys.ARROW_RIGHT)
    wait_for(lambda: driver.execute_script("return deck.index()") == 1, "slide 2")
    wait_for(lambda: _playing(driver, 1), "the second clip to play")
    assert driver.execute_script("return document.querySelectorAll('#stage video')[0].paused")
    assert driver.find_element("id", "counter").text == "2 / 2"
    assert driver.find_element("id", "title").text == "The spotlight"
    _press(driver, Keys.ARROW_LEFT)
    wait_for(lambda: driver.execute_script("return deck.index()") == 0, "slide 1 again")
    wait_for(lambda: _playing(driver, 0), "the first clip to play again")
    assert driver.find_element("id", "title").text == "Two jobs <one vector>"


@pytest.mark.system
def test_keys_toggle_loop_and_notes(browser: dict) -> None:
    driver = browser["driver"]
    driver.execute_script("deck.go(0)")
    looping = driver.execute_script("return deck.current().loop")
    _press(driver, "l")
    assert driver.execute_script("return deck.current().loop") is (not looping)
    assert driver.find_element("id", "loop-flag").is_displayed() is (not looping)
    _press(driver, "L")
    assert driver.execute_script("return deck.current().loop") is looping

    notes = driver.find_element("id", "notes")
    assert not notes.is_displayed()
    _press(driver, "n")
    assert notes.is_displayed()
    assert notes.text == TRICKY_NOTES
    assert driver.execute_script("return window.pwned === undefined")

    _press(driver, "c")
    assert driver.execute_script("return deck.current().textTracks[0].mode") == "hidden"
    _press(driver, "c")
    assert driver.execute_script("return deck.current().textTracks[0].mode") == "showing"


@pytest.mark.system
def test_screenshot_is_not_blank(browser: dict, tmp_path: Path) -> None:
    driver = browser["driver"]
    driver.execute_script("deck.go(0)")
    if not driver.find_element("id", "notes").is_displayed():
        _press(driver, "n")
    wait_for(lambda: driver.execute_script("return deck.current().currentTime > 3.3"),
              "the second caption")
    png = driver.get_screenshot_as_png()
    shot = tmp_path / "deck_screenshot.png"
    shot.write_bytes(png)
    shutil.copyfile(shot, SCREENSHOT_COPY)
    image = Image.open(shot).convert("RGB")
    pixels = np.asarray(image, dtype=float)
    colours = image.getcolors(maxcolors=image.width * image.height)
    assert colours is not None and len(colours) > 200, "the screenshot has too few colours"
    assert pixels.std() > 20.0, "the screenshot is nearly flat"
    # The page around the clip is the deck's dark background.
    assert tuple(int(c) for c in pixels[5, 5]) == (0x14, 0x16, 0x1B)


@pytest.mark.system
def test_refused_autoplay_falls_back_to_muted_with_a_hint(deck_file: Path,
                                                          tmp_path: Path) -> None:
    driver = chromium.driver(tmp_path / "profile", "document-user-activation-required")
    # Headless Chromium does not always refuse sound before a click, so make the
    # refusal certain: until the first click, play() with sound is rejected the way
    # a browser's autoplay policy rejects it.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__clicked = false;
        document.addEventListener('click', () => { window.__clicked = true; }, true);
        const play = HTMLMediaElement.prototype.play;
        HTMLMediaElement.prototype.play = function () {
          if (!this.muted && !window.__clicked) {
            return Promise.reject(new DOMException('sound needs a click', 'NotAllowedError'));
          }
          return play.call(this);
        };"""})
    try:
        driver.get(deck_file.as_uri() + "#2&loop")
        wait_for(lambda: _playing(driver, 1), "the muted clip to play")
        assert driver.execute_script("return deck.index()") == 1
        assert driver.execute_script("return deck.current().muted")
        assert driver.execute_script("return deck.current().loop")
        hint = driver.find_element("id", "sound")
        assert hint.is_displayed()
        hint.click()
        assert not driver.execute_script("return deck.current().muted")
        assert not hint.is_displayed()
        wait_for(lambda: _playing(driver, 1), "the clip to play with sound")
    finally:
        driver.quit()
