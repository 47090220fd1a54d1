"""Headless Chromium for the tests of pages the project writes (deck.html, the course's
index.html), driven through selenium. Without Chromium a test fails, never skips:
`bash scripts/setup.sh test` installs it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
# Schemes of the browser's own pages (its start page, extensions, devtools): what they
# load is not the page's doing.
BROWSER_SCHEMES = ("chrome", "chrome-untrusted", "chrome-extension", "devtools", "about")
# What a page may load besides the files in its own folder.
INLINE_SCHEMES = ("data", "blob")


def require(path: Path, package: str) -> None:
    if not path.exists():
        pytest.fail(f"{path} is missing: install the Debian package {package} "
                    f"(bash scripts/setup.sh test does it)", pytrace=False)


def driver(profile: Path, autoplay_policy: str) -> webdriver.Chrome:
    """Chromium, headless, logging every network request and console line."""
    require(CHROMIUM, "chromium")
    require(CHROMEDRIVER, "chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--window-size=1280,800",
                 f"--autoplay-policy={autoplay_policy}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)


def wait_for(condition: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    """Poll ``condition`` every 0.1 s for up to ``timeout`` seconds; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def scheme(url: str) -> str:
    return urlsplit(url).scheme.lower()


def requested(performance: list[dict]) -> list[str]:
    """Every URL a page asked for, from Chromium's performance log: requests and web
    sockets (ws: and wss: show only there), less the browser's own pages'."""
    urls = []
    for entry in performance:
        message = json.loads(entry["message"])["message"]
        params = message["params"]
        if message["method"] == "Network.requestWillBeSent":
            url = params["request"]["url"]
        elif message["method"] == "Network.webSocketCreated":
            url = params["url"]
        else:
            continue
        if scheme(url) in BROWSER_SCHEMES or \
                scheme(params.get("documentURL", "")) in BROWSER_SCHEMES:
            continue
        urls.append(url)
    return urls


def outside(urls: list[str], folder: Path) -> list[str]:
    """The URLs that are neither files under ``folder`` nor inline data. A protocol-
    relative URL from a file:// page becomes file://HOST/..., outside the folder too."""
    inside = folder.as_uri() + "/"
    return [url for url in urls if not (url.startswith(inside) or scheme(url) in INLINE_SCHEMES)]
