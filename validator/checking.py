"""The library API behind ``deckcheck check``: decks read, checked, and compared with their
registered lists when given."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from .decisions import Decision, apply_decisions, unreadable_rows
from .engine import CheckResult, check, combine
from .errors import Problem
from .inputs import DeckFiles
from .readers.ids import pair_decks
from .readers.registrations import Registrations
from .setup import Setup

__all__ = ["DeckCheck", "check_decks", "paired"]


@dataclass
class DeckCheck:
    """Decks checked, and compared with their registered lists when given."""

    result: CheckResult
    lists: CheckResult | None  # the registered lists' own check
    problems: list[Problem]  # rows of the lists that could not be used, unmatched decisions
    decisions: list[Decision]  # the head judge's decisions applied
    duel: int | None

    @property
    def compared(self) -> bool:
        return self.lists is not None


def paired(files: DeckFiles, registrations: Registrations) -> tuple[DeckFiles, list[Problem]]:
    """The decks under their players' ids (by id, else by a unique player name), and a
    problem for each deck that pairs with no player, with the closest players."""
    pairs, missing = pair_decks(files.ids, registrations.players)
    renamed = {deck: player for deck, player in pairs.items() if deck != player}
    entries = files.entries.with_columns(pl.col("deck_id").replace(renamed)) if renamed \
        else files.entries
    problems = [Problem(p.file, p.line, p.column, p.message, p.code,
                        renamed.get(p.deck_id, p.deck_id) if p.deck_id else None, p.section)
                for p in files.problems]
    strays = [Problem(files.labels.get(deck, deck), None, None,
                      f"deck {deck!r} matches no registered player"
                      + (f"; closest: {' / '.join(close)}" if close else ""))
              for deck, close in missing.items()]
    ids = [pairs.get(deck, deck) for deck in files.ids]
    labels = {pairs.get(deck, deck): label for deck, label in files.labels.items()}
    return DeckFiles(entries, problems, ids, labels), strays


def check_decks(files: DeckFiles, setup: Setup, *,
                registrations: Registrations | None = None,
                decisions: list[Decision] | None = None, duel: int | None = None,
                decisions_label: str = "decisions") -> DeckCheck:
    """Check decks (those without a single card too); with registrations, check the lists
    too and compare each deck with its player's list (deck id = player id, else the player's
    name), from duel 2 on allowing side deck exchanges."""
    deck_rows = unreadable_rows(files.unreadable(), on_list=False)
    if registrations is None:
        result = check(files.entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                       deck_ids=files.ids, unreadable=deck_rows)
        return DeckCheck(result, None, [], [], duel)
    files, strays = paired(files, registrations)
    entries = files.entries
    deck_rows = unreadable_rows(files.unreadable(), on_list=False)
    applied = apply_decisions(registrations.entries, registrations.problems, decisions or [],
                              decisions_label)
    players = registrations.players["player_id"].to_list()
    unmatched = [d for d in files.ids if d not in set(players)]
    lists = check(applied.entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                  deck_ids=players, unreadable=unreadable_rows(applied.problems, False))
    registered = pl.col("deck_id").is_in(players)
    matched = [d for d in files.ids if d not in set(unmatched)]
    result = check(entries.filter(registered), cards=setup.cards, fmt=setup.fmt,
                   banlist=setup.banlist, deck_ids=matched,
                   registered=applied.entries.filter(pl.col("deck_id").is_in(matched)),
                   list_problems=False, siding=duel is not None and duel > 1,
                   unreadable=pl.concat([unreadable_rows(applied.problems, True),
                                         deck_rows]))
    if unmatched:  # checked for legality alone
        alone = check(entries.filter(~registered), cards=setup.cards, fmt=setup.fmt,
                      banlist=setup.banlist, deck_ids=unmatched, unreadable=deck_rows)
        result = combine([result, alone])
    return DeckCheck(result, lists, applied.problems + applied.unmatched + strays,
                     applied.decisions, duel)
