"""Property: a careless or hostile chapter name, course listing or hand-edited bundle file
never ends a command in a traceback. Every command ends in one of: success, one line and
exit status 2 (what the user can fix), one line and exit status 1 (a site's refusal).

Hypothesis makes the names and files from hostile and malformed values (line breaks,
paths, NUL, other scripts, numbers where text goes, lists where objects go); the commands
run in process (`run_command`), reading what they were given and refusing it, or not.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from production import paths
from tests.conftest import copy_project, run_command
from tests.publish_bundles import write_bundle, write_course

#: what a careless or hostile user types where a name goes
NAMES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["attention\n", "../attention", "base", "style", "lines", "components",
                     "np", "", " ", ".", "..", "/etc", "a/b", "a\x00b", "Attention", "x" * 300,
                     "attention ", "décodeur", "import", "__init__", "course.txt"]),
    st.from_regex(r"[a-z][a-z0-9_]{0,12}\n?", fullmatch=True),
)
#: any JSON value, as a hand-edited file may hold one where another kind goes
JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
FIELDS = ("title", "tags", "summary", "duration", "voice", "versions", "chapter")

HOSTILE = settings(max_examples=40, deadline=None,
                   suppress_health_check=[HealthCheck.function_scoped_fixture])


def one_outcome(ran: Any) -> None:
    """Success; or one line and exit 2 or 1: never a traceback."""
    assert "Traceback" not in ran.err, ran.err
    if ran.code == 0:
        return
    assert ran.code in (1, 2), (ran.code, ran.err)
    assert len(ran.err.strip().splitlines()) == 1, ran.err
    assert ran.err.startswith("render.py: error: "), ran.err


@HOSTILE
@given(name=NAMES)
def test_any_chapter_name_is_a_chapter_or_one_line(name):
    ran = run_command("numbers", "--chapter", name)
    one_outcome(ran)
    if ran.code == 0:
        assert name in ("attention", "decoder") and json.loads(ran.out)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = copy_project(tmp_path_factory.mktemp("hostile") / "project")
    (copy / "tests").mkdir(exist_ok=True)
    return copy


@HOSTILE
@given(name=NAMES)
@example(name="-:")  # an option to argparse: its refusal, one line too
@example(name="a\x85b\u2028c")  # breaks a line for str.splitlines, not for a terminal
def test_any_new_chapter_name_is_written_whole_or_one_line(project, monkeypatch, name):
    monkeypatch.setattr(paths, "ROOT", project)
    before = sorted(str(p) for p in (project / "scenes").iterdir())
    ran = run_command("new", name)
    one_outcome(ran)
    after = sorted(str(p) for p in (project / "scenes").iterdir())
    if ran.code:
        assert after == before  # nothing written
    else:  # a plain name that shadows nothing, written whole
        assert (project / "scenes" / name / "chapter.py").is_file()
        assert name.isidentifier() and name == name.lower()
        shutil.rmtree(project / "scenes" / name)
        (project / "core" / f"{name}.py").unlink()
        (project / "tests" / f"test_chapter_{name}.py").unlink()


@HOSTILE
@given(field=st.sampled_from(FIELDS), value=JSON)
@example(field="title", value={"\x85": None})
def test_any_hand_edited_manifest_publishes_or_is_one_line(tmp_path_factory, field, value):
    folder = write_bundle(tmp_path_factory.mktemp("bundle") / "out")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest[field] = value
    (folder / "manifest.json").write_text(json.dumps(manifest))
    one_outcome(run_command("publish", str(folder), "--dry-run"))


@HOSTILE
@given(chapters=st.lists(st.one_of(NAMES, JSON), max_size=4), title=JSON)
def test_any_hand_edited_course_listing_publishes_or_is_one_line(tmp_path_factory, chapters,
                                                                 title):
    course = write_course(tmp_path_factory.mktemp("course") / "course", {"first": "Alpha"})
    listing = json.loads((course / "course.json").read_text())
    listing["title"] = title
    listing["chapters"] = [{**listing["chapters"][0], "name": name} for name in chapters]
    (course / "course.json").write_text(json.dumps(listing))
    one_outcome(run_command("publish", str(course), "--dry-run"))
