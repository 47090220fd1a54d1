"""A chapter in another language: its PO catalogues (catalogue.py: extracted, merged and
written by `render.py translate`, command.py) and a render's reading of them
(messages.py). See docs/translating.md."""
