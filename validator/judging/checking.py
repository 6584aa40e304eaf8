"""The library API behind ``deckcheck check``: decks read, checked, and compared with their
registered lists when given."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import polars as pl

from validator.cards.load import Setup
from validator.engine.check import CheckResult, check, combine
from validator.engine.status import unreadable_rows
from validator.engine.tables import CardTable, card_attributes
from validator.errors import ImplementationError, Problem
from validator.inputs.decks.batch import DeckFiles
from validator.judging.siding import exchanges_allowed
from validator.vocab import LANGS, Lang, Stage

if TYPE_CHECKING:  # imported where used: checking deck files alone needs neither
    from validator.inputs.registrations.read import Registrations
    from validator.judging.decisions import Applied, Decision

__all__ = ["AgainstLists", "DeckCheck", "check_against_lists", "check_decks", "paired"]


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
    from validator.inputs.ids import pair_decks

    pairs, missing = pair_decks(files.ids, registrations.players)
    renamed = {deck: player for deck, player in pairs.items() if deck != player}
    entries = files.entries.with_columns(pl.col("deck_id").replace(renamed)) if renamed \
        else files.entries
    problems = [replace(p, deck_id=renamed.get(p.deck_id, p.deck_id) if p.deck_id else None)
                for p in files.problems]
    strays = [Problem(files.labels.get(deck, deck), None, None,
                      f"deck {deck!r} matches no registered player"
                      + (f"; closest: {' / '.join(close)}" if close else ""), code="UNMATCHED_DECK")
              for deck, close in missing.items()]
    ids = [pairs.get(deck, deck) for deck in files.ids]
    labels = {pairs.get(deck, deck): label for deck, label in files.labels.items()}
    return DeckFiles(entries, problems, ids, labels), strays


@dataclass
class AgainstLists:
    """The registered lists checked, and the submitted decks paired with their players and
    compared with their lists."""

    lists: CheckResult  # the registered lists' own check (decisions applied)
    decks: CheckResult | None  # the decks of registered players, against their lists
    files: DeckFiles | None  # the submitted decks under their players' ids
    matched: list[str]  # decks of registered players
    unmatched: list[str]  # decks that pair with no player
    strays: list[Problem]  # one per unmatched deck, with the closest players
    applied: Applied  # the registered entries with the head judge's decisions applied


def check_against_lists(submitted: DeckFiles | None, registrations: Registrations,
                        setup: Setup, *, decisions: list[Decision] | None = None,
                        decisions_label: str = "decisions", siding: bool = False,
                        attributes: CardTable | None = None,
                        langs: tuple[Lang, ...] = LANGS) -> AgainstLists:
    """The one way decks meet their lists, for ``check --registrations`` and for events.

    ``attributes``: the card table of the setup, when its loader made it (else made here,
    once for both checks). ``langs``: the languages the messages are worded in besides
    English (``engine.check.check``)."""
    from validator.judging.decisions import apply_decisions

    table = attributes if attributes is not None else card_attributes(
        setup.cards, setup.banlist, setup.fmt)
    applied = apply_decisions(registrations.entries, registrations.problems, decisions or [],
                              decisions_label)
    players = registrations.players["player_id"].to_list()
    lists = check(applied.entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                  deck_ids=players, unreadable=unreadable_rows(applied.problems, False),
                  attributes=table, langs=langs)
    if submitted is None:
        return AgainstLists(lists, None, None, [], [], [], applied)
    files, strays = paired(submitted, registrations)
    registered = set(players)
    matched = [d for d in files.ids if d in registered]
    unmatched = [d for d in files.ids if d not in registered]
    decks = check(files.entries.filter(pl.col("deck_id").is_in(matched)), cards=setup.cards,
                  fmt=setup.fmt, banlist=setup.banlist, deck_ids=matched,
                  registered=applied.entries.filter(pl.col("deck_id").is_in(matched)),
                  list_problems=False, siding=siding,
                  unreadable=pl.concat([unreadable_rows(applied.problems, True),
                                        unreadable_rows(files.unreadable(), False)]),
                  attributes=table, langs=langs)
    return AgainstLists(lists, decks, files, matched, unmatched, strays, applied)


def check_decks(files: DeckFiles, setup: Setup, *,
                registrations: Registrations | None = None,
                decisions: list[Decision] | None = None, duel: int | None = None,
                stage: Stage = "pre-event", decisions_label: str = "decisions",
                attributes: CardTable | None = None,
                langs: tuple[Lang, ...] = LANGS) -> DeckCheck:
    """Check decks (those without a single card too); with registrations, check the lists
    too and compare each deck with its player's list (deck id = player id, else the player's
    name), allowing side deck exchanges when ``duel`` and ``stage`` allow them
    (:func:`~validator.judging.siding.exchanges_allowed`). A deck of no registered player is
    checked alone. ``attributes``: the card table of the setup, when its loader made it.
    ``langs``: the languages the messages are worded in besides English (a report in one
    language needs only that one)."""
    table = attributes if attributes is not None else card_attributes(
        setup.cards, setup.banlist, setup.fmt)
    if registrations is None:
        result = check(files.entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                       deck_ids=files.ids,
                       unreadable=unreadable_rows(files.unreadable(), on_list=False),
                       attributes=table, langs=langs)
        return DeckCheck(_with_files(result, files.labels), None, [], [], duel)
    met = check_against_lists(files, registrations, setup, decisions=decisions,
                              decisions_label=decisions_label,
                              siding=exchanges_allowed(duel, stage), attributes=table,
                              langs=langs)
    if met.decks is None or met.files is None:
        raise ImplementationError("decks were given but none were compared with their lists")
    result = met.decks
    if met.unmatched:  # checked for legality alone
        alone = check(met.files.entries.filter(pl.col("deck_id").is_in(met.unmatched)),
                      cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                      deck_ids=met.unmatched,
                      unreadable=unreadable_rows(met.files.unreadable(), on_list=False),
                      attributes=table, langs=langs)
        result = combine([result, alone])
    return DeckCheck(_with_files(result, met.files.labels), met.lists,
                     met.applied.problems + met.applied.unmatched + met.strays,
                     met.applied.decisions, duel)


def _with_files(result: CheckResult, labels: dict[str, str]) -> CheckResult:
    """``result`` with each deck's file (``source``) where no card of it was read (an empty
    file, or one of unreadable lines only): the file it came from, not none (the engine
    names the file of a deck's first entry, and such a deck has none)."""
    decks = result.decks
    if not labels or not decks["source"].has_nulls():
        return result
    read_from = pl.col("deck_id").cast(pl.Utf8).replace_strict(labels, default=None,
                                                                return_dtype=pl.Utf8)
    return replace(result, decks=decks.with_columns(
        pl.coalesce(pl.col("source"), read_from.cast(decks.schema["source"])).alias("source")))
