"""The chapter
Inside the attention decoder, one step at a time:
its scenes in the order they play, its narration and its ledger (core/decoder.py).

Started with `render.py new decoder`; a scene joins the chapter by its place in
SCENES_IN_ORDER.
"""

from __future__ import annotations

from pathlib import Path

from core.decoder import LEDGER
from production.chapters import Chapter
from production.language import N_
from scenes.decoder.alignment import TheAlignment
from scenes.decoder.classic import OneVectorToUnroll
from scenes.decoder.encoder import TheEncoderReads
from scenes.decoder.end_card import DecoderEndCard
from scenes.decoder.order import TowardTransformers
from scenes.decoder.question import DecoderQuestion
from scenes.decoder.scores import ScoreEveryState
from scenes.decoder.step import AverageAndWrite
from scenes.decoder.steps import EveryStepAfresh

HERE = Path(__file__).resolve().parent

SCENES_IN_ORDER = [
    DecoderQuestion,
    TheEncoderReads,
    OneVectorToUnroll,
    ScoreEveryState,
    AverageAndWrite,
    EveryStepAfresh,
    TheAlignment,
    TowardTransformers,
    DecoderEndCard,
]

CHAPTER = Chapter(
    name="decoder",
    title=N_("Inside the attention decoder, one step at a time"),
    scenes=tuple(SCENES_IN_ORDER),
    ledger=LEDGER,
    narration=HERE / "narration",
    recordings=HERE.parent.parent / "assets" / "decoder" / "voice",
    thumbnail=("TheAlignment", "learned"),
    module=__name__,
    summary=N_("Before transformers, attention was born inside a translator. This chapter opens "
             "the attention decoder one step at a time: a recurrent encoder reads the English "
             "sentence with the same weights at every word, a classic decoder must unroll its "
             "whole translation from one vector, and the attention decoder instead scores "
             "every encoder state at every step, turns the scores into weights, averages the "
             "states and writes the next French word. The weights of all the steps together "
             "show how the two sentences align. Every number on screen comes from a small "
             "seeded model."),
    tags=(N_("attention"), N_("encoder-decoder"), N_("recurrent neural network"),
          N_("machine translation"), N_("seq2seq"), N_("machine learning"),
          N_("explainer")),
)
