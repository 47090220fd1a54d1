"""`render.py publish` end to end, with Google's client library, against the stand-in API
on 127.0.0.1 (tests/youtube_standin.py) and a token the stand-in issued. Uploads go in
chunks of 256 KiB (--chunk-kib 256). Nothing here names any address but the stand-in's.

In the default tier the command runs in this process (``run_command``) on a copy of the
fixture chapter's bundle, which the session renders once at the test quality: a publish
and its re-run, changes, a refused token, the dry run beside what a publish sends, the
log-in. The system tier runs the command as a process of its own, on a test bundle of a
lossless clip whose video takes several chunks: all of the above, and a process killed
mid-upload, a course, a quota spent mid-course, shorts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.parse
import urllib.request
import webbrowser
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import render
from production.paths import ROOT
from production.publish import bundles
from production.publish.metadata import video_body
from production.publish.state import FILE
from tests.conftest import Ran, run_command
from tests.fixture.chapter import CHAPTER as FIXTURE
from tests.oauth_standin import log_in_here
from tests.publish_bundles import (
    copy_fixture_bundle,
    snapshot,
    write_bundle,
    write_course,
    write_shorts,
)
from tests.test_publish import requests
from tests.youtube_standin import YouTubeStandIn

pytest_plugins = ("tests.youtube_standin",)  # its fixture loopback_only

CHUNK_KIB = 256
TIMEOUT = 180  # seconds a publish may take before the test gives up on it


@pytest.fixture
def standin() -> Iterator[YouTubeStandIn]:
    with YouTubeStandIn() as server:
        yield server


@pytest.fixture
def token(standin, tmp_path) -> Path:
    return standin.oauth.write_token(tmp_path / "token.json")


@pytest.fixture
def chapter(tmp_path) -> Path:
    return write_bundle(tmp_path / "out")


@pytest.fixture
def fixture_chapter(fixture_bundle, tmp_path) -> Path:
    """A copy of the fixture chapter's bundle, to publish."""
    return copy_fixture_bundle(fixture_bundle, tmp_path / "fixture")


def command(folder: Path, standin: YouTubeStandIn, token: Path | None, *args: str) -> list[str]:
    return [sys.executable, "render.py", "publish", str(folder), "--api-root", standin.root,
            *(["--token", str(token)] if token else []), "--chunk-kib", str(CHUNK_KIB), *args]


def publish(folder: Path, standin: YouTubeStandIn, token: Path | None,
            *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(folder, standin, token, *args), cwd=ROOT,
                          capture_output=True, text=True, timeout=TIMEOUT)


def publish_here(folder: Path, standin: YouTubeStandIn, token: Path | None,
                 *args: str) -> Ran:
    """`render.py publish` as :func:`publish` runs it, in this process."""
    return run_command(*command(folder, standin, token, *args)[2:])


def publish_apart(folder: Path, standin: YouTubeStandIn, token: Path | None,
                  *args: str) -> Ran:
    """:func:`publish` (its own process), told as :func:`publish_here` tells it."""
    done = publish(folder, standin, token, *args)
    return Ran(done.returncode, done.stdout, done.stderr)


#: how a scenario runs the command: in this process, or as a process of its own
Runner = Callable[..., Ran]


def apis_since(standin: YouTubeStandIn, start: int) -> list[str]:
    """The methods the stand-in was asked for from log entry ``start`` on (upload chunks
    and token refreshes left out)."""
    return [e.api for e in standin.log[start:] if not e.api.startswith(("upload.", "token"))]


def recorded(folder: Path, standin: YouTubeStandIn, name: str = "chapter.mp4") -> dict:
    return json.loads((folder / FILE).read_text())["sites"][standin.root]["videos"][name]


def one_line(run: subprocess.CompletedProcess[str] | Ran) -> str:
    """The one line of the error (what stderr says besides the upload's progress)."""
    stderr = run.err if isinstance(run, Ran) else run.stderr
    said = [line for line in stderr.splitlines() if not line.startswith("uploading ")]
    assert len(said) == 1 and said[0].startswith("render.py: error: "), stderr
    return said[0]


def chunks(folder: Path, name: str = "chapter.mp4") -> int:
    """How many chunks of --chunk-kib the file ``name`` in ``folder`` goes up in."""
    return -(-(folder / name).stat().st_size // (CHUNK_KIB * 1024))


# ----------------------------------------------------------------- the scenarios
# each run twice: in this process on the fixture chapter (the default tier), and as a
# process of its own on a bundle whose video goes up in several chunks (the system tier)


def goes_up_whole_and_a_rerun_sends_nothing(chapter: Path, standin: YouTubeStandIn,
                                            token: Path, run: Runner, *, least_chunks: int,
                                            description: str) -> None:
    ran = run(chapter, standin, token)
    assert ran.code == 0, ran.err
    assert apis_since(standin, 0) == ["videos.insert", "thumbnails.set", "captions.insert"]
    (video_id,) = standin.videos
    assert standin.video_bytes(video_id) == (chapter / "chapter.mp4").read_bytes()
    assert len(standin.calls("upload.chunk")) >= least_chunks  # 256 KiB at a time
    sent = video_body(bundles.read(chapter, shorts=False, given={}).videos[0].metadata)
    assert standin.videos[video_id]["snippet"] == sent["snippet"]
    assert standin.videos[video_id]["status"] == {**sent["status"], "uploadStatus": "uploaded"}
    assert sent["snippet"]["description"].startswith(description)
    assert standin.thumbnails[video_id] == (chapter / "thumbnail.jpg").read_bytes()
    (caption,) = standin.captions.values()
    assert caption["data"] == (chapter / "chapter.srt").read_bytes()
    assert {k: caption["resource"]["snippet"][k] for k in ("videoId", "language", "name")} == {
        "videoId": video_id, "language": "en", "name": "English"}
    assert recorded(chapter, standin)["video_id"] == video_id
    assert "uploading chapter.mp4: 100%" in ran.err
    assert ran.out.splitlines()[-1] == "published: 3 requests made"
    token_text = json.loads(token.read_text())["token"]
    assert token_text not in ran.out + ran.err

    before, requests = snapshot(chapter), len(standin.log)
    again = run(chapter, standin, token)
    assert again.code == 0, again.err
    assert again.out == "nothing changed since the last publish: no request made\n"
    assert len(standin.log) == requests and snapshot(chapter) == before


def a_change_is_one_update_each(chapter: Path, standin: YouTubeStandIn, token: Path,
                                run: Runner) -> None:
    """A changed title is one videos.update; changed captions one captions.update."""
    assert run(chapter, standin, token).code == 0
    (video_id,) = standin.videos
    start = len(standin.log)
    (chapter / "publish.toml").write_text('title = "A better title"\n')
    ran = run(chapter, standin, token)
    assert ran.code == 0, ran.err
    assert apis_since(standin, start) == ["videos.update"]
    assert standin.videos[video_id]["snippet"]["title"] == "A better title"
    assert f"video {video_id} updated (title)" in ran.out

    start = len(standin.log)
    (chapter / "chapter.srt").write_text("1\n00:00:00,000 --> 00:00:02,000\nNew words\n")
    ran = run(chapter, standin, token)
    assert ran.code == 0, ran.err
    assert apis_since(standin, start) == ["captions.update"]
    (caption,) = standin.captions.values()
    assert caption["data"] == (chapter / "chapter.srt").read_bytes()


def a_refused_token_is_one_line(chapter: Path, standin: YouTubeStandIn, token: Path,
                                run: Runner) -> None:
    """A refused token is one line saying how to log in; nothing goes up, no token shown."""
    standin.oauth.refuse_tokens = True
    ran = run(chapter, standin, token)
    assert ran.code == 1
    said = one_line(ran)
    assert "render.py publish --login --client-secrets FILE" in said
    assert "done 0 of 3 requests; left: chapter.mp4, thumbnail.jpg, chapter.srt" in said
    assert not standin.videos
    assert json.loads(token.read_text())["token"] not in ran.out + ran.err


def a_dry_run_prints_what_a_publish_sends(chapter: Path, standin: YouTubeStandIn,
                                          token: Path, run: Runner) -> None:
    """A dry run makes no request and prints each request a publish then makes."""
    ran = run(chapter, standin, None, "--dry-run")
    assert ran.code == 0, ran.err
    assert standin.log == [] and not (chapter / FILE).exists()
    dry = requests(ran.out)
    assert run(chapter, standin, token).code == 0
    sent = [e for e in standin.log if not e.api.startswith(("upload.", "token"))]
    assert [r["method"] for r in dry] == [e.api for e in sent]
    (video_id,) = standin.videos
    for printed, logged in zip(dry, sent):  # "<video 1>" is the id the site gave
        url = urllib.parse.urlsplit(printed["url"].replace("<video 1>", video_id))
        assert url.path == logged.path
        assert dict(urllib.parse.parse_qsl(url.query)).items() <= logged.query.items()
        if "body" in printed:
            shown = json.dumps(printed["body"]).replace("<video 1>", video_id)
            assert json.loads(shown) == logged.body
        if printed["method"] != "videos.insert":  # its bytes go in the chunks after it
            assert logged.media is not None and logged.media.size == printed["size"]
    start = len(standin.log)
    (chapter / "publish.toml").write_text('tags = ["changed"]\n')
    ran = run(chapter, standin, None, "--dry-run")
    assert ran.code == 0, ran.err
    assert "1. videos.update: PUT " in ran.out and "2. " not in ran.out
    assert len(standin.log) == start


# ----------------------------------------------------------------- in this process
# (the default tier): the fixture chapter's bundle, published by the command in process


def test_the_fixture_chapter_goes_up_whole_and_a_rerun_sends_nothing(standin, token,
                                                                     fixture_chapter,
                                                                     loopback_only):
    assert FIXTURE.title == "Scores become weights"
    sent = video_body(bundles.read(fixture_chapter, shorts=False, given={}).videos[0].metadata)
    assert sent["snippet"]["title"] == FIXTURE.title
    goes_up_whole_and_a_rerun_sends_nothing(fixture_chapter, standin, token, publish_here,
                                            least_chunks=chunks(fixture_chapter),
                                            description=FIXTURE.summary)
    assert len(standin.calls("upload.chunk")) == chunks(fixture_chapter)


def test_the_fixture_chapter_changed_is_one_update_each_in_process(standin, token,
                                                                   fixture_chapter,
                                                                   loopback_only):
    a_change_is_one_update_each(fixture_chapter, standin, token, publish_here)


def test_a_refused_token_in_process_is_one_line_saying_how_to_log_in(standin, token,
                                                                     fixture_chapter,
                                                                     loopback_only):
    a_refused_token_is_one_line(fixture_chapter, standin, token, publish_here)


def test_a_dry_run_in_process_prints_what_a_publish_sends(standin, token, fixture_chapter,
                                                          loopback_only):
    a_dry_run_prints_what_a_publish_sends(fixture_chapter, standin, token, publish_here)


def test_log_in_in_process_then_publish_with_the_token(standin, fixture_chapter, tmp_path,
                                                       monkeypatch, loopback_only):
    secrets = tmp_path / "client_secret.json"
    secrets.write_text(json.dumps(standin.oauth.client_secrets()))
    token = tmp_path / "config" / "youtube-token.json"
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the stand-in speaks http

    def no_browser(*args: object, **kwargs: object) -> webbrowser.BaseBrowser:
        raise webbrowser.Error("no browser here: the test is the browser")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    # render.py's main itself, not run_command: the log-in's output is to reach the browser
    code, prompt, out, err = log_in_here(standin.oauth, lambda: render.main(
        ["publish", "--login", "--client-secrets", str(secrets), "--token", str(token)]))
    assert code == 0, err
    assert out.splitlines()[-1] == (f"logged in: the token is in {token}, readable by you "
                                    "alone; publish with `render.py publish`")
    kept = json.loads(token.read_text())
    assert kept["token"] not in "".join(prompt) + out + err
    assert kept["refresh_token"] not in "".join(prompt) + out + err
    run = publish_here(fixture_chapter, standin, token)
    assert run.code == 0, run.err
    assert apis_since(standin, 0) == ["videos.insert", "thumbnails.set", "captions.insert"]


# ----------------------------------------------------------------- as a process of its own
# (the system tier): a test bundle whose video goes up in several chunks


@pytest.mark.system
def test_a_chapter_goes_up_whole_and_a_rerun_sends_nothing(standin, token, chapter):
    goes_up_whole_and_a_rerun_sends_nothing(chapter, standin, token, publish_apart,
                                            least_chunks=3,
                                            description="What a decoder reads")


@pytest.mark.system
def test_a_changed_title_is_one_videos_update_and_changed_captions_one_captions_update(
        standin, token, chapter):
    a_change_is_one_update_each(chapter, standin, token, publish_apart)


@pytest.mark.system
def test_a_publish_killed_mid_upload_resumes_the_same_session(standin, token, chapter):
    held = standin.hold_chunk(2)
    process = subprocess.Popen(command(chapter, standin, token), cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert held.reached.wait(TIMEOUT), "the upload never reached its second chunk"
        process.send_signal(signal.SIGKILL)
        process.wait(TIMEOUT)
    finally:
        held.release()
        process.kill()
    assert held.done.wait(TIMEOUT)
    session = recorded(chapter, standin)["session"]
    assert session["uri"].startswith(standin.root) and "video_id" not in recorded(chapter,
                                                                                   standin)
    start = len(standin.log)
    run = publish(chapter, standin, token)
    assert run.returncode == 0, run.stderr
    assert len(standin.calls("videos.insert")) == 1  # no second session
    assert standin.log[start].api == "upload.status"  # it asked what the site holds first
    (video_id,) = standin.videos
    assert standin.video_bytes(video_id) == (chapter / "chapter.mp4").read_bytes()
    assert "session" not in recorded(chapter, standin)
    assert apis_since(standin, start) == ["thumbnails.set", "captions.insert"]


@pytest.mark.system
def test_a_course_becomes_a_playlist_of_its_chapters_in_order(standin, token, tmp_path):
    course = write_course(tmp_path / "course", {"zeta": "Comes first", "alpha": "Then this",
                                                "mid": "And last"})
    run = publish(course, standin, token, "--title", "The course")
    assert run.returncode == 0, run.stderr
    uploaded = {v["snippet"]["title"]: k for k, v in standin.videos.items()}
    (playlist_id,) = standin.playlists
    assert standin.playlists[playlist_id]["snippet"]["title"] == "The course"
    assert standin.playlist_videos(playlist_id) == [
        uploaded["Comes first"], uploaded["Then this"], uploaded["And last"]]
    for name in ("zeta", "alpha", "mid"):
        video_id = recorded(course / name, standin)["video_id"]
        assert standin.video_bytes(video_id) == (course / name / "chapter.mp4").read_bytes()


@pytest.mark.system
def test_quota_spent_mid_course_names_what_is_left_and_the_next_run_sends_only_that(
        tmp_path):
    course = write_course(tmp_path / "course", {"one": "First", "two": "Second"})
    with YouTubeStandIn(units=500) as standin:  # the second chapter's captions are too many
        token = standin.oauth.write_token(tmp_path / "token.json")
        run = publish(course, standin, token)
        assert run.returncode == 1
        said = one_line(run)
        assert "quota" in said
        assert ("; done 5 of 9 requests (one/chapter.mp4, one/thumbnail.jpg, one/chapter.srt, "
                "two/chapter.mp4, two/thumbnail.jpg); left: two/chapter.srt, the playlist, "
                "the playlist's item 1 (one/chapter.mp4), the playlist's item 2 "
                "(two/chapter.mp4); run publish again after the quota resets") in said
        standin.limits["units"] = 10_000  # the next day
        start = len(standin.log)
        run = publish(course, standin, token)
        assert run.returncode == 0, run.stderr
        assert apis_since(standin, start) == ["captions.insert", "playlists.insert",
                                              "playlistItems.insert", "playlistItems.insert"]
        (playlist_id,) = standin.playlists
        assert standin.playlist_videos(playlist_id) == [
            recorded(course / name, standin)["video_id"] for name in ("one", "two")]


@pytest.mark.system
def test_a_refused_token_is_one_line_saying_how_to_log_in(standin, token, chapter):
    a_refused_token_is_one_line(chapter, standin, token, publish_apart)


@pytest.mark.system
def test_shorts_go_up_each_as_a_short_with_its_captions(standin, token, chapter):
    shorts = write_shorts(chapter / "shorts")
    run = publish(chapter, standin, token, "--shorts")
    assert run.returncode == 0, run.stderr
    assert apis_since(standin, 0) == ["videos.insert", "captions.insert"] * 2
    for name in ("DecoderQuestion", "TheEncoderReads"):
        video_id = recorded(shorts, standin, f"{name}.mp4")["video_id"]
        assert standin.video_bytes(video_id) == (shorts / f"{name}.mp4").read_bytes()
        assert standin.videos[video_id]["snippet"]["title"].endswith(" #Shorts")
        (caption,) = [c for c in standin.captions.values()
                      if c["resource"]["snippet"]["videoId"] == video_id]
        assert caption["data"] == (shorts / f"{name}.srt").read_bytes()
    assert not standin.thumbnails and not (chapter / FILE).exists()


@pytest.mark.system
def test_a_dry_run_makes_no_request_and_prints_what_a_publish_sends(standin, token,
                                                                    chapter):
    a_dry_run_prints_what_a_publish_sends(chapter, standin, token, publish_apart)


@pytest.mark.system
def test_log_in_once_then_publish_with_the_token(standin, chapter, tmp_path):
    secrets = tmp_path / "client_secret.json"
    secrets.write_text(json.dumps(standin.oauth.client_secrets()))
    token = tmp_path / "config" / "youtube-token.json"
    # the stand-in speaks http; a "browser" that opens nothing: the test is the browser
    env = {**os.environ, "OAUTHLIB_INSECURE_TRANSPORT": "1", "BROWSER": "true"}
    login = subprocess.Popen([sys.executable, "-u", "render.py", "publish", "--login",
                              "--client-secrets", str(secrets), "--token", str(token)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        prompt = [login.stdout.readline() for _ in range(2)]
        assert prompt[0].startswith("Open this address in a browser"), prompt
        with urllib.request.urlopen(standin.oauth.consent(prompt[1].strip()),
                                    timeout=TIMEOUT) as page:
            assert b"Logged in" in page.read()
        out, err = login.communicate(timeout=TIMEOUT)
    finally:
        login.kill()
    assert login.returncode == 0, err
    assert out.splitlines()[-1] == (f"logged in: the token is in {token}, readable by you "
                                    "alone; publish with `render.py publish`")
    kept = json.loads(token.read_text())
    assert kept["token"] not in "".join(prompt) + out + err
    assert kept["refresh_token"] not in "".join(prompt) + out + err
    run = publish(chapter, standin, token)
    assert run.returncode == 0, run.stderr
    assert apis_since(standin, 0) == ["videos.insert", "thumbnails.set", "captions.insert"]


def test_credentials_in_the_api_root_are_refused_never_printed_or_kept(fixture_chapter):
    """--api-root with a user and password in it once printed the password in the dry run
    and kept publish.json under it: now one line that names the URL without them."""
    secret = "s3cret-pass"
    before = sorted(p.name for p in fixture_chapter.iterdir())
    for root in (f"http://someone:{secret}@127.0.0.1:9/", f"https://someone:{secret}@h/x",
                 f"ftp://someone:{secret}@example.org/", f"http://:{secret}@127.0.0.1/"):
        for extra in ([], ["--dry-run"]):
            ran = run_command("publish", str(fixture_chapter), "--api-root", root, *extra)
            assert ran.code == 2, ran.err
            assert len(ran.err.splitlines()) == 1 and ran.out == ""
            assert secret not in ran.err and "someone" not in ran.err, ran.err
    assert sorted(p.name for p in fixture_chapter.iterdir()) == before
