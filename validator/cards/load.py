"""What every check needs, loaded in one place: format → card data → Forbidden/Limited list.

The CLI, the web app, the tests and the benchmarks all call :func:`load`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from validator.cards.banlist import Banlist, effective_date, from_ygojson, in_force, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format, banlists_dir, load_format
from validator.cards.store import (
    DEMO,
    EFFECTIVE_FROM,
    StoredList,
    data_dir,
    load_cards,
    stored_lists,
)
from validator.errors import InputError

__all__ = ["Setup", "is_demo", "list_in_force", "load", "load_banlist", "load_pool"]


@dataclass(frozen=True)
class Setup:
    fmt: Format
    cards: CardDB
    banlist: Banlist


def is_demo(cards: CardDB) -> bool:
    return any(source.get("source") == DEMO for source in cards.sources)


def _dated(banlist: Banlist, reason: str) -> Banlist:
    """The list with its effective date read from its name, and why it was chosen."""
    banlist.effective = effective_date(banlist.name)
    banlist.effective_from = EFFECTIVE_FROM["name"] if banlist.effective else ""
    banlist.reason = reason
    return banlist


def list_in_force(fmt: Format, day: str, folder: Path | None = None) -> StoredList:
    """The format's list in force on ``day`` (YYYY-MM-DD): of the store's lists whose name
    the format claims, the newest whose effective date is on or before it."""
    candidates = [s for s in stored_lists(folder) if fmt.owns_list(s.name)]
    if not candidates:
        raise InputError.at(
            str(data_dir(folder)),
            f"no {fmt.title} Forbidden/Limited list in the data store: run `deckcheck "
            f"data import {fmt.public_list or 'LIST.lflist.conf'}` (or `deckcheck data "
            "update`), or give --banlist FILE", code="NO_LIST")
    return in_force([(s.effective, s) for s in candidates], day,
                    f"{fmt.title} Forbidden/Limited list")


def load_banlist(spec: str | None, list_name: str | None, fmt: Format, cards: CardDB,
                 folder: Path | None = None, date: str | None = None) -> Banlist:
    """The list to check against: a file, ``ygojson:REGION``, a list of the data store by its
    name (``"2026.05 TCG"``), or by default the format's list in force on ``date`` (the
    event's day, YYYY-MM-DD; default today): of the store's lists whose name the format
    claims (``list_pattern``), the newest whose effective date is on or before it; with the
    demo cards, the demo list. The list carries its effective date and why it was chosen.

    The demo lists hold only the demo cards' entries: with real card data they would let
    Forbidden cards through, so that combination is refused.
    """
    demo = is_demo(cards)
    if spec is None:
        if fmt.default_list.startswith("ygojson:"):
            region = fmt.default_list.split(":", 1)[1]
            own = from_ygojson(cards, region)
            own.effective, own.effective_from = cards.data_date, "the card data's date"
            own.reason = f"the card data's own {region} legality (the format's list)"
            return own
        if demo:
            return _dated(read_banlist(banlists_dir() / fmt.default_list,
                                       list_name or fmt.default_list_name),
                          "the demo list: no card data imported")
        day = date or dt.date.today().isoformat()
        return list_in_force(fmt, day, folder).load(f"in force on {day}")
    if spec.startswith("ygojson:"):
        own = from_ygojson(cards, spec.split(":", 1)[1])
        own.effective, own.effective_from = cards.data_date, "the card data's date"
        own.reason = "given by name"
        return own
    path = Path(spec)
    if not path.exists():
        named = [s for s in stored_lists(folder) if s.name == spec or s.source == spec]
        if named:
            return named[0].load("given by name")
    banlist = _dated(read_banlist(path, list_name), "given as a file")
    if not demo and _is_demo_list(path):
        raise InputError.at(spec, "a demo list holds only the demo cards' entries and cannot "
                                  "check real card data: give the public list instead "
                                  "(`deckcheck data import LIST.lflist.conf`)", code="DEMO_LIST")
    return banlist


def _is_demo_list(path: Path) -> bool:
    try:
        return path.resolve().parent == (banlists_dir() / "lists").resolve()
    except OSError:
        return False


def load(fmt: str | Format, cards: str | CardDB | None = None, banlist: str | None = None,
         list_name: str | None = None, folder: Path | None = None,
         date: str | None = None) -> Setup:
    """Format (a name or TOML file), card data (a source, 'store', 'demo' or None for the
    store else the demo pool) and list (see :func:`load_banlist`; ``date`` the event's)."""
    format_ = fmt if isinstance(fmt, Format) else load_format(fmt)
    card_db = cards if isinstance(cards, CardDB) else load_cards(cards, folder)
    return Setup(format_, card_db, load_banlist(banlist, list_name, format_, card_db, folder,
                                                date))


def load_pool(fmt: str | Format, cards: str | CardDB | None = None,
              folder: Path | None = None) -> tuple[CardDB, Format]:
    """Card data and format without a list: for reading and writing names, not checking."""
    format_ = fmt if isinstance(fmt, Format) else load_format(fmt)
    return (cards if isinstance(cards, CardDB) else load_cards(cards, folder)), format_
