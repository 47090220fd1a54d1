"""Fixtures shared by the tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from production.paths import ROOT

PARTS = ("core", "scenes", "production", "assets", "render.py")


@pytest.fixture
def project(tmp_path) -> Path:
    """A copy of the project (code, scenes, assets) with its own cold cache in .cache/."""
    copy = tmp_path / "project"
    copy.mkdir()
    for part in PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, copy / part,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, copy / part)
    return copy
