"""`render.py demo`. The attention chapter's demo without drawing: its data against core/
and the lesson's figures (seed 001), its moments, the code it shows, the page's markup,
and the command's refusals. Then the fixture chapter's demo rendered at the test quality
(seconds): its folder, its clips and captions, the same bytes from a cold cache. The
attention demo rendered and worked in Chromium is tests/test_demo_page.py's (system
tier)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from functools import cache
from pathlib import Path

import av
import numpy as np
import pytest
from PIL import Image

from core import spotlight
from production.demo import data, page
from production.errors import UsageError
from production.paths import ROOT
from production.written import RECORD
from scenes.attention.chapter import CHAPTER
from tests.conftest import TEST_QUALITY, keep_speech, render_in, run_command, seed_speech

WORDS = ("the", "cat", "ate", "fish")
#: the lesson's moments: (asker, sharpness, look back only)
SEED_MOMENTS = {("ate", 4.0, False), ("ate", 1.0, False), ("ate", 8.0, False),
                ("cat", 4.0, False), ("the", 4.0, False), ("ate", 4.0, True)}


@cache
def built() -> dict:
    return data.build(CHAPTER)


def key(asker: str, sharpness: float, lookback: bool) -> str:
    """A setting's key, worked out here from the controls as the page lists them."""
    controls = {c["name"]: c for c in built()["controls"]}
    return "|".join([str(WORDS.index(asker)),
                     str(controls["sharpness"]["values"].index(f"{sharpness:.1f}")),
                     "1" if lookback else "0"])


def shown(asker: str, sharpness: float, lookback: bool = False) -> list[str]:
    return [b["value"] for b in built()["states"][key(asker, sharpness, lookback)]["bars"]]


def test_the_controls_are_the_lessons():
    asker, sharpness, lookback = built()["controls"]
    assert asker["kind"] == "choice" and asker["values"] == [f"“{w}”" for w in WORDS]
    assert asker["values"][asker["start"]] == "“ate”"
    assert asker["label"] == "Which word is asking?"
    assert sharpness["kind"] == "slider"
    assert sharpness["values"][0] == "1.0" and sharpness["values"][-1] == "8.0"
    assert sharpness["values"] == [f"{1 + i / 10:.1f}" for i in range(71)]
    assert sharpness["values"][sharpness["start"]] == "4.0"
    assert lookback == {"name": "lookback", "kind": "box", "label": "Words may only look back",
                        "start": 0}
    assert built()["start"] == key("ate", 4.0, False)


def test_the_hand_trace_as_the_lesson_gives_it():
    assert shown("ate", 4.0) == ["3%", "56%", "2%", "38%"]
    state = built()["states"][key("ate", 4.0, False)]
    assert "add up to 100%" in state["note"] and "99%" in state["note"]
    assert [b["width"] for b in state["bars"]][1].startswith("56.")


def test_look_back_moves_the_light_to_cat_and_the_keeps_everything():
    assert shown("ate", 4.0, True)[1] == "91%" and shown("ate", 4.0, True)[3] == "hidden"
    assert shown("the", 4.0, True) == ["100%", "hidden", "hidden", "hidden"]


def test_sharpness_one_is_nearly_even_and_eight_picks_the_best_fit():
    low = [int(v.rstrip("%")) for v in shown("ate", 1.0)]
    high = [int(v.rstrip("%")) for v in shown("ate", 8.0)]
    assert max(low) - min(low) < 25 and max(high) > 56


def test_every_state_is_cores_trace_at_its_setting():
    """Every one of the 568 settings, against core's shares, worked here to whole percent."""
    states = built()["states"]
    assert len(states) == 4 * 71 * 2
    for asker in WORDS:
        for tenth in range(10, 81):
            for lookback in (False, True):
                t = spotlight.trace(asker, tenth / 10, lookback)
                state = states[key(asker, tenth / 10, lookback)]
                expected = [f"{round(100 * s)}%" if seen else "hidden"
                            for s, seen in zip(t.shares, t.visible)]
                assert [b["value"] for b in state["bars"]] == expected, (asker, tenth)
                assert [b["label"] for b in state["bars"]] == list(WORDS)
                assert [b["hidden"] for b in state["bars"]] == [not v for v in t.visible]
                assert state["figures"] == list(np.rint(np.array(t.shares) * 100).astype(int))
                assert state["printed"] == spotlight.printed(tenth / 10, lookback, asker)
                assert all(b["value"] in state["said"] for b in state["bars"])


def test_each_asker_has_its_own_row():
    rows = {w: shown(w, 4.0) for w in WORDS}
    assert len({tuple(r) for r in rows.values()}) == 4
    for w in WORDS:
        assert rows[w] == [f"{round(100 * s)}%" for s in spotlight.trace(w, 4.0).all_shares[
            WORDS.index(w)]]


def test_what_run_it_prints_is_the_lessons_table():
    printed = built()["states"][key("ate", 4.0, False)]["printed"].splitlines()
    assert printed[3].split() == ["ate", "0.03", "0.56", "0.02", "0.38"]
    assert all(round(sum(float(x) for x in row.split()[1:]), 1) == 1.0 for row in printed[1:5])
    looking_back = built()["states"][key("ate", 4.0, True)]["printed"].splitlines()
    for i, row in enumerate(looking_back[1:5]):
        assert all(x == "0.00" for x in row.split()[1:][i + 1:])  # above the diagonal


def test_the_code_is_cores_own_text():
    code = built()["code"]
    assert code[0]["name"] == "attention" and code[0]["file"] == "core/spotlight.py"
    for c in code:
        lines = (ROOT / c["file"]).read_text(encoding="utf-8").splitlines()
        at = lines[c["line"] - 1:c["line"] - 1 + len(c["source"].splitlines())]
        assert "\n".join(at) == c["source"]
    assert {c["name"] for c in code} >= {"attention", "shares", "match", "blend"}


def test_every_seed_moment_is_there_and_its_scene_shows_its_setting():
    moments = built()["moments"]
    by_key = {key(*m): m for m in SEED_MOMENTS}
    assert {m["when"] for m in moments} >= set(by_key)
    for m in moments:
        assert m["figures"] == built()["states"][m["when"]]["figures"], m["name"]
        assert m["settings"] and all(s.startswith("spotlight.") for s in m["settings"])


def test_a_moment_whose_scene_shows_other_figures_is_refused():
    wrong = dataclasses.replace(CHAPTER.demo.moments[1], settings=("spotlight.sharpness=2",))
    with pytest.raises(UsageError, match="moment 'sharpness-1'.*shows .*not the"):
        data.moment(CHAPTER, CHAPTER.demo, wrong)
    unknown = dataclasses.replace(CHAPTER.demo.moments[0], beats=("nope",))
    with pytest.raises(UsageError, match="SpotlightBudget has no beat 'nope'"):
        data.moment(CHAPTER, CHAPTER.demo, unknown)
    unreachable = dataclasses.replace(CHAPTER.demo.moments[0],
                                      when={"asker": "ate", "sharpness": 4.05,
                                            "lookback": False})
    with pytest.raises(UsageError, match="sharpness 4.05 is not one of its values"):
        data.moment(CHAPTER, CHAPTER.demo, unreachable)


def test_the_data_is_the_same_bytes_each_time():
    assert data.text(data.build(CHAPTER)) == data.text(built())


def with_clips() -> dict:
    made = json.loads(data.text(built()))
    for m in made["moments"]:
        m["video"], m["captions"] = f"clips/{m['name']}.mp4", [[0.0, 1.0, "Here </script>"]]
        m["poster"] = f"clips/{m['name']}.png"
    return made


def test_the_page_labels_its_controls_and_loads_nothing_from_outside():
    html = page.render(with_clips(), CHAPTER.palette)
    assert '<label for="c-sharpness">Sharpness</label>' in html
    assert 'aria-valuetext="4.0"' in html and 'min="0" max="70"' in html
    assert "<legend>Which word is asking?</legend>" in html
    assert '<input type="checkbox" id="c-lookback"' in html
    assert 'aria-live="polite"' in html
    for value in ("3%", "56%", "2%", "38%"):  # the start shows without the script
        assert f'<span class="value">{value}</span>' in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    embedded = html.split('id="demo-data">')[1].split("</script>")[0]
    assert json.loads(embedded) == with_clips()


def test_a_chapter_without_a_demo_is_one_line():
    ran = run_command("demo", "--chapter", "decoder")
    assert ran.code == 2
    assert ran.err.strip() == ("render.py: error: demo: chapter decoder has no demo; chapters "
                               "with one: attention")


# ----------------------------------------------------------------- the fixture's demo


def render_demo(project: Path, out: Path, *more: str):
    return render_in(project, "demo", "--chapter", "fixture", "--quality", TEST_QUALITY,
                     "--out", str(out), *more)


@pytest.fixture(scope="module")
def fixture_demo(tmp_path_factory: pytest.TempPathFactory, fixture_project: Path) -> Path:
    out = tmp_path_factory.mktemp("fixture-demo") / "demo"
    made = render_demo(fixture_project, out)
    assert made.returncode == 0, made.stderr[-3000:]
    assert made.stdout.splitlines()[-1].startswith("demo: 3 settings, 2 narrated moments;")
    return out


def test_the_demo_folder_holds_the_page_its_data_and_a_clip_per_moment(fixture_demo: Path):
    written = sorted(p.relative_to(fixture_demo).as_posix()
                     for p in fixture_demo.rglob("*") if p.is_file())
    assert written == [RECORD, "clips/gentle.mp4", "clips/gentle.png", "clips/gentle.vtt",
                       "clips/sharper.mp4", "clips/sharper.png", "clips/sharper.vtt",
                       "demo.json", "index.html"]
    made = json.loads((fixture_demo / "demo.json").read_text(encoding="utf-8"))
    html = (fixture_demo / "index.html").read_text(encoding="utf-8")
    assert json.loads(html.split('id="demo-data">')[1].split("</script>")[0]) == made
    assert [m["video"] for m in made["moments"]] == ["clips/gentle.mp4", "clips/sharper.mp4"]


def test_each_clip_is_its_beats_with_captions_saying_its_numbers(fixture_demo: Path):
    made = json.loads((fixture_demo / "demo.json").read_text(encoding="utf-8"))
    for m in made["moments"]:
        with av.open(str(fixture_demo / m["video"])) as clip:
            video = clip.streams.video[0]
            frames = sum(1 for _ in clip.decode(video))
            assert clip.streams.audio, m["name"]
        with Image.open(fixture_demo / m["poster"]) as poster:
            assert poster.size == (320, 180)
            assert poster.getextrema() != ((20, 20), (22, 22), (27, 27))  # not the bare background
        # the beat and the half-second tail, to a frame of the test quality (6 fps)
        assert abs(frames / 6 - m["seconds"]) <= 1 / 6 + 1e-9, m["name"]
        said = " ".join(text for _, _, text in m["captions"])
        assert said.startswith("Each score becomes a weight")
        assert "add up to 1.00" in said
        assert m["captions"][-1][1] <= m["seconds"] + 1e-9


def test_a_dry_run_names_each_moment_and_writes_nothing(fixture_project: Path, tmp_path):
    dry = render_demo(fixture_project, tmp_path / "dry", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.splitlines()
    assert lines[0].startswith("gentle: Weights [weights] at its defaults: ")
    assert lines[1].startswith("sharper: Weights [weights] at shares.sharpness=2: ")
    assert lines[-1].startswith(f"would write {tmp_path / 'dry' / 'index.html'}")
    assert not (tmp_path / "dry").exists()


def test_a_cold_cache_makes_the_same_bytes(fixture_project: Path, fixture_demo: Path,
                                           tmp_path):
    project = tmp_path / "project"
    shutil.copytree(fixture_project, project, ignore=shutil.ignore_patterns("__pycache__"))
    cold = seed_speech(tmp_path / "cache")
    made = render_in(project, "demo", "--chapter", "fixture", "--quality", TEST_QUALITY,
                     "--out", str(tmp_path / "again"), env={"EXPLAINER_CACHE": str(cold)})
    keep_speech(cold)
    assert made.returncode == 0, made.stderr[-3000:]
    assert "rendered 2 scene(s)" in made.stdout.splitlines()[-1]
    for name in ("index.html", "demo.json", "clips/gentle.mp4", "clips/sharper.vtt",
                 "clips/sharper.mp4", "clips/sharper.png"):
        assert (tmp_path / "again" / name).read_bytes() == (fixture_demo / name).read_bytes(), \
            name


@pytest.mark.system
def test_on_a_local_cluster_the_moments_render_to_the_same_bytes(fixture_project: Path,
                                                                 fixture_demo: Path,
                                                                 tmp_path):
    cold = seed_speech(tmp_path / "cache")
    made = render_in(fixture_project, "demo", "--chapter", "fixture", "--quality",
                     TEST_QUALITY, "--out", str(tmp_path / "cluster"), "--scheduler", "local",
                     env={"EXPLAINER_CACHE": str(cold)})
    keep_speech(cold)
    assert made.returncode == 0, made.stderr[-3000:]
    assert "rendered 2 scene(s)" in made.stdout.splitlines()[-1]
    for name in ("index.html", "clips/gentle.mp4", "clips/sharper.mp4"):
        assert (tmp_path / "cluster" / name).read_bytes() == (fixture_demo / name).read_bytes()


def test_the_demo_in_spanish_reads_in_spanish_with_the_same_figures():
    from production import language

    try:
        spanish = data.build(CHAPTER.in_language("es"))
        html = page.render({**spanish, "moments": with_clips()["moments"]}, CHAPTER.palette)
    finally:
        language.use(language.SOURCE)
    english = built()
    start = spanish["states"][spanish["start"]]
    assert [b["value"] for b in start["bars"]] == ["3\u00a0%", "56\u00a0%", "2\u00a0%", "38\u00a0%"]
    assert spanish["controls"][1]["values"][spanish["controls"][1]["start"]] == "4,0"
    assert spanish["controls"][0]["label"] == "¿Qué palabra pregunta?"
    assert spanish["moments"][0]["title"] == "Con nitidez 4,0, pregunta “ate”"
    assert start["note"].startswith("Las cuotas suman 100\u00a0%")
    hidden = spanish["states"][english["moments"][5]["when"]]["bars"][3]["value"]
    assert hidden == "oculta"
    assert (spanish["language"], spanish["language_name"]) == ("es", "español")
    for key, state in english["states"].items():  # the same figures and code output
        assert spanish["states"][key]["figures"] == state["figures"]
        assert spanish["states"][key]["printed"] == state["printed"]
    assert '<html lang="es">' in html and "Ejecútalo" in html


# ----------------------------------------------------------------- only its own files


@pytest.fixture
def demo_here(fixture_demo: Path, monkeypatch):
    """`render.py demo --chapter fixture --quality test --out OUT` called in process, its
    clips from the session's cache (where ``fixture_demo`` left them): a run of seconds."""
    import render
    from production.chapters import load
    from tests.conftest import FIXTURE_MODULE

    monkeypatch.setattr(render, "chapters", lambda: {"fixture": load(FIXTURE_MODULE)})

    def run(out: Path):
        return run_command("demo", "--chapter", "fixture", "--quality", TEST_QUALITY,
                           "--out", str(out))

    return run


def everything(folder: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``folder`` (hidden ones too): its bytes, None for a
    folder."""
    return {p.relative_to(folder).as_posix(): None if p.is_dir() else p.read_bytes()
            for p in folder.rglob("*")}


@pytest.mark.parametrize("theirs", ["index.html", "demo.json", "clips/gentle.vtt"])
def test_a_file_of_someone_elses_in_the_folder_is_refused_and_left_as_it_was(
        demo_here, tmp_path, theirs):
    out = tmp_path / "site"
    (out / theirs).parent.mkdir(parents=True, exist_ok=True)
    (out / theirs).write_bytes(b"<p>my own page, written by hand</p>\n")
    (out / "notes.txt").write_bytes(b"mine too\n")
    before = everything(out)
    ran = demo_here(out)
    assert ran.code == 2, ran.err
    line, = ran.err.strip().splitlines()
    assert line.startswith(f"render.py: error: {out / theirs}: ")
    assert "render.py did not write it" in line and "choose another --out" in line
    assert everything(out) == before  # byte-identical, nothing else written, no staging


def test_a_second_run_replaces_its_own_files_but_not_one_since_edited(demo_here, tmp_path):
    out = tmp_path / "demo"
    first = demo_here(out)
    assert first.code == 0, first.err
    made = everything(out)
    (out / "clips" / "gentle.vtt").unlink()  # one of its files gone: made again
    again = demo_here(out)
    assert again.code == 0, again.err
    assert everything(out) == made
    edited = (out / "demo.json").read_bytes().replace(b'"moments"', b'"moments" ', 1)
    (out / "demo.json").write_bytes(edited)
    before = everything(out)
    refused = demo_here(out)
    assert refused.code == 2, refused.err
    line, = refused.err.strip().splitlines()
    assert line.startswith(f"render.py: error: {out / 'demo.json'}: ")
    assert "changed since render.py wrote it" in line
    assert everything(out) == before
