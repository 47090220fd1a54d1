"""What the session has already rendered of the fixture chapter (the ``fixture_bundle``),
for the tests of the cache, locks, full disks, hostile paths, signals and clusters: its
scenes' cache entries and its speech, copied into a test's own cache, so that the test
draws only the scene it is about."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from pathlib import Path

from tests.conftest import SHARED_CACHE, SPEECH

#: the fixture chapter's scenes, in the chapter's order
SCENES = ("Scores", "Weights")


def session_entries(bundle: Path) -> dict[str, Path]:
    """The session cache's entry of each of the fixture chapter's scenes, the ones
    ``bundle`` (the fixture_bundle) was made from: scene name -> entry folder."""
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    entries = {scene["name"]: SHARED_CACHE / "scenes" / scene["content_key"]
               for scene in manifest["scenes"]}
    assert all((entry / "scene.json").exists() for entry in entries.values()), entries
    return entries


def seed_scenes(cache: Path, bundle: Path, names: Iterable[str] = SCENES) -> dict[str, Path]:
    """``cache`` (a cache folder) given copies of the session's entries of the scenes
    ``names``, as if it had rendered them itself: scene name -> its entry there."""
    seeded = {}
    for name, entry in session_entries(bundle).items():
        if name in names:
            seeded[name] = cache / "scenes" / entry.name
            shutil.copytree(entry, seeded[name])
    return seeded


def fixture_speech(bundle: Path) -> list[Path]:
    """The session's speech of the fixture chapter's passages: each WAV and its word
    timings (a few hundred kB, where the session's whole speech is many MB)."""
    stems = set()
    for entry in session_entries(bundle).values():
        record = json.loads((entry / "scene.json").read_text(encoding="utf-8"))
        stems.update(Path(passage["audio"]).name.split(".")[0]
                     for passage in record["passages"])
    found = sorted(p for p in SPEECH.iterdir() if p.name.split(".")[0] in stems)
    assert len([p for p in found if p.suffix == ".wav"]) == len(stems), (stems, found)
    return found


def seed_fixture_speech(cache: Path, bundle: Path) -> Path:
    """``cache`` holding the fixture chapter's speech (and no other) in voice/."""
    voice = cache / "voice"
    voice.mkdir(parents=True, exist_ok=True)
    for spoken in fixture_speech(bundle):
        shutil.copy2(spoken, voice / spoken.name)
    return cache


def said(stdout: str, how: str) -> list[str]:
    """The scenes a render's summary lines call ``how`` ("rendered" or "cached")."""
    return [line.split(":")[0] for line in stdout.splitlines() if line.endswith(f"({how})")]
