"""`render.py publish` without a server: the dry run (every request, in order, with its
file, size and body, and the quota), the metadata (the description's parts, publish.toml
and the options over the bundle), the site's limits and bad input (one line, exit status
2, nothing written), and publish.json (what a re-run sends after each kind of change),
all through the dry-run site. No test here opens a connection: any attempt fails it."""

from __future__ import annotations

import io
import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest

import render
from production.outputs.bundle import versions
from production.publish import bundles, command, metadata
from production.publish.dry_run import DryRun
from production.publish.progress import quiet, upload_progress
from production.publish.publisher import Publisher
from production.publish.site import AuthFailure, QuotaExceeded, RemoteFailure
from production.publish.state import FILE
from tests.publish_bundles import (
    CHAPTERS,
    SUMMARY,
    TAGS,
    VOICE,
    snapshot,
    write_bundle,
    write_course,
    write_jpeg,
    write_shorts,
)

ROOT = command.DEFAULT_API_ROOT
REQUEST = re.compile(r"^(\d+)\. ([\w.]+): (POST|PUT) (.+)$")
FILE_LINE = re.compile(r"^   file: (.+) \(([\d,]+) bytes(?:, (.+))?\)$")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Any connection a test's code tries fails the test."""
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.fixture
def chapter(tmp_path) -> Path:
    return write_bundle(tmp_path / "out")


def publish(capsys, *args: str) -> tuple[int, str, str]:
    """`render.py publish ARGS` in this process: (exit status, stdout, stderr)."""
    status = render.main(["publish", *args])
    out, err = capsys.readouterr()
    return status, out, err


def requests(out: str) -> list[dict[str, Any]]:
    """The requests a dry run printed: method, verb, URL, file, size, how, body, gives."""
    found: list[dict[str, Any]] = []
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        head, file = REQUEST.match(line), FILE_LINE.match(line)
        if head:
            assert int(head.group(1)) == len(found) + 1, "requests are numbered in order"
            found.append({"method": head.group(2), "verb": head.group(3),
                          "url": head.group(4)})
        elif file:
            found[-1].update(file=Path(file.group(1)), size=int(file.group(2).replace(",", "")),
                             how=file.group(3))
        elif line.startswith("   body: "):
            text = [line.removeprefix("   body: ")]
            while i + 1 < len(lines) and (lines[i + 1].startswith("    ")
                                          or lines[i + 1] == "   }"):
                i += 1
                text.append(lines[i][3:])
            found[-1]["body"] = json.loads("\n".join(text))
        elif line.startswith("   gives: "):
            found[-1]["gives"] = line.removeprefix("   gives: ")
        i += 1
    return found


def methods(out: str) -> list[str]:
    return [r["method"] for r in requests(out)]


def one_line_error(status: int, out: str, err: str, *said: str) -> None:
    """Exit status 2 and one line on stderr that says each of ``said``."""
    assert status == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("render.py: error: "), err
    for words in said:
        assert words in err, err


# ----------------------------------------------------------------- the dry run


def test_dry_run_of_a_chapter_prints_every_request_in_order_and_writes_nothing(capsys,
                                                                                chapter):
    before = snapshot(chapter)
    status, out, err = publish(capsys, str(chapter), "--dry-run")
    assert status == 0, err
    sent = requests(out)
    assert [r["method"] for r in sent] == ["videos.insert", "thumbnails.set", "captions.insert"]
    upload, thumbnail, captions = sent
    assert upload["url"] == f"{ROOT}upload/youtube/v3/videos?part=snippet,status"
    assert upload["file"] == chapter / "chapter.mp4" and upload["how"] == "a resumable upload"
    assert thumbnail["url"] == f"{ROOT}upload/youtube/v3/thumbnails/set?videoId=<video 1>"
    assert captions["body"]["snippet"] == {"videoId": "<video 1>", "language": "en",
                                           "name": "English", "isDraft": False}
    for request, name in zip(sent, ("chapter.mp4", "thumbnail.jpg", "chapter.srt")):
        assert request["file"] == chapter / name
        assert request["size"] == (chapter / name).stat().st_size
    assert upload["body"]["snippet"]["title"] == "Inside the decoder"
    assert upload["body"]["status"] == {"privacyStatus": "private",
                                        "selfDeclaredMadeForKids": False}
    assert out.splitlines()[-1] == ("dry run: 3 requests, none sent; quota: 1 of the 100 "
                                    "videos.insert calls and 450 of the 10,000 units a "
                                    "project has a day by default")
    assert snapshot(chapter) == before and not (chapter / FILE).exists()


def test_dry_run_goes_under_the_api_root_it_is_given(capsys, chapter):
    status, out, _ = publish(capsys, str(chapter), "--dry-run", "--api-root",
                             "http://127.0.0.1:9/base")
    assert status == 0
    assert {r["url"].split("upload/")[0] for r in requests(out)} == {"http://127.0.0.1:9/base/"}


def test_dry_run_of_a_course_publishes_its_chapters_in_order_then_a_playlist(capsys,
                                                                             tmp_path):
    course = write_course(tmp_path / "course", {"second": "Zeta first", "first": "Alpha then"},
                          "How attention works")
    before = snapshot(course)
    status, out, err = publish(capsys, str(course), "--dry-run", "--privacy", "unlisted")
    assert status == 0, err
    sent = requests(out)
    assert [r["method"] for r in sent] == [
        "videos.insert", "thumbnails.set", "captions.insert",
        "videos.insert", "thumbnails.set", "captions.insert",
        "playlists.insert", "playlistItems.insert", "playlistItems.insert"]
    assert [r["file"] for r in sent if r["method"] == "videos.insert"] == [
        course / "second" / "chapter.mp4", course / "first" / "chapter.mp4"]
    assert [r["body"]["snippet"]["title"] for r in sent[:4:3]] == ["Zeta first", "Alpha then"]
    playlist = sent[6]["body"]
    assert playlist["snippet"]["title"] == "How attention works"  # the course's
    assert playlist["snippet"]["description"] == "1. Zeta first\n2. Alpha then"
    assert playlist["status"] == {"privacyStatus": "unlisted"}
    assert all(r["body"]["status"]["privacyStatus"] == "unlisted" for r in sent[:4:3])
    items = [r["body"]["snippet"] for r in sent[7:]]
    assert [(i["playlistId"], i["resourceId"]["videoId"], i["position"]) for i in items] == [
        ("<playlist 1>", "<video 1>", 0), ("<playlist 1>", "<video 2>", 1)]
    assert out.splitlines()[-1].startswith(
        "dry run: 9 requests, none sent; quota: 2 of the 100 videos.insert calls and 1,050 of")
    assert snapshot(course) == before


def test_dry_run_of_shorts_sends_each_as_a_short_with_its_captions(capsys, chapter):
    shorts = write_shorts(chapter / "shorts")
    status, out, err = publish(capsys, str(chapter), "--shorts", "--dry-run")
    assert status == 0, err
    sent = requests(out)
    assert [r["method"] for r in sent] == ["videos.insert", "captions.insert"] * 2
    assert [r["file"] for r in sent] == [shorts / "DecoderQuestion.mp4",
                                         shorts / "DecoderQuestion.srt",
                                         shorts / "TheEncoderReads.mp4",
                                         shorts / "TheEncoderReads.srt"]
    first = sent[0]["body"]["snippet"]
    assert first["title"] == "Short number 1 #Shorts"
    assert first["description"].startswith("The first sentence of short 1.\n\nFrom the "
                                           "chapter “Inside the decoder”.\n\nNarration: ")
    assert first["tags"] == list(TAGS)  # the chapter's, from the bundle the shorts are in
    assert sent[1]["body"]["snippet"]["videoId"] == "<video 1>"
    assert sent[3]["body"]["snippet"]["videoId"] == "<video 2>"
    assert "800 of the 10,000 units" in out.splitlines()[-1]
    assert not (shorts / FILE).exists() and not (chapter / FILE).exists()


def test_a_course_from_before_courses_had_titles_is_named_by_its_chapters(tmp_path):
    course = write_course(tmp_path / "course", {"one": "First", "two": "Second"})
    playlist = bundles.read(course, shorts=False, given={}).playlist
    assert playlist is not None and playlist.metadata.title == "A course in 2 chapters"


def test_a_long_short_title_is_cut_at_a_word_to_end_in_shorts(tmp_path):
    shorts = write_shorts(tmp_path / "shorts")
    listing = json.loads((shorts / "shorts.json").read_text())
    listing["clips"][0]["title"] = "word " * 30
    (shorts / "shorts.json").write_text(json.dumps(listing))
    title = bundles.read(shorts, shorts=True, given={}).videos[0].metadata.title
    assert len(title) <= 100 and title.endswith("word… #Shorts")


# ----------------------------------------------------------------- the metadata


def test_description_is_summary_chapter_list_and_credits(chapter):
    video = bundles.read(chapter, shorts=False, given={}).videos[0]
    tools = ", ".join(f"{k} {v}" for k, v in versions().items())
    assert video.metadata.description == (
        f"{SUMMARY}\n\n{CHAPTERS.strip()}\n\n"
        f"Narration: the piper voice en_US-joe-medium ({VOICE['licence']}).\n"
        f"Made with {tools}.")
    assert video.metadata.tags == TAGS
    assert (video.metadata.category, video.metadata.language) == ("27", "en")


def test_a_bundle_without_summary_or_tags_still_publishes(tmp_path):
    folder = write_bundle(tmp_path / "old", summary=None, tags=None)
    m = bundles.read(folder, shorts=False, given={}).videos[0].metadata
    assert m.description.startswith("0:00 The question\n")
    assert m.tags == ()


def test_an_option_wins_over_publish_toml_which_wins_over_the_bundle(chapter):
    def resolved(**options: Any) -> metadata.Metadata:
        given = metadata.options({f: options.get(f) for f in metadata.FIELDS})
        return bundles.read(chapter, shorts=False, given=given).videos[0].metadata

    assert resolved().title == "Inside the decoder"
    (chapter / "publish.toml").write_text(
        'title = "From the file"\ntags = ["one", "two words"]\nprivacy = "unlisted"\n'
        'category = 28\nmade_for_kids = true\n')
    from_file = resolved()
    assert (from_file.title, from_file.tags, from_file.privacy, from_file.category,
            from_file.made_for_kids) == ("From the file", ("one", "two words"), "unlisted",
                                         "28", True)
    assert from_file.description.startswith(SUMMARY)  # what the file does not set stays
    chosen = resolved(title="From the option", tags="a, b ,,c", privacy="public",
                      language="en-GB")
    assert (chosen.title, chosen.tags, chosen.privacy, chosen.language,
            chosen.category) == ("From the option", ("a", "b", "c"), "public", "en-GB", "28")


def test_a_toml_table_sets_one_short(tmp_path):
    shorts = write_shorts(tmp_path / "shorts")
    (shorts / "publish.toml").write_text('privacy = "unlisted"\n[TheEncoderReads]\n'
                                         'title = "Reading, one word at a time"\n')
    first, second = bundles.read(shorts, shorts=True, given={}).videos
    assert first.metadata.title == "Short number 1 #Shorts"
    assert second.metadata.title == "Reading, one word at a time #Shorts"
    assert first.metadata.privacy == second.metadata.privacy == "unlisted"


# ----------------------------------------------------------------- limits, bad input


def too_many_tags(folder: Path) -> None:
    (folder / "publish.toml").write_text(f"tags = {json.dumps(['machine learning'] * 30)}\n")


def too_big_thumbnail(folder: Path) -> None:
    (folder / "thumbnail.jpg").write_bytes(b"\xff\xd8\xff" + bytes(2 * 1024 * 1024))


def too_long_video(folder: Path) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["duration"] = 13 * 3600.0
    (folder / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("spoil, args, said", [
    (None, ["--title", "x" * 101], ["title is 101 characters", "at most 100"]),
    (lambda f: (f / "publish.toml").write_text('title = "a <b> c"\n'), [],
     ["title has < and >"]),
    (lambda f: (f / "publish.toml").write_text(f'description = "{"é" * 2600}"\n'), [],
     ["description is 5200 bytes", "at most 5000"]),
    (too_many_tags, [], ["tags come to 569 characters", "at most 500"]),
    (too_big_thumbnail, [], ["thumbnail.jpg is 2,097,155 bytes", "at most 2,097,152"]),
    (lambda f: (f / "thumbnail.jpg").write_bytes(b"GIF89a" + bytes(100)), [],
     ["neither a JPEG nor a PNG"]),
    (too_long_video, [], ["runs 46800.0 s", "at most 43200 s"]),
    (lambda f: (f / "chapters.txt").write_text("0:05 Late\n"), [], ["start at 0:00"]),
    (lambda f: (f / "publish.toml").write_text("title = \n"), [], ["not a valid TOML"]),
    (lambda f: (f / "publish.toml").write_text('colour = "red"\n'), [],
     ["unknown key 'colour'", "title, description"]),
    (lambda f: (f / "publish.toml").write_text("tags = \"one\"\n"), [],
     ["publish.toml: tags is \"one\"; it should be a list of strings"]),
    (lambda f: (f / "publish.toml").write_text('privacy = "secret"\n'), [],
     ["publish.toml: privacy is \"secret\"", "one of private, unlisted, public"]),
    (lambda f: (f / "manifest.json").unlink(), [], ["not a publish bundle", "manifest.json"]),
    (lambda f: (f / "chapter.mp4").unlink(), [], ["no chapter.mp4"]),
    (lambda f: (f / FILE).write_text("{"), [], [f"{FILE}: not readable JSON"]),
    (lambda f: (f / FILE).write_text('{"sites": {}, "sites": {}}'), [],
     [f"{FILE}: not readable JSON", "the key 'sites' is given twice"]),
    (lambda f: (f / FILE).write_text(json.dumps({"sites": {ROOT: {"videos": []}}})), [],
     [f"{FILE}: sites[", "].videos is []; it should be an object"]),
    (lambda f: (f / FILE).write_text(json.dumps({"sites": {ROOT: {"videos": {"a": 1}}}})),
     [], [f"{FILE}: sites[", "].videos.a is 1; it should be an object"]),
    (None, ["--category", "Education"], ["not a category id", "27"]),
    (None, ["--language", "english language"], ["not a language tag"]),
    (None, ["--chunk-kib", "100"], ["multiple of 256"]),
    (None, ["--api-root", "ftp://example.org/"], ["--api-root", "http or https"]),
    (None, ["--shorts"], ["no shorts", "render.py shorts"]),
    (None, ["--shorts", "--title", "x"], ["no shorts"]),
    (None, ["--login"], ["--login only logs in"]),
    (None, ["--client-secrets", "x.json"], ["goes with --login"]),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(capsys, chapter, spoil, args, said):
    if spoil:
        spoil(chapter)
    before = snapshot(chapter)
    for dry in (["--dry-run"], []):
        status, out, err = publish(capsys, str(chapter), *dry, "--token",
                                   str(chapter / "no-token.json"), *args)
        one_line_error(status, out, err, *said)
        assert snapshot(chapter) == before


def test_title_and_description_are_refused_for_many_shorts(capsys, chapter):
    write_shorts(chapter / "shorts")
    status, out, err = publish(capsys, str(chapter), "--shorts", "--dry-run", "--title", "x")
    one_line_error(status, out, err, "--title would give every short the same title")


def test_a_short_over_three_minutes_is_refused(capsys, chapter):
    shorts = write_shorts(chapter / "shorts")
    listing = json.loads((shorts / "shorts.json").read_text())
    listing["clips"][1]["seconds"] = 181.0
    (shorts / "shorts.json").write_text(json.dumps(listing))
    status, out, err = publish(capsys, str(chapter), "--shorts", "--dry-run")
    one_line_error(status, out, err, "shorts/TheEncoderReads.mp4", "a Short may run at most 180")


def test_a_folder_of_shorts_asks_for_shorts(capsys, tmp_path):
    shorts = write_shorts(tmp_path / "shorts")
    status, out, err = publish(capsys, str(shorts), "--dry-run")
    one_line_error(status, out, err, "holds shorts", "--shorts")
    status, out, err = publish(capsys, str(shorts), "--dry-run", "--shorts")
    assert status == 0 and methods(out) == ["videos.insert", "captions.insert"] * 2


def test_not_a_folder_and_a_bad_course_are_one_line(capsys, tmp_path):
    one_line_error(*publish(capsys, str(tmp_path / "nowhere"), "--dry-run"), "no such folder")
    (tmp_path / "course.json").write_text('{"chapters": [{"name": "gone"}]}')
    one_line_error(*publish(capsys, str(tmp_path), "--dry-run"), "gone", "not a publish bundle")


def test_a_missing_token_is_one_line_saying_how_to_log_in(capsys, chapter):
    status, out, err = publish(capsys, str(chapter), "--token", str(chapter / "none.json"))
    one_line_error(status, out, err, "no token at", "--login --client-secrets FILE")
    assert not (chapter / FILE).exists()


def test_a_bad_choice_is_argparse_exit_2(capsys, chapter):
    with pytest.raises(SystemExit) as stop:
        render.main(["publish", str(chapter), "--privacy", "secret"])
    assert stop.value.code == 2
    assert "invalid choice: 'secret'" in capsys.readouterr().err


# ----------------------------------------------------------------- publish.json


class Recording(DryRun):
    """The dry-run site standing in for the real one: its ids ("id-video-1") are told
    apart from the stand-ins a later dry run prints ("<video 1>")."""

    def __init__(self, root: str = ROOT) -> None:
        super().__init__(root, io.StringIO())

    def _stand_in(self, kind: str) -> str:
        return "id-" + super()._stand_in(kind).strip("<>").replace(" ", "-")


class Refusing(Recording):
    """It refuses the ``at``-th request with ``failure``."""

    def __init__(self, at: int, failure: RemoteFailure) -> None:
        super().__init__()
        self.at, self.failure = at, failure

    def _print(self, method: str, *args: Any, **kwargs: Any) -> None:
        if sum(self.sent.values()) + 1 == self.at:
            raise self.failure
        super()._print(method, *args, **kwargs)


def published(folder: Path, *, root: str = ROOT, shorts: bool = False,
              site: DryRun | None = None) -> list[str]:
    """Publish ``folder`` to a :class:`Recording` site as if it were the real one (its
    ids recorded in publish.json); the lines it reported."""
    lines: list[str] = []
    publisher = Publisher(command.states_of(root, keep=True), say=lines.append,
                          report=lines.append, progress=quiet)
    steps = publisher.plan(bundles.read(folder, shorts=shorts, given={}))
    publisher.run(site or Recording(root), steps)
    return lines


def record(folder: Path, name: str = "chapter.mp4", root: str = ROOT) -> dict[str, Any]:
    return json.loads((folder / FILE).read_text())["sites"][root]["videos"][name]


def test_publish_json_records_what_was_sent(chapter):
    lines = published(chapter)
    assert lines == ["chapter.mp4: uploaded as video id-video-1 (private)",
                     "thumbnail.jpg: set on video id-video-1",
                     "chapter.srt: captions id-captions-1 added on video id-video-1"]
    kept = record(chapter)
    from production.files import sha256
    assert kept["sha256"] == sha256(chapter / "chapter.mp4")
    assert kept["video_id"] == "id-video-1"
    assert kept["body"]["snippet"]["title"] == "Inside the decoder"
    assert kept["thumbnail"] == {"file": "thumbnail.jpg",
                                 "sha256": sha256(chapter / "thumbnail.jpg")}
    assert kept["captions"] == {"file": "chapter.srt", "sha256": sha256(chapter / "chapter.srt"),
                                "id": "id-captions-1", "language": "en", "name": "English"}
    assert "session" not in kept


def test_a_rerun_with_nothing_changed_sends_nothing_and_says_so(capsys, chapter):
    published(chapter)
    before = snapshot(chapter)
    status, out, _ = publish(capsys, str(chapter), "--dry-run")
    assert status == 0 and requests(out) == []
    assert out == "nothing changed since the last publish: no request made\n"
    status, out, _ = publish(capsys, str(chapter), "--token", str(chapter / "none.json"))
    assert status == 0 and out == "nothing changed since the last publish: no request made\n"
    assert snapshot(chapter) == before


def test_a_changed_title_is_only_a_videos_update(capsys, chapter):
    published(chapter)
    (chapter / "publish.toml").write_text('title = "A better title"\n')
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    (update,) = requests(out)
    assert update["method"] == "videos.update" and update["verb"] == "PUT"
    assert update["url"] == f"{ROOT}youtube/v3/videos?part=snippet,status"
    assert update["body"]["id"] == "id-video-1"
    assert update["body"]["snippet"]["title"] == "A better title"
    assert "50 of the 10,000 units" in out and "0 of the 100 videos.insert" in out


def test_changed_captions_are_only_a_captions_update(capsys, chapter):
    published(chapter)
    (chapter / "chapter.srt").write_text("1\n00:00:00,000 --> 00:00:01,000\nNew words\n")
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    (update,) = requests(out)
    assert update["method"] == "captions.update" and update["file"] == chapter / "chapter.srt"
    assert update["body"]["id"] == "id-captions-1"
    assert update["body"]["snippet"]["videoId"] == "id-video-1"


def test_captions_in_another_language_are_a_new_track(capsys, chapter):
    published(chapter)
    (chapter / "publish.toml").write_text('language = "en-GB"\n')
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    update, captions = requests(out)
    assert update["method"] == "videos.update"
    assert update["body"]["snippet"]["defaultAudioLanguage"] == "en-GB"
    assert captions["method"] == "captions.insert"
    assert captions["body"]["snippet"]["language"] == "en-GB"


def test_a_changed_thumbnail_is_only_set_again(capsys, chapter):
    published(chapter)
    write_jpeg(chapter / "thumbnail.jpg", (1280, 720), "darkred")
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    assert methods(out) == ["thumbnails.set"] and "videoId=id-video-1" in out


def test_a_changed_video_file_is_a_new_video_and_the_old_id_is_kept(capsys, chapter):
    published(chapter)
    before = record(chapter)["sha256"]
    with open(chapter / "chapter.mp4", "ab") as f:
        f.write(b"\0")
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    assert out.splitlines()[0] == (
        "chapter.mp4 changed since it was published as video id-video-1: it goes up as a new "
        "video (the old one stays on the site; delete it there if it should go)")
    assert methods(out) == ["videos.insert", "thumbnails.set", "captions.insert"]
    site = Recording()
    site.made["video"] = 1
    published(chapter, site=site)
    kept = record(chapter)
    assert kept["video_id"] == "id-video-2"
    assert kept["replaced"] == [{"video_id": "id-video-1", "sha256": before}]
    assert kept["sha256"] != before and set(kept) >= {"thumbnail", "captions"}


def test_an_upload_a_killed_run_left_is_resumed_with_the_body_it_opened(capsys, chapter):
    from production.files import sha256
    opened = {"snippet": {"title": "Opened with"}, "status": {"privacyStatus": "private"}}
    session = {"uri": f"{ROOT}upload/youtube/v3/videos?upload_id=1", "body": opened,
               "sha256": sha256(chapter / "chapter.mp4")}
    state = {"sites": {ROOT: {"videos": {"chapter.mp4": {"session": session}}}}}
    (chapter / FILE).write_text(json.dumps(state))
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    sent = requests(out)
    assert [r["method"] for r in sent] == ["videos.insert", "videos.update", "thumbnails.set",
                                           "captions.insert"]
    assert sent[0]["how"] == "resuming the upload a killed run left"
    assert sent[0]["body"] == opened  # the session carries the body it was opened with
    assert sent[1]["body"]["snippet"]["title"] == "Inside the decoder"
    assert session["uri"] not in out
    session["sha256"] = "0" * 64  # the file changed since: its old session is not resumed
    (chapter / FILE).write_text(json.dumps(state))
    _, out, _ = publish(capsys, str(chapter), "--dry-run")
    assert requests(out)[0]["how"] == "a resumable upload"
    assert methods(out) == ["videos.insert", "thumbnails.set", "captions.insert"]


def test_records_are_kept_per_api_root(capsys, chapter):
    published(chapter)
    other = "http://127.0.0.1:9/"
    _, out, _ = publish(capsys, str(chapter), "--dry-run", "--api-root", other)
    assert methods(out) == ["videos.insert", "thumbnails.set", "captions.insert"]
    published(chapter, root=other)
    sites = json.loads((chapter / FILE).read_text())["sites"]
    assert set(sites) == {ROOT, other}
    assert all(set(site["videos"]["chapter.mp4"]) >= {"video_id", "thumbnail", "captions"}
               for site in sites.values())


def test_a_refused_step_says_what_was_done_and_what_is_left_and_a_rerun_does_the_rest(
        capsys, tmp_path):
    course = write_course(tmp_path / "course", {"one": "First", "two": "Second"})
    with pytest.raises(QuotaExceeded) as refused:
        published(course, site=Refusing(3, QuotaExceeded("quota exceeded")))
    assert str(refused.value) == (
        "quota exceeded; done 2 of 9 requests (one/chapter.mp4, one/thumbnail.jpg); left: "
        "one/chapter.srt, two/chapter.mp4, two/thumbnail.jpg, two/chapter.srt, the playlist, "
        "the playlist's item 1 (one/chapter.mp4), the playlist's item 2 (two/chapter.mp4); "
        "run publish again after the quota resets: it sends only what is left")
    _, out, _ = publish(capsys, str(course), "--dry-run")
    assert methods(out) == ["captions.insert", "videos.insert", "thumbnails.set",
                            "captions.insert", "playlists.insert", "playlistItems.insert",
                            "playlistItems.insert"]
    with pytest.raises(AuthFailure) as refused:
        published(course, site=Refusing(1, AuthFailure("the token was revoked; log in")))
    assert str(refused.value).startswith("the token was revoked; log in; done 0 of 7 "
                                         "requests; left: one/chapter.srt, ")
    assert str(refused.value).endswith("once logged in again, run publish again: it sends "
                                       "only what is left")


def test_a_course_rerun_adds_a_changed_chapter_after_the_one_before_it(capsys, tmp_path):
    course = write_course(tmp_path / "course", {"one": "First", "two": "Second",
                                                "three": "Third"})
    published(course)
    playlist = json.loads((course / FILE).read_text())["sites"][ROOT]["playlist"]
    assert [i["video_id"] for i in playlist["items"]] == ["id-video-1", "id-video-2",
                                                          "id-video-3"]
    with open(course / "two" / "chapter.mp4", "ab") as f:
        f.write(b"\0")
    _, out, _ = publish(capsys, str(course), "--dry-run")
    sent = requests(out)
    assert [r["method"] for r in sent] == ["videos.insert", "thumbnails.set", "captions.insert",
                                           "playlistItems.insert"]
    assert sent[0]["file"] == course / "two" / "chapter.mp4"
    item = sent[3]["body"]["snippet"]  # right after chapter one's: the old video moves down
    assert (item["playlistId"], item["resourceId"]["videoId"], item["position"]) == (
        "id-playlist-1", "<video 1>", 1)
    (course / "publish.toml").write_text('title = "The whole course"\n')
    _, out, _ = publish(capsys, str(course), "--dry-run")
    assert methods(out)[-2:] == ["playlists.update", "playlistItems.insert"]


# ----------------------------------------------------------------- progress


def test_progress_off_a_terminal_is_a_line_at_each_tenth():
    stream = io.StringIO()
    with upload_progress("chapter.mp4", 1000, stream) as report:
        for sent in range(0, 1001, 50):
            report(sent, 1000)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "uploading chapter.mp4: 0% (0 of 1,000 bytes)"
    assert lines[-1] == "uploading chapter.mp4: 100% (1,000 of 1,000 bytes)"
    assert len(lines) == 11


def test_publish_takes_the_chapter_its_bundle_is(capsys, chapter):
    """The README says every command but list, voices, new and course takes --chapter:
    publish checks it against the bundle's manifest."""
    status, out, err = publish(capsys, str(chapter), "--chapter", "decoder", "--dry-run")
    assert status == 0, err
    assert methods(out) == ["videos.insert", "thumbnails.set", "captions.insert"]
    one_line_error(*publish(capsys, str(chapter), "--chapter", "attention", "--dry-run"),
                   "--chapter attention:", "holds the bundle of chapter 'decoder'")
    one_line_error(*publish(capsys, str(chapter), "--chapter", "nope", "--dry-run"),
                   "--chapter 'nope': unknown chapter; chapters: attention, decoder")


@pytest.mark.parametrize("names, said", [
    (["first", "first"], "chapters[1].name: 'first' is listed twice; a course publishes each "
                         "chapter once"),
    (["first", "../first"], "chapters[1].name is \"../first\"; it should be a chapter's name"),
    (["first", 3], "chapters[1].name is 3; it should be a chapter's name"),
])
def test_a_course_listing_a_chapter_twice_or_by_a_bad_name_is_one_line(capsys, tmp_path,
                                                                       names, said):
    """A course.json naming a chapter twice uploaded the same video twice in one run."""
    course = write_course(tmp_path / "course", {"first": "Alpha"}, "A course")
    listing = json.loads((course / "course.json").read_text())
    listing["chapters"] = [{**listing["chapters"][0], "name": name} for name in names]
    (course / "course.json").write_text(json.dumps(listing))
    before = snapshot(course)
    for extra in (["--dry-run"], []):
        one_line_error(*publish(capsys, str(course), *extra), "course.json: ", said)
    assert snapshot(course) == before


def edited(file: str, change: Any) -> Any:
    """A spoiler that edits the JSON of ``file`` in the bundle by hand: ``change(data)``."""
    def spoil(folder: Path) -> None:
        path = folder / file
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))
    return spoil


def shorts_beside(folder: Path, change: Any) -> None:
    write_shorts(folder / "shorts")
    edited("shorts/shorts.json", change)(folder)


@pytest.mark.parametrize("spoil, args, said", [
    # a tags string was split into letters: t, w, o
    (edited("manifest.json", lambda m: m.update(tags="two words")), [],
     ["manifest.json: tags is \"two words\"; it should be a list of texts"]),
    (edited("manifest.json", lambda m: m.update(title=42)), [],
     ["manifest.json: title is 42; it should be text"]),
    (edited("manifest.json", lambda m: m.update(duration="long")), [],
     ["manifest.json: duration is \"long\"; it should be a number"]),
    (edited("manifest.json", lambda m: m.update(summary=["a", "b"])), [],
     ["manifest.json: summary is [\"a\", \"b\"]; it should be text"]),
    (edited("manifest.json", lambda m: m.update(voice="joe")), [],
     ["manifest.json: voice is \"joe\"; it should be an object"]),
    (lambda f: (f / "manifest.json").write_text('{"title": "a", "title": "b"}'), [],
     ["manifest.json: not readable JSON", "the key 'title' is given twice"]),
    (lambda f: (f / "manifest.json").write_bytes('{"title": "Café"}'.encode("latin-1")), [],
     ["manifest.json: not UTF-8 text"]),
    (lambda f: (f / "chapters.txt").write_bytes("0:00 Début\n".encode("latin-1")), [],
     ["chapters.txt: not UTF-8 text"]),
    (lambda f: shorts_beside(f, lambda s: s.update(clips="Scores.mp4")), ["--shorts"],
     ["shorts.json: clips is \"Scores.mp4\"; it should be a list of objects"]),
    (lambda f: shorts_beside(f, lambda s: s["clips"][0].update(parts="two")), ["--shorts"],
     ["shorts.json: clips[0].parts is \"two\"; it should be a whole number"]),
    (lambda f: shorts_beside(f, lambda s: s["clips"][0].update(file="../chapter.mp4")),
     ["--shorts"], ["shorts.json: lists '../chapter.mp4', which is not there"]),
    (lambda f: shorts_beside(f, lambda s: s["clips"][0].update(seconds=float("nan"))),
     ["--shorts"], ["shorts.json: not readable JSON", "NaN is not JSON"]),
])
def test_a_hand_edited_bundle_file_is_one_line_naming_the_file_and_field(capsys, chapter, spoil,
                                                                         args, said):
    spoil(chapter)
    before = snapshot(chapter)
    for dry in (["--dry-run"], []):
        status, out, err = publish(capsys, str(chapter), *dry, "--token",
                                   str(chapter / "no-token.json"), *args)
        one_line_error(status, out, err, *said)
        assert snapshot(chapter) == before
