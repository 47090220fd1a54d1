"""One vector to unroll: the classic decoder gets only the encoder's last state, the
context vector, and unrolls it step after step; that vector holds little of the words
before the last: the bottleneck."""

from __future__ import annotations

from manim import (
    LEFT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene
from scenes.components.bar_list import INSIDE, BarList
from scenes.components.encoder_row import state_row
from scenes.components.readout_panel import make_text_swap_animation
from scenes.components.sentence_pair import WORD_SHARE, columns, size_for
from scenes.components.state_strip import StateStrip
from scenes.components.unrolled_decoder import UnrolledDecoder
from scenes.lines import centred_lines, text_height, text_width, two_lines, wrapped
from scenes.numbers import decimal, percent, percent_figure

CONTEXT = N_("context vector")
#: how far the box drawn round the vector at the end stands off its squares (scene units)
SQUEEZE = 0.06


def captions_for(size: int) -> dict[str, str]:
    """What the caption over the scene says, beat by beat (``size``: the numbers in the
    vector, from the ledger)."""
    return {
        "last": _("the decoder gets one vector: the last state"),
        "unroll": _("the same vector at every step"),
        "kept": _("what the vector still holds of each word"),
        "bottleneck": _("the bottleneck: {size} numbers for any sentence").format(size=size),
    }


class OneVectorToUnroll(ChapterScene):
    """The row of states left by the encoder; the last becomes the context vector; the
    decoder unrolls it and writes one word over and over; bars of what it still holds."""

    section = "classic"
    title = N_("One vector to unroll: the bottleneck")
    opens_with = "the row of hidden states"
    beat_seconds = {"last": 10.0, "unroll": 12.5, "kept": 13.5, "bottleneck": 14.0}
    marks = {"unroll": ("written",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Numbers and words the narration names, from the same ledger as the pictures."""
        n = numbers
        return {"written": ", ".join(n["classic_written"]), "size": str(n["size"]),
                "last_kept": percent_figure(n["kept"][-1]),
                "first_kept": percent_figure(n["kept"][0])}

    def construct(self) -> None:
        n = self.numbers
        row = state_row(self.frame(), n["encoder_states"], n["source"])
        captions, vector, decoder, kept = self.lay_out()
        label, context = vector
        self.context, self.decoder, self.kept = context, decoder, kept  # for tests
        aside = vector.get_center()
        vector.move_to([self.centre()[0], aside[1], 0])
        self.add(row)

        # The viewer sees the row of states the encoder left; all but the last fade, and the
        # last moves to the middle and grows into the context vector, its numbers beside it.
        b = self.beat("last")
        self.play(FadeIn(captions["last"]), FadeOut(row.get_strips()[:-1]),
                  FadeOut(row.get_words()), run_time=b.part(0.2))
        self.play(ReplacementTransform(row.get_strips()[-1].get_cells(), context.get_cells()),
                  FadeIn(label), run_time=b.part(0.25))
        self.play(FadeIn(context.get_numbers(), shift=LEFT * 0.1, lag_ratio=0.1),
                  run_time=b.part(0.2))

        # The viewer sees the decoder unrolled, a copy of the one vector fed into every step;
        # what it should write in grey; then, as the voice says them, the words it writes.
        b = self.beat("unroll")
        self.play(make_text_swap_animation(captions["last"], captions["unroll"]),
                  vector.animate.move_to(aside), run_time=b.part(0.1))
        count = len(n["target"])
        for i in range(count):
            copy, arrows, cell = decoder.get_step(i)
            self.play(TransformFromCopy(context.get_cells(), copy), FadeIn(cell),
                      *(GrowArrow(a) for a in arrows), run_time=b.part(0.4 / count))
        self.play(FadeIn(decoder.get_target(), lag_ratio=0.1),
                  run_time=min(b.part(0.1), self.time_to("written")))
        self.at("written")
        self.play(FadeIn(decoder.get_written(), shift=UP * 0.15, lag_ratio=0.4),
                  run_time=min(b.part(0.2), self.time_left()))

        # The viewer sees the decoder go; in its place a bar per English word: how much of it
        # the vector still holds, the last word's bar long, the others short.
        b = self.beat("kept")
        self.play(make_text_swap_animation(captions["unroll"], captions["kept"]),
                  FadeOut(decoder), run_time=b.part(0.15))
        self.play(kept.make_grow_animation(), run_time=b.part(0.35))

        # The viewer sees the vector boxed in: the bottleneck, its size named.
        b = self.beat("bottleneck")
        squeeze = SurroundingRectangle(context.get_cells(), color=style.BAD, buff=SQUEEZE,
                                       stroke_width=5)
        self.play(make_text_swap_animation(captions["kept"], captions["bottleneck"]),
                  Create(squeeze), run_time=b.part(0.25))

    def lay_out(self) -> tuple:
        """The caption across the top of the room. Under it the context vector (its
        strip, its numbers at the strip's right) and the decoder, whose place the bars of
        what the vector holds take later: where the room is wide, the vector at the left
        with its name over it and the decoder at its right; where tall, the vector on top
        with its name at its left and the decoder under it. The vector's squares take the
        height the rest leaves (at least as tall as its numbers)."""
        n = self.numbers
        frame = self.frame()
        kind = frame.type
        left, right, bottom, top = self.area()
        width = right - left
        captions = {beat: wrapped(text, kind.label, 0.95 * width, style.MUTED)
                    for beat, text in captions_for(n["size"]).items()}
        caption_height = max(c.height for c in captions.values())
        for c in captions.values():
            c.move_to([self.centre()[0], top - caption_height / 2, 0])
        under = top - caption_height - style.GAP
        label = centred_lines(two_lines(_(CONTEXT)), kind.label, style.READER)
        values = n["encoder_states"][-1]
        numbers = max(text_width(decimal(v), kind.number) for v in values)
        # the decoder: its words over its cells over the vector's copies
        beside = frame.across
        count = len(n["target"])
        room = width - max(label.width, 0.62 + numbers) - 2 * style.GAP if beside else width
        d_left = right - room
        pitch = room / count
        size = size_for([*n["target"], *n["classic_written"]], WORD_SHARE * pitch,
                        (kind.heading, kind.body, kind.label))
        box, mini = (min(0.6 * pitch, 2.0), 0.7), min(0.6 * pitch / n["size"], 0.22)
        decoder = UnrolledDecoder(values, n["classic_written"], n["target"],
                                  n["classic_right"], columns(d_left, right, count),
                                  size=size, box=box, reach=0.35, mini=mini)
        # the vector, as tall as the room leaves
        height = under - bottom - 2 * SQUEEZE - (label.height + 0.2 if beside
                                                 else decoder.height + 2 * style.GAP)
        # its numbers at number size where its squares leave room, else as small print; a
        # square at least as tall as a number
        def tallest(size: int) -> float:
            return max(text_height(decimal(v), size) for v in values) + 0.05

        number_size = next((s for s in (kind.number, kind.minimum)
                            if tallest(s) <= height / n["size"]), kind.minimum)
        cell = max(min(0.6, height / n["size"]), tallest(number_size))
        context = StateStrip(values, style.READER, cell=cell, number_size=number_size,
                             down=True)
        vector = VGroup(label, context)
        if beside:
            label.next_to(context.get_cells(), UP, buff=0.2)
            vector.move_to([left + vector.width / 2, (under + bottom) / 2, 0])
            middle = (under + bottom) / 2
        else:
            label.next_to(context.get_cells(), LEFT, buff=style.GAP)
            vector.move_to([self.centre()[0], under - vector.height / 2, 0])
            middle = (vector.get_bottom()[1] - style.GAP + bottom) / 2
        decoder.move_to([decoder.get_x(), middle, 0])
        # the bars of what the vector holds, in the decoder's place
        names = max(text_width(w, kind.body) for w in n["source"])
        texts = [percent(k) for k in n["kept"]]
        figures = max(text_width(t, kind.body) for t in texts)
        kept = BarList(n["source"], n["kept"], texts, size=kind.body, color=style.READER,
                       max_width=min(room - names - figures - 2 * INSIDE, 5.0),
                       scale=1.0, row_step=min(1.0, 2 * (middle - bottom) / (count + 1)))
        for i, bar in enumerate(kept.get_bars()):
            bar.set_fill(style.READER if i == count - 1 else style.MUTED)
        kept.move_to([(d_left + right) / 2, middle, 0])
        return captions, vector, decoder, kept
