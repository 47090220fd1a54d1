"""The chapter "How attention decides where to look": its scenes in the order they
play, its narration, its ledger and its thumbnail frame. It ends on an end card: what it taught,
then its credits.

The pipeline (production/) is given CHAPTER; each scene's ``section`` names its part
of the ledger (``render.py numbers``) and the prefix of its --set parameters.
"""

from __future__ import annotations

from pathlib import Path

from core import ledger, palette
from production.chapters import Chapter
from scenes.attention.ask_offer import AskAndOffer
from scenes.attention.closed_book import OnePieceAtATime, SqueezeTheRow
from scenes.attention.end_card import EndCard
from scenes.attention.formula import OneAttentionWeight
from scenes.attention.misreading import TheMisreading
from scenes.attention.open_book import LeaveTheBookOpen
from scenes.attention.opening import TitleCard, TwoJobs
from scenes.attention.potions import ChemistryAndAssembly, PotionMixing
from scenes.attention.spotlight import LookBackRule, SharpnessDial, SpotlightBudget
from scenes.attention.weight_grid import MatchIsTheWeight

HERE = Path(__file__).resolve().parent

SCENES_IN_ORDER = [
    TitleCard,
    TwoJobs,
    SqueezeTheRow,
    OnePieceAtATime,
    LeaveTheBookOpen,
    AskAndOffer,
    MatchIsTheWeight,
    OneAttentionWeight,
    SpotlightBudget,
    SharpnessDial,
    LookBackRule,
    PotionMixing,
    ChemistryAndAssembly,
    TheMisreading,
    EndCard,
]

CHAPTER = Chapter(
    name="attention",
    title="How attention decides where to look",
    scenes=tuple(SCENES_IN_ORDER),
    ledger=ledger.LEDGER,
    narration=HERE / "narration",
    recordings=HERE.parent.parent / "assets" / "voice",
    thumbnail=("MatchIsTheWeight", "panel"),
    module=__name__,
    palette=palette,
)

SCENES_BY_NAME = CHAPTER.by_name()
