"""Hostile narration stays text: options, slots, encodings and control characters."""

from __future__ import annotations

import subprocess
import wave
from pathlib import Path

import pytest

from production import narration
from production.narration import NarrationError, Voice


def seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def spoken_from_stdin(text: str, voice: Voice, target: Path) -> float:
    """The same text spoken another way that cannot be read as an option: on stdin
    (espeak-ng drops the last character of its input, so a newline ends it)."""
    subprocess.run(["espeak-ng", "-v", voice.name, "-s", str(voice.rate), "-p", str(voice.pitch),
                    "-w", str(target), "--stdin"], input=(text + "\n").encode(), check=True,
                   capture_output=True)
    return seconds(target)


# ----------------------------------------------------------------- espeak-ng options


def test_a_passage_that_looks_like_an_option_is_spoken_as_its_letters(tmp_path):
    # "-fFILE" asks espeak-ng to speak FILE; the file holds one short word, its path many.
    secret = tmp_path / "a_secret_file_with_a_rather_long_name.txt"
    secret.write_text("Hi.\n")
    text = f"-f{secret}"
    path = narration.synthesize(text, Voice(), tmp_path / "cache")
    literal = spoken_from_stdin(text, Voice(), tmp_path / "stdin.wav")
    assert literal > 3.0  # the path, spoken letter group by letter group
    assert seconds(path) == pytest.approx(literal, rel=0.05)


def test_a_passage_that_asks_for_the_version_is_spoken(tmp_path):
    # Read as an option, "--version" prints and exits 0 without writing any WAV.
    path = narration.synthesize("--version", Voice(), tmp_path)
    assert seconds(path) == pytest.approx(
        spoken_from_stdin("--version", Voice(), tmp_path / "stdin.wav"), rel=0.05)


# ----------------------------------------------------------------- slots

VALUES = {"total": "64.8", "asker": "ate"}


@pytest.mark.parametrize("slot", ["{total.upper}", "{total[0]}", "{total!r}",
                                  "{total:>99999}", "{total.__class__}", "{}", "{0}",
                                  "{asker!s:^9}"])
def test_a_slot_is_a_plain_name_or_an_error_naming_file_beat_and_slot(slot):
    where = "scenes/attention/narration/SpotlightBudget.txt [sum]"
    with pytest.raises(NarrationError) as error:
        narration.fill(f"The exponentials add up to {slot}.", VALUES, where)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(where)
    assert slot in message
    assert "letters, digits" in message  # what a slot may be


def test_slots_with_names_are_filled_and_doubled_braces_stay_literal():
    text = narration.fill("{asker} adds {{total}} to {total}; {{}} stays.", VALUES, "w")
    assert text == "ate adds {total} to 64.8; {} stays."


@pytest.mark.parametrize("template", ["a { b", "a } b", "{total"])
def test_an_unmatched_brace_is_one_line_saying_how_to_write_one(template):
    with pytest.raises(NarrationError) as error:
        narration.fill(template, VALUES, "x.txt [one]")
    assert str(error.value).startswith("x.txt [one]")
    assert "{{" in str(error.value)


def test_a_bad_slot_in_a_scene_file_names_the_file_and_the_beat(tmp_path):
    (tmp_path / "Demo.txt").write_text("[one]\nPlain.\n[two]\nIt is {total.upper}.\n")
    with pytest.raises(NarrationError) as error:
        narration.prepare("Demo", ["one", "two"], values=VALUES, narration_dir=tmp_path,
                          voice_dir=tmp_path / "voice", cache=tmp_path / "cache",
                          speak=lambda *a: pytest.fail("spoke a passage with a bad slot"))
    message = str(error.value)
    assert str(tmp_path / "Demo.txt") in message and "[two]" in message
    assert "{total.upper}" in message


# ----------------------------------------------------------------- encodings


def test_a_narration_file_that_is_not_utf8_is_one_line_with_the_byte(tmp_path):
    data = "[one]\nCafé au lait.\n".encode("latin-1")
    (tmp_path / "Demo.txt").write_bytes(data)
    with pytest.raises(NarrationError) as error:
        narration.read_script("Demo", ["one"], tmp_path)
    message = str(error.value)
    assert "\n" not in message
    assert str(tmp_path / "Demo.txt") in message
    assert "UTF-8" in message
    assert f"byte {data.index(0xE9)}" in message
    assert "line 2" in message


def test_a_byte_order_mark_is_accepted(tmp_path):
    (tmp_path / "Demo.txt").write_bytes(b"\xef\xbb\xbf[one]\nHello.\n[two]\nThere.\n")
    assert narration.read_script("Demo", ["one", "two"], tmp_path) == {"one": "Hello.",
                                                                      "two": "There."}


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\x7f"])
def test_a_control_character_is_one_line_naming_the_line(tmp_path, char):
    (tmp_path / "Demo.txt").write_text(f"[one]\nHello.\n[two]\nThe{char}re.\n")
    with pytest.raises(NarrationError) as error:
        narration.read_script("Demo", ["one", "two"], tmp_path)
    assert f"{tmp_path / 'Demo.txt'}:4" in str(error.value)
    assert f"U+{ord(char):04X}" in str(error.value)


# ----------------------------------------------------------------- byte order marks

BOM = b"\xef\xbb\xbf"


def test_a_byte_order_mark_is_not_part_of_the_first_respelling(tmp_path):
    from production.narration.spoken import speakable

    words = tmp_path / "lexicon.txt"
    words.write_bytes(BOM + b"softmax = soft max\n")
    assert speakable("Softmax, then softmaxes.", words) == "soft max, then softmaxes."


def test_a_byte_order_mark_is_not_part_of_the_course_files_first_line(tmp_path):
    from production.chapters import course_listing

    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text("title: A course\nattention\ndecoder\n", encoding="utf-8")
    marked.write_bytes(BOM + plain.read_bytes())
    assert course_listing(marked) == course_listing(plain) == (
        {"en": "A course"}, ["attention", "decoder"])


def test_a_byte_order_mark_is_not_part_of_a_piper_voices_settings(tmp_path):
    import json

    from production.voices import piper

    config = tmp_path / "voice.onnx.json"
    config.write_bytes(BOM + json.dumps({"audio": {"sample_rate": 22050}}).encode())
    assert json.loads(piper._read_text(config)) == {"audio": {"sample_rate": 22050}}


# ----------------------------------------------------------------- paths of the wrong kind


def test_a_narration_file_that_is_a_folder_is_one_line(tmp_path):
    (tmp_path / "Demo.txt").mkdir()
    with pytest.raises(NarrationError) as error:
        narration.read_script("Demo", ["one"], tmp_path)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{tmp_path / 'Demo.txt'}: a folder")
    assert "a narration file" in message


def test_a_narration_folder_that_is_a_file_is_one_line_naming_it(tmp_path):
    (tmp_path / "narration").write_text("[one]\nHello.\n")
    with pytest.raises(NarrationError) as error:
        narration.read_script("Demo", ["one"], tmp_path / "narration")
    assert str(error.value).startswith(f"{tmp_path / 'narration'}: a file, not a folder")


def test_a_lexicon_that_is_a_folder_is_one_line(tmp_path):
    from production.narration.spoken import speakable

    (tmp_path / "lexicon.txt").mkdir()
    with pytest.raises(NarrationError, match=r"lexicon\.txt: a folder, not a file"):
        speakable("Softmax.", tmp_path / "lexicon.txt")


def test_a_lexicon_that_is_not_utf8_is_one_line(tmp_path):
    from production.narration.spoken import speakable

    (tmp_path / "lexicon.txt").write_bytes("müde = mooda\n".encode("latin-1"))
    with pytest.raises(NarrationError, match=r"lexicon\.txt: not UTF-8 text"):
        speakable("Softmax.", tmp_path / "lexicon.txt")


@pytest.mark.parametrize("where", ["voice", "voice/Demo"])
def test_a_recordings_folder_that_is_a_file_is_one_line(tmp_path, where):
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / where).write_bytes(b"RIFF")
    with pytest.raises(NarrationError) as error:
        narration.check_recordings("Demo", ["one"], tmp_path / "voice", tmp_path / "cache")
    message = str(error.value)
    assert message.startswith(f"{tmp_path / where}: a file, not a folder")
    assert "BEAT.wav" in message


def test_a_long_word_shaped_like_a_mark_is_quoted_at_most_80_characters(tmp_path):
    from production.narration.marks import MarkError, split

    shaped = "<" + "ab-" * 100 + ">"
    path = tmp_path / "Demo.txt"
    path.write_text(f"[one]\nHello {shaped} there.\n")
    with pytest.raises(MarkError) as error:
        split(f"Hello {shaped} there.", path, "one")
    message = str(error.value)
    assert repr(shaped[:77] + "...") in message and shaped[:81] not in message
