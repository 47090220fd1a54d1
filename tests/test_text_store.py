"""The store of set text (production/text_store.py): a text read from it is the text Manim
sets, curve for curve; a key is what Pango drew, not the surface number it drew on; a
damaged entry is set again; and a scene drawn from a warm store is the same, pixel for
pixel, as one drawn from a cold store."""

from __future__ import annotations

import copy

import pytest
from manim import MarkupText, Mobject, Text
from manim.mobject.svg.svg_mobject import SVG_HASH_TO_MOB_MAP, SVGMobject

from production import text_store
from production.chapters import load
from production.drawing import construct_scene
from scenes import base, style

MANIMS_OWN = SVGMobject.__dict__["generate_mobject"]


def setting(kind: type = Text, text: str = "the cat ate", **options):
    SVG_HASH_TO_MOB_MAP.clear()  # Manim's own cache would hand back a copy
    return kind(text, font=style.FONT, font_size=36, **options)


def drawn(text) -> list[tuple]:
    """What a text draws: each part's curves and colours, in order."""
    return [(type(part).__name__, part.points.tobytes(), part.fill_rgbas.tobytes(),
             part.stroke_rgbas.tobytes(), part.stroke_width)
            for part in text.get_family()]


@pytest.fixture
def parses(monkeypatch) -> list[object]:
    """Every text Manim parses from its SVG (not read from the store), as it happens."""
    seen: list[object] = []

    def counted(self):
        seen.append(self)
        return MANIMS_OWN(self)

    monkeypatch.setattr(SVGMobject, "generate_mobject", counted)
    return seen


@pytest.mark.parametrize("kind, text, options", [
    (Text, "the cat ate the fish", {}),
    (Text, "0.56", {"color": style.INK}),
    (MarkupText, '<span foreground="#d08770">cat</span> x<sub>2</sub>', {}),
])
def test_a_stored_text_is_the_text_manim_sets(tmp_path, parses, kind, text, options):
    plain = drawn(setting(kind, text, **options))
    with text_store.kept_in(tmp_path):
        first = setting(kind, text, **options)  # set, and kept
        again = setting(kind, text, **options)  # read back
    assert len(parses) == 2  # the plain one and the first in the store
    assert len(list(tmp_path.glob(f"*{text_store.SUFFIX}"))) == 1
    assert drawn(first) == plain and drawn(again) == plain
    assert again.get_family()[1] is not first.get_family()[1]  # its own glyphs


def test_the_key_is_what_pango_drew_not_the_surface_it_drew_on(tmp_path, parses):
    svgs = []
    with text_store.kept_in(tmp_path):
        for _ in range(2):  # drawn by Pango twice (its SVG removed in between)
            text = setting()
            svgs.append(text.get_file_path().read_bytes())
            text.get_file_path().unlink()
        other = setting(text="the cat ate.")
    # cairo numbers every surface it makes in a process, and the SVG says its number
    assert svgs[0] != svgs[1]
    assert text_store.SURFACE.sub(b"", svgs[0]) == text_store.SURFACE.sub(b"", svgs[1])
    assert len(parses) == 2  # "the cat ate" once, "the cat ate." once
    assert drawn(other) != drawn(text)
    assert len(list(tmp_path.iterdir())) == 2


def test_a_hit_names_its_groups_after_its_own_surface(tmp_path):
    with text_store.kept_in(tmp_path):
        setting().get_file_path().unlink()
        again = setting()
    here = text_store.SURFACE.search(again.get_file_path().read_bytes())[1].decode()
    assert here in again.id_to_vgroup_dict
    assert not any(n.startswith("surface") and n != here for n in again.id_to_vgroup_dict)


@pytest.mark.parametrize("damage", ["truncated", "one byte", "empty"])
def test_a_damaged_entry_is_set_again_and_written_anew(tmp_path, parses, damage):
    with text_store.kept_in(tmp_path):
        plain = drawn(setting())
        (entry,) = tmp_path.iterdir()
        data = entry.read_bytes()
        entry.write_bytes({"truncated": data[: len(data) // 2],
                           "one byte": data[:-1] + bytes([data[-1] ^ 1]),
                           "empty": b""}[damage])
        assert drawn(setting()) == plain
    assert len(parses) == 2
    assert entry.read_bytes() == data  # whole again


def test_a_store_that_cannot_be_written_only_sets_again(tmp_path, parses):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with text_store.kept_in(blocked / "texts"):
        first, again = drawn(setting()), drawn(setting())
    assert first == again and len(parses) == 2


def test_manims_own_parser_is_back_after_the_block(tmp_path):
    with text_store.kept_in(tmp_path):
        assert SVGMobject.generate_mobject is not MANIMS_OWN
    assert SVGMobject.__dict__["generate_mobject"] is MANIMS_OWN
    with pytest.raises(RuntimeError), text_store.kept_in(tmp_path):
        raise RuntimeError("a scene that fails while the store is in use")
    assert SVGMobject.__dict__["generate_mobject"] is MANIMS_OWN


def test_a_scene_from_a_warm_store_draws_the_same_pixels(tmp_path, monkeypatch, parses):
    book = load("tests.fixture.chapter")
    frames, parsed = {}, {}
    monkeypatch.setenv("EXPLAINER_CACHE", str(tmp_path / "cache"))
    for run in ("cold", "warm"):
        SVG_HASH_TO_MOB_MAP.clear()
        monkeypatch.setattr(base, "_SET", {})  # nor the texts this process set before
        parses.clear()
        for scene in book.scenes:
            construct_scene(book, scene, "test", None, tmp_path / run / "media", video=False,
                            keyframes=tmp_path / run / "frames")
        frames[run] = {p.name: p.read_bytes() for p in (tmp_path / run / "frames").iterdir()}
        parsed[run] = len(parses)
    assert len(frames["cold"]) >= 2
    assert frames["warm"] == frames["cold"]
    assert parsed["cold"] > 0 and parsed["warm"] == 0  # every text read from the store
    assert len(list((tmp_path / "cache" / "texts").iterdir())) == parsed["cold"]


@pytest.mark.parametrize("make", [base.words, base.markup])
def test_a_scenes_text_copies_only_what_it_draws(make):
    """The chapters' texts drop what Manim keeps of the SVG only to look parts up by id (a
    VGroup per element: a hundred for a short label), which every copy used to copy."""
    sentence = "the cat ate the fish, and the dog barked"
    text, manims = make(sentence), setting(MarkupText if make is base.markup else Text,
                                           sentence, color=style.INK)
    assert len(manims.id_to_vgroup_dict) > len(manims.get_family())
    assert drawn(text.copy()) == drawn(manims)
    memo: dict[int, object] = {}
    copy.deepcopy(text, memo)
    copied = [m for m in memo.values() if isinstance(m, Mobject)]
    assert len(copied) <= len(text.get_family()) + 1  # its glyphs, itself, its chars
    assert not any(hasattr(part, "path_obj") for part in text.get_family())
