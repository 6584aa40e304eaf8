"""Whole-event checking: every registered list, every submitted deck, list against deck.

Registered lists come from any registration layout; submitted decks (a folder or a zip) are
matched to players by file name = player id. Each list is checked for legality; each deck
is checked for legality and compared with its player's list. A player is legal when both
are; illegal when either breaks a rule; not checked when decks were collected but theirs was
not checked (none submitted, or its file could not be read); and needs a decision when the
head judge must first settle an entry (a name that names no single card, a row that could
not be read). The head judge's decisions are applied to the lists before they are checked.
Unreadable rows, unmatched deck files and players without a submitted deck are reported as
problems, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from validator.cards.formats import Format
from validator.cards.load import Setup
from validator.engine.check import CheckResult, code_counts
from validator.engine.tables import CardTable
from validator.errors import InputError, Problem, capped
from validator.inputs.decks.batch import DeckFiles, read_deck_paths, require_decks
from validator.inputs.registrations.read import Registrations, read_registrations
from validator.judging.checking import check_against_lists
from validator.judging.decisions import Decision
from validator.judging.siding import exchanges_allowed
from validator.vocab import ON_ENUM, STATUS_ENUM, Stage

__all__ = ["EventResult", "check_event", "run_event"]


@dataclass
class EventResult:
    registrations: Registrations
    list_check: CheckResult  # the registered lists, checked
    deck_check: CheckResult | None  # the submitted decks, checked against their lists
    players: pl.DataFrame
    violations: pl.DataFrame
    problems: list[Problem] = field(default_factory=list)
    unmatched_decks: list[str] = field(default_factory=list)
    players_without_deck: list[str] = field(default_factory=list)
    submitted: pl.DataFrame | None = None  # the submitted decks' entries
    decisions: list[Decision] = field(default_factory=list)  # the head judge's, applied
    registered: pl.DataFrame | None = None  # the lists as checked (decisions applied)
    duel: int | None = None  # the duel of a match the decks were compared for
    siding: bool = False  # side deck exchanges were allowed when decks met their lists

    @property
    def format(self) -> Format:
        return self.list_check.format

    @property
    def warnings(self) -> list[Problem]:
        """The checks' warnings (the list's entries no card matches, stale card data), once
        each."""
        found = list(self.list_check.warnings)
        if self.deck_check is not None:
            found += [w for w in self.deck_check.warnings if w not in found]
        return found

    def counts(self) -> dict[str, int]:
        """Violations per code (lists' and decks' together), in registry order."""
        return code_counts(self.violations)

    @property
    def entries(self) -> pl.DataFrame:
        """The registered lists as checked."""
        return self.registrations.entries if self.registered is None else self.registered


def run_event(registrations: Path, setup: Setup, *, decks: Path | None = None,
              decisions: list[Decision] | None = None, duel: int | None = None,
              stage: Stage = "pre-event") -> EventResult:
    """An event from files: registrations (file or folder) and decks (folder or zip),
    compared as for ``duel`` at ``stage`` (:func:`~validator.judging.siding.exchanges_allowed`).
    Raises when no player could be read (no registration file read, or none with a player).
    """
    reg = read_registrations(registrations)
    if reg.players.is_empty():
        raise InputError([*reg.problems, Problem.of(
            str(registrations), None, None, "no registered player could be read: expected a "
            "deck list workbook, CSV or PDF sheet with players", code="NO_PLAYERS")])
    submitted = None
    if decks is not None:
        submitted = read_deck_paths([decks])
        require_decks(submitted, str(decks))
    return check_event(reg, submitted, setup, decks_label=str(decks),
                       decisions=decisions or [], duel=duel, stage=stage)


def check_event(reg: Registrations, submitted: DeckFiles | None, setup: Setup, *,
                decks_label: str = "decks", decisions: list[Decision] | None = None,
                decisions_label: str = "decisions",
                attributes: CardTable | None = None, duel: int | None = None,
                stage: Stage = "pre-event") -> EventResult:
    """An event from registrations and submitted decks already read (files or uploads);
    ``attributes``: the setup's card table, when its loader made it."""
    siding = exchanges_allowed(duel, stage)
    met = check_against_lists(submitted, reg, setup, decisions=decisions,
                              decisions_label=decisions_label, siding=siding,
                              attributes=attributes)
    applied, list_check, deck_result = met.applied, met.lists, met.decks
    problems = applied.problems + applied.unmatched
    without: list[str] = []
    entries = None
    if met.files is not None:
        problems.extend(met.files.problems + met.strays)
        present, labels = set(met.files.ids), met.files.labels
        without = [p for p in reg.players["player_id"].to_list() if p not in present]
        problems.extend(
            Problem.of(labels[player], None, None, "player {player}'s deck file could not be "
                       "read: the deck is not checked", code="NO_DECK", player=player)
            if player in labels
            else Problem.of(decks_label, None, None, "player {player} has a registered list "
                            "but no submitted deck", code="NO_DECK", player=player)
            for player in without)
        entries = met.files.entries
    index = reg.players.select("player_id", "player_name").with_row_index("deck")
    frames = [list_check.violations.with_columns(pl.lit("list").alias("on"))]
    if deck_result is not None:
        frames.append(deck_result.violations.with_columns(pl.lit("deck").alias("on")))
    violations = (
        pl.concat(frames).drop("deck").rename({"deck_id": "player_id"})
        .join(index, on="player_id", how="left")
        .with_columns(pl.col("on").cast(ON_ENUM))
        .sort("deck", "on", maintain_order=True)
    )
    players = _players(index, list_check, deck_result, violations,
                       {} if met.files is None else met.files.labels)
    return EventResult(reg, list_check, deck_result, players, violations, capped(problems),
                       met.unmatched, without, entries, applied.decisions, applied.entries,
                       duel, siding)


def _players(index: pl.DataFrame, list_check: CheckResult, deck_check: CheckResult | None,
             violations: pl.DataFrame, labels: dict[str, str]) -> pl.DataFrame:
    """One row per registered player: list and deck sizes, legality and source, the number
    of violations, and the player's one status (``legal`` only when it is ``legal``):
    illegal when the list or the deck breaks a rule; else not checked when decks were
    collected but the player's was not checked; else needs a decision when an entry waits
    for the head judge; else legal. ``labels``: each submitted deck's file, by player id
    (the source of a deck without a single card, or of one that could not be read)."""
    def sizes(checked: CheckResult, side: str) -> pl.DataFrame:
        """Each player's sizes, legality, source and status of one side (list or deck)."""
        return checked.decks.select(pl.col("deck_id").alias("player_id"), *(
            pl.col(c).alias(f"{side}_{c}")
            for c in ("main", "extra", "side", "legal", "source", "status")))

    out = index.join(sizes(list_check, "list"), on="player_id", how="left")
    if deck_check is not None:
        out = out.join(sizes(deck_check, "deck"), on="player_id", how="left")
    else:
        out = out.with_columns(
            *[pl.lit(None, pl.Int64).alias(c) for c in ("deck_main", "deck_extra", "deck_side")],
            pl.lit(None, pl.Boolean).alias("deck_legal"),
            pl.lit(None, pl.Utf8).alias("deck_source"),
            pl.lit(None, STATUS_ENUM).alias("deck_status"))
    counted = violations.group_by("deck").len("violations")
    statuses = [pl.col("list_status"), pl.col("deck_status")]
    unchecked = pl.lit(deck_check is not None) & pl.col("deck_status").is_null()
    status = (
        pl.when(pl.any_horizontal(s == "illegal" for s in statuses))
        .then(pl.lit("illegal", STATUS_ENUM))
        .when(unchecked).then(pl.lit("not_checked", STATUS_ENUM))
        .when(pl.any_horizontal(s == "needs_decision" for s in statuses))
        .then(pl.lit("needs_decision", STATUS_ENUM))
        .otherwise(pl.lit("legal", STATUS_ENUM))
    )
    return (
        out.join(counted, on="deck", how="left")
        .with_columns(pl.col("violations").fill_null(0).cast(pl.Int64),
                      pl.col("list_legal").fill_null(True),
                      pl.col("list_status").fill_null("legal"))
        .with_columns(status.alias("status"),
                      pl.coalesce("deck_source", pl.col("player_id").replace_strict(
                          labels, default=None, return_dtype=pl.Utf8)).alias("deck_source"))
        .with_columns((pl.col("status") == "legal").alias("legal"))
        .sort("deck")
    )
