"""deckcheck: deck and deck-list legality for Yu-Gi-Oh! tournaments.

The library API; the ``deckcheck`` command and the web app are thin layers over it.
"""

from __future__ import annotations

from .banlist import Banlist, read_banlist
from .cards import CardDB
from .errors import ImplementationError, InputError, Problem
from .formats import Format, load_format
from .store import demo_cards, load_cards

__all__ = [
    "Banlist",
    "CardDB",
    "Format",
    "ImplementationError",
    "InputError",
    "Problem",
    "demo_cards",
    "load_cards",
    "load_format",
    "read_banlist",
]
