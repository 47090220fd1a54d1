"""The fixture chapter rendered in Spanish (`render.py render --language es`) at the test
quality: its bundle in out/es/ with Spanish captions that say the Spanish narration, the
translated title and chapter list, the voice named; and published to the stand-in site
both as a video of its own and as a localization of the English video, a re-run sending
nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from production.translation import catalogue
from tests.conftest import FIXTURE, TEST_QUALITY, made_once, render_in
from tests.test_publish_e2e import apis_since, publish_here, recorded
from tests.youtube_standin import YouTubeStandIn

pytestmark = pytest.mark.builds("fixture")

SPANISH = {(m.context, m.id): m.string
           for m in catalogue.read(FIXTURE / "locale" / "es.po") if m.id}


@pytest.fixture(scope="session")
def spanish_project(tmp_path_factory, fixture_project, fixture_bundle) -> Path:
    """The fixture project with both its bundles: English in out/, Spanish in out/es/."""
    def make(target: Path) -> None:
        shutil.copytree(fixture_project, target, ignore=shutil.ignore_patterns("out"))
        shutil.copytree(fixture_bundle, target / "out")
        done = render_in(target, "render", "--chapter", "fixture", "--language", "es",
                         "--quality", TEST_QUALITY)
        assert done.returncode == 0, done.stderr[-3000:]
        (target / "said.txt").write_text(done.stdout + done.stderr)

    return made_once(tmp_path_factory, "fixture-spanish", make)


def srt_text(path: Path) -> str:
    blocks = path.read_text(encoding="utf-8").strip().split("\n\n")
    return " ".join(" ".join(b.splitlines()[2:]) for b in blocks)


def test_the_spanish_bundle_is_in_its_own_folder_with_spanish_captions(spanish_project):
    out = spanish_project / "out" / "es"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["language"] == "es" and manifest["chapter"] == "fixture"
    assert manifest["title"] == SPANISH[(None, "Scores become weights")]
    assert manifest["voice"]["engine"] == "espeak-ng" and manifest["voice"]["model"] == "es"
    assert [s["title"] for s in manifest["scenes"]] == [
        SPANISH[(None, "Three scores")], SPANISH[(None, "The weights they become")]]
    # the captions say the catalogue's passages, marks out, the ledger's 1.00 as 1,00
    said = [SPANISH[("Scores [scores]", "Here are three scores, one for each word.")],
            SPANISH[("Weights [weights]", "Each score becomes a weight, and the weights add "
                                          "up to <total>{total}.")]]
    expected = " ".join(re.sub(r"<\w+>", "", s).replace("{total}", "1,00") for s in said)
    assert srt_text(out / "chapter.srt").split() == expected.split()
    assert "1,00" in (out / "chapter.vtt").read_text()
    english = json.loads((spanish_project / "out" / "manifest.json").read_text())
    assert "language" not in english and english["title"] == "Scores become weights"
    assert english["duration"] != manifest["duration"]  # its own narration's length
    listed = (out / "chapters.txt").read_text().splitlines()
    assert listed[0].startswith("0:00 ") and listed[0][5:] in {
        SPANISH[(None, "Three scores")], SPANISH[(None, "The weights they become")]}


def test_the_spanish_words_are_timed_as_spoken(spanish_project):
    out = spanish_project / "out" / "es"
    cues = [b.splitlines() for b in
            (out / "chapter.srt").read_text(encoding="utf-8").strip().split("\n\n")]
    stamps = [c[1] for c in cues]
    starts = [int(s[3:5]) * 60 + float(s[6:12].replace(",", ".")) for s in stamps]
    assert starts == sorted(starts) and len(starts) >= 2
    manifest = json.loads((out / "manifest.json").read_text())
    words = [w for s in manifest["scenes"] for w in s["words"]]
    assert "suman" in " ".join(str(w) for w in words)


@pytest.fixture
def standin():
    with YouTubeStandIn() as server:
        yield server


def test_published_as_its_own_video_and_as_a_localization_never_twice(
        spanish_project, standin, tmp_path):
    token = standin.oauth.write_token(tmp_path / "token.json")
    out = tmp_path / "out"
    shutil.copytree(spanish_project / "out", out)

    # its own video, in Spanish
    ran = publish_here(out / "es", standin, token, "--language", "es")
    assert ran.code == 0, ran.err
    (own,) = standin.videos
    assert standin.videos[own]["snippet"]["defaultLanguage"] == "es"
    assert standin.videos[own]["snippet"]["title"] == SPANISH[(None, "Scores become weights")]
    (caption,) = standin.captions.values()
    assert caption["resource"]["snippet"]["language"] == "es"
    assert caption["resource"]["snippet"]["name"] == "español"

    # the English video, then the Spanish bundle as its localization
    assert publish_here(out, standin, token).code == 0
    english = recorded(out, standin)["video_id"]
    start = len(standin.log)
    ran = publish_here(out / "es", standin, token, "--as-localization")
    assert ran.code == 0, ran.err
    assert apis_since(standin, start) == ["videos.update", "captions.insert"]
    video = standin.videos[english]
    assert video["snippet"]["title"] == "Scores become weights"
    assert video["localizations"] == {"es": {
        "title": SPANISH[(None, "Scores become weights")],
        "description": video["localizations"]["es"]["description"]}}
    assert video["localizations"]["es"]["description"].startswith(
        SPANISH[(None, "A small chapter for the tests: three scores become weights that add "
                       "up to one, drawn in two short scenes joined by the row of scores.")])
    tracks = [c["resource"]["snippet"] for c in standin.captions.values()
              if c["resource"]["snippet"]["videoId"] == english]
    assert sorted((t["language"], t["name"]) for t in tracks) == [("en", "English"),
                                                                  ("es", "español")]
    kept = recorded(out, standin)
    assert set(kept["localizations"]) == {"es"} and set(kept["localized_captions"]) == {"es"}

    # a re-run of each sends nothing; the English one keeps the localization
    start = len(standin.log)
    for folder, args in ((out / "es", ("--as-localization",)), (out, ()),
                         (out / "es", ("--language", "es"))):
        again = publish_here(folder, standin, token, *args)
        assert again.code == 0, again.err
        assert again.out == "nothing changed since the last publish: no request made\n"
    assert apis_since(standin, start) == []


def test_a_localization_of_an_unpublished_video_is_one_line(spanish_project, standin,
                                                            tmp_path):
    token = standin.oauth.write_token(tmp_path / "token.json")
    out = tmp_path / "out"
    shutil.copytree(spanish_project / "out", out)
    ran = publish_here(out / "es", standin, token, "--as-localization")
    assert ran.code == 2
    assert "is not published as it is now" in ran.err and "publish" in ran.err
    assert standin.log == [] or apis_since(standin, 0) == []
    same = publish_here(out, standin, token, "--as-localization", str(out))
    assert same.code == 2 and "are both in en" in same.err
