"""Submitted decks from wherever they come: files, folders, zips, uploads, pasted links.

Every way in becomes one stream of :class:`~validator.inputs.decks.sources.Source` (a label,
a deck id, the bytes) under one set of rules (``sources.py``), and every source is parsed in
one batch (``batch.py``) by the reader of its kind (``ydk.py``, ``textlist.py``).
"""
