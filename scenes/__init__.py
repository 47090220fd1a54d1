"""The chapter's scenes, in the order they play.

render.py reads SCENES_IN_ORDER; each scene's ``section`` names its part of
the ledger (``render.py numbers``) and the prefix of its --set parameters.
"""

from __future__ import annotations

from scenes.misreading import TheMisreading
from scenes.opening import TitleCard, TwoJobs
from scenes.spotlight import LookBackRule, SharpnessDial, SpotlightBudget

SCENES_IN_ORDER = [
    TitleCard,
    TwoJobs,
    SpotlightBudget,
    SharpnessDial,
    LookBackRule,
    TheMisreading,
]

SCENES_BY_NAME = {scene.__name__: scene for scene in SCENES_IN_ORDER}
