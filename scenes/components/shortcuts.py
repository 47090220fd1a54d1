"""Shortcuts: a line from every word written back to every word read, the attention
decoder's direct paths to the whole input. Every path is drawn (faint: it is there at
every step), and over it a bright line as strong as its weight (stroke opacity =
weight, on the fixed scale 0 to 1)."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, UP, Create, LaggedStart, Line, Mobject, VGroup

from scenes import style

BUFF = 0.12  # between a word and the ends of its lines (scene units)
WIDEST = 8.0  # the stroke width of a line of weight 1


class Shortcuts(VGroup):
    """Lines from each of ``writers`` (words, below) up to each of ``readers`` (words,
    above): ``weights[i][j]`` is how much writer i gives reader j. ``get_paths()`` are the
    faint lines, ``get_links()`` the bright ones, a group per writer."""

    def __init__(self, writers: Sequence[Mobject], readers: Sequence[Mobject],
                 weights: Sequence[Sequence[float]]) -> None:
        super().__init__()
        self.paths, self.links = VGroup(), VGroup()
        for writer, row in zip(writers, weights):
            start = writer.get_top() + UP * BUFF
            paths, links = VGroup(), VGroup()
            for reader, w in zip(readers, row):
                end = reader.get_bottom() + DOWN * BUFF
                paths.add(Line(start, end, stroke_color=style.FAINT, stroke_width=2))
                strength = min(max(w, 0.0), 1.0)
                links.add(Line(start, end, stroke_color=style.WEIGHT,
                               stroke_width=1 + (WIDEST - 1) * strength,
                               stroke_opacity=strength))
            self.paths.add(paths)
            self.links.add(links)
        self.add(self.paths, self.links)

    def get_paths(self) -> VGroup:
        return self.paths

    def get_links(self) -> VGroup:
        return self.links

    def get_links_from(self, i: int) -> VGroup:
        return self.links[i]

    def make_paths_animation(self, lag_ratio: float = 0.15) -> LaggedStart:
        """Every path drawn, one writer's after another's."""
        return LaggedStart(*(Create(p) for p in self.paths), lag_ratio=lag_ratio)

    def make_links_animation(self, lag_ratio: float = 0.5) -> LaggedStart:
        """Each writer's bright lines in turn, as its step weighs the words."""
        return LaggedStart(*(Create(links) for links in self.links), lag_ratio=lag_ratio)


__all__ = ["Shortcuts"]
