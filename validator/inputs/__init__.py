"""Submitted decks from wherever they come: files, folders, zips, uploads, pasted links.

Every way in becomes one stream of :class:`Source` (a label, a deck id, the bytes) under one
set of rules (``sources.py``), and every source is parsed in one batch (``decks.py``).
"""

from __future__ import annotations

from .decks import DeckFiles, parse_sources, ydk_parts
from .sources import (
    DECK_SUFFIXES,
    MAX_DECK_BYTES,
    Progress,
    Source,
    path_sources,
    upload_sources,
)

__all__ = ["DECK_SUFFIXES", "MAX_DECK_BYTES", "DeckFiles", "Source", "parse_sources",
           "path_sources", "read_deck_paths", "read_deck_uploads", "upload_sources"]


def read_deck_paths(paths: list[object], progress: Progress | None = None) -> DeckFiles:
    """Decks from files, folders (searched recursively) and zips; ``progress(done, total)``
    follows the files as they are read."""
    from pathlib import Path

    parts, take = ydk_parts()  # YDK files parsed while the next ones are read
    sources, problems = path_sources([Path(str(p)) for p in paths], progress, take)
    return parse_sources(sources, problems, parts)


def read_deck_uploads(files: list[tuple[str, bytes]], pasted: str = "") -> DeckFiles:
    """Decks from uploaded files (deck files or zips, by name) and pasted lines of
    ``PLAYER_ID ydke://...``; nothing is written to disk."""
    sources, problems = upload_sources(files, pasted)
    return parse_sources(sources, problems)
