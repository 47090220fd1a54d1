"""Shorts of real renders (the fixture chapter at the test quality): the tall frame, its safe
zones, captions burned in word by word (the highlighted word is the one being said),
loudness with a silent tail, parts of at most three minutes, the cover and shorts.json."""

from __future__ import annotations

import json
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from core import palette
from production import soundtrack
from production.drawing import frame_size
from production.outputs import burned as ass
from production.outputs import shorts
from tests.conftest import TEST_QUALITY, render_in, run_command

SCENES = ["Scores", "Weights"]  # the fixture chapter's
WIDTH, HEIGHT, FPS = frame_size(TEST_QUALITY, "tall")  # 180x320, 6 fps


@pytest.fixture(scope="module")
def made(tmp_path_factory, fixture_project) -> dict[str, Path]:
    """The fixture chapter's two shorts with captions burned in and without."""
    folders = {}
    for kind, extra in (("burned", []), ("plain", ["--no-burn"])):
        folders[kind] = tmp_path_factory.mktemp(kind)
        run = render_in(fixture_project, "shorts", *SCENES, "--chapter", "fixture",
                        "--quality", TEST_QUALITY, "--out", str(folders[kind]), *extra)
        assert run.returncode == 0, run.stderr[-3000:]
        assert "warning" not in run.stderr, run.stderr  # the layout checks found nothing
    return folders


def frame_at(path: Path, seconds: float) -> np.ndarray:
    """The picture shown at ``seconds`` (RGB)."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        shown = None
        for frame in container.decode(stream):
            if frame.time is not None and frame.time > seconds + 1e-6:
                break
            shown = frame
        return shown.to_ndarray(format="rgb24")


def band(picture: np.ndarray) -> np.ndarray:
    """The caption band: from the bottom safe zone (20 %) up to the pictures' area."""
    return picture[int(HEIGHT * 0.68):int(HEIGHT * 0.80)]


def test_each_short_is_a_tall_h264_clip_with_sound(made):
    index = json.loads((made["burned"] / "shorts.json").read_text(encoding="utf-8"))
    assert [c["scene"] for c in index["clips"]] == SCENES
    for clip in index["clips"]:
        assert (clip["frame"], clip["width"], clip["height"], clip["fps"]) == (
            "tall", WIDTH, HEIGHT, FPS)
        assert clip["title"] and clip["description"] and clip["file"] == f"{clip['scene']}.mp4"
        with av.open(str(made["burned"] / clip["file"])) as container:
            v, a = container.streams.video[0], container.streams.audio[0]
            assert (v.codec_context.name, v.codec_context.profile) == ("h264", "High")
            assert (v.codec_context.width, v.codec_context.height) == (WIDTH, HEIGHT)
            assert v.average_rate == FPS and a.codec_context.name == "aac"
            seconds = float(container.duration) / av.time_base
        assert seconds <= shorts.MAX_SECONDS
        assert seconds == pytest.approx(clip["seconds"], abs=0.1)
        for ext in ("srt", "vtt"):
            assert (made["burned"] / clip[ext]).read_text(encoding="utf-8").strip()
        cover = Image.open(made["burned"] / clip["cover"])
        assert (cover.format, cover.size) == ("JPEG", (1080, 1920))


def test_nothing_is_drawn_where_the_phone_apps_draw(made):
    background = np.array([int(palette.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5)])
    for scene in SCENES:
        path = made["burned"] / f"{scene}.mp4"
        with av.open(str(path)) as container:
            frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
        for picture in frames[::5]:
            for zone in (picture[:int(HEIGHT * 0.10)], picture[int(HEIGHT * 0.80):]):
                drawn = np.abs(zone.astype(int) - background).max(axis=2) > 40
                assert drawn.sum() == 0, f"{scene}: {drawn.sum()} pixels drawn"


def test_captions_are_burned_in_and_light_the_word_being_said(made):
    """At a word's onset the caption band differs from the same frame without captions
    (and nothing else does), and the lit (highlight-coloured) letters sit where that
    word sits in the words shown: at least four words of each short."""
    clips = json.loads((made["burned"] / "shorts.json").read_text(encoding="utf-8"))["clips"]
    assert [clip["scene"] for clip in clips] == SCENES
    for clip in clips:
        assert lit_words(made, clip) >= 4, clip["scene"]


def lit_words(made: dict[str, Path], clip: dict) -> int:
    """How many words of ``clip`` were checked lit where they sit (see above)."""
    words = [shorts.Word(t, a, b) for t, a, b in clip["words"]]
    groups = ass.groups(words)
    lit = np.array([int(ass.HIGHLIGHT[i:i + 2], 16) for i in (0, 2, 4)])
    checked = 0
    for group in groups:
        shown = " ".join(w.text for w in group)
        if len(group) < 2 or len(shown) > 14:
            continue  # one line of two words or more: where each word sits is known
        for k, word in enumerate(group):
            moment = np.ceil(word.start * FPS - 1e-6) / FPS + 0.001  # its first frame
            if moment >= (group[k + 1].start if k + 1 < len(group) else word.end):
                continue  # said between two frames: never lit on its own
            burned = frame_at(made["burned"] / clip["file"], moment).astype(int)
            plain = frame_at(made["plain"] / clip["file"], moment).astype(int)
            assert np.abs(band(burned) - band(plain)).max() > 100
            outside = np.abs(burned[:int(HEIGHT * 0.66)] - plain[:int(HEIGHT * 0.66)])
            assert np.percentile(outside, 99.9) <= 40  # only the encoding differs there
            letters = np.abs(band(burned) - band(plain)).max(axis=2) > 100
            yellow = np.abs(band(burned) - lit).max(axis=2) < 60
            xs, lit_xs = np.nonzero(letters)[1], np.nonzero(yellow)[1]
            assert lit_xs.size > 20
            left, right = xs.min(), xs.max()
            before = len(" ".join(w.text for w in group[:k])) + (1 if k else 0)
            centre = (before + len(word.text) / 2) / len(shown)
            assert abs((lit_xs.mean() - left) / (right - left) - centre) < 0.15
            checked += 1
    return checked


def test_loudness_and_a_silent_tail_for_a_clean_loop(made):
    for scene in SCENES:
        path = made["burned"] / f"{scene}.mp4"
        loud = soundtrack.measure(path)
        assert abs(loud.integrated - soundtrack.TARGET_LUFS) <= 1.0
        assert loud.true_peak <= soundtrack.MAX_TRUE_PEAK + 0.2
        with av.open(str(path)) as container:
            samples = np.concatenate([f.to_ndarray().mean(axis=0)
                                      for f in container.decode(audio=0)])
            rate = container.streams.audio[0].rate
        tail = samples[-int(rate * 0.45):]
        assert np.sqrt(np.mean(tail ** 2)) < 10 ** (-60 / 20)
        last = frame_at(path, 1e9).astype(int)
        held = frame_at(path, float(json.loads((path.parent / "shorts.json").read_text())
                                    ["clips"][SCENES.index(scene)]["seconds"]) - 0.45)
        assert np.percentile(np.abs(last - held), 99.9) <= 24  # the picture holds still


def test_a_scene_longer_than_three_minutes_is_cut_at_beats():
    beats = [(f"b{i}", 40.0 * i, 40.0 * (i + 1)) for i in range(10)]  # 400 s
    cut = shorts.parts(beats, 400.0)
    assert [p.count for p in cut] == [3] * 3
    assert all(p.end - p.start + shorts.TAIL <= shorts.MAX_SECONDS for p in cut)
    assert [b for p in cut for b in p.beats] == [b for b, _, _ in beats]
    assert all(p.start in {s for _, s, _ in beats} for p in cut)
    assert [(p.start, p.end) for p in cut] == [(0.0, 160.0), (160.0, 320.0), (320.0, 400.0)]
    assert len(shorts.parts(beats[:4], 160.0)) == 1


def test_groups_are_two_or_three_words_cut_at_pauses_and_commas():
    said = [("Score", 0.0, 0.3), ("each", 0.3, 0.5), ("word,", 0.5, 0.8), ("then", 0.9, 1.1),
            ("take", 1.1, 1.3), ("exponentials.", 2.0, 2.6)]
    found = ass.groups([shorts.Word(*w) for w in said])
    assert [[w.text for w in g] for g in found] == [
        ["Score", "each", "word,"], ["then", "take"], ["exponentials."]]


def test_bad_input_is_one_line_and_writes_nothing(tmp_path):
    for args, says in ((["NoSuchScene"], "NoSuchScene"), (["--quality", "huge"], "huge")):
        run = run_command("shorts", *args, "--out", str(tmp_path / "out"))
        assert run.code == 2
        line, = run.err.strip().splitlines()
        assert line.startswith("render.py: error:") and says in line
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_shorts_of_both_frames_in_one_folder_are_not_stale_to_each_other(tmp_path):
    """Square shorts made beside tall ones warned on every run that the tall clips were
    stale (and the other way round); a clip of the frame just made, left from a run that
    cut the scene into more parts, still is."""
    import json

    from production.outputs.shorts import LISTING, listed

    def clip(name: str, frame: str, part: int | None = None) -> dict:
        return {"scene": "Scores", "file": f"{name}.mp4", "frame": frame,
                **({"part": part} if part else {})}

    earlier = [clip("Scores", "tall"), clip("Scores-square-part1", "square", 1),
               clip("Scores-square-part2", "square", 2)]
    for c in earlier:
        (tmp_path / c["file"]).write_bytes(b"clip")
    (tmp_path / LISTING).write_text(json.dumps({"chapter": "x", "clips": earlier}))
    every, stale = listed(tmp_path, [clip("Scores-square", "square")], ["Scores"])
    assert stale == {"Scores": ["Scores-square-part1.mp4", "Scores-square-part2.mp4"]}
    every, stale = listed(tmp_path, [clip("Scores", "tall")], ["Scores"])
    assert stale == {}  # the square clips are the square frame's
    assert sorted(c["file"] for c in every) == sorted(c["file"] for c in earlier)
