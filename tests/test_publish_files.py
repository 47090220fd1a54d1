"""The files a bundle keeps and publishing reads back (publish.json, manifest.json,
shorts.json, course.json, publish.toml), edited by hand: each is read through its schema
(production/schemas/), so a field of the wrong kind, a language nobody speaks, a file of
absurd size or nesting, or a folder where the file goes is one line naming the file and the
field, exit status 2, never a traceback and never a value sent on to the site. A
byte-order mark at the start of a file is forgiven. Every case runs the publish command's
dry run in process (nothing here opens a connection)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from production import files, schemas
from production.publish import command
from production.schemas import MAX_BYTES, MAX_DEPTH
from tests.conftest import Ran, run_command
from tests.publish_bundles import snapshot, write_bundle, write_course, write_shorts

ROOT = command.DEFAULT_API_ROOT
BOM = "\ufeff"
#: a manifest's language as a careless or hostile hand edit leaves it
BAD_LANGUAGES = ['es"><script>', "../../x", "", "e" * 300, "xx", 7]
#: what a test's name shows of a value (300 characters would be its whole id)
SHORT = {"ids": lambda value: repr(value)[:12]}


@pytest.fixture
def out(tmp_path: Path) -> Path:
    """An English bundle in out/ (published: its publish.json records the video) and the
    same chapter's Spanish bundle in out/es/."""
    folder = write_bundle(tmp_path / "out")
    state = {"sites": {ROOT: {"videos": {"chapter.mp4": {
        "sha256": files.sha256(folder / "chapter.mp4"), "bytes": 1, "video_id": "id-video-1",
        "body": {"snippet": {"title": "Inside the decoder", "defaultLanguage": "en"},
                 "status": {"privacyStatus": "private"}},
        "localizations": {"de": {"title": "Im Decoder", "description": ""}}}}}}}
    (folder / "publish.json").write_text(json.dumps(state), encoding="utf-8")
    spanish = write_bundle(folder / "es", "Dentro del decodificador")
    edit(spanish / "manifest.json", lambda m: m.update(language="es"))
    return folder


def edit(path: Path, change: Callable[[Any], Any]) -> None:
    """``path``'s JSON changed by hand: ``change(data)``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def video(data: dict[str, Any]) -> dict[str, Any]:
    return data["sites"][ROOT]["videos"]["chapter.mp4"]


def one_line(ran: Ran, *said: str) -> None:
    """Exit status 2 and one line on stderr, saying each of ``said``, at most 80 characters
    of the user's value in it."""
    assert ran.code == 2, (ran.out, ran.err)
    assert ran.err.count("\n") == 1 and ran.err.startswith("render.py: error: "), ran.err
    for words in said:
        assert words in ran.err, ran.err
    assert "e" * 81 not in ran.err and "[" * 81 not in ran.err, ran.err


def both_ways(out: Path, *said: str) -> None:
    """Publishing out/ and adding out/es/ to it as a localization each stop at the same one
    line, and leave every file as it was."""
    before = snapshot(out)
    one_line(run_command("publish", str(out), "--dry-run"), *said)
    one_line(run_command("publish", str(out / "es"), "--as-localization", "--dry-run"), *said)
    assert snapshot(out) == before


def test_a_valid_bundle_and_its_record_still_read(out):
    ran = run_command("publish", str(out), "--dry-run")
    assert ran.code == 0, ran.err
    assert "videos.update" in ran.out  # its body since: the record read, not ignored
    ran = run_command("publish", str(out / "es"), "--as-localization", "--dry-run")
    assert ran.code == 0, ran.err
    assert '"es": {' in ran.out and '"de": {' in ran.out and "captions.insert" in ran.out


# ----------------------------------------------------------------- publish.json


@pytest.mark.parametrize("change, said", [
    (lambda d: video(d).pop("body"), "videos['chapter.mp4'].body is missing"),
    (lambda d: video(d).update(localizations="oops"),
     "videos['chapter.mp4'].localizations is \"oops\"; it should be"),
    (lambda d: video(d).update(body="x"), "videos['chapter.mp4'].body is \"x\"; it should be"),
    (lambda d: video(d)["localizations"].update({"es\"><script>": {"title": "x"}}),
     "videos['chapter.mp4'].localizations has the key"),
    (lambda d: video(d)["body"].update(status={}), "body.status.privacyStatus is missing"),
    (lambda d: d["sites"][ROOT].update(videos=[]), f"sites['{ROOT}'].videos is []"),
    (lambda d: video(d).update(session={"uri": "https://elsewhere.example/take?token=1",
                                        "sha256": "0" * 64, "body": video(d)["body"]}),
     "videos['chapter.mp4'].session.uri is 'https://elsewhere.example/take?token=1'; it "
     "should be an address on"),
])
def test_a_hand_edited_record_is_one_line_naming_its_field(out, change, said):
    edit(out / "publish.json", change)
    both_ways(out, "publish.json: ", said)


def test_a_record_nested_too_deep_is_one_line(out):
    (out / "publish.json").write_text("[" * 100_000, encoding="utf-8")
    both_ways(out, "publish.json: ", "nested")
    (out / "publish.json").write_text("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    both_ways(out, "publish.json: ", f"more than {MAX_DEPTH} deep")


# ----------------------------------------------------------------- languages


@pytest.mark.parametrize("language", BAD_LANGUAGES, **SHORT)
def test_a_manifest_in_no_language_is_one_line_and_never_sent(out, language):
    edit(out / "manifest.json", lambda m: m.update(language=language))
    edit(out / "es" / "manifest.json", lambda m: m.update(language=language))
    both_ways(out, "manifest.json: language is ", "a language")


@pytest.mark.parametrize("language", BAD_LANGUAGES, **SHORT)
def test_a_course_in_no_language_is_one_line(tmp_path, language):
    course = write_course(tmp_path / "course", {"first": "Alpha"}, "A course")
    edit(course / "course.json", lambda c: c.update(language=language))
    one_line(run_command("publish", str(course), "--dry-run"),
             "course.json: language is ", "a language")


@pytest.mark.parametrize("language", ["xx", "../../x", "e" * 300], **SHORT)
def test_a_language_setting_or_option_is_a_known_language(out, language):
    one_line(run_command("publish", str(out), "--dry-run", "--language", language),
             "--language", "not a language")
    (out / "publish.toml").write_text(f"language = {json.dumps(language)}\n")
    one_line(run_command("publish", str(out), "--dry-run"), "publish.toml: language is ",
             "a language")


@pytest.mark.parametrize("language", ["es", "pt_BR", "pt-BR", "es-419", "zh-Hant"])
def test_a_language_tag_of_a_known_language_is_taken(out, language):
    edit(out / "manifest.json", lambda m: m.update(language=language))
    ran = run_command("publish", str(out), "--dry-run")
    assert ran.code == 0, ran.err
    assert f'"defaultLanguage": "{language.replace("_", "-")}"' in ran.out


# ----------------------------------------------------------------- any of the five


def bundle_of_every_file(tmp_path: Path) -> dict[str, tuple[Path, list[str]]]:
    """Each of the five files in a folder that reads it, and the publish that reads it."""
    chapter = write_bundle(tmp_path / "chapter")
    (chapter / "publish.toml").write_text('title = "Set by hand"\n', encoding="utf-8")
    (chapter / "publish.json").write_text('{"sites": {}}', encoding="utf-8")
    shorts = write_shorts(chapter / "shorts")
    course = write_course(tmp_path / "course", {"first": "Alpha"}, "A course")
    return {"manifest.json": (chapter / "manifest.json", [str(chapter)]),
            "publish.toml": (chapter / "publish.toml", [str(chapter)]),
            "publish.json": (chapter / "publish.json", [str(chapter)]),
            "shorts.json": (shorts / "shorts.json", [str(chapter), "--shorts"]),
            "course.json": (course / "course.json", [str(course)])}


FIVE = ["manifest.json", "publish.toml", "publish.json", "shorts.json", "course.json"]


@pytest.mark.parametrize("name", FIVE)
def test_a_byte_order_mark_is_forgiven(tmp_path, name):
    path, args = bundle_of_every_file(tmp_path)[name]
    plain = run_command("publish", *args, "--dry-run")
    assert plain.code == 0, plain.err
    path.write_text(BOM + path.read_text(encoding="utf-8"), encoding="utf-8")
    marked = run_command("publish", *args, "--dry-run")
    assert marked.code == 0, marked.err
    assert marked.out == plain.out


@pytest.mark.parametrize("name", FIVE)
def test_a_folder_where_the_file_goes_is_one_line(tmp_path, name):
    path, args = bundle_of_every_file(tmp_path)[name]
    path.unlink()
    path.mkdir()
    one_line(run_command("publish", *args, "--dry-run"), f"{path}: a folder, not a file")


@pytest.mark.parametrize("name", FIVE)
def test_deep_nesting_and_absurd_size_are_one_line(tmp_path, name):
    path, args = bundle_of_every_file(tmp_path)[name]
    text = path.read_text(encoding="utf-8")
    deep = "title = " + "[" * 100_000 if name.endswith(".toml") else "[" * 100_000
    path.write_text(deep, encoding="utf-8")
    one_line(run_command("publish", *args, "--dry-run"), f"{path}: ", "nested")
    with open(path, "w", encoding="utf-8") as f:  # what it held, padded past the limit
        f.write(text + " " * (MAX_BYTES + 1 - len(text.encode())))
    one_line(run_command("publish", *args, "--dry-run"), f"{path}: ",
             f"{MAX_BYTES + 1:,} bytes", f"at most {MAX_BYTES:,}")


@pytest.mark.parametrize("name, change, said", [
    ("manifest.json", lambda m: m.update(tags="two words"), "tags is \"two words\""),
    ("shorts.json", lambda s: s["clips"][0].update(parts=0), "clips[0].parts is 0"),
    ("shorts.json", lambda s: s["clips"][1].pop("file"), "clips[1].file is missing"),
    ("course.json", lambda c: c.update(chapters={}), "chapters is {}"),
    ("course.json", lambda c: c["chapters"][0].update(name="../x"),
     "chapters[0].name is \"../x\""),
])
def test_a_field_of_the_wrong_kind_is_one_line_naming_it(tmp_path, name, change, said):
    path, args = bundle_of_every_file(tmp_path)[name]
    edit(path, change)
    one_line(run_command("publish", *args, "--dry-run"), f"{path}: {said}; it should be")


def constraints(node: Any) -> list[dict[str, Any]]:
    """Every subschema of ``node`` that constrains a value (a type, an enum, a format)."""
    found = []
    if isinstance(node, dict):
        if {"type", "enum", "format"} & set(node):
            found.append(node)
        for value in node.values():
            found += constraints(value)
    elif isinstance(node, list):
        for value in node:
            found += constraints(value)
    return found


@pytest.mark.parametrize("name", FIVE)
def test_each_schema_is_valid_and_says_what_each_field_should_be(name):
    declared = schemas.schema(name)
    Draft202012Validator.check_schema(declared)
    assert all("description" in node for node in constraints(declared)), name
