"""deckcheck: deck and deck-list legality for Yu-Gi-Oh! tournaments.

The library API; the ``deckcheck`` command and the web app are thin layers over it.
"""

from __future__ import annotations

from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format, load_format
from validator.cards.store import demo_cards, load_cards
from validator.errors import ImplementationError, InputError, Problem

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
