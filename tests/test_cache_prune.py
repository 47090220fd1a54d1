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
            cache.write_record(path, "scene.json", {"name": "Demo"}, [], path.name)
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


def test_an_entry_another_render_moves_away_while_pruning_is_passed_over(tmp_path,
                                                                         monkeypatch):
    # a render beside this one renames its half-written sound into place between the
    # listing of the folder and the look at the entry's age
    now = time.time()
    moved = entry(tmp_path, f".{key(7, 20)}.2656-p45517nf.wav", 0.1, now)
    old = entry(tmp_path, f"{key(8, 20)}.wav", cache.KEEP_DAYS + 1, now)
    listed = sorted(tmp_path.iterdir())
    moved.rename(tmp_path / f"{key(7, 20)}.wav")
    monkeypatch.setattr(type(tmp_path), "iterdir", lambda folder: iter(listed))
    assert cache.prune([tmp_path], now=now) == [old]
    assert (tmp_path / f"{key(7, 20)}.wav").exists()


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


def test_prune_knows_every_kind_of_entry_the_project_writes_and_only_those(tmp_path,
                                                                            monkeypatch):
    """One of each thing a render writes into the cache, unused for long (finished
    entries) or left by a killed render (hidden ones), is removed; a user's own files
    beside them, however old and however named like ours, are not."""
    now = time.time()
    root = tmp_path / "cache"
    monkeypatch.setenv("EXPLAINER_CACHE", str(root))
    scenes, chapters, voice = cache.scenes_dir(), cache.chapters_dir(), root / "voice"
    texts = root / "texts"
    for folder in (scenes, chapters, voice, texts):
        folder.mkdir(parents=True)
    old = cache.KEEP_DAYS + 1
    left = cache.BUILD_DAYS + 1  # a hidden leftover this old belongs to no running render

    def made(path, days, *, record=None, folder=False):
        """A folder (with ``record``, the project's), else a file, last used ``days`` ago."""
        if record or folder:
            path.mkdir()
            if record:
                cache.write_record(path, record, {"name": "Demo"}, [], path.name)
        else:
            path.write_text("{}")
        os.utime(path, (now - days * DAY, now - days * DAY))
        return path

    sound = key(9, 20)
    ours = [
        made(scenes / key(1), old, record="scene.json"),  # a finished scene
        made(scenes / f"{key(2)}-alpha", old, record="scene.json"),  # slides' clips
        made(scenes / f"{key(3)}-shorts", old, record="scene.json"),  # finished shorts
        made(scenes / f"{key(4)}-shorts-burned", old, record="scene.json"),
        made(scenes / f".{key(5)}-k2j4h5l1", left, folder=True),  # a scene being built
        made(scenes / f".{key(6)}-shorts-burned-x8aa01bq", left, folder=True),
        made(scenes / f".{key(7)}-gone-a1b2c3d4", left, folder=True),  # being deleted
        made(scenes / ".covers-p0q9r8s7", left, folder=True),  # shorts' covers being drawn
        made(chapters / key(8), old, record="chapter.json"),  # a joined chapter
        made(chapters / f".{key(8)}-zz11yy22", left, folder=True),
        made(voice / f"{sound}.wav", old),  # a spoken passage
        made(voice / f"{sound}.{'b' * 12}.words.json", old),  # its word timings
        made(voice / f"{key(10)}.wav", old),  # a recording, converted
        made(voice / f".{key(11, 20)}-q1w2e3r4.wav", left),  # speech being written
        made(voice / f".{sound}.wav.abcd1234.part", left),  # from a cluster, being written
        made(voice / f".{sound}.{'c' * 12}.words.json.abcd1234.part", left),
        made(texts / f"{key(18, 64)}.glyphs", old),  # a set text
        made(texts / f".{key(18, 64)}.glyphs.4242-k2j4h5l1.part", left),  # being written
        made(root / f".cluster-4242-{int(now * 1e9)}", left),  # a cluster render's token
        made(root / ".probe-abcd_123", left),  # the check that the cache takes files
    ]
    # timings follow their sound: kept, however old, while the sound is used
    used = made(voice / f"{key(12, 20)}.wav", 1)
    timed = made(voice / f"{key(12, 20)}.{'d' * 12}.words.json", old)
    theirs = [
        made(scenes / f"{key(13)}-shorts", old, folder=True),  # no record of ours
        made(scenes / "holiday-photos", old, folder=True),
        made(scenes / ".covers", old, folder=True),
        made(voice / "interview.wav", old),
        made(voice / "notes.words.json", old),
        made(voice / f"{key(14, 20)}.words.json.bak", old),
        made(texts / "label.glyphs", old),
        made(texts / f"{key(19, 64)}.glyphs.bak", old),
        made(root / f"{key(15, 20)}.wav", old),  # named like a passage, but not in voice/
        made(root / ".cluster-notes", old),
        made(root / "thesis.txt", old),
    ]
    fresh = [made(scenes / key(16), 2, record="scene.json"),  # used two days ago
             made(scenes / f".{key(17)}-shorts-burned-qqqq1111", 0.1, folder=True)]  # now
    removed = cache.prune(now=now)
    assert sorted(removed) == sorted(ours)
    assert not [p for p in ours if p.exists()]
    assert all(p.exists() for p in [*theirs, *fresh, used, timed])
    assert sorted(p.name for p in root.iterdir()) == sorted(
        ["chapters", "scenes", "texts", "voice", *(p.name for p in theirs if p.parent == root)])
