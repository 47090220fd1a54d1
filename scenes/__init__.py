"""The chapter's scenes, in the order they play.

render.py reads SCENES_IN_ORDER; each scene's ``section`` names its part of
the ledger (``render.py numbers``) and the prefix of its --set parameters.
"""

from __future__ import annotations

from scenes.ask_offer import AskAndOffer
from scenes.closed_book import OnePieceAtATime, SqueezeTheRow
from scenes.formula import OneAttentionWeight
from scenes.misreading import TheMisreading
from scenes.open_book import LeaveTheBookOpen
from scenes.opening import TitleCard, TwoJobs
from scenes.potions import ChemistryAndAssembly, PotionMixing
from scenes.spotlight import LookBackRule, SharpnessDial, SpotlightBudget
from scenes.weight_grid import MatchIsTheWeight

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
]

SCENES_BY_NAME = {scene.__name__: scene for scene in SCENES_IN_ORDER}
