"""Toward transformers: the recurrence (one word after another, one state carried
through) is the bottleneck; take it out and attention still finds its word, but wherever
that word stands, so the order has to come from a position added to each word."""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    GrowFromEdge,
    LaggedStart,
    Line,
    Rectangle,
    ReplacementTransform,
    RoundedRectangle,
    SurroundingRectangle,
    Transform,
    VGroup,
)

from production.language import N_, _
from scenes import style
from scenes.base import ChapterScene, quoted, words
from scenes.components.spaced_sentence import SpacedSentence
from scenes.components.state_strip import StateStrip
from scenes.lines import text_height, wrapped
from scenes.numbers import decimal

GAP = style.GAP  # between blocks (scene units)
SLOT = 0.7  # under each word: its arrow into its state, later its position
LARGEST_CELL = 0.45  # a state's cells at most this high (scene units)
STATE_WIDTH = (0.4, 1.2)  # a state is this share of its column wide, at most this wide
BAR = 4.0  # a weight bar of 1 is this many state cells high
#: what the scene says under its pictures, beat by beat ("same": the reversed beat
#: once the weight is read again)
CAPTIONS = {
    "chain": N_("one word after another, one state carried through"),
    "attention": N_("no chain: after {first}, looking for a {kind}"),
    "reversed": N_("read backwards"),
    "same": N_("the same weight, wherever {word} stands"),
    "position": N_("transformers: attention, plus each word's position"),
}


#: the word classes the model's grammar names (core/decoder.py), as a viewer reads them
KINDS = {"noun": N_("noun"), "verb": N_("verb"), "adjective": N_("adjective")}


def kind_of(name: str) -> str:
    """A word class the ledger names ('noun'), in the active language."""
    return _(KINDS[name]) if name in KINDS else name


@dataclass
class Column:
    """What stands under one word: its arrow in, its state (in the chain, then alone),
    the base and bar of its weight, and the weight written."""

    arrow: Arrow
    state: StateStrip
    alone: StateStrip
    base: Line
    bar: Rectangle
    number: VGroup

    def moving(self) -> VGroup:
        """What moves with the word when it changes places."""
        return VGroup(self.arrow, self.state, self.base, self.bar, self.number)


@dataclass
class Parts:
    english: SpacedSentence  # along the top, where the scene before left it
    columns: list[Column]
    chain: VGroup  # the recurrence: an arrow from each state to the next
    captions: dict[str, VGroup]
    again: list[VGroup]  # the weights read backwards (number, bar), where each word will stand
    badges: VGroup  # a position under each place


def badge(text: str, size: int) -> VGroup:
    """A position: its number in a rounded frame."""
    number = words(text, size, style.QUERY)
    frame = RoundedRectangle(corner_radius=0.12, width=max(number.width + 0.3, 0.6),
                             height=number.height + 0.25, color=style.QUERY, stroke_width=3)
    return VGroup(frame.move_to(number), number)


class TowardTransformers(ChapterScene):
    """The recurrence as a chain of states; the chain taken out and attention still
    finding its word, wherever it stands; a position added to every word."""

    section = "order"
    title = N_("What transformers kept")
    opens_with = "the English sentence"
    beat_seconds = {"chain": 15.0, "attention": 14.0, "reversed": 10.0, "position": 17.0}
    marks = {"attention": ("weight",), "reversed": ("same",), "position": ("place",)}

    @classmethod
    def spoken(cls, numbers: dict) -> dict[str, str]:
        """Words and numbers the narration names, from the ledger the pictures use."""
        n = numbers
        k = n["sought"]
        return {"first": n["target"][0], "kind": kind_of(n["looking_for"]),
                "sought": n["source"][k],
                "weight": decimal(n["in_order"][k]),
                "weight_reversed": decimal(n["reversed"][k]),
                "place_here": str(n["positions"][n["backwards_order"].index(k)]),
                "place_before": str(n["positions"][k])}

    # ------------------------------------------------------------- layout
    def lay_out(self) -> Parts:
        """The English along the top; its captions at the foot of the room; between them,
        under each word, its arrow (later its position), its state as a column of cells as
        high as the room allows, and its weight as a bar over a base with the number
        under it."""
        n, frame = self.numbers, self.frame()
        kind = frame.type
        left, right, bottom, top = self.area()
        width = right - left
        centre_x = self.centre()[0]
        english = SpacedSentence.along_top(frame, n["source"])
        pitch = english.get_pitch()
        k = n["sought"]
        slots = {"first": quoted(n["target"][0]), "kind": kind_of(n["looking_for"]),
                 "word": quoted(n["source"][k])}
        captions = {beat: wrapped(_(text).format(**slots), kind.body, width, style.MUTED)
                    for beat, text in CAPTIONS.items()}
        foot = max(c.height for c in captions.values())
        for caption in captions.values():
            caption.move_to([centre_x, bottom + foot / 2, 0])

        number_h = text_height(decimal(0.0), kind.number)
        size = len(n["encoder_states"][0])
        room = english.get_bottom()[1] - (bottom + foot) - SLOT - 3 * GAP - number_h - 0.1
        cell = min(LARGEST_CELL, pitch / 3, room / (size + BAR))
        # a state's cells as wide as its column allows: a column of numbers, easy to see
        stretch = min(STATE_WIDTH[0] * pitch, STATE_WIDTH[1]) / cell
        state_top = english.get_bottom()[1] - SLOT
        base_y = state_top - size * cell - GAP - BAR * cell

        columns = []
        for i, x in enumerate(english.xs):
            state = StateStrip(n["encoder_states"][i], style.READER, cell=cell, down=True)
            state.stretch(max(stretch, 1.0), 0).move_to([x, state_top, 0], aligned_edge=UP)
            alone = StateStrip(n["alone"][i], style.READER, cell=cell, down=True)
            alone.stretch(max(stretch, 1.0), 0).move_to(state)
            arrow = Arrow([x, english.get_bottom()[1], 0], state.get_top(), buff=0.1,
                          color=style.MUTED,
                          stroke_width=3, max_tip_length_to_length_ratio=0.3)
            base = Line([x - pitch / 4, base_y, 0], [x + pitch / 4, base_y, 0],
                        color=style.FAINT, stroke_width=2)
            bar = self.bar(n["in_order"][i], x, base_y, cell, pitch)
            number = self.number(n["in_order"][i], i == k, x, base_y)
            columns.append(Column(arrow, state, alone, base, bar, number))
        chain = VGroup(*(Arrow(a.state.get_right(), b.state.get_left(), buff=0.12,
                               color=style.READER, stroke_width=4,
                               max_tip_length_to_length_ratio=0.12)
                         for a, b in zip(columns, columns[1:])))
        order = n["backwards_order"]
        again = [VGroup(self.number(n["reversed"][i], i == k, x, base_y),
                        self.bar(n["reversed"][i], x, base_y, cell, pitch))
                 for i, x in ((i, english.xs[order.index(i)]) for i in range(len(columns)))]
        badges = VGroup(*(badge(str(p), kind.label).move_to([x, state_top + SLOT / 2, 0])
                          for p, x in zip(n["positions"], english.xs)))
        return Parts(english, columns, chain, captions, again, badges)

    def bar(self, weight: float, x: float, base_y: float, cell: float, pitch: float
            ) -> Rectangle:
        """A weight as a bar standing on the base: BAR cells high for all of it."""
        bar = Rectangle(width=min(pitch / 3, 0.6), height=max(weight, 0.005) * BAR * cell,
                        stroke_width=0).set_fill(style.WEIGHT, opacity=1.0)
        return bar.move_to([x, base_y, 0], aligned_edge=DOWN)

    def number(self, weight: float, sought: bool, x: float, base_y: float) -> VGroup:
        """A weight written under its base: the sought word's in the weights' colour."""
        text = words(decimal(weight), self.frame().type.number,
                     style.WEIGHT if sought else style.MUTED)
        return VGroup(text.move_to([x, base_y - 0.1, 0], aligned_edge=UP))

    # ------------------------------------------------------------- the scene
    def construct(self) -> None:
        n = self.numbers
        p = self.lay_out()
        columns, captions = p.columns, p.captions
        k = n["sought"]
        # The English sentence stands where the scene before left it.
        self.add(p.english)

        # The viewer sees each word go into a state and each state handed to the next:
        # the recurrence, one word after another.
        b = self.beat("chain")
        self.play(FadeIn(captions["chain"]), run_time=b.part(0.1))
        steps = []
        for i, c in enumerate(columns):
            step = [GrowArrow(c.arrow), FadeIn(c.state, shift=DOWN * 0.1)]
            if i < len(p.chain):
                step.append(GrowArrow(p.chain[i]))
            steps.append(LaggedStart(*step, lag_ratio=0.5))
        self.play(LaggedStart(*steps, lag_ratio=0.8), run_time=b.part(0.6))

        # The viewer sees the chain cut: each state now its word alone; then each word's
        # weight as the decoder looks for a noun, the noun's read out as the voice says it.
        b = self.beat("attention")
        self.play(p.chain.animate.set_color(style.BAD), run_time=b.part(0.05))
        self.play(FadeOut(p.chain, shift=UP * 0.1), FadeOut(captions["chain"]),
                  run_time=b.part(0.1))
        self.play(*(Transform(c.state, c.alone) for c in columns),
                  FadeIn(captions["attention"]), run_time=b.part(0.2))
        self.play(*(FadeIn(c.base) for c in columns),
                  *(GrowFromEdge(c.bar, DOWN) for c in columns), run_time=b.part(0.15))
        self.at("weight")
        self.play(*(FadeIn(c.number, shift=UP * 0.1) for c in columns),
                  run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees the sentence read backwards, every word taking its state and
        # weight with it; the noun's weight, read again, is the same.
        b = self.beat("reversed")
        # (the words are in their new places by the time the voice reads the weight)
        self.play(FadeOut(captions["attention"]), FadeIn(captions["reversed"]),
                  p.english.make_reorder_animation(
                      n["backwards_order"], along=[c.moving() for c in columns]),
                  run_time=min(b.part(0.3), self.time_to("same")))
        self.at("same")
        ring = SurroundingRectangle(p.again[k], buff=0.12, color=style.WEIGHT, stroke_width=4)
        self.play(*(ReplacementTransform(VGroup(c.number, c.bar), again)
                    for c, again in zip(columns, p.again)),
                  FadeOut(captions["reversed"]), FadeIn(captions["same"]), Create(ring),
                  run_time=min(b.part(0.15), self.time_left()))

        # The viewer sees each word's arrow give way to its position, counted along the
        # sentence as it now stands.
        b = self.beat("position")
        self.play(FadeOut(ring), FadeOut(captions["same"]),
                  *(FadeOut(c.arrow) for c in columns), run_time=b.part(0.1))
        self.at("place")
        # (the group named, so the play is known to bring in the positions' numbers)
        self.play(LaggedStart(*(FadeIn(badge_, scale=1.3) for badge_ in p.badges),
                              lag_ratio=0.2, group=p.badges),
                  run_time=min(b.part(0.2), self.time_left()))
        self.play(FadeIn(captions["position"]), run_time=min(b.part(0.15), self.time_left()))


__all__ = ["TowardTransformers", "badge"]
