"""The outputs: each a plug-in to the one run sequence (production/run.py).

video.py (the chapter bundle: `render`), slides.py with its decks, shorts.py, sweep.py;
bundle.py and joining.py are what the chapter bundle is made of.
"""
