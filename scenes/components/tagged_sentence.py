"""A sentence with the one tag each word was given under it, and arcs for one word's row."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, UP, AnimationGroup, CubicBezier, Transform, VGroup

from scenes import style
from scenes.base import align_baselines, words
from scenes.components.readout_panel import make_text_swap_animation, put_in_place_of
from scenes.lines import text_height, text_width

TAG_DROP = 0.14  # from the bottom of the words to the top of the tags (scene units)
WORD_GAP = 0.2  # the least gap between neighbouring words (scene units)
TAG_GAP = 0.1  # the least gap between neighbouring tags on one line (scene units)
MAX_TAG_LINES = 3  # the most lines the tags take turns on


class TaggedSentence(VGroup):
    """The words in one line at ``size``, each with its tag under it at ``tag_size``.

    Each word stands as close to the last as its own width and its tag allow, and the
    tags take turns on as many lines as they need to stand clear of each other (at
    most ``max_lines``); with ``tagged``, only the words of those indices show their
    tags. A word's place leaves room for every word that will ever stand in it (pass
    the other versions of the sentence in ``also``), so a word can be changed without
    its neighbours moving. ``fits`` says whether it came out within ``max_width``
    (scene units); it spreads its words out evenly, up to ``spread`` times their least
    gap, to use that width.
    """

    def __init__(self, items: Sequence[str], tags: Sequence[str], *, size: int,
                 tag_size: int, max_width: float,
                 also: Sequence[tuple[Sequence[str], Sequence[str]]] = (),
                 tagged: Sequence[int] | None = None, spread: float = 3.0,
                 max_lines: int = MAX_TAG_LINES) -> None:
        super().__init__()
        versions = [(list(items), list(tags)), *((list(w), list(t)) for w, t in also)]
        self.word_size, self.tag_size = size, tag_size
        #: the index of the word each shown tag belongs to, in the order of get_tags()
        self.tag_index = list(range(len(items))) if tagged is None else sorted(set(tagged))
        for lines in range(1, max_lines + 1):
            self.fits = self._lay_out_lines(versions, lines, max_width, spread)
            if self.fits:
                break
        self.add(self.words, self.tags)

    def _lay_out_lines(self, versions, lines: int, max_width: float, spread: float) -> bool:
        """Words and tags, the k-th shown tag on line k % ``lines``: each word as close to
        the last as its own width and the tag on its line allow, then the gaps widened
        alike to fill ``max_width``, up to ``spread`` times the least."""
        n = len(versions[0][0])
        shown = self.tag_index
        size, tag_size = self.word_size, self.tag_size
        word_w = [max(text_width(v[0][i], size) for v in versions) for i in range(n)]
        tag_w = [max(text_width(v[1][i], tag_size) for v in versions) if i in shown else 0.0
                 for i in range(n)]
        xs: list[float] = []
        for j in range(n):
            x = 0.0 if j == 0 else xs[-1] + (word_w[j - 1] + word_w[j]) / 2 + WORD_GAP
            k = shown.index(j) if j in shown else -1
            if k >= lines:
                before = shown[k - lines]
                x = max(x, xs[before] + (tag_w[before] + tag_w[j]) / 2 + TAG_GAP)
            xs.append(x)
        reach = [max(w, t) / 2 for w, t in zip(word_w, tag_w)]

        def width() -> float:
            return max(x + r for x, r in zip(xs, reach)) - min(x - r for x, r in zip(xs, reach))

        if n > 1 and width() < max_width:
            extra = min((max_width - width()) / (n - 1), (spread - 1) * WORD_GAP)
            xs = [x + extra * j for j, x in enumerate(xs)]
        low = min(x - r for x, r in zip(xs, reach))
        xs = [x - low - width() / 2 for x in xs]
        items, tags = versions[0]
        self.words = VGroup(*(words(w, size, style.INK).set_x(x) for w, x in zip(items, xs)))
        align_baselines(self.words, 0.0)
        self.tags = VGroup(*(words(tags[i], tag_size, style.MUTED).set_x(xs[i]) for i in shown))
        if len(self.tags):
            align_baselines(self.tags, 0.0)
            self.tags.shift(UP * (self.words.get_bottom()[1] - TAG_DROP
                                  - self.tags.get_top()[1]))
        step = text_height("Thp", tag_size) + 0.04
        for i, tag in enumerate(self.tags):
            tag.shift(DOWN * step * (i % lines))
        return width() <= max_width + 1e-6

    def get_words(self) -> VGroup:
        return self.words

    def get_tags(self) -> VGroup:
        return self.tags

    def get_word(self, i: int):
        return self.words[i]

    def make_change_animation(self, items: Sequence[str], tags: Sequence[str]) -> AnimationGroup:
        """Every word or tag that differs slides out, and the new one slides into its slot."""
        swaps = []
        for group, texts, size in ((self.words, items, self.word_size),
                                   (self.tags, [tags[i] for i in self.tag_index], self.tag_size)):
            for i, text in enumerate(texts):
                old = group[i]
                if old.original_text == text:
                    continue
                new = put_in_place_of(words(text, size, old.get_color()), old, edge=None)
                group.submobjects[i] = new
                swaps.append(make_text_swap_animation(old, new))
        return AnimationGroup(*swaps)


class WeightArcs(VGroup):
    """Arcs from one word of a TaggedSentence to every other word, over the sentence.

    An arc's thickness and opacity follow its weight (a fraction from 0 to 1);
    the longest arc rises ``max_height`` scene units, shorter ones less.
    """

    def __init__(self, sentence: TaggedSentence, reader_index: int, weights: Sequence[float],
                 max_height: float = 0.9) -> None:
        super().__init__()
        self.sentence, self.max_height = sentence, max_height
        y = sentence.get_words().get_top()[1] + 0.1
        xs = [w.get_x() for w in sentence.get_words()]
        x0 = xs[reader_index]
        far = max(abs(x - x0) for x in xs) or 1.0
        for j, (x1, weight) in enumerate(zip(xs, weights)):
            if j == reader_index:
                continue
            rise = max_height * (0.35 + 0.65 * abs(x1 - x0) / far) / 0.75
            arc = CubicBezier([x0, y, 0], [x0, y + rise, 0], [x1, y + rise, 0], [x1, y, 0])
            arc.set_stroke(style.WEIGHT, width=1.5 + 12 * weight, opacity=0.2 + 0.8 * weight)
            self.add(arc)

    def make_weights_animation(self, reader_index: int, weights: Sequence[float]) -> Transform:
        """Every arc thickens or thins to its new weight."""
        return Transform(self, WeightArcs(self.sentence, reader_index, weights, self.max_height))

