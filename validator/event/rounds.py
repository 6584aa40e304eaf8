"""Rounds and tables of the event, and the deck checks of each round.

Pairings are imported per round (an import replaces the rounds it holds); each seat's player
is matched to a registered player by id or by name, and a player that matches none is
reported with the closest players. The current round is set by the latest import or by the
organizer. Every record of the floor (a deck check, a penalty log entry) takes its round
and table from :func:`current_round` and :func:`table_of`.

A deck-check draw picks N tables of a round at random from a recorded seed: the same seed
over the same tables draws the same tables again (:func:`repeat`). Tables already checked
in an earlier round are left out unless asked: a table whose number was drawn or checked
then, or that seats a player whose deck was checked then.

The tables live in the event's database beside its other records (created on first use).
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import math
import random
import secrets
import weakref
from dataclasses import dataclass
from typing import Any

from validator.errors import InputError, Problem
from validator.event.store import EventDB, problem_of_record, problem_record
from validator.inputs.pairings import Seat
from validator.text.lexicon import fold

__all__ = ["MAX_DRAW", "DeckCheck", "Draw", "Import", "Placed", "SheetRow", "current_round",
           "deck_check_sheet", "deck_checks", "draw", "draws", "extension_minutes",
           "import_pairings", "last_import", "now", "place_seats", "players_at",
           "record_deck_check", "repeat", "round_tables", "rounds", "set_current_round",
           "table_of"]

#: the most tables one draw picks
MAX_DRAW = 500
#: the closest players named for a player the pairings name but the event does not hold
CLOSEST = 3

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS pairings (round INTEGER NOT NULL, table_no INTEGER, "
    "player_id TEXT NOT NULL, import INTEGER NOT NULL, PRIMARY KEY (round, player_id))",
    "CREATE TABLE IF NOT EXISTS pairing_imports (id INTEGER PRIMARY KEY, rounds TEXT NOT NULL, "
    "source TEXT NOT NULL, seats INTEGER NOT NULL, problems TEXT NOT NULL, "
    "imported_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS draws (id INTEGER PRIMARY KEY, round INTEGER NOT NULL, "
    "seed INTEGER NOT NULL, size INTEGER NOT NULL, include_checked INTEGER NOT NULL, "
    "eligible TEXT NOT NULL, excluded TEXT NOT NULL, tables TEXT NOT NULL, "
    "drawn_by TEXT NOT NULL, drawn_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS deck_checks (id INTEGER PRIMARY KEY, round INTEGER, "
    "table_no INTEGER, player_id TEXT NOT NULL, judge TEXT NOT NULL, "
    "started_at TEXT NOT NULL, ended_at TEXT NOT NULL, result TEXT NOT NULL, "
    "log_entry INTEGER, extension INTEGER NOT NULL, recorded_at TEXT NOT NULL)",
)
_ready: weakref.WeakSet[EventDB] = weakref.WeakSet()


def _db(db: EventDB) -> EventDB:
    """The database, with this module's tables."""
    if db not in _ready:
        with db.transaction() as conn:
            for statement in SCHEMA:
                conn.execute(statement)
        _ready.add(db)
    return db


def now() -> str:
    """The time now, as the records keep it (ISO 8601, UTC, seconds)."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Placed:
    """A registered player at a table (None: a bye) of a round."""

    round: int
    table: int | None
    player_id: str


def _name_keys(name: str) -> set[str]:
    """A name as pairings may write it: as registered, "Last, First", or family name first."""
    keys = {fold(name)}
    if "," in name:
        last, _, first = name.partition(",")
        keys.add(fold(f"{first} {last}"))
    words = name.split()
    if len(words) > 1:
        keys.add(fold(" ".join([*words[1:], words[0]])))
        keys.add(fold(" ".join([words[-1], *words[:-1]])))
    return keys - {""}


def place_seats(seats: list[Seat], players: list[tuple[str, str]]) -> tuple[
        list[Placed], list[Problem]]:
    """The seats matched to the event's players (``(player_id, name)``): by id, else by
    name. A player no registered player is, a name two players share, a player at two
    tables of one round and a table of more than two players are reported at their row."""
    by_id = {fold(pid): pid for pid, _ in players}
    by_name: dict[str, set[str]] = {}
    for pid, name in players:
        for key in _name_keys(name):
            by_name.setdefault(key, set()).add(pid)
    names = dict(players)
    placed: dict[tuple[int, str], Placed] = {}
    at_table: dict[tuple[int, int], list[str]] = {}
    problems: list[Problem] = []
    for seat in seats:
        def report(message: str, code: str, seat: Seat = seat) -> None:
            problems.append(Problem(seat.file, seat.line, seat.column, message, code=code))

        found = by_id.get(fold(seat.player))
        if found is None:
            matches = set.union(set(), *(by_name.get(k, set()) for k in _name_keys(seat.player)))
            if len(matches) > 1:
                report(f"{seat.player!r} is the name of {len(matches)} registered players ("
                       + ", ".join(sorted(matches)) + "): write the player's id",
                       "AMBIGUOUS_PLAYER")
                continue
            found = next(iter(matches), None)
        if found is None:
            closest = _closest(seat.player, players)
            report(f"{seat.player!r} is no registered player (expected a player id or name of "
                   "the event)" + (f"; closest: {', '.join(closest)}" if closest else ""),
                   "UNKNOWN_PAIRED_PLAYER")
            continue
        earlier = placed.get((seat.round, found))
        if earlier is not None:
            if earlier.table != seat.table:
                report(f"{names[found]} ({found}) is already at table {earlier.table} in round "
                       f"{seat.round}; expected one table per player and round",
                       "PAIRING_CONFLICT")
            continue
        if seat.table is not None:
            held = at_table.setdefault((seat.round, seat.table), [])
            if len(held) >= 2:
                report(f"table {seat.table} of round {seat.round} already seats "
                       f"{' and '.join(held)}; expected two players per table",
                       "PAIRING_CONFLICT")
                continue
            held.append(found)
        placed[seat.round, found] = Placed(seat.round, seat.table, found)
    return list(placed.values()), problems


def _closest(written: str, players: list[tuple[str, str]]) -> list[str]:
    """The players whose id or name is nearest to what the pairings wrote."""
    keys: dict[str, str] = {}
    for pid, name in players:
        keys.setdefault(fold(pid), pid)
        keys.setdefault(fold(name), pid)
    near = difflib.get_close_matches(fold(written), list(keys), n=CLOSEST, cutoff=0.6)
    names = dict(players)
    shown: list[str] = []
    for key in near:
        pid = keys[key]
        label = f"{names[pid]} ({pid})"
        if label not in shown:
            shown.append(label)
    return shown


@dataclass(frozen=True)
class Import:
    id: int
    rounds: list[int]
    source: str
    seats: int
    problems: list[Problem]
    imported_at: str


def import_pairings(db: EventDB, placed: list[Placed], source: str,
                    problems: list[Problem], *, given: list[int] | None = None) -> int:
    """Keep the pairings of the rounds they hold (each replaces that round's earlier
    pairings; ``given``: the rounds imported even when no seat of them could be used) and
    what could not be used, in one transaction; the current round becomes the latest round
    imported. The import's id."""
    held = sorted({p.round for p in placed} | set(given or []))
    with _db(db).transaction() as conn:
        cursor = conn.execute(
            "INSERT INTO pairing_imports (rounds, source, seats, problems, imported_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (json.dumps(held), source, len(placed),
             json.dumps([problem_record(p) for p in problems], ensure_ascii=False), now()))
        number = int(cursor.lastrowid or 0)
        for round_ in held:
            if any(p.round == round_ for p in placed):
                conn.execute("DELETE FROM pairings WHERE round = ?", (round_,))
        conn.executemany("INSERT INTO pairings VALUES (?, ?, ?, ?)",
                         [(p.round, p.table, p.player_id, number) for p in placed])
        if placed:
            conn.execute("DELETE FROM meta WHERE key = 'current_round'")
            conn.execute("INSERT INTO meta VALUES ('current_round', ?)",
                         (str(max(p.round for p in placed)),))
    return number


def last_import(db: EventDB, number: int) -> Import | None:
    rows = _db(db).select("SELECT id, rounds, source, seats, problems, imported_at "
                          "FROM pairing_imports WHERE id = ?", (number,))
    if not rows:
        return None
    i, held, source, seats, problems, when = rows[0]
    return Import(int(i), json.loads(held), str(source), int(seats),
                  [problem_of_record(p) for p in json.loads(problems)], str(when))


def current_round(db: EventDB) -> int | None:
    value = db.meta("current_round")
    return int(value) if value and value.isdigit() else None


def set_current_round(db: EventDB, round: int | None) -> None:
    if round is not None and round < 1:
        raise InputError.at("round", "a round is a whole number from 1", code="BAD_OPTION")
    db.set_meta("current_round", None if round is None else str(round))


def table_of(db: EventDB, player_id: str, round: int | None = None) -> int | None:
    """The player's table in ``round`` (None: the current round); None without one."""
    round = current_round(db) if round is None else round
    if round is None:
        return None
    rows = _db(db).select("SELECT table_no FROM pairings WHERE round = ? AND player_id = ?",
                          (round, player_id))
    return int(rows[0][0]) if rows and rows[0][0] is not None else None


def players_at(db: EventDB, table: int, round: int | None = None) -> list[str]:
    """The players at a table of ``round`` (None: the current round)."""
    round = current_round(db) if round is None else round
    if round is None:
        return []
    return [str(r[0]) for r in _db(db).select(
        "SELECT player_id FROM pairings WHERE round = ? AND table_no = ? ORDER BY rowid",
        (round, table))]


def round_tables(db: EventDB, round: int) -> dict[int | None, list[str]]:
    """Each table of a round (None: the byes) with its players, by table number."""
    out: dict[int | None, list[str]] = {}
    for table, player in _db(db).select(
            "SELECT table_no, player_id FROM pairings WHERE round = ? "
            "ORDER BY table_no IS NULL, table_no, rowid", (round,)):
        out.setdefault(None if table is None else int(table), []).append(str(player))
    return out


def rounds(db: EventDB) -> list[tuple[int, int, int]]:
    """Each round with pairings: (round, tables, players)."""
    return [(int(r), int(t), int(p)) for r, t, p in _db(db).select(
        "SELECT round, count(DISTINCT table_no), count(*) FROM pairings GROUP BY round "
        "ORDER BY round")]


@dataclass(frozen=True)
class Draw:
    """A recorded draw of tables to deck-check: from ``eligible`` (the tables of the round
    less those ``excluded``), ``tables`` in the order drawn."""

    id: int
    round: int
    seed: int
    size: int
    include_checked: bool
    eligible: list[int]
    excluded: list[int]
    tables: list[int]
    drawn_by: str
    drawn_at: str


def repeat(eligible: list[int], size: int, seed: int) -> list[int]:
    """The tables a seed draws from ``eligible``: the same seed, the same tables."""
    pool = sorted(set(eligible))
    return random.Random(seed).sample(pool, min(size, len(pool)))


def _checked_before(db: EventDB, round: int) -> set[int]:
    """The tables of ``round`` already checked in an earlier round: drawn or checked by
    number then, or seating a player whose deck was checked then."""
    numbers = {int(t) for (t,) in db.select(
        "SELECT table_no FROM deck_checks WHERE round < ? AND table_no IS NOT NULL", (round,))}
    for (tables,) in db.select("SELECT tables FROM draws WHERE round < ?", (round,)):
        numbers.update(int(t) for t in json.loads(tables))
    checked_players = {str(p) for (p,) in db.select(
        "SELECT player_id FROM deck_checks WHERE round < ?", (round,))}
    seated = {int(t) for t, p in db.select(
        "SELECT table_no, player_id FROM pairings WHERE round = ? AND table_no IS NOT NULL",
        (round,)) if str(p) in checked_players}
    return numbers | seated


def draw(db: EventDB, round: int, size: int, *, seed: int | None = None,
         include_checked: bool = False, drawn_by: str = "") -> Draw:
    """Draw ``size`` tables of ``round`` to deck-check, and record the draw."""
    _db(db)
    if not 1 <= size <= MAX_DRAW:
        raise InputError.at("size", f"draw 1-{MAX_DRAW} tables", code="BAD_OPTION")
    tables = sorted(t for t in round_tables(db, round) if t is not None)
    if not tables:
        raise InputError.at("round", f"round {round} has no pairings: import them first",
                            code="NOT_READY")
    excluded = [] if include_checked else sorted(_checked_before(db, round) & set(tables))
    eligible = [t for t in tables if t not in excluded]
    if not eligible:
        raise InputError.at("round", f"every table of round {round} was checked in an earlier "
                            "round: draw again including them", code="BAD_OPTION")
    seed = secrets.randbelow(1_000_000) if seed is None else seed
    drawn = repeat(eligible, size, seed)
    drawn_at = now()
    with db.transaction() as conn:
        cursor = conn.execute(
            "INSERT INTO draws (round, seed, size, include_checked, eligible, excluded, "
            "tables, drawn_by, drawn_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (round, seed, size, int(include_checked), json.dumps(eligible),
             json.dumps(excluded), json.dumps(drawn), drawn_by, drawn_at))
    return Draw(int(cursor.lastrowid or 0), round, seed, size, include_checked, eligible,
                excluded, drawn, drawn_by, drawn_at)


def draws(db: EventDB, round: int) -> list[Draw]:
    """The draws of a round, latest first."""
    return [Draw(int(i), int(r), int(s), int(n), bool(inc), json.loads(el), json.loads(ex),
                 json.loads(t), str(by), str(at)) for i, r, s, n, inc, el, ex, t, by, at in
            _db(db).select("SELECT id, round, seed, size, include_checked, eligible, excluded, "
                           "tables, drawn_by, drawn_at FROM draws WHERE round = ? "
                           "ORDER BY id DESC", (round,))]


@dataclass(frozen=True)
class DeckCheck:
    """One deck check: who checked whose deck when, what it found (``legal``, or the
    penalty recorded in the log entry ``log_entry``) and the time extension given."""

    id: int
    round: int | None
    table: int | None
    player_id: str
    judge: str
    started_at: str
    ended_at: str
    result: str
    log_entry: int | None
    extension: int  # minutes
    recorded_at: str


def extension_minutes(started_at: str, ended_at: str) -> int:
    """The time extension a deck check gives by default: its duration, in whole minutes
    rounded up (0 when the times cannot be read or are out of order)."""
    try:
        start, end = dt.datetime.fromisoformat(started_at), dt.datetime.fromisoformat(ended_at)
    except ValueError:
        return 0
    seconds = (end - start).total_seconds()
    return max(math.ceil(seconds / 60), 0) if seconds < 24 * 3600 else 0


def record_deck_check(db: EventDB, *, player_id: str, judge: str, started_at: str,
                      result: str, extension: int | None = None, ended_at: str | None = None,
                      round: int | None = None, table: int | None = None,
                      log_entry: int | None = None) -> int:
    """Record a deck check; the round and table default to the current round and the
    player's table in it, the end to now, the extension to the check's duration."""
    ended_at = ended_at or now()
    round = current_round(db) if round is None else round
    table = table_of(db, player_id, round) if table is None and round is not None else table
    minutes = extension_minutes(started_at, ended_at) if extension is None else extension
    with _db(db).transaction() as conn:
        cursor = conn.execute(
            "INSERT INTO deck_checks (round, table_no, player_id, judge, started_at, ended_at, "
            "result, log_entry, extension, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (round, table, player_id, judge, started_at, ended_at, result, log_entry, minutes,
             now()))
        return int(cursor.lastrowid or 0)


def deck_checks(db: EventDB, round: int | None = None,
                player_id: str | None = None) -> list[DeckCheck]:
    """The deck checks recorded, oldest first (of one round, of one player)."""
    sql = ("SELECT id, round, table_no, player_id, judge, started_at, ended_at, result, "
           "log_entry, extension, recorded_at FROM deck_checks WHERE 1 = 1")
    args: list[Any] = []
    if round is not None:
        sql += " AND round = ?"
        args.append(round)
    if player_id is not None:
        sql += " AND player_id = ?"
        args.append(player_id)
    return [DeckCheck(*row) for row in _db(db).select(sql + " ORDER BY id", tuple(args))]


@dataclass(frozen=True)
class SheetRow:
    """A line of a round's deck-check sheet: a table (None: a player without one) with its
    players and the checks recorded there (none yet: blank, to fill in by hand)."""

    table: int | None
    players: list[str]
    checks: list[DeckCheck]


def deck_check_sheet(db: EventDB, round: int) -> tuple[Draw | None, list[SheetRow]]:
    """The round's deck-check sheet: the tables of its latest draw in the order drawn, then
    any other table checked, then checks of players without a table."""
    made = draws(db, round)
    latest = made[0] if made else None
    tables = round_tables(db, round)
    checks = deck_checks(db, round)
    wanted = list(latest.tables) if latest else []
    wanted += sorted({c.table for c in checks if c.table is not None} - set(wanted))
    rows = [SheetRow(t, tables.get(t, []), [c for c in checks if c.table == t]) for t in wanted]
    rows += [SheetRow(None, [c.player_id], [c]) for c in checks if c.table is None]
    return latest, rows


@dataclass(frozen=True)
class RecordDefaults:
    """What a new record for a player starts with, before the judge changes it."""

    round: int | None = None
    table: int | None = None


def record_defaults(db: EventDB, player_id: str) -> RecordDefaults:
    """The round and table a new log entry for ``player_id`` starts with: the event's
    current round and the player's table in it (either unknown before pairings)."""
    number = current_round(db)
    return RecordDefaults(round=number,
                          table=table_of(db, player_id, number) if number else None)
