"""The opening: the chapter's question, and the two jobs of encoder and decoder."""

from __future__ import annotations

from manim import (
    DOWN,
    ORIGIN,
    RIGHT,
    UP,
    Arrow,
    FadeIn,
    FadeOut,
    LaggedStart,
    RoundedRectangle,
    VGroup,
    Write,
)

from scenes import style
from scenes.base import ChapterScene, stack_lines, word_row, words
from scenes.lines import balanced_lines, wrapped

INPUT_WORDS = ("the", "cat", "sat", "on", "the", "mat")
OUTPUT_WORDS = ("le", "chat", "était", "assis", "sur", "le", "tapis")
QUESTION = "How does a machine decide where to look?"
NAME = "Encoder, decoder and attention"
CAPTION = "Two jobs: read all of it, then write one piece at a time"


class TitleCard(ChapterScene):
    """One frame: the chapter's question."""

    section = "title"
    title = "The question"
    beat_seconds = {"question": 5.0}

    def construct(self) -> None:
        # The question at title size on as many balanced lines as the room's width needs,
        # the chapter's name under it.
        kind, width = self.frame().type, 0.95 * self.frame().room()[0]
        question = wrapped(QUESTION, kind.title, width)
        name = wrapped(NAME, kind.heading, width, style.MUTED)
        card = VGroup(question, name).arrange(DOWN, buff=kind.title / 60)
        card.move_to(self.centre())

        # The viewer sees the question, then the chapter's name under it.
        b = self.beat("question")
        self.play(Write(question), run_time=b.part(0.4))
        self.play(FadeIn(name, shift=UP * 0.2), run_time=b.part(0.2))


def box(label: str, color, width: float, height: float, size: int) -> VGroup:
    """A labelled rounded box: a reader or a writer (scene units; its name at ``size``)."""
    frame = RoundedRectangle(corner_radius=0.2, width=width, height=height, color=color)
    frame.set_fill(color, opacity=0.12)
    text = words(label, size, color).move_to(frame)
    return VGroup(frame, text)


def word_lines(items: tuple[str, ...], size: int, color, width: float) -> VGroup:
    """Words, each its own text, on balanced centred lines at most ``width`` wide (scene
    units); the group holds the words in reading order."""
    rows = [word_row(line.split(" "), size, color)
            for line in balanced_lines(list(items), size, width - style.GAP)]
    stack_lines(rows, 1.3 * size / 60, aligned_edge=ORIGIN)
    return VGroup(*(w for row in rows for w in row))


class TwoJobs(ChapterScene):
    """A reader that takes in the whole input; a writer that produces one piece at a time."""

    section = "two_jobs"
    title = "Two jobs: reader and writer"
    beat_seconds = {"reader": 6.0, "writer": 8.0, "split": 5.0}

    def construct(self) -> None:
        # The reader and the writer stand along the frame's flow, as large as the room
        # allows: the input over the reader, the output (later the caption) under the writer.
        reader, writer, link, source, target, caption = \
            getattr(self, "lay_out_" + self.frame().flow)()

        # The writer's place, dim until its beat: two jobs from the start.
        waiting = writer.copy()
        waiting[0].set_stroke(opacity=0.3).set_fill(opacity=0.03)
        waiting[1].set_opacity(0.3)

        # The viewer sees the whole input sentence flow into the reader at once.
        b = self.beat("reader")
        self.play(FadeIn(reader), FadeIn(waiting), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(w, shift=UP * 0.2) for w in source), lag_ratio=0.1),
                  run_time=b.part(0.25))
        self.play(source.animate.scale(0.5).move_to(reader).set_opacity(0),
                  run_time=b.part(0.3))
        self.remove(source)

        # The viewer sees the writer produce its output one word at a time.
        b = self.beat("writer")
        self.play(FadeIn(link), FadeOut(waiting), FadeIn(writer), run_time=b.part(0.15))
        step = 0.7 / len(target)
        for w in target:
            self.play(FadeIn(w, shift=DOWN * 0.2), run_time=b.part(step))

        # The viewer sees the two jobs named: reading all, writing piece by piece.
        b = self.beat("split")
        self.play(FadeOut(target), FadeIn(caption), run_time=b.part(0.25))

    def texts(self) -> tuple[VGroup, VGroup, VGroup]:
        """The input and output sentences and the caption, each on as few balanced lines
        as the room's width allows (less a little: a line set whole may come out a touch
        wider than its words measured one by one)."""
        kind, width = self.frame().type, 0.95 * self.frame().room()[0]
        return (word_lines(INPUT_WORDS, kind.body, style.INK, width),
                word_lines(OUTPUT_WORDS, kind.body, style.WRITER, width),
                wrapped(CAPTION, kind.body, width, style.MUTED))

    def boxes(self, width: float, height: float) -> tuple[VGroup, VGroup]:
        heading = self.frame().type.heading
        return (box("reader", style.READER, width, height, heading),
                box("writer", style.WRITER, width, height, heading))

    def place(self, reader, writer, link, source, target, caption) -> tuple:
        """The input over the reader, the output under the writer and the caption under
        both, the sentences kept inside the room; the whole in the room's middle."""
        gap = 2 * style.GAP
        left, right, _, _ = self.area()
        source.next_to(reader, UP, buff=gap)
        target.next_to(writer, DOWN, buff=gap)
        caption.next_to(VGroup(reader, writer), DOWN, buff=gap)
        for text in (source, target):
            text.shift(RIGHT * (max(left - text.get_left()[0], 0)
                                + min(right - text.get_right()[0], 0)))
        VGroup(source, reader, writer, link, target, caption).move_to(self.centre())
        return reader, writer, link, source, target, caption

    def lay_out_across(self) -> tuple:
        """Side by side, the link between the boxes a fifth of the width; the boxes as
        tall as the sentences over and under them leave room for."""
        (width, height), gap = self.frame().room(), 2 * style.GAP
        source, target, caption = self.texts()
        link_length = 0.2 * width
        column = (width - link_length) / 2
        box_height = min(height - source.height - max(target.height, caption.height)
                         - 2 * gap, 0.6 * column)
        reader, writer = self.boxes(column, box_height)
        VGroup(reader, writer).arrange(RIGHT, buff=link_length)
        link = Arrow(reader.get_right(), writer.get_left(), color=style.MUTED, buff=0.15)
        return self.place(reader, writer, link, source, target, caption)

    def lay_out_down(self) -> tuple:
        """One above the other, most of the room's width; the two boxes share the height
        the sentences and the link leave."""
        (width, height), gap = self.frame().room(), 2 * style.GAP
        source, target, caption = self.texts()
        link_length = 1.0
        box_height = min((height - source.height - max(target.height, caption.height)
                          - 2 * gap - link_length) / 2, 0.45 * width)
        reader, writer = self.boxes(0.9 * width, box_height)
        VGroup(reader, writer).arrange(DOWN, buff=link_length)
        link = Arrow(reader.get_bottom(), writer.get_top(), color=style.MUTED, buff=0.15)
        return self.place(reader, writer, link, source, target, caption)
