"""The opening: the chapter's question, and the two jobs of encoder and decoder."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
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
from scenes.lines import centred_lines

INPUT_WORDS = ("the", "cat", "sat", "on", "the", "mat")
OUTPUT_WORDS = ("le", "chat", "était", "assis", "sur", "le", "tapis")


class TitleCard(ChapterScene):
    """One frame: the chapter's question."""

    section = "title"
    title = "The question"
    beat_seconds = {"question": 5.0}

    def construct(self) -> None:
        # The viewer sees the question, then the chapter's name under it.
        b = self.beat("question")
        if self.tall:
            # Upright: the question on three lines and the name on two, at full size.
            question = centred_lines(("How does a", "machine decide", "where to look?"),
                                     style.TITLE)
            name = centred_lines(("Encoder, decoder", "and attention"), style.HEADING,
                                 style.MUTED)
        else:
            question = words("How does a machine decide where to look?", style.TITLE)
            question.scale_to_fit_width(min(question.width, 12.5))
            name = words("Encoder, decoder and attention", style.HEADING, style.MUTED)
        VGroup(question, name).arrange(DOWN, buff=style.GAP * (3 if self.tall else 2))
        VGroup(question, name).move_to(self.centre())
        self.play(Write(question), run_time=b.part(0.4))
        self.play(FadeIn(name, shift=UP * 0.2), run_time=b.part(0.2))


def box(label: str, color, width: float = 3.2, height: float = 1.4) -> VGroup:
    """A labelled rounded box: a reader or a writer."""
    frame = RoundedRectangle(corner_radius=0.2, width=width, height=height, color=color)
    frame.set_fill(color, opacity=0.12)
    text = words(label, style.HEADING, color).move_to(frame)
    return VGroup(frame, text)


class TwoJobs(ChapterScene):
    """A reader that takes in the whole input; a writer that produces one piece at a time."""

    section = "two_jobs"
    title = "Two jobs: reader and writer"
    beat_seconds = {"reader": 6.0, "writer": 8.0, "split": 5.0}

    def construct(self) -> None:
        width, height = (4.4, 1.6) if self.tall else (3.2, 1.4)
        reader = box("reader", style.READER, width, height)
        writer = box("writer", style.WRITER, width, height)
        source = word_row(INPUT_WORDS)
        if self.tall:
            # Upright: the reader above the writer, the input over the one and the output
            # (later the caption, in its place) under the other.
            VGroup(reader, writer).arrange(DOWN, buff=1.6)
            link = Arrow(reader.get_bottom(), writer.get_top(), color=style.MUTED, buff=0.15)
            source.next_to(reader, UP, buff=0.7)
            # The output on two lines, one word at a time as before.
            lines = [word_row(part, style.BODY, style.WRITER)
                     for part in (OUTPUT_WORDS[:4], OUTPUT_WORDS[4:])]
            stack_lines(lines, 0.7, aligned_edge=ORIGIN)
            target = VGroup(*(w for line in lines for w in line))
            target.next_to(writer, DOWN, buff=0.7)
            caption = centred_lines(("Two jobs: read all of it, then",
                                     "write one piece at a time"), style.BODY, style.MUTED)
            caption.next_to(writer, DOWN, buff=0.7)
            VGroup(source, reader, writer, link, target, caption).move_to(self.centre())
        else:
            VGroup(reader, writer).arrange(RIGHT, buff=3.0).shift(UP * 0.3)
            link = Arrow(reader.get_right(), writer.get_left(), color=style.MUTED, buff=0.15)
            source.next_to(reader, UP, buff=0.8)
            source.align_to(reader, LEFT).shift(LEFT * 1.5)
            target = word_row(OUTPUT_WORDS, style.LABEL, style.WRITER)
            target.next_to(writer, DOWN, buff=0.8).align_to(writer, RIGHT).shift(RIGHT * 1.2)
            target.shift(RIGHT * max(0, target.get_right()[0] - 6.6) * -1)
            caption = words("Two jobs: read all of it, then write one piece at a time",
                            style.BODY, style.MUTED)
            caption.scale_to_fit_width(min(caption.width, 13.0)).to_edge(DOWN, buff=style.EDGE)

        # The viewer sees the whole input sentence flow into the reader at once.
        b = self.beat("reader")
        self.play(FadeIn(reader), run_time=b.part(0.15))
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.2) for w in source), lag_ratio=0.1),
                  run_time=b.part(0.25))
        self.play(source.animate.scale(0.5).move_to(reader).set_opacity(0),
                  run_time=b.part(0.3))
        self.remove(source)

        # The viewer sees the writer produce its output one word at a time.
        b = self.beat("writer")
        self.play(FadeIn(link), FadeIn(writer), run_time=b.part(0.15))
        step = 0.7 / len(target)
        for w in target:
            self.play(FadeIn(w, shift=DOWN * 0.2), run_time=b.part(step))

        # The viewer sees the two jobs named: reading all, writing piece by piece.
        b = self.beat("split")
        self.play(FadeOut(target), FadeIn(caption), run_time=b.part(0.25))
