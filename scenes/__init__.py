"""The chapter: its title, its scenes in the order they play, its thumbnail frame and
its palette.

The pipeline (production/) reads CHAPTER; each scene's ``section`` names its part of
the ledger (``render.py numbers``) and the prefix of its --set parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from core import palette
from scenes.ask_offer import AskAndOffer
from scenes.closed_book import OnePieceAtATime, SqueezeTheRow
from scenes.formula import OneAttentionWeight
from scenes.misreading import TheMisreading
from scenes.open_book import LeaveTheBookOpen
from scenes.opening import TitleCard, TwoJobs
from scenes.potions import ChemistryAndAssembly, PotionMixing
from scenes.spotlight import LookBackRule, SharpnessDial, SpotlightBudget
from scenes.weight_grid import MatchIsTheWeight


@dataclass(frozen=True)
class Chapter:
    """What the pipeline needs to know of a chapter, in one place."""

    title: str  # on the thumbnail, in the manifest and the slide decks
    scenes: tuple[Any, ...]  # the Scene classes, in the order they play
    thumbnail: tuple[str, str]  # (scene, beat): the beat's last frame becomes the thumbnail
    palette: ModuleType = palette  # its colours (core/palette.py), for scenes and decks

    def by_name(self) -> dict[str, Any]:
        return {scene.__name__: scene for scene in self.scenes}


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

CHAPTER = Chapter(
    title="How attention decides where to look",
    scenes=tuple(SCENES_IN_ORDER),
    thumbnail=("MatchIsTheWeight", "panel"),
)

SCENES_BY_NAME = CHAPTER.by_name()
