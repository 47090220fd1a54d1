"""Only our own files (production/written.py): an output published whole into its folder,
over no file the project did not write there, with a record of what it wrote. The
commands that publish through it are tested in their own files (the demo's in
tests/test_demo.py, a system folder for --out in tests/test_hostile_paths.py)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from production import written
from production.errors import UsageError
from production.written import RECORD


def everything(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` (hidden ones too): its bytes, None for a
    folder or a link."""
    return {p.relative_to(folder).as_posix():
            None if p.is_dir() or p.is_symlink() else p.read_bytes()
            for p in folder.rglob("*")}


def output(out: Path, made: dict[str, bytes], last: str = "index.html") -> list[str]:
    """``made`` (path in the folder -> bytes) published into ``out`` as an output is."""
    with written.publishing(out, last=last) as stage:
        for name, data in made.items():
            (stage / name).parent.mkdir(parents=True, exist_ok=True)
            (stage / name).write_bytes(data)
    return sorted(made)


def record(out: Path) -> dict[str, list[str]]:
    return json.loads((out / RECORD).read_text(encoding="utf-8"))["files"]


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


FIRST = {"index.html": b"<p>one</p>", "clips/a.vtt": b"WEBVTT\n", "data.json": b"{}"}


def test_an_output_lands_whole_and_its_record_names_each_file_with_its_hash(tmp_path):
    out = tmp_path / "out"
    output(out, FIRST)
    assert everything(out) == {**FIRST, "clips": None, RECORD: (out / RECORD).read_bytes()}
    assert record(out) == {name: [sha(data)] for name, data in sorted(FIRST.items())}


def test_a_second_run_replaces_its_own_files_and_keeps_the_others_it_wrote(tmp_path):
    out = tmp_path / "out"
    output(out, FIRST)
    output(out, {"index.html": b"<p>two</p>", "clips/b.vtt": b"WEBVTT\n\nb"})
    assert (out / "index.html").read_bytes() == b"<p>two</p>"
    assert (out / "clips" / "a.vtt").read_bytes() == b"WEBVTT\n"  # an earlier run's, kept
    assert sorted(record(out)) == ["clips/a.vtt", "clips/b.vtt", "data.json", "index.html"]
    (out / "data.json").unlink()  # gone: no longer recorded
    output(out, {"index.html": b"<p>three</p>"})
    assert sorted(record(out)) == ["clips/a.vtt", "clips/b.vtt", "index.html"]
    assert record(out)["index.html"] == [sha(b"<p>three</p>")]


@pytest.mark.parametrize("theirs", ["index.html", "clips/a.vtt", "data.json"])
def test_a_file_the_project_did_not_write_stops_it_before_anything_moves(tmp_path, theirs):
    out = tmp_path / "out"
    (out / theirs).parent.mkdir(parents=True, exist_ok=True)
    (out / theirs).write_bytes(b"a user's own file")
    before = everything(out)
    with pytest.raises(UsageError) as refused:
        output(out, FIRST)
    assert str(refused.value) == (f"{out / theirs}: in the way: render.py did not write it; "
                                  "move it away or choose another --out (nothing was written)")
    assert everything(out) == before  # its bytes, no other file, no record, no staging


def test_a_file_changed_since_the_project_wrote_it_is_left_alone(tmp_path):
    out = tmp_path / "out"
    output(out, FIRST)
    (out / "clips" / "a.vtt").write_bytes(b"WEBVTT\n\nmy own captions")
    before = everything(out)
    with pytest.raises(UsageError, match=r"a\.vtt: in the way: changed since render\.py "
                                         r"wrote it; move it away"):
        output(out, FIRST)
    assert everything(out) == before


def test_every_file_in_the_way_is_counted_in_the_one_line(tmp_path):
    out = tmp_path / "out"
    for name in FIRST:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(b"mine")
    with pytest.raises(UsageError) as refused:
        output(out, FIRST)
    said = str(refused.value)
    assert said.startswith(f"{out / 'clips' / 'a.vtt'}: in the way: ")
    assert "(and 2 more file(s) in the way); move it away" in said and "\n" not in said


def test_a_file_that_already_holds_the_very_bytes_is_taken_as_it_is(tmp_path):
    """The same output, made by a version that kept no record (or a publish cut short
    before its record): nothing is lost by replacing it, and it is recorded."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_bytes(FIRST["index.html"])
    output(out, FIRST)
    assert record(out)["index.html"] == [sha(FIRST["index.html"])]


@pytest.mark.parametrize("kind", ["a folder", "a link", "a link to a folder on the way",
                                  "a file on the way"])
def test_a_folder_or_a_link_in_the_way_is_refused(tmp_path, kind):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "a.vtt").write_bytes(b"not the output's")
    out.mkdir()
    if kind == "a folder":
        (out / "index.html").mkdir()
        blocked = out / "index.html"
    elif kind == "a link":
        (out / "index.html").symlink_to(elsewhere / "a.vtt")
        blocked = out / "index.html"
    elif kind == "a link to a folder on the way":  # writing through it would leave out/
        (out / "clips").symlink_to(elsewhere)
        blocked = out / "clips"
    else:
        (out / "clips").write_bytes(b"a file named like the folder")
        blocked = out / "clips"
    before, outside = everything(out), everything(elsewhere)
    with pytest.raises(UsageError) as refused:
        output(out, {**FIRST, "clips/b.vtt": b"WEBVTT\n\nb"})
    assert str(refused.value).startswith(f"{blocked}: in the way: ")
    assert "more file(s)" not in str(refused.value)  # a folder on the way of two: said once
    assert everything(out) == before and everything(elsewhere) == outside


@pytest.mark.parametrize("text", ["my notes\n", '{"files": {"index.html": []}}', "[1]",
                                  '{"record": "x", "files": {}}'])
def test_a_file_under_the_records_name_that_is_not_one_is_refused(tmp_path, text):
    out = tmp_path / "out"
    out.mkdir()
    (out / RECORD).write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=r"\.written: in the way: render\.py keeps its "
                                         r"record of what it wrote in this folder under that "
                                         r"name, and that is not one; move it away"):
        output(out, FIRST)
    assert everything(out) == {RECORD: text.encode()}


def test_a_publish_cut_short_leaves_every_file_recorded(tmp_path, monkeypatch):
    """The record is written before the files move, naming both contents of a file
    being replaced: a run killed between two moves leaves a folder the next run takes."""
    import os

    out = tmp_path / "out"
    output(out, FIRST)
    moved = []

    def cut(source, target):  # the second file staged for the folder: killed there
        if "/.staged." in str(source):
            if moved:
                raise KeyboardInterrupt
            moved.append(target)
        os.rename(source, target)

    monkeypatch.setattr(written.os, "replace", cut)
    with pytest.raises(KeyboardInterrupt):
        output(out, {"clips/a.vtt": b"WEBVTT\n\nnew", "data.json": b"{\"new\": 1}"})
    monkeypatch.undo()
    assert (out / "clips" / "a.vtt").read_bytes() == b"WEBVTT\n\nnew"  # moved
    assert (out / "data.json").read_bytes() == b"{}"  # not yet
    assert sorted(record(out)["data.json"]) == sorted([sha(b"{}"), sha(b'{"new": 1}')])
    output(out, {"clips/a.vtt": b"WEBVTT\n\nnew", "data.json": b"{\"new\": 1}"})
    assert record(out)["data.json"] == [sha(b'{"new": 1}')]
    assert not [p for p in out.iterdir() if p.name.startswith(".staged")]


def test_the_last_file_lands_last(tmp_path, monkeypatch):
    import os

    order = []

    def replace(source, target):
        if "/.staged." in str(source):  # not the record, written whole as every file is
            order.append(Path(target).name)
        os.rename(source, target)

    monkeypatch.setattr(written.os, "replace", replace)
    output(tmp_path / "out", {"a.json": b"1", "manifest.json": b"2", "z.mp4": b"3"},
           last="manifest.json")
    assert order == ["a.json", "z.mp4", "manifest.json"]
