"""Where the project reads and writes, decided once.

``EXPLAINER_CACHE`` moves the cache folder (the benchmark uses it for cold runs);
it is read here, once, when the render starts.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
OUT = ROOT / "out"  # the default output folder
CACHE = Path(os.environ.get("EXPLAINER_CACHE", ROOT / ".cache"))
