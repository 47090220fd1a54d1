"""Every chapter's parts fit together: every ledger section is shown by a scene, every
scene names a ledger section and has a narration file with a passage per beat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from core import ledger
from production import chapters, narration
from production.paths import ROOT
from scenes.attention.chapter import CHAPTER, SCENES_IN_ORDER

ALL = chapters.discover("scenes", ROOT / "scenes")


def parts_problems(scenes: Iterable[Any], sections: Mapping[str, Any],
                   narration_dir: Path) -> list[str]:
    return chapters.parts_problems(scenes, sections, narration_dir)


@pytest.mark.parametrize("chapter", ALL.values(), ids=list(ALL))
def test_every_chapter_fits_together(chapter):
    assert chapters.problems(chapter) == []


def test_every_section_has_a_scene_and_every_scene_a_narration_file():
    assert parts_problems(SCENES_IN_ORDER, ledger.SECTIONS, CHAPTER.narration) == []


def test_every_passage_takes_its_values_from_the_ledger():
    for scene in SCENES_IN_ORDER:
        script = narration.script_for(CHAPTER, scene, None)
        assert list(script) == list(scene.beat_seconds)


def test_a_missing_part_is_named(tmp_path):
    for path in CHAPTER.narration.glob("*.txt"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    last = SCENES_IN_ORDER[-1]
    (tmp_path / f"{last.__name__}.txt").unlink()
    (tmp_path / "Leftover.txt").write_text("[one]\nA passage no scene reads.\n")
    problems = parts_problems(SCENES_IN_ORDER, {**ledger.SECTIONS, "extra": {}}, tmp_path)
    assert problems == [
        "ledger section 'extra' is shown by no scene",
        f"no narration for {last.__name__}: expected {tmp_path / f'{last.__name__}.txt'}",
        f"{tmp_path / 'Leftover.txt'} is read by no scene",
    ]
