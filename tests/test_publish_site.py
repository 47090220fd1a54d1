"""The YouTube site and the log-in, with Google's own client libraries, against the
stand-in API on 127.0.0.1 (tests/youtube_standin.py): resumable uploads that survive a
5xx, a dropped connection and a killed process; quota and token failures said in one
line; every other request as the API reference has it; nothing sent anywhere else."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from production.errors import UsageError
from production.paths import ROOT
from production.publish import auth
from production.publish.site import AuthFailure, QuotaExceeded, RemoteFailure
from production.publish.youtube import CHUNK_UNIT, YouTube
from tests.oauth_standin import log_in_here

if TYPE_CHECKING:
    from tests.youtube_standin import YouTubeStandIn

pytest_plugins = ("tests.youtube_standin",)  # its fixtures: youtube_standin, loopback_only
pytestmark = pytest.mark.usefixtures("loopback_only")

SIZE = 3 * CHUNK_UNIT + 1000  # four chunks, the last a short one
BODY = {"snippet": {"title": "How attention works", "description": "A chapter.",
                    "tags": ["attention"], "categoryId": "27", "defaultLanguage": "en",
                    "defaultAudioLanguage": "en"},
        "status": {"privacyStatus": "private", "selfDeclaredMadeForKids": False}}
LOG_IN = "log in again with: render.py publish --login --client-secrets FILE"
#: the upload in a process of its own, keeping its session in a file (argv: token file,
#: api root, video, session file)
UPLOADER = """
import socket, sys
from pathlib import Path
from production import files
from production.publish import auth
from production.publish.youtube import CHUNK_UNIT, YouTube
from tests.youtube_standin import loopback_lookup
socket.getaddrinfo = loopback_lookup([])
token, root, video, kept = sys.argv[1:]
site = YouTube(auth.load(Path(token)), root, chunk_size=CHUNK_UNIT)
site.insert_video(Path(video), {body}, session=None,
                  keep_session=lambda uri: files.write_text(Path(kept), uri or ""),
                  progress=lambda sent, total: None)
""".replace("{body}", repr(BODY))
#: the log-in in a process of its own (argv: client secrets, token file)
LOGIN = """
import socket, sys
from pathlib import Path
from production.publish import auth
from tests.youtube_standin import loopback_lookup
socket.getaddrinfo = loopback_lookup([])
auth.login(Path(sys.argv[1]), Path(sys.argv[2]), open_browser=False)
"""


class Upload:
    """What an upload told its caller: the sessions it kept, its progress, its waits."""

    def __init__(self) -> None:
        self.kept: list[str | None] = []
        self.progress: list[tuple[int, int]] = []
        self.slept: list[float] = []

    def site(self, standin: YouTubeStandIn, **options) -> YouTube:
        return YouTube(standin.oauth.credentials(), standin.root, chunk_size=CHUNK_UNIT,
                       sleep=self.slept.append, **options)

    def send(self, site: YouTube, video: Path, session: str | None = None) -> str:
        return site.insert_video(video, BODY, session=session, keep_session=self.kept.append,
                                 progress=lambda sent, total: self.progress.append((sent, total)))


@pytest.fixture
def video(tmp_path) -> Path:
    """A stand-in video: SIZE bytes that no two chunks share."""
    path = tmp_path / "chapter.mp4"
    path.write_bytes(b"".join(hashlib.sha256(b"%d" % n).digest() for n in range(SIZE // 32 + 1))
                     [:SIZE])
    return path


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ranges(standin: YouTubeStandIn, since: int = 0) -> list[tuple[str, str | None, str | None]]:
    """Each request to the upload (from the log's entry ``since``): (api, Content-Range,
    scripted fault)."""
    return [(entry.api, entry.content_range, entry.fault) for entry in standin.log[since:]
            if entry.api in ("videos.insert", "upload.chunk", "upload.status")]


def test_a_video_goes_up_in_chunks_and_arrives_whole(youtube_standin, video):
    upload = Upload()
    video_id = upload.send(upload.site(youtube_standin), video)
    assert video_id == "v1"
    assert youtube_standin.video_bytes(video_id) == video.read_bytes()
    assert ranges(youtube_standin) == [
        ("videos.insert", None, None),
        ("upload.chunk", f"bytes 0-{CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {CHUNK_UNIT}-{2 * CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {2 * CHUNK_UNIT}-{3 * CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {3 * CHUNK_UNIT}-{SIZE - 1}/{SIZE}", None)]
    [start] = youtube_standin.calls("videos.insert")
    assert start.query["uploadType"] == "resumable" and start.query["part"] == "snippet,status"
    assert start.body == BODY
    assert youtube_standin.videos[video_id]["snippet"] == BODY["snippet"]
    session = youtube_standin.calls("upload.chunk")[0].session
    assert upload.kept == [f"{youtube_standin.root}upload/youtube/v3/videos?part=snippet%2C"
                           f"status&alt=json&uploadType=resumable&upload_id={session}", None]
    assert upload.progress == [(CHUNK_UNIT, SIZE), (2 * CHUNK_UNIT, SIZE),
                               (3 * CHUNK_UNIT, SIZE), (SIZE, SIZE)]
    assert upload.slept == []


def test_a_503_mid_upload_resumes_from_what_the_site_holds(youtube_standin, video):
    youtube_standin.fail_chunk(2, status=503)
    upload = Upload()
    video_id = upload.send(upload.site(youtube_standin), video)
    assert ranges(youtube_standin)[1:5] == [
        ("upload.chunk", f"bytes 0-{CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {CHUNK_UNIT}-{2 * CHUNK_UNIT - 1}/{SIZE}", "503"),
        ("upload.status", f"bytes */{SIZE}", None),
        ("upload.chunk", f"bytes {CHUNK_UNIT}-{2 * CHUNK_UNIT - 1}/{SIZE}", None)]
    assert len(youtube_standin.calls("videos.insert")) == 1  # the same session, resumed
    assert upload.slept == [1]
    assert sha256(youtube_standin.video_bytes(video_id)) == sha256(video.read_bytes())


def test_a_dropped_connection_mid_upload_resumes_from_what_the_site_holds(youtube_standin,
                                                                          video):
    # the stand-in cuts every chunk from the second on until it is asked for the status,
    # so a resend without asking (httplib2 makes one itself) never gets through
    youtube_standin.drop_chunk(2)
    upload = Upload()
    video_id = upload.send(upload.site(youtube_standin, timeout=30), video)
    sent = ranges(youtube_standin)
    dropped = [at for at, (_, _, fault) in enumerate(sent) if fault == "dropped"]
    assert dropped and dropped == list(range(2, dropped[-1] + 1))
    # each resend carried the chunk again (a resent stream would be exhausted, and empty)
    assert {entry.media.size for entry in youtube_standin.log if entry.fault == "dropped"} == {
        CHUNK_UNIT // 2}
    assert sent[dropped[-1] + 1:dropped[-1] + 3] == [
        ("upload.status", f"bytes */{SIZE}", None),
        ("upload.chunk", f"bytes {CHUNK_UNIT}-{2 * CHUNK_UNIT - 1}/{SIZE}", None)]
    assert len(youtube_standin.calls("videos.insert")) == 1
    assert upload.slept == [1]
    assert sha256(youtube_standin.video_bytes(video_id)) == sha256(video.read_bytes())


def test_5xx_to_the_last_try_is_a_remote_failure_and_the_session_stays_kept(youtube_standin,
                                                                            video):
    youtube_standin.fail_chunk(2, status=502, times=4)
    upload = Upload()
    with pytest.raises(RemoteFailure) as failed:
        upload.send(upload.site(youtube_standin, tries=4), video)
    assert type(failed.value) is RemoteFailure
    assert str(failed.value) == "YouTube failed (502 backendError: Backend Error) after 4 tries"
    assert upload.slept == [1, 2, 4]  # between the four tries, doubling
    assert [fault for _, _, fault in ranges(youtube_standin)].count("502") == 4
    assert len(upload.kept) == 1 and upload.kept[0] is not None  # for the next run


def goes_on_from_the_second_chunk(youtube_standin, video: Path, session, before: int) -> None:
    """An upload given the kept ``session`` asks the site what it holds (one chunk) and
    sends only the rest, in no second session, the whole video arriving."""
    upload = Upload()
    video_id = upload.send(upload.site(youtube_standin), video, session=session)
    assert ranges(youtube_standin, since=before) == [
        ("upload.status", f"bytes */{SIZE}", None),
        ("upload.chunk", f"bytes {CHUNK_UNIT}-{2 * CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {2 * CHUNK_UNIT}-{3 * CHUNK_UNIT - 1}/{SIZE}", None),
        ("upload.chunk", f"bytes {3 * CHUNK_UNIT}-{SIZE - 1}/{SIZE}", None)]
    assert len(youtube_standin.calls("videos.insert")) == 1  # no second session
    assert upload.kept == [None]
    assert sha256(youtube_standin.video_bytes(video_id)) == sha256(video.read_bytes())


@pytest.mark.system  # a process killed: its counterpart in process is the test after it
def test_a_killed_upload_is_resumed_from_its_kept_session(youtube_standin, video, tmp_path):
    token = youtube_standin.oauth.write_token(tmp_path / "token.json")
    kept = tmp_path / "session"
    held = youtube_standin.hold_chunk(1)  # the first chunk: the session is kept before it
    uploader = subprocess.Popen(
        [sys.executable, "-c", UPLOADER, str(token), youtube_standin.root, str(video),
         str(kept)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert held.reached.wait(timeout=120), uploader.communicate(timeout=5)
        session = kept.read_text()
        uploader.send_signal(signal.SIGKILL)
    finally:
        uploader.kill()
        uploader.communicate(timeout=60)
    held.release()  # the site keeps the chunk it held: the dead process never heard so
    assert held.done.wait(timeout=60)
    before = len(youtube_standin.log)

    goes_on_from_the_second_chunk(youtube_standin, video, session, before)


def test_an_upload_cut_off_is_resumed_from_its_kept_session(youtube_standin, video):
    """The killed upload's test in this process: the upload stops after its first chunk
    (the site failing the second to the last try), and a second upload given the session
    the first kept goes on from what the site holds."""
    youtube_standin.fail_chunk(2, status=503, times=2)
    cut = Upload()
    with pytest.raises(RemoteFailure):
        cut.send(cut.site(youtube_standin, tries=2), video)
    assert len(cut.kept) == 1 and cut.kept[0] is not None
    assert cut.progress == [(CHUNK_UNIT, SIZE)]
    before = len(youtube_standin.log)

    goes_on_from_the_second_chunk(youtube_standin, video, cut.kept[0], before)


def test_a_session_the_site_no_longer_knows_starts_a_new_upload(youtube_standin, video):
    stale = youtube_standin.root + "upload/youtube/v3/videos?uploadType=resumable&upload_id=u9"
    upload = Upload()
    video_id = upload.send(upload.site(youtube_standin), video, session=stale)
    sent = ranges(youtube_standin)
    assert sent[:2] == [("upload.status", f"bytes */{SIZE}", None), ("videos.insert", None, None)]
    assert youtube_standin.calls("upload.status")[0].status == 404
    assert upload.kept[0] is None and upload.kept[1].endswith("upload_id=u1")
    assert upload.kept[2:] == [None]
    assert youtube_standin.video_bytes(video_id) == video.read_bytes()


def test_a_spent_quota_is_quota_exceeded_at_each_methods_cost(youtube_standin, video, tmp_path):
    site = Upload().site(youtube_standin)
    youtube_standin.limits["uploads"] = 0
    with pytest.raises(QuotaExceeded) as failed:
        Upload().send(site, video)
    assert str(failed.value) == (
        "the YouTube API quota is spent for today (403 quotaExceeded: The request cannot be "
        "completed because you have exceeded your quota.); it is renewed at midnight "
        "Pacific time")
    assert youtube_standin.calls("upload.chunk") == []

    youtube_standin.limits["units"] = 449  # videos.update is 50 units, captions.insert 400
    youtube_standin.videos["v7"] = {"id": "v7", "snippet": {}, "status": {}}
    site.update_video("v7", BODY)
    captions = tmp_path / "chapter.srt"
    captions.write_text("1\n00:00:00,000 --> 00:00:01,000\nHello\n", encoding="utf-8")
    with pytest.raises(QuotaExceeded):
        site.insert_captions("v7", captions, language="en", name="English")
    assert youtube_standin.spent == {"units": 50, "uploads": 0}


def test_a_token_the_site_refuses_is_an_auth_failure_with_how_to_log_in(youtube_standin):
    credentials = youtube_standin.oauth.credentials()
    site = YouTube(credentials, youtube_standin.root)
    youtube_standin.oauth.refuse_tokens = True
    with pytest.raises(AuthFailure) as failed:
        site.update_video("v1", BODY)
    said = str(failed.value)
    assert said.startswith("YouTube refused the token (401 authError: Request had invalid")
    assert said.endswith(LOG_IN) and "\n" not in said
    assert credentials.token not in said and credentials.refresh_token not in said
    # google-auth refreshed the token and tried again before giving up
    assert [e.api for e in youtube_standin.log] == ["videos.update", "token"] * 2 + [
        "videos.update"]


def test_an_expired_token_is_refreshed_at_its_token_endpoint(youtube_standin):
    youtube_standin.videos["v1"] = {"id": "v1", "snippet": {}, "status": {}}
    credentials = youtube_standin.oauth.credentials(expired=True)
    old = credentials.token
    YouTube(credentials, youtube_standin.root).update_video("v1", BODY)
    assert [(e.api, e.status) for e in youtube_standin.log] == [("token", 200),
                                                                ("videos.update", 200)]
    assert youtube_standin.log[0].body == {"grant_type": "refresh_token",
                                           "client_id": youtube_standin.oauth.client_id}
    assert credentials.token != old

    # expired on the site's side only: refused once, refreshed, sent again
    youtube_standin.oauth.expire(credentials.token)
    YouTube(credentials, youtube_standin.root).update_video("v1", BODY)
    assert [(e.api, e.status) for e in youtube_standin.log[2:]] == [
        ("videos.update", 401), ("token", 200), ("videos.update", 200)]


def test_a_revoked_token_is_an_auth_failure_with_how_to_log_in(youtube_standin):
    credentials = youtube_standin.oauth.credentials(expired=True)
    youtube_standin.oauth.revoke(credentials.refresh_token)
    with pytest.raises(AuthFailure) as failed:
        YouTube(credentials, youtube_standin.root).update_video("v1", BODY)
    assert str(failed.value) == (
        "the YouTube token was refused when it was refreshed (invalid_grant: Token has been "
        f"expired or revoked.); {LOG_IN}")
    assert [e.api for e in youtube_standin.log] == ["token"]


def test_every_other_request_reaches_the_site_as_the_reference_has_it(youtube_standin, video,
                                                                      tmp_path, loopback_only):
    site = Upload().site(youtube_standin)
    video_id = Upload().send(site, video)
    changed = {**BODY, "status": {"privacyStatus": "public", "selfDeclaredMadeForKids": False}}
    site.update_video(video_id, changed)
    thumbnail = tmp_path / "thumbnail.jpg"
    thumbnail.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 40)
    site.set_thumbnail(video_id, thumbnail)
    captions = tmp_path / "chapter.srt"
    captions.write_bytes("1\r\n00:00:00,000 --> 00:00:02,000\r\nQuery · key — é\r\n".encode())
    caption_id = site.insert_captions(video_id, captions, language="en", name="English")
    captions.write_bytes(b"WEBVTT\n\n00:00.000 --> 00:02.000\nQuery and key\n")
    site.update_captions(caption_id, video_id, captions, language="en", name="English")
    playlist = {"snippet": {"title": "Attention, a course", "description": "Chapters."},
                "status": {"privacyStatus": "private"}}
    playlist_id = site.insert_playlist(playlist)
    site.update_playlist(playlist_id, {**playlist, "status": {"privacyStatus": "unlisted"}})
    item_id = site.insert_playlist_item(playlist_id, video_id, 0)

    calls = {entry.api: entry for entry in youtube_standin.log if entry.status == 200}
    assert calls["videos.update"].query["part"] == "snippet,status"
    assert calls["videos.update"].body == {**changed, "id": video_id}
    assert youtube_standin.videos[video_id]["status"]["privacyStatus"] == "public"
    assert calls["thumbnails.set"].query["videoId"] == video_id
    assert calls["thumbnails.set"].media.type == "image/jpeg"
    assert youtube_standin.thumbnails[video_id] == thumbnail.read_bytes()
    snippet = {"videoId": video_id, "language": "en", "name": "English", "isDraft": False}
    assert calls["captions.insert"].query == {"part": "snippet", "alt": "json",
                                              "uploadType": "multipart"}
    assert calls["captions.insert"].body == {"snippet": snippet}
    assert calls["captions.update"].body == {"id": caption_id, "snippet": snippet}
    assert youtube_standin.captions[caption_id]["data"] == captions.read_bytes()
    assert calls["captions.insert"].media.sha256 != calls["captions.update"].media.sha256
    assert calls["playlists.insert"].query["part"] == "snippet,status"
    assert calls["playlists.insert"].body == playlist
    assert calls["playlists.update"].body["id"] == playlist_id
    assert youtube_standin.playlists[playlist_id]["status"] == {"privacyStatus": "unlisted"}
    assert calls["playlistItems.insert"].query["part"] == "snippet"
    assert calls["playlistItems.insert"].body == {"snippet": {
        "playlistId": playlist_id, "position": 0,
        "resourceId": {"kind": "youtube#video", "videoId": video_id}}}
    assert item_id == "i1" and youtube_standin.playlist_videos(playlist_id) == [video_id]
    assert youtube_standin.spent == {"units": 50 + 50 + 400 + 450 + 50 + 50 + 50, "uploads": 1}
    assert set(loopback_only) == {"127.0.0.1"}  # every request went there, uploads included


def test_what_the_site_refuses_is_a_remote_failure_with_its_reason(youtube_standin, video,
                                                                   tmp_path):
    site = Upload().site(youtube_standin)
    video_id = Upload().send(site, video)
    not_an_image = tmp_path / "thumbnail.jpg"
    not_an_image.write_bytes(b"GIF89a" + bytes(100))
    with pytest.raises(RemoteFailure) as failed:
        site.set_thumbnail(video_id, not_an_image)
    assert str(failed.value) == ("YouTube refused the request (400 invalidImage: The "
                                 "provided image content is invalid.)")
    youtube_standin.fail("playlists.insert", 403, "forbidden", "<b>Access</b> forbidden.")
    with pytest.raises(RemoteFailure) as failed:
        site.insert_playlist({"snippet": {"title": "A course"}})
    assert str(failed.value) == "YouTube refused the request (403 forbidden: Access forbidden.)"
    assert type(failed.value) is RemoteFailure


def test_a_site_that_cannot_be_reached_is_a_remote_failure_after_the_last_try(
        youtube_standin, video):
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    upload = Upload()
    site = YouTube(youtube_standin.oauth.credentials(), f"http://127.0.0.1:{port}/",
                   sleep=upload.slept.append, tries=3)
    with pytest.raises(RemoteFailure) as failed:
        upload.send(site, video)
    assert str(failed.value) == ("the connection to YouTube failed (ConnectionRefusedError: "
                                 "[Errno 111] Connection refused) after 3 tries")
    assert upload.slept == [1, 2] and upload.kept == []


def test_a_chunk_size_off_the_protocols_unit_and_a_bad_api_root_are_usage_errors(
        youtube_standin):
    credentials = youtube_standin.oauth.credentials()
    with pytest.raises(UsageError, match="multiple of 256 KiB"):
        YouTube(credentials, youtube_standin.root, chunk_size=CHUNK_UNIT + 1)
    with pytest.raises(UsageError, match="--api-root must be an http:// or https:// URL"):
        YouTube(credentials, "127.0.0.1:8080")


def test_the_token_is_kept_under_the_config_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert auth.default_token_path() == tmp_path / "attention-explainer" / "youtube-token.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert auth.default_token_path() == (tmp_path / "home" / ".config" / "attention-explainer"
                                         / "youtube-token.json")


def test_loading_a_missing_or_broken_token_says_how_to_log_in(tmp_path):
    missing = tmp_path / "token.json"
    with pytest.raises(UsageError) as failed:
        auth.load(missing)
    assert str(failed.value) == (f"no token at {missing}; log in once with: render.py publish "
                                 "--login --client-secrets FILE")
    missing.write_text('{"token": "x"}')
    with pytest.raises(UsageError, match=f"^{missing} is not a YouTube token this tool wrote "
                                         r"\(.*missing fields.*\); log in again with"):
        auth.load(missing)


def test_loading_an_expired_token_refreshes_and_keeps_it(youtube_standin, tmp_path):
    token = youtube_standin.oauth.write_token(tmp_path / "token.json", expired=True)
    old = json.loads(token.read_text())["token"]
    credentials = auth.load(token)
    assert [(e.api, e.status) for e in youtube_standin.log] == [("token", 200)]
    kept = json.loads(token.read_text())
    assert kept["token"] == credentials.token != old
    assert stat.S_IMODE(token.stat().st_mode) == 0o600

    youtube_standin.oauth.revoke(credentials.refresh_token)
    youtube_standin.oauth.expire(credentials.token)
    token.write_text(credentials.to_json().replace(kept["expiry"], "2020-01-01T00:00:00Z"))
    with pytest.raises(AuthFailure) as failed:
        auth.load(token)
    assert str(failed.value) == (f"the token at {token} could not be refreshed (invalid_grant: "
                                 "Token has been expired or revoked.): it has expired or was "
                                 f"revoked; {LOG_IN}")

def kept_a_private_token(youtube_standin, token: Path, printed: str) -> None:
    """The log-in kept its token in a file only its user reads, in a folder only they
    open, printed none of it, asked the site once, and the site takes the token."""
    kept = json.loads(token.read_text())
    assert kept["refresh_token"].startswith("1//standin-refresh-")
    assert kept["token_uri"] == youtube_standin.oauth.token_uri
    assert kept["scopes"] == ["https://www.googleapis.com/auth/youtube.force-ssl"]
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert stat.S_IMODE(token.parent.stat().st_mode) == 0o700
    assert [p.name for p in token.parent.iterdir()] == [token.name]
    assert kept["token"] not in printed and kept["refresh_token"] not in printed
    assert [(e.api, e.body["grant_type"]) for e in youtube_standin.log] == [
        ("token", "authorization_code")]
    # and the token it kept is one the site takes
    credentials = auth.load(token)
    youtube_standin.videos["v1"] = {"id": "v1", "snippet": {}, "status": {}}
    YouTube(credentials, youtube_standin.root).update_video("v1", BODY)



@pytest.mark.system  # the log-in as a process of its own; in process: the test after it
def test_logging_in_keeps_a_private_token_and_prints_none(youtube_standin, tmp_path):
    secrets = tmp_path / "client_secret.json"
    secrets.write_text(json.dumps(youtube_standin.oauth.client_secrets()))
    token = tmp_path / "config" / "attention-explainer" / "youtube-token.json"
    env = {**os.environ, "OAUTHLIB_INSECURE_TRANSPORT": "1"}  # the stand-in speaks http
    login = subprocess.Popen([sys.executable, "-u", "-c", LOGIN, str(secrets), str(token)],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        prompt = [login.stdout.readline() for _ in range(2)]
        assert prompt[0].startswith("Open this address in a browser"), prompt
        # the browser: Google's consent page, allowed, sends it back to the log-in
        with urllib.request.urlopen(youtube_standin.oauth.consent(prompt[1].strip()),
                                    timeout=60) as page:
            assert b"Logged in" in page.read()
        out, err = login.communicate(timeout=120)
    finally:
        login.kill()
    assert login.returncode == 0, err
    kept_a_private_token(youtube_standin, token, "".join(prompt) + out + err)


def test_logging_in_in_process_keeps_a_private_token_and_prints_none(youtube_standin,
                                                                     tmp_path, monkeypatch):
    secrets = tmp_path / "client_secret.json"
    secrets.write_text(json.dumps(youtube_standin.oauth.client_secrets()))
    token = tmp_path / "config" / "attention-explainer" / "youtube-token.json"
    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the stand-in speaks http
    kept_at, prompt, out, err = log_in_here(
        youtube_standin.oauth, lambda: auth.login(secrets, token, open_browser=False))
    assert kept_at == token
    kept_a_private_token(youtube_standin, token, "".join(prompt) + out + err)
    assert youtube_standin.log[-1].api == "videos.update" and youtube_standin.log[-1].status == 200


def test_logging_in_with_missing_client_secrets_names_them(tmp_path):
    secrets = tmp_path / "client_secret.json"
    with pytest.raises(UsageError, match=f"^cannot read the OAuth client secrets {secrets} "):
        auth.login(secrets, tmp_path / "token.json", open_browser=False)
    secrets.write_text('{"web": ')
    with pytest.raises(UsageError, match="not JSON"):
        auth.login(secrets, tmp_path / "token.json", open_browser=False)
    assert not (tmp_path / "token.json").exists()
