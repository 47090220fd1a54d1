"""The chapter's parts fit together: every ledger section is shown by a scene, every
scene names a ledger section and has a narration file with a passage per beat."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from core import ledger
from production import narration
from scenes import SCENES_IN_ORDER


def parts_problems(scenes: Iterable[Any], sections: Mapping[str, Any],
                   narration_dir: Path) -> list[str]:
    """What does not fit, one line each: a ledger section no scene shows, a scene whose
    section is not in the ledger, a scene without a readable narration file (a passage
    per beat, no others), a narration file no scene reads."""
    scenes = list(scenes)
    shown = {scene.section for scene in scenes}
    problems = [f"ledger section {s!r} is shown by no scene" for s in sections if s not in shown]
    for scene in scenes:
        if scene.section not in sections:
            problems.append(f"{scene.__name__} shows section {scene.section!r}, "
                            "which the ledger does not have")
        try:
            narration.read_script(scene.__name__, list(scene.beat_seconds), narration_dir)
        except narration.NarrationError as error:
            problems.append(str(error))
    problems += [f"{path} is read by no scene" for path in sorted(narration_dir.glob("*.txt"))
                 if path.stem not in {scene.__name__ for scene in scenes}]
    return problems


def test_every_section_has_a_scene_and_every_scene_a_narration_file():
    assert parts_problems(SCENES_IN_ORDER, ledger.SECTIONS, narration.NARRATION_DIR) == []


def test_every_passage_takes_its_values_from_the_ledger():
    for scene in SCENES_IN_ORDER:
        script = narration.script_for(scene, None)
        assert list(script) == list(scene.beat_seconds)


def test_a_missing_part_is_named(tmp_path):
    for path in narration.NARRATION_DIR.glob("*.txt"):
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
