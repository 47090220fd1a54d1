"""The opening: the chapter's question over the input sentence, and the two jobs of
encoder and decoder, which take the sentence over where the question left it."""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Dot,
    FadeIn,
    FadeOut,
    LaggedStart,
    Polygon,
    ReplacementTransform,
    RoundedRectangle,
    Transform,
    VGroup,
    Write,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, stack_lines, word_row, words
from scenes.frame import Frame
from scenes.lines import balanced_lines, largest_that_fits, text_width, wrapped

INPUT_WORDS = ("the", "cat", "sat", "on", "the", "mat")
OUTPUT_WORDS = ("le", "chat", "était", "assis", "sur", "le", "tapis")
QUESTION = N_("How does a machine decide where to look?")
CAPTION = N_("Two jobs: read all of it, then write one piece at a time")


def title_sentence(frame: Frame) -> VGroup:
    """The input sentence as the title card draws it and leaves it for TwoJobs: one line,
    its words spread over most of the room's width, at the largest size of ``frame``'s
    type scale at which they fit, along the bottom of the room (clear of it by the
    light's margin)."""
    kind = frame.type
    left, right, bottom, _ = frame.area()
    width, gaps = 0.95 * (right - left), len(INPUT_WORDS) - 1

    def spread(size: int) -> VGroup:
        text = sum(text_width(w, size) for w in INPUT_WORDS)
        buff = min(max((0.9 * (right - left) - text) / gaps, 3 * LIGHT_SIDE), 3 * style.GAP)
        return word_row(INPUT_WORDS, size, style.INK, buff=buff)

    sentence = largest_that_fits(spread, kind.sizes(), (width, frame.room()[1]))
    sentence.move_to([frame.centre()[0], bottom + LIGHT_HEAD, 0], aligned_edge=DOWN)
    return sentence


#: how far the light round a word reaches past its sides and past its top and foot (scene
#: units): the words stand at least three sides apart, so a word's light stays off its
#: neighbours
LIGHT_SIDE, LIGHT_HEAD = 0.1, 0.18


class TitleCard(ChapterScene):
    """The chapter's question over the input sentence; a light that moves from word to word
    above it: deciding where to look. It hands the sentence over to TwoJobs."""

    section = "title"
    title = N_("The question")
    beat_seconds = {"question": 5.0}
    #: the words the light falls on, in turn (places in the sentence)
    LOOKS = (1, 5, 2)

    def construct(self) -> None:
        # The question at title size across the top, on as many balanced lines as the
        # room's width needs; the sentence along the bottom; between them a lamp whose
        # beam falls on one word at a time.
        frame = self.frame()
        top = self.area()[3]
        question = wrapped(_(QUESTION), frame.type.title, 0.95 * frame.room()[0])
        question.move_to([self.centre()[0], top, 0], aligned_edge=UP)
        sentence = title_sentence(frame)
        lamp = Dot(radius=0.16, color=style.WEIGHT)
        lamp.next_to(question, DOWN, buff=style.GAP).set_x(self.centre()[0])
        light = [self.light(lamp, sentence, i) for i in self.LOOKS]
        beam, pool = light[0]

        # The viewer sees the question written over the sentence.
        b = self.beat("question")
        self.play(Write(question), FadeIn(sentence, lag_ratio=0.15), run_time=b.part(0.25))
        # The viewer sees a lamp light one word, then swing its light to another, and another.
        self.play(FadeIn(lamp), FadeIn(beam), FadeIn(pool), run_time=b.part(0.1))
        for next_beam, next_pool in light[1:]:
            self.play(Transform(beam, next_beam), Transform(pool, next_pool),
                      run_time=b.part(0.14))
        self.hand_over(sentence)

    @staticmethod
    def light(lamp: Dot, sentence: VGroup, i: int) -> tuple[Polygon, RoundedRectangle]:
        """A beam from ``lamp`` down onto word ``i`` of ``sentence``, and the pool of light
        round the word (as tall as the line), both behind it."""
        word = sentence[i]
        pool = RoundedRectangle(corner_radius=0.15, width=word.width + 2 * LIGHT_SIDE,
                                height=sentence.height + 2 * LIGHT_HEAD, stroke_width=0)
        pool.set_fill(style.WEIGHT, opacity=0.35).move_to([word.get_x(), sentence.get_y(), 0])
        tip, (x0, y), x1 = lamp.get_center(), pool.get_corner(UP + LEFT)[:2], \
            pool.get_corner(UP + RIGHT)[0]
        beam = Polygon(tip + LEFT * 0.06, tip + RIGHT * 0.06, [x1, y, 0], [x0, y, 0],
                       stroke_width=0).set_fill(style.WEIGHT, opacity=0.28)
        return beam.set_z_index(-1), pool.set_z_index(-1)


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
    title = N_("Two jobs: reader and writer")
    beat_seconds = {"reader": 6.0, "writer": 8.0, "split": 5.0}
    opens_with = "the input sentence"

    def construct(self) -> None:
        # The reader and the writer stand along the frame's flow, as large as the room
        # allows: the input over the reader, the output (later the caption) under the writer.
        reader, writer, link, source, target, caption = \
            getattr(self, "lay_out_" + self.frame().flow)()
        # The sentence where the title card left it.
        carried = title_sentence(self.frame())
        self.add(carried)

        # The writer's place, dim until its beat: two jobs from the start.
        waiting = writer.copy()
        waiting[0].set_stroke(opacity=0.3).set_fill(opacity=0.03)
        waiting[1].set_opacity(0.3)

        # The viewer sees the input sentence rise into place, a reader appear under it as
        # it passes, and the sentence flow into the reader at once.
        b = self.beat("reader")
        self.play(LaggedStart(ReplacementTransform(carried, source),
                              AnimationGroup(FadeIn(reader), FadeIn(waiting)), lag_ratio=0.5),
                  run_time=b.part(0.3))
        self.wait(b.part(0.1))
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
                wrapped(_(CAPTION), kind.body, width, style.MUTED))

    def boxes(self, width: float, height: float) -> tuple[VGroup, VGroup]:
        heading = self.frame().type.heading
        return (box(_("reader"), style.READER, width, height, heading),
                box(_("writer"), style.WRITER, width, height, heading))

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
