"""What every check needs, loaded in one place: format → card data → Forbidden/Limited list.

The CLI, the web app, the tests and the benchmarks all call :func:`load`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator.cards.banlist import Banlist, from_ygojson, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format, banlists_dir, load_format
from validator.cards.store import DEMO, data_dir, load_cards, stored_lists
from validator.errors import InputError

__all__ = ["Setup", "is_demo", "load", "load_banlist", "load_pool"]


@dataclass(frozen=True)
class Setup:
    fmt: Format
    cards: CardDB
    banlist: Banlist


def is_demo(cards: CardDB) -> bool:
    return any(source.get("source") == DEMO for source in cards.sources)


def load_banlist(spec: str | None, list_name: str | None, fmt: Format, cards: CardDB,
                 folder: Path | None = None) -> Banlist:
    """The list to check against: a file, ``ygojson:REGION``, a list of the data store by its
    name (``"2026.05 TCG"``), or by default the format's list: the newest list of the store
    whose name the format claims (``list_pattern``); with the demo cards, the demo list.

    The demo lists hold only the demo cards' entries: with real card data they would let
    Forbidden cards through, so that combination is refused.
    """
    demo = is_demo(cards)
    if spec is None:
        if fmt.default_list.startswith("ygojson:"):
            return from_ygojson(cards, fmt.default_list.split(":", 1)[1])
        if demo:
            return read_banlist(banlists_dir() / fmt.default_list,
                                list_name or fmt.default_list_name)
        candidates = [s for s in stored_lists(folder) if fmt.owns_list(s.name)]
        if not candidates:
            raise InputError.at(
                str(data_dir(folder)),
                f"no {fmt.title} Forbidden/Limited list in the data store: run `deckcheck "
                f"data import {fmt.public_list or 'LIST.lflist.conf'}` (or `deckcheck data "
                "update`), or give --banlist FILE", code="NO_LIST")
        return candidates[0].load()
    if spec.startswith("ygojson:"):
        return from_ygojson(cards, spec.split(":", 1)[1])
    path = Path(spec)
    if not path.exists():
        named = [s for s in stored_lists(folder) if s.name == spec or s.source == spec]
        if named:
            return named[0].load()
    banlist = read_banlist(path, list_name)
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
         list_name: str | None = None, folder: Path | None = None) -> Setup:
    """Format (a name or TOML file), card data (a source, 'store', 'demo' or None for the
    store else the demo pool) and list (see :func:`load_banlist`)."""
    format_ = fmt if isinstance(fmt, Format) else load_format(fmt)
    card_db = cards if isinstance(cards, CardDB) else load_cards(cards, folder)
    return Setup(format_, card_db, load_banlist(banlist, list_name, format_, card_db, folder))


def load_pool(fmt: str | Format, cards: str | CardDB | None = None,
              folder: Path | None = None) -> tuple[CardDB, Format]:
    """Card data and format without a list: for reading and writing names, not checking."""
    format_ = fmt if isinstance(fmt, Format) else load_format(fmt)
    return (cards if isinstance(cards, CardDB) else load_cards(cards, folder)), format_
