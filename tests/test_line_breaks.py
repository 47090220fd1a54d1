"""Breaking text into lines (scenes/lines.py): the dynamic program breaks where the search
over every combination of breaks did, a long text breaks at once, and a text that cannot
fit its width even at the frame's smallest size is refused before it is drawn, in one line
naming its scene, its beat and the text."""

from __future__ import annotations

import itertools
import pickle
import random
from pathlib import Path

import pytest
from manim import FadeIn

from production import chapters
from production.drawing import construct_scene
from production.errors import UsageError
from scenes.base import ChapterScene, TextTooWide, words
from scenes.frame import WIDE
from scenes.lines import balanced_lines, largest_that_fits, line_breaks, text_width, wrapped
from tests.conftest import TEST_QUALITY, render_in


def exhaustive(widths: list[float], gap: float, width: float) -> list[int]:
    """The bounds the search over every combination of breaks chose (scenes/lines.py before
    it broke lines by a dynamic program): the fewest lines that fit, the longest of them
    shortest, the first combination in order where several tie; every piece on a line of
    its own when nothing fits."""
    n = len(widths)

    def longest(bounds: tuple[int, ...]) -> float:
        return max(sum(widths[a:b]) + gap * (b - a - 1) for a, b in zip(bounds, bounds[1:]))

    best = (0, n)
    for count in range(1, n + 1):
        best = min(((0, *inner, n) for inner in itertools.combinations(range(1, n), count - 1)),
                   key=longest)
        if longest(best) <= width:
            break
    return list(best)


def test_the_breaks_are_the_exhaustive_search_s_on_many_small_inputs():
    """Whole widths tie often, so the order among equal breaks is tested too; some pieces
    are wider than the width, and some gaps below zero (kerning)."""
    rng = random.Random(39)
    for _ in range(1500):
        n = rng.randint(1, 10)
        if rng.random() < 0.5:
            widths, gap, width = [rng.randint(0, 5) for _ in range(n)], rng.randint(0, 2), \
                rng.randint(0, 20)
        else:
            widths, gap, width = [rng.uniform(0, 2) for _ in range(n)], rng.uniform(-0.2, 0.4), \
                rng.uniform(0, 8)
        found = line_breaks(widths, gap, width)
        expected = exhaustive(widths, gap, width)
        if found is None:  # a piece wider than the width: every piece on its own line
            assert any(w > width for w in widths) and expected == list(range(n + 1))
        else:
            assert found == expected, (widths, gap, width)


WORDS = ("the chapter asks how a machine decides where to look at every step when it reads "
         "a sentence and writes its translation one word after another").split()


def test_set_text_breaks_where_the_exhaustive_search_did():
    rng = random.Random(5)
    size = WIDE.type.label
    gap = text_width("x x", size) - 2 * text_width("x", size)
    for _ in range(60):
        pieces = rng.sample(WORDS, rng.randint(2, 9))
        width = rng.uniform(0.5, 6.0)
        bounds = exhaustive([text_width(p, size) for p in pieces], gap, width)
        assert balanced_lines(" ".join(pieces), size, width) == \
            [" ".join(pieces[a:b]) for a, b in zip(bounds, bounds[1:])]


def greedy(widths: list[float], gap: float, fits) -> float:
    """How many lines first-fit takes (the fewest there can be) when ``fits(line width)``
    says what a line may be; infinite when a piece alone does not fit."""
    lines, run = 0, None
    for w in widths:
        if run is not None and fits(run + gap + w):
            run += gap + w
        elif fits(w):
            lines, run = lines + 1, w
        else:
            return float("inf")
    return lines


@pytest.mark.parametrize("count", [28, 40, 200])
def test_a_long_text_in_a_narrow_column_breaks_at_once(count):
    """In many lines: the search over every combination of breaks took minutes at 24 words
    and did not end at 28. Every line fits, none could be spared, and no break into as
    many lines keeps every line shorter than the longest."""
    size, width = WIDE.type.label, 3.0
    text = " ".join(itertools.islice(itertools.cycle(WORDS), count))
    lines = balanced_lines(text, size, width)
    assert " ".join(lines) == text
    gap = text_width("x x", size) - 2 * text_width("x", size)
    widths = [text_width(w, size) for w in text.split()]

    def wide(line: str) -> float:
        return sum(text_width(w, size) for w in line.split()) + gap * (len(line.split()) - 1)

    longest = max(wide(line) for line in lines)
    assert longest <= width
    assert len(lines) == greedy(widths, gap, lambda w: w <= width) > count / 10
    assert greedy(widths, gap, lambda w: w < longest) > len(lines)


# ------------------------------------------------------------------ what cannot fit
#: one word of 186 letters: wider than any frame at any size
LONG = "supercalifragilistic" * 9 + "expial"


class LongWord(ChapterScene):
    """A word in its first beat; in its second, a caption (``caption``) set in the area's
    width (laid out before the first beat when ``early``)."""

    section = "shares"
    beat_seconds = {"first": 0.5, "caption": 0.5}
    caption = f"the weights of {LONG} add up"
    early = False

    def construct(self) -> None:
        left, right, _bottom, _top = self.area()

        def caption():
            return wrapped(self.caption, self.frame().type.body, right - left)

        made = caption() if self.early else None
        b = self.beat("first")
        self.play(FadeIn(words("scores")), run_time=b.part(0.5))
        self.beat("caption")
        self.add(made or caption())


class LongWordAlone(LongWord):
    caption = LONG
    early = True


def build(scene: type[ChapterScene], tmp_path: Path) -> ChapterScene:
    return construct_scene(chapters.load("tests.fixture.chapter"), scene, "preview", None,
                           tmp_path, video=False)


@pytest.mark.parametrize(("scene", "where", "said"), [
    (LongWord, "LongWord, beat 'caption'", f"(in 'the weights of {LONG[:62]}...')"),
    (LongWordAlone, "LongWordAlone, laying out before beat 'first'", ""),
], ids=["in a sentence, in its beat", "alone, before the first beat"])
def test_a_word_too_wide_at_the_smallest_size_is_refused_by_scene_beat_and_text(
        tmp_path, scene, where, said):
    with pytest.raises(TextTooWide) as refused:
        build(scene, tmp_path)
    message = str(refused.value)
    assert isinstance(refused.value, UsageError)  # render.py: one line, exit status 2
    assert "\n" not in message and LONG not in message
    assert message.startswith(f"{where}: the text '{LONG[:77]}...' ")
    assert said in message and f"({WIDE.type.minimum})" in message
    crossed = pickle.loads(pickle.dumps(refused.value))  # from a worker to the render
    assert type(crossed) is TextTooWide and str(crossed) == message


class FitsWhenSmall(ChapterScene):
    """A word too wide for its width at the title's size and not at the smallest."""

    section = "shares"
    beat_seconds = {"word": 0.5}

    def construct(self) -> None:
        kind = self.frame().type
        width = text_width("weights", kind.minimum) + 0.01
        self.word = largest_that_fits(lambda size: wrapped("weights", size, width),
                                      (kind.title, kind.minimum), (width, 8.0))
        b = self.beat("word")
        self.play(FadeIn(self.word), run_time=b.part(0.5))


def test_a_text_that_fits_at_a_smaller_size_is_not_refused(tmp_path):
    scene = build(FitsWhenSmall, tmp_path)
    assert scene.word.width <= text_width("weights", WIDE.type.minimum) + 0.01 + 1e-6


@pytest.mark.system
def test_the_render_refuses_a_word_that_cannot_fit_in_one_line(copy_fixture_project, tmp_path):
    """Through the command, drawn in a worker: exit status 2 and one line."""
    source = copy_fixture_project / "scenes" / "fixture" / "scenes.py"
    source.write_text(source.read_text().replace('N_("Three scores become weights.")',
                                                 f'N_("{LONG}")'))
    done = render_in(copy_fixture_project, "render", "--chapter", "fixture", "--quality",
                     TEST_QUALITY, "--out", str(tmp_path / "out"), "Scores")
    assert done.returncode == 2, done.stderr[-3000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"render.py: error: Scores, laying out before beat 'scores': "
                           f"the text '{LONG[:77]}...' ")
    assert "Traceback" not in done.stderr
    assert not list((tmp_path / "out").rglob("*.mp4"))
