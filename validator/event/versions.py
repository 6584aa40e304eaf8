"""Submissions as versions: which of a player's lists and decks is the one checked.

Every upload (a submission: a file, when it came, its content hash) is read on its own. A
player's list is the one of the newest upload in effect that holds a list for them, unless
the organizer restored an earlier one since; the same for decks (deck files and pasted
links together). So a corrected deck for one player replaces only that player's, and the
earlier one stays in the player's history. An upload is in effect while it is neither
removed (undone) nor set aside by a later "replace all" upload of its kind; an upload from
which nothing could be read is a failure and replaces nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import polars as pl

from validator.errors import Problem, capped
from validator.inputs.decks.batch import DeckFiles
from validator.inputs.entries import entries_frame
from validator.inputs.registrations.read import PLAYER_SCHEMA, Registrations

__all__ = ["GROUPS", "Assembled", "Choice", "Outcome", "PlayerVersion", "Submission",
           "Versions", "assemble", "empty_registrations", "group_of", "in_effect"]

Part = Literal["list", "deck"]
#: upload kinds by the part of a player they hold
GROUPS: dict[Part, tuple[str, ...]] = {"list": ("registrations",), "deck": ("decks", "links")}


def group_of(kind: str) -> Part:
    return "list" if kind in GROUPS["list"] else "deck"


@dataclass(frozen=True)
class Submission:
    """One uploaded file as the store keeps it (without its bytes)."""

    id: int
    batch: int  # the first upload of the form it came with
    kind: str
    name: str
    sha256: str
    received_at: str
    state: str  # active, removed, pending (a "replace all" not yet confirmed), refused
    replace_all: bool
    size: int = 0
    reason: list[Problem] = field(default_factory=list)  # why it was refused

    @property
    def part(self) -> Part:
        return group_of(self.kind)


@dataclass(frozen=True)
class Choice:
    """An earlier version the organizer restored for a player."""

    player_id: str
    part: Part
    upload: int
    after: int  # the newest upload when it was restored: a newer one replaces it again


def set_aside_by(submissions: list[Submission]) -> dict[int, int]:
    """Uploads set aside by a later "replace all" upload in effect: id → that upload."""
    out: dict[int, int] = {}
    for replacing in submissions:
        if replacing.state != "active" or not replacing.replace_all:
            continue
        for earlier in submissions:
            if earlier.part == replacing.part and earlier.batch < replacing.batch:
                out[earlier.id] = max(out.get(earlier.id, 0), replacing.id)
    return out


def in_effect(submissions: list[Submission]) -> list[Submission]:
    """The uploads whose lists and decks can be checked, oldest first."""
    aside = set_aside_by(submissions)
    return sorted((s for s in submissions if s.state == "active" and s.id not in aside),
                  key=lambda s: s.id)


@dataclass(frozen=True)
class Outcome:
    """What one upload gave: how many players' lists (or decks) were read from it, for how
    many it is the version checked, and, when nothing could be read, why."""

    upload: int
    read: int
    current: int
    problems: list[Problem] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.read == 0


@dataclass(frozen=True)
class PlayerVersion:
    upload: int
    part: Part
    file: str
    received_at: str
    sha256: str
    current: bool
    restored: bool  # the organizer chose it over a newer one


@dataclass
class Versions:
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    history: dict[str, list[PlayerVersion]] = field(default_factory=dict)  # newest first

    def of(self, player_id: str, part: Part) -> list[PlayerVersion]:
        return [v for v in self.history.get(player_id, []) if v.part == part]


@dataclass
class Assembled:
    registrations: Registrations | None  # None: no list could be read
    decks: DeckFiles | None  # None: no deck upload in effect
    versions: Versions


def empty_registrations(problems: list[Problem]) -> Registrations:
    return Registrations(entries_frame(), pl.DataFrame(schema=PLAYER_SCHEMA), problems)


def _winners(held: dict[int, list[str]], choices: dict[str, Choice],
             ) -> tuple[dict[str, int], set[str]]:
    """Each player's upload checked (player → upload id) and the players whose restored
    choice holds."""
    newest: dict[str, int] = {}
    for upload, players in held.items():
        for player in players:
            newest[player] = max(newest.get(player, 0), upload)
    restored = set()
    for player, choice in choices.items():
        if player in newest and player in held.get(choice.upload, ()) \
                and choice.after >= newest[player]:
            newest[player] = choice.upload
            restored.add(player)
    return newest, restored


def _history(part: Part, held: dict[int, list[str]], winners: dict[str, int],
             restored: set[str], by_id: dict[int, Submission],
             history: dict[str, list[PlayerVersion]]) -> None:
    for upload in sorted(held, reverse=True):
        sub = by_id[upload]
        for player in held[upload]:
            history.setdefault(player, []).append(PlayerVersion(
                upload, part, sub.name, sub.received_at, sub.sha256,
                winners.get(player) == upload, player in restored and winners[player] == upload))


def _kept(problems: list[Problem], upload_players: set[str], current: set[str],
          owner: Callable[[Problem], str | None]) -> list[Problem]:
    """An upload's problems that concern what is checked: a player's only while the upload
    is that player's version, the file's own while it is anyone's."""
    out = []
    for problem in problems:
        player = owner(problem)
        if player is not None and player in upload_players:
            if player in current:
                out.append(problem)
        elif current:
            out.append(problem)
    return out


def _nothing(sub: Submission, what: str) -> Problem:
    msgid = ("no list could be read from this file" if what == "list"
             else "no deck could be read from this file")
    return Problem.of(sub.name, None, None, msgid, code="NOTHING_READ")


def assemble(submissions: list[Submission], lists: dict[int, Registrations],
             decks: dict[int, DeckFiles], choices: list[Choice]) -> Assembled:
    """The lists and decks checked, from every upload in effect read on its own
    (``lists``/``decks`` by upload id), and each player's history."""
    by_id = {s.id: s for s in submissions}
    versions = Versions()
    pins = {part: {c.player_id: c for c in choices if c.part == part} for part in GROUPS}

    # lists
    held = {u: reg.players["player_id"].to_list() for u, reg in lists.items()
            if reg.players.height}
    winners, restored = _winners(held, pins["list"])
    _history("list", held, winners, restored, by_id, versions.history)
    entries, players, problems, notes = [], [], [], []
    first: dict[str, tuple[int, int]] = {}
    read_rows = used_rows = reported_rows = 0
    for upload in sorted(lists):
        reg = lists[upload]
        mine = [p for p in held.get(upload, []) if winners[p] == upload]
        versions.outcomes[upload] = Outcome(
            upload, reg.players.height, len(mine),
            [] if reg.players.height else (reg.problems or [_nothing(by_id[upload], "list")]))
        for position, player in enumerate(held.get(upload, [])):
            first.setdefault(player, (upload, position))
        if not mine:
            continue
        chosen = pl.Series(mine, dtype=pl.Utf8).implode()
        entries.append(reg.entries.filter(pl.col("deck_id").is_in(chosen)))
        players.append(reg.players.filter(pl.col("player_id").is_in(chosen)))
        upload_players, current = set(held[upload]), set(mine)
        problems += _kept(reg.problems, upload_players, current, lambda p: p.deck_id)
        notes += _kept(reg.notes, upload_players, current, lambda p: p.deck_id)
        read_rows += reg.rows_read
        used_rows += reg.rows_used
        reported_rows += reg.rows_reported
    registrations = None
    if players:
        table = pl.concat(players).with_columns(
            pl.col("player_id").replace_strict(
                {p: i for i, p in enumerate(sorted(first, key=first.__getitem__))},
                return_dtype=pl.Int64).alias("order")).sort("order").drop("order")
        registrations = Registrations(pl.concat(entries), table, capped(problems), read_rows,
                                      used_rows, reported_rows, notes)

    # decks
    held = {u: list(files.labels) for u, files in decks.items() if files.ids}
    winners, restored = _winners(held, pins["deck"])
    _history("deck", held, winners, restored, by_id, versions.history)
    deck_entries: list[pl.DataFrame] = []
    ids: list[str] = []
    labels: dict[str, str] = {}
    deck_problems: list[Problem] = []
    for upload in sorted(decks):
        files = decks[upload]
        mine = [p for p in held.get(upload, []) if winners[p] == upload]
        versions.outcomes[upload] = Outcome(
            upload, len(files.ids), len(mine),
            [] if files.ids else (files.problems or [_nothing(by_id[upload], "deck")]))
        if not mine:
            continue
        current = set(mine)
        deck_entries.append(files.entries.filter(
            pl.col("deck_id").is_in(pl.Series(mine, dtype=pl.Utf8).implode())))
        ids += [i for i in files.ids if i in current]
        labels.update({p: files.labels[p] for p in mine})
        by_label = {label: player for player, label in files.labels.items()}

        def owner(problem: Problem, by: dict[str, str] = by_label) -> str | None:
            return problem.deck_id or by.get(problem.file)

        deck_problems += _kept(files.problems, set(files.labels), current, owner)
    submitted = None
    if held:  # some deck could be read
        submitted = DeckFiles(pl.concat(deck_entries) if deck_entries else entries_frame(),
                              capped(deck_problems), ids, labels)
    return Assembled(registrations, submitted, versions)
