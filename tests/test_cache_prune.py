"""The cache keeps what renders use and drops what none has used for KEEP_DAYS, and
never touches what it did not write."""

from __future__ import annotations

import os
import time
import wave

from production import cache
from production.narration import DEFAULT_VOICE, synthesize

DAY = 86400


def key(n: int, length: int = 24) -> str:
    return f"{n:x}".rjust(length, "a")


def entry(folder, name: str, age_days: float, now: float, *, marked: bool = True):
    path = folder / name
    if name.endswith(".wav"):
        path.write_bytes(b"RIFF")
    else:
        path.mkdir(parents=True)
        if marked:
            cache.write_record(path, "scene.json", {"name": "Demo"}, [])
    os.utime(path, (now - age_days * DAY, now - age_days * DAY))
    return path


def test_prune_drops_old_entries_and_stale_build_folders_only(tmp_path):
    now = time.time()
    scenes, voice = tmp_path / "scenes", tmp_path / "voice"
    scenes.mkdir()
    voice.mkdir()
    fresh = entry(scenes, key(1), 1, now)
    old = entry(scenes, key(2), cache.KEEP_DAYS + 1, now)
    building = entry(scenes, f".{key(3)}-xyz", 0.1, now)  # a render is writing it now
    killed = entry(scenes, f".{key(4)}-xyz", cache.BUILD_DAYS + 0.5, now)  # a killed render's
    old_voice = entry(voice, f"{key(5, 20)}.wav", cache.KEEP_DAYS + 2, now)
    new_voice = entry(voice, f"{key(6, 20)}.wav", 2, now)
    removed = cache.prune([scenes, voice, tmp_path / "missing"], now=now)
    assert sorted(removed) == sorted([old, killed, old_voice])
    assert fresh.exists() and building.exists() and new_voice.exists()
    assert not old.exists() and not killed.exists() and not old_voice.exists()


def test_a_used_entry_is_kept_however_old_it_was(tmp_path):
    now = time.time()
    old = entry(tmp_path, key(1), cache.KEEP_DAYS + 5, now)
    cache.mark_used([old, tmp_path / "never-made"])
    assert cache.prune([tmp_path], now=now) == []
    assert old.exists()


def test_a_cached_passage_counts_as_used_when_it_is_heard_again(tmp_path):
    spoken = []

    def speak(text, voice, target):
        spoken.append(text)
        with wave.open(str(target), "wb") as w:  # a second of silence: a plausible length
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(22050)
            w.writeframes(bytes(2 * 22050))

    path = synthesize("hello there", DEFAULT_VOICE, tmp_path, speak)
    long_ago = time.time() - (cache.KEEP_DAYS + 3) * DAY
    os.utime(path, (long_ago, long_ago))
    assert synthesize("hello there", DEFAULT_VOICE, tmp_path, speak) == path
    assert spoken == ["hello there"]  # spoken once; the second time it came from the cache
    assert cache.prune([tmp_path]) == []


def test_prune_leaves_a_users_own_files_alone(tmp_path):
    """EXPLAINER_CACHE may point at a folder that holds other things: only entries the
    project recognises as its own (a content-key name and, for a folder, its record)
    are ever removed, however old the rest is."""
    now = time.time()
    scenes, voice = tmp_path / "scenes", tmp_path / "voice"
    scenes.mkdir()
    voice.mkdir()
    old = cache.KEEP_DAYS + 400
    theirs = [
        entry(scenes, "holiday-photos", old, now, marked=False),
        entry(scenes, key(7), old, now, marked=False),  # a key's name, but no record of ours
        entry(scenes, ".config", old, now, marked=False),
        entry(voice, "interview.wav", old, now),
        entry(voice, "notes.txt.wav", old, now),
    ]
    (scenes / "thesis.txt").write_text("mine")
    os.utime(scenes / "thesis.txt", (now - old * DAY, now - old * DAY))
    ours = entry(scenes, key(8), old, now)
    removed = cache.prune([scenes, voice], now=now)
    assert removed == [ours]
    assert all(p.exists() for p in theirs) and (scenes / "thesis.txt").exists()
