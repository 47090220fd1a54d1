"""render.py's scene commands: list, dry run and errors, called in process (each exits
before drawing); and the command as a real process, as a user's shell starts it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from production.paths import ROOT
from scenes.attention.chapter import SCENES_IN_ORDER
from tests.conftest import run_command


def test_list_prints_every_chapter_with_its_scenes_in_order():
    out = run_command("list")
    assert out.code == 0
    lines = out.out.splitlines()
    assert lines[0] == "attention: How attention decides where to look"
    assert [line.strip() for line in lines[1:1 + len(SCENES_IN_ORDER)]] == \
        [s.__name__ for s in SCENES_IN_ORDER]
    listed = json.loads(run_command("list", "--json").out)
    attention, = [c for c in listed["chapters"] if c["name"] == "attention"]
    assert attention == {"name": "attention", "title": "How attention decides where to look",
                         "scenes": [s.__name__ for s in SCENES_IN_ORDER]}


def test_an_unknown_chapter_is_one_line_naming_the_chapters():
    for command in (["numbers"], ["render", "--dry-run"], ["slides", "--dry-run"],
                    ["shorts", "--dry-run"], ["sweep", "TitleCard", "--set", "grid.sharpness=1,2"]):
        out = run_command(*command, "--chapter", "nosuch")
        assert out.code == 2, command
        assert out.err.strip() == ("render.py: error: --chapter 'nosuch': unknown chapter; "
                                   "chapters: attention, decoder"), command
        assert out.out == ""


def test_dry_run_names_every_scene_and_writes_nothing(tmp_path):
    target = tmp_path / "out"
    out = run_command("render", "--dry-run", "--quality", "preview", "--out", str(target))
    assert out.code == 0
    for scene in SCENES_IN_ORDER:
        assert scene.__name__ in out.out
    assert "854x480" in out.out
    assert not target.exists()


@pytest.mark.parametrize("args,named", [
    (["render", "NoSuchScene"], "NoSuchScene"),
    (["render", "--quality", "ultra"], "--quality"),
    (["render", "--set", "spotlight.sharpness=-1"], "spotlight.sharpness"),
])
def test_bad_render_input_exits_2_with_one_line(tmp_path, args, named):
    target = tmp_path / "out"
    out = run_command(*args, "--out", str(target))
    assert out.code == 2
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]
    assert not target.exists()


def test_out_that_is_a_file_exits_2(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    out = run_command("render", "TitleCard", "--out", str(blocker / "x"))
    assert out.code == 2
    assert "--out" in out.err


@pytest.mark.parametrize("out,named", [
    ("", "--out"),
    ("/proc/explainer-out", "/proc/explainer-out"),
    ("/sys/explainer-out", "/sys/explainer-out"),
])
def test_an_output_folder_that_takes_no_files_is_one_line_before_anything_runs(out, named):
    """/proc and /sys pass an access() check as root but take no files; an empty name
    must not quietly mean out/. Slides are refused as early as render."""
    for command in ("render", "slides"):
        result = run_command(command, "TitleCard", "--quality", "preview", "--out", out)
        assert result.code == 2, (command, result.err)
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and named in lines[0], lines
        assert result.out == ""


@pytest.mark.parametrize("out, named", [
    (".", "that is the project's own folder"),
    ("scenes", "inside the project's scenes/"),
    ("scenes/attention", "inside the project's scenes/"),
    ("production/out", "inside the project's production/"),
    ("core", "inside the project's core/"),
    ("tests/x", "inside the project's tests/"),
    ("CACHE/out", "inside the cache"),
])
@pytest.mark.parametrize("command", ["render", "slides", "shorts", "course"])
def test_an_output_folder_among_the_code_or_in_the_cache_is_refused(command, out, named,
                                                                     tmp_path, monkeypatch):
    """--out . once wrote the bundle into the project's folder and a clip into the scenes
    package; --out inside the cache mixed outputs with entries pruning deletes."""
    from production import paths

    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "cache"))
    folder = str(paths.cache() / "out") if out.startswith("CACHE") else str(ROOT / out)
    before = sorted(p.name for p in (ROOT / out.split("/")[0]).iterdir()) \
        if not out.startswith("CACHE") else []
    args = [command, "--out", folder, "--quality", "preview"] if command == "course" else \
        [command, "TitleCard", "--quality", "preview", "--out", folder]
    result = run_command(*args)
    assert result.code == 2, result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0], lines
    assert result.out == ""
    if before:
        assert sorted(p.name for p in (ROOT / out.split("/")[0]).iterdir()) == before


def test_a_cache_folder_that_takes_no_files_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLAINER_CACHE", "/sys/explainer-cache")
    result = run_command("render", "TitleCard", "--quality", "preview",
                         "--out", str(tmp_path / "out"))
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "EXPLAINER_CACHE" in lines[0] and "/sys" in lines[0], lines
    assert not (tmp_path / "out").exists()


def test_the_command_may_be_left_out_render_is_meant(tmp_path):
    target = tmp_path / "out"
    out = run_command("--quality", "preview", "--dry-run", "--out", str(target))
    assert out.code == 0, out.err
    assert "854x480" in out.out and "TitleCard" in out.out
    named = run_command("TitleCard", "--quality", "preview", "--dry-run", "--out", str(target))
    assert named.code == 0, named.err
    [line] = named.out.splitlines()  # the one scene named, cached or to render
    assert line.split(" ", 1)[1].startswith("TitleCard at 854x480")


# ----------------------------------------------------------------- as a real process


@pytest.mark.parametrize("program", [
    [sys.executable, str(ROOT / "render.py")],
    [shutil.which("attention-explainer", path=os.path.dirname(sys.executable))],
], ids=["render.py", "console-script"])
def test_the_command_as_a_process_exits_2_with_one_line(tmp_path, program):
    """What the shell sees: the exit status of a real process, one line on stderr and
    nothing on stdout, from another folder than the project's (render.py run as a
    script, and the console script pip installs)."""
    assert program[0], "the console script attention-explainer is not installed"
    done = subprocess.run([*program, "render", "--quality", "ultra", "--out",
                           str(tmp_path / "out")], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("render.py: error: --quality 'ultra'"), lines
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("thumbnail, named", [
    (("NoSuchScene", "question"), "its thumbnail names scene 'NoSuchScene'"),
    (("TitleCard", "no_beat"), "its thumbnail names beat 'no_beat' of TitleCard"),
])
def test_a_thumbnail_naming_a_missing_scene_or_beat_is_refused_before_drawing(
        thumbnail, named, tmp_path, monkeypatch):
    """It was found after every scene was drawn, leaving a new video beside the old
    manifest and thumbnail (which publish then sent); the dry run did not catch it."""
    import dataclasses

    from production import chapters

    real = chapters.pick(chapters.discover("scenes", ROOT / "scenes"), "attention")
    spoiled = dataclasses.replace(real, thumbnail=thumbnail)
    monkeypatch.setattr("render.chapter", lambda args: spoiled)
    for extra in ([], ["--dry-run"]):
        result = run_command("render", "--quality", "preview", "--out", str(tmp_path / "o"),
                             *extra)
        assert result.code == 2
        lines = result.err.strip().splitlines()
        assert len(lines) == 1 and named in lines[0], lines
        assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("address", ["tcp://bob:hunter2@127.0.0.1:8786",
                                     "bob:hunter2@127.0.0.1:8786",
                                     "tls://:hunter2@scheduler.example:8786"])
def test_a_scheduler_address_with_a_password_is_refused_without_printing_it(address):
    result = run_command("render", "TitleCard", "--dry-run", "--scheduler", address)
    assert result.code == 2
    assert "hunter2" not in result.err + result.out and "bob" not in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert "a user name or password in a scheduler address is not taken" in result.err


# ----------------------------------------------------------------- numbers in ASCII digits

#: what Python's int() and float() read as numbers, which no option or setting takes:
#: Arabic-Indic and full-width digits, a digit group's underscore, white space around
NOT_ASCII_DIGITS = ["\u0663", "\uff13", "1_000", " 4 ", "4\n", "\u0661\u0660"]


def one_line_exit_2(ran, *named: str) -> str:
    assert ran.code == 2, (ran.code, ran.err)
    assert "Traceback" not in ran.err
    lines = ran.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("render.py: error: "), ran.err
    for name in named:
        assert name in lines[0], lines[0]
    assert ran.out == ""
    return lines[0]


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS)
@pytest.mark.parametrize("command", [["render", "TitleCard"], ["slides", "TitleCard"],
                                     ["course"], ["demo"]])
def test_jobs_takes_ascii_digits_only(command, value, tmp_path):
    ran = run_command(*command, "--jobs", value, "--dry-run", "--out", str(tmp_path / "o"))
    line = one_line_exit_2(ran, "--jobs", "digits 0-9")
    assert "whole number" in line
    assert not (tmp_path / "o").exists()


def test_jobs_still_takes_a_whole_number(tmp_path):
    ran = run_command("render", "TitleCard", "--jobs", "+2", "--dry-run", "--quality",
                      "preview", "--no-narration", "--out", str(tmp_path / "o"))
    assert ran.code == 0, ran.err
    assert one_line_exit_2(run_command("render", "--jobs", "0", "--dry-run"), "--jobs", "1")


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS)
@pytest.mark.parametrize("setting", ["bottleneck.room", "bottleneck.length",
                                     "spotlight.sharpness", "seq2seq.length"])
def test_a_numeric_setting_takes_ascii_digits_only(setting, value):
    line = one_line_exit_2(run_command("numbers", "--set", f"{setting}={value}"), setting)
    assert "digits 0-9" in line


@pytest.mark.parametrize("value", ["2", "2.5", ".5", "+3", "1e1", "12.0"])
def test_a_numeric_setting_takes_a_plain_decimal(value):
    ran = run_command("numbers", "--set", f"spotlight.sharpness={value}")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["spotlight"]["sharpness"] == float(value)


def test_a_whole_number_setting_too_long_for_python_is_one_line():
    one_line_exit_2(run_command("numbers", "--set", "bottleneck.room=" + "1" * 5000),
                    "bottleneck.room")


@pytest.mark.parametrize("value", NOT_ASCII_DIGITS)
def test_watch_port_chunk_and_category_take_ascii_digits_only(value, tmp_path):
    one_line_exit_2(run_command("watch", "TitleCard", "--port", value), "--port")
    one_line_exit_2(run_command("publish", "--dry-run", "--chunk-kib", value, str(tmp_path)),
                    "--chunk-kib", "digits 0-9")
    one_line_exit_2(run_command("publish", "--dry-run", "--category", value, str(tmp_path)),
                    "--category", "not a category id")


# ----------------------------------------------------------------- what an error quotes back

LONG = "".join(chr(ord("a") + i % 26) for i in range(300))  # no run of it repeats


def quoted_back(line: str, value: str) -> int:
    """The most characters of ``value`` in a row that ``line`` holds."""
    return max((n for start in range(len(value)) for n in range(1, len(value) - start + 1)
                if value[start:start + n] in line), default=0)


@pytest.mark.parametrize("argv", [
    ["render", LONG, "--dry-run"],
    ["render", "--quality", LONG],
    ["render", "--chapter", LONG],
    ["render", "--language", LONG],
    ["render", "--job-unit", LONG, "--dry-run"],
    ["render", "--jobs", LONG],
    ["render", "--set", LONG],
    ["render", "--set", f"{LONG}=1"],
    ["numbers", "--set", f"spotlight.sharpness={LONG}"],
    ["numbers", "--set", f"spotlight.asker={LONG}"],
    ["sweep", "TitleCard", "--set", f"spotlight.sharpness=1,{LONG}"],
    ["shorts", "--frame", LONG],
    ["render", "TitleCard", "--voice", LONG, "--dry-run"],
    ["list", LONG],
    ["render", f"--quality={LONG}"],
    ["watch", "--port", LONG],
    ["watch", "--frame", LONG],
    ["new", f"{LONG}!"],
    ["new", "x", "--title", LONG],
    ["publish", "--privacy", LONG],
    ["publish", "--dry-run", "--category", LONG],
    ["publish", "--dry-run", "--api-root", LONG],
])
def test_an_error_quotes_at_most_80_characters_of_what_was_given(argv):
    line = one_line_exit_2(run_command(*argv))
    assert quoted_back(line, LONG) <= 80, line
    assert LONG[:77] + "..." in line, line  # its beginning, marked as cut


# ----------------------------------------------------------------- paths of the wrong kind


def test_paths_of_the_wrong_kind_are_one_line_naming_the_path(tmp_path):
    """Each path named as an error quotes it: whole, or its first 77 characters and "..."
    (pytest's own temporary folders grow longer over a long run)."""
    from production.errors import shortened

    a_file, a_folder = tmp_path / "a-file", tmp_path / "a-folder"
    file_named, folder_named = shortened(str(a_file)), shortened(str(a_folder))
    a_file.write_text("{}")
    a_folder.mkdir()
    cases = [
        (["publish", "--dry-run", str(a_file)], file_named, "a file, not a folder"),
        (["publish", "--login", "--client-secrets", str(a_folder)], folder_named,
         "a folder, not a file"),
        (["publish", "--login", "--client-secrets", str(a_file), "--token", str(a_folder)],
         folder_named, "a folder, not a file"),
        (["publish", "--token", str(a_folder), str(tmp_path)], folder_named,
         "a folder, not a file"),
        (["render", "TitleCard", "--dry-run", "--out", str(a_file)], file_named,
         "not a folder"),
        (["render", "TitleCard", "--dry-run", "--keyframes", str(a_file)], file_named,
         "not a folder"),
        (["demo", "--dry-run", "--out", str(a_file)], file_named, "not a folder"),
        (["course", "--dry-run", "--out", str(a_file)], file_named, "not a folder"),
    ]
    for argv, *named in cases:
        one_line_exit_2(run_command(*argv), *named)
    assert a_file.read_text() == "{}" and not any(a_folder.iterdir())
