"""The render layer's parts: narration, soundtrack, captions, bundles (used by render.py)."""
