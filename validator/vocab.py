"""The words every module shares, each defined once: as a ``Literal`` for the type checker
and as a tuple for polars Enums, CLI choices and forms (the tuple is read off the Literal).

* ``Section``: the parts of a deck; ``Slot``: the kind of card an entry is written under
  (``main_or_extra``: the main and extra deck given as one, as an Omega code gives them:
  the card's kind decides its section);
* ``Stage``: when a check happens (decides when a penalty applies);
* ``Lang``: the languages of penalties, remedies and the web app; card names come in more
  (``NAME_LANGS``);
* ``Regulation``: the penalty regulations shipped (``data/policies``);
* ``Status``: a deck's (or player's) verdict.
"""

from __future__ import annotations

from typing import Literal, get_args

import polars as pl

__all__ = ["LANGS", "NAME_LANGS", "ON_ENUM", "REGULATIONS", "SECTIONS", "SECTION_ENUM", "SLOTS",
           "SLOT_ENUM", "STAGES", "STATUSES", "STATUS_ENUM", "Lang", "Regulation", "Section",
           "Slot", "Stage", "Status"]

Section = Literal["main", "extra", "side"]
Slot = Literal["monster", "spell", "trap", "extra", "skill", "main_or_extra"]
Stage = Literal["pre-event", "in-duel", "between-duels", "between-matches"]
Lang = Literal["en", "ja", "ko", "th"]
Regulation = Literal["th", "ja", "ko"]
Status = Literal["legal", "illegal", "needs_decision"]

SECTIONS: tuple[Section, ...] = get_args(Section)
SLOTS: tuple[Slot, ...] = get_args(Slot)
STAGES: tuple[Stage, ...] = get_args(Stage)
LANGS: tuple[Lang, ...] = get_args(Lang)
REGULATIONS: tuple[Regulation, ...] = get_args(Regulation)
STATUSES: tuple[Status, ...] = get_args(Status)

#: the languages card names are stored in (``name_<lang>`` columns of the card data)
NAME_LANGS: tuple[str, ...] = ("en", "ja", "ko", "zh", "zh_tw", "fr", "de", "it", "es", "pt")

SECTION_ENUM = pl.Enum(list(SECTIONS))
SLOT_ENUM = pl.Enum(list(SLOTS))
STATUS_ENUM = pl.Enum(list(STATUSES))
#: what a violation of an event is on: the player's registered list or the deck they play
ON_ENUM = pl.Enum(["list", "deck"])
