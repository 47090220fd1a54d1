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
from production.language import N_
from scenes.attention.ask_offer import AskAndOffer
from scenes.attention.assembly import ChemistryAndAssembly
from scenes.attention.closed_book import OnePieceAtATime, SqueezeTheRow
from scenes.attention.demo import DEMO
from scenes.attention.end_card import EndCard
from scenes.attention.formula import OneAttentionWeight
from scenes.attention.misreading import TheMisreading
from scenes.attention.open_book import LeaveTheBookOpen
from scenes.attention.opening import TitleCard, TwoJobs
from scenes.attention.potions import PotionMixing
from scenes.attention.spotlight import LookBackRule, SharpnessDial
from scenes.attention.spotlight_budget import SpotlightBudget
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
    title=N_("How attention decides where to look"),
    scenes=tuple(SCENES_IN_ORDER),
    ledger=ledger.LEDGER,
    narration=HERE / "narration",
    recordings=HERE.parent.parent / "assets" / "voice",
    thumbnail=("MatchIsTheWeight", "panel"),
    module=__name__,
    palette=palette,
    summary=N_("How does a model reading a sentence decide which earlier words matter for the "
             "word in front of it? This chapter follows one sentence through attention, step "
             "by step: every word asks a question and offers an answer, the match between "
             "them becomes a weight, the weights of a row share one budget, a sharpness dial "
             "sets how narrowly it looks, and a word may only look back. Then the looked-up "
             "meanings are mixed into the word in proportion to the weights. Every number on "
             "screen is computed from a small model, not drawn by hand."),
    demo=DEMO,
    tags=(N_("attention"), N_("transformers"), N_("self-attention"), N_("softmax"),
          N_("machine learning"), N_("neural networks"), N_("explainer")),
)

SCENES_BY_NAME = CHAPTER.by_name()
