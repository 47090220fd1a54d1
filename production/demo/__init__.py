"""A chapter's demo (`render.py demo`): an offline page where a viewer works the idea the
chapter teaches, every number precomputed from core/, with narrated clips of the
chapter's scenes that play when the controls reach their moment.

A chapter declares its demo (:mod:`production.demo.spec`, the chapter's ``demo``); the
page's data is built from it (:mod:`.data`), the page written (:mod:`.page`), and the
command renders the clips and puts it all in one folder (:mod:`.command`; its options in
:mod:`.options`).
"""
