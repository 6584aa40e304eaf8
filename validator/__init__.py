"""deckcheck: deck and deck-list legality for Yu-Gi-Oh! tournaments.

The library API; the ``deckcheck`` command and the web app are thin layers over it. Its
names are imported at first use, so importing one module of the package (the command's
``--help``, a reader) does not import the card tables and polars with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: where each name of the API lives
_HOMES = {
    "Banlist": "validator.cards.banlist",
    "read_banlist": "validator.cards.banlist",
    "CardDB": "validator.cards.db",
    "Format": "validator.cards.formats",
    "load_format": "validator.cards.formats",
    "demo_cards": "validator.cards.store",
    "load_cards": "validator.cards.store",
    "ImplementationError": "validator.errors",
    "InputError": "validator.errors",
    "Problem": "validator.errors",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'validator' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
