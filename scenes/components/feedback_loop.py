"""The writer that feeds itself: a box, its output slot, and a loop back to its input slot.

Also the word tape above it: the words read in on one line and the words
written out on the line under it, column by column, wrapped when long; and where the
writer's scene lays it (:func:`writing_tape`), which the scene after it shares.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    ORIGIN,
    RIGHT,
    UP,
    Arrow,
    RoundedRectangle,
    VectorizedPoint,
    VGroup,
    VMobject,
)

from production.language import N_, _
from scenes import style
from scenes.base import align_baselines, words
from scenes.frame import Frame


def rounded_path(corners: Sequence, radius: float, **kwargs) -> VMobject:
    """A path through ``corners`` (scene points) whose inner corners are rounded by ``radius``."""
    pts = [np.array(c, dtype=float) for c in corners]
    path = VMobject(**kwargs)
    path.start_new_path(pts[0])
    for prev, corner, nxt in zip(pts, pts[1:], pts[2:]):
        into = corner + radius * (prev - corner) / np.linalg.norm(prev - corner)
        out = corner + radius * (nxt - corner) / np.linalg.norm(nxt - corner)
        path.add_line_to(into)
        path.add_cubic_bezier_curve_to(into + 0.55 * (corner - into),
                                       out + 0.55 * (corner - out), out)
    path.add_line_to(pts[-1])
    return path


class WriterLoop(VGroup):
    """A writer box with an input slot on its left, an output slot on its right, and a loop.

    The loop runs from under the output slot, down, left under the writer and up
    into the input slot: whatever the writer writes comes round as its next input.
    Slots are points (scene coordinates) where a word is shown; the arrows stop
    ``clear`` scene units short of them, leaving room for the word. Sizes are scene
    units; the writer's name is set at ``name_size``.
    """

    def __init__(self, box_width: float, box_height: float, slot_gap: float,
                 loop_depth: float, *, name_size: int, clear: float = 0.65) -> None:
        super().__init__()
        self.box = RoundedRectangle(corner_radius=0.2, width=box_width, height=box_height,
                                    color=style.WRITER)
        self.box.set_fill(style.WRITER, opacity=0.12)
        self.name = words(_("writer"), name_size, style.WRITER).move_to(self.box)
        # Invisible markers, so the slots travel with the group when it is placed.
        self.in_mark = VectorizedPoint(self.box.get_left() + LEFT * slot_gap)
        self.out_mark = VectorizedPoint(self.box.get_right() + RIGHT * slot_gap)
        in_slot, out_slot = self.in_slot, self.out_slot
        arrow_kw = {"color": style.MUTED, "buff": 0.0, "stroke_width": 3,
                    "max_tip_length_to_length_ratio": 0.25}
        self.in_arrow = Arrow(in_slot + RIGHT * clear, self.box.get_left(), **arrow_kw)
        self.out_arrow = Arrow(self.box.get_right(), out_slot + LEFT * clear, **arrow_kw)
        low = self.box.get_bottom()[1] - loop_depth
        corners = [out_slot, [out_slot[0], low, 0], [in_slot[0], low, 0], in_slot]
        self.path = rounded_path(corners, 0.35, stroke_opacity=0.0)
        # The drawn loop stops short of the slots, so the words in them stand clear.
        drawn = [corners[0] + DOWN * 0.35, *corners[1:3], [in_slot[0], low + 0.4, 0]]
        self.loop = VGroup(
            rounded_path(drawn, 0.35, color=style.WRITER, stroke_width=3),
            Arrow([in_slot[0], low + 0.4, 0], corners[3] + DOWN * 0.3, color=style.WRITER,
                  buff=0.0, stroke_width=3, max_tip_length_to_length_ratio=0.3),
        )
        self.add(self.box, self.name, self.in_arrow, self.out_arrow, self.loop, self.in_mark,
                 self.out_mark, self.path)

    @property
    def in_slot(self) -> np.ndarray:
        """Where the writer's next input word sits (a scene point)."""
        return self.in_mark.get_center()

    @property
    def out_slot(self) -> np.ndarray:
        """Where a word the writer writes appears (a scene point)."""
        return self.out_mark.get_center()

    def get_box(self) -> RoundedRectangle:
        return self.box

    def get_name(self):
        return self.name

    def get_arrows(self) -> VGroup:
        return VGroup(self.in_arrow, self.out_arrow)

    def get_loop(self) -> VGroup:
        """The drawn loop (a line and an arrow into the input slot)."""
        return self.loop

    def get_loop_path(self) -> VMobject:
        """An undrawn path from the output slot round to the input slot (for MoveAlongPath)."""
        return self.path

    def get_loop_bottom(self) -> float:
        """The y of the loop's lowest line (scene units)."""
        return float(self.path.get_bottom()[1])


class WordTape(VGroup):
    """Words in columns: what was read (one line) and what was written (the line under it).

    Columns have one width (the widest word plus a gap), so the word written at
    step i sits under the word read at step i. Long sentences wrap into blocks
    of as many columns as fit in ``width`` scene units. With ``read`` None only
    the written line is laid out (for sentences too long for both). The words are
    ``size``, the line labels ``label_size``.
    """

    def __init__(self, read: Sequence[str] | None, written: Sequence[str], width: float, *,
                 size: int, label_size: int, labels: tuple[str, str] = (N_("read"), N_("wrote"))
                 ) -> None:
        super().__init__()
        lines = 1 if read is None else 2
        self.labels = VGroup(*(words(_(t), label_size, c) for t, c in
                               zip(labels[2 - lines:], (style.READER, style.WRITER)[2 - lines:])))
        self.read = [] if read is None else [words(w, size, style.READER) for w in read]
        self.written = [words(w, size, style.WRITER) for w in written]
        every = self.read + self.written
        column = max(w.width for w in every) + style.GAP * 0.6
        label_width = max(t.width for t in self.labels) + style.GAP
        self.per_line = max(1, int((width - label_width) // column))
        line_pitch = max(w.height for w in every) + style.LINE_GAP
        block_pitch = lines * line_pitch + (style.GAP if lines == 2 else 0)
        for i, w in enumerate(self.written):
            block, col = divmod(i, self.per_line)
            x = label_width + (col + 0.5) * column
            y = -block * block_pitch
            if self.read:
                self.read[i].move_to([x, 0, 0])
                align_baselines([self.read[i]], y)
                y -= line_pitch
            w.move_to([x, 0, 0])
            align_baselines([w], y)
        for i, label in enumerate(self.labels):
            label.move_to(ORIGIN, aligned_edge=LEFT)
            align_baselines([label], -i * line_pitch)
        self.add(self.labels, *self.read, *self.written)

    @classmethod
    def largest(cls, read: Sequence[str], written: Sequence[str], width: float, height: float,
                sizes: Sequence[int], label_size: int) -> WordTape:
        """The largest tape within ``width`` x ``height`` (scene units): both lines in the
        largest of ``sizes`` that fits, else the written line alone; the smallest, written
        line alone, if none fits."""
        for lines in (read, None):
            for size in sizes:
                tape = cls(lines, written, width, size=size, label_size=label_size)
                if tape.height <= height:
                    return tape
        return tape

    @property
    def blocks(self) -> int:
        """How many wrapped blocks the sentence takes."""
        return -(-len(self.written) // self.per_line)

    def get_labels(self) -> VGroup:
        return self.labels

    def get_read(self) -> VGroup:
        return VGroup(*self.read)

    def get_written_word(self, i: int):
        return self.written[i]


def writing_tape(frame: Frame, read: Sequence[str], written: Sequence[str]) -> WordTape:
    """The tape as the writer's scene lays it across the top of ``frame``'s room, in the
    largest type that leaves most of the room for the drawing under it. The scene after
    it opens on the words read, where this tape leaves them."""
    kind = frame.type
    left, right, bottom, top = frame.area()
    tape = WordTape.largest(read, written, right - left, 0.35 * (top - bottom),
                            (kind.body, kind.label, kind.minimum), kind.label)
    return tape.move_to([frame.centre()[0], top, 0], aligned_edge=UP)
