"""The cache keeps what renders use and drops what none has used for KEEP_DAYS."""

from __future__ import annotations

import os
import time

from production import cache
from production.narration import DEFAULT_VOICE, synthesize

DAY = 86400


def entry(folder, name: str, age_days: float, now: float):
    path = folder / name
    if name.endswith(".wav"):
        path.write_bytes(b"RIFF")
    else:
        path.mkdir(parents=True)
        (path / "scene.json").write_text("{}")
    os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return path


def test_prune_drops_old_entries_and_stale_build_folders_only(tmp_path):
    now = time.time()
    scenes, voice = tmp_path / "scenes", tmp_path / "voice"
    scenes.mkdir()
    voice.mkdir()
    fresh = entry(scenes, "a1", 1, now)
    old = entry(scenes, "b2", cache.KEEP_DAYS + 1, now)
    building = entry(scenes, ".c3-xyz", 0.1, now)  # a render is writing it now
    killed = entry(scenes, ".d4-xyz", cache.BUILD_DAYS + 0.5, now)  # a killed render's
    old_voice = entry(voice, "e5.wav", cache.KEEP_DAYS + 2, now)
    new_voice = entry(voice, "f6.wav", 2, now)
    removed = cache.prune([scenes, voice, tmp_path / "missing"], now=now)
    assert sorted(removed) == sorted([old, killed, old_voice])
    assert fresh.exists() and building.exists() and new_voice.exists()
    assert not old.exists() and not killed.exists() and not old_voice.exists()


def test_a_used_entry_is_kept_however_old_it_was(tmp_path):
    now = time.time()
    old = entry(tmp_path, "a1", cache.KEEP_DAYS + 5, now)
    cache.mark_used([old, tmp_path / "never-made"])
    assert cache.prune([tmp_path], now=now) == []
    assert old.exists()


def test_a_cached_passage_counts_as_used_when_it_is_heard_again(tmp_path):
    spoken = []

    def speak(text, voice, target):
        spoken.append(text)
        target.write_bytes(b"RIFF")

    path = synthesize("hello there", DEFAULT_VOICE, tmp_path, speak)
    long_ago = time.time() - (cache.KEEP_DAYS + 3) * DAY
    os.utime(path, (long_ago, long_ago))
    assert synthesize("hello there", DEFAULT_VOICE, tmp_path, speak) == path
    assert spoken == ["hello there"]  # spoken once; the second time it came from the cache
    assert cache.prune([tmp_path]) == []
