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
    title="Inside the attention decoder, one step at a time",
    scenes=tuple(SCENES_IN_ORDER),
    ledger=LEDGER,
    narration=HERE / "narration",
    recordings=HERE.parent.parent / "assets" / "decoder" / "voice",
    thumbnail=("TheAlignment", "learned"),
    module=__name__,
)
