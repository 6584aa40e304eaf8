"""Pairings of a round as seats: who sits at which table, read from a tournament
software's export (CSV or XLSX), a Melee.gg round's pairings (the JSON its pairings page
loads), a TOM tournament file (``.tdf``) or a pasted "table, player, player" list.

The layouts are found by their column headings (``validator/data/pairings.toml``, which
says where each heading comes from): one table per row with two players (by id, by name or
both), or one player per row with their table (and, optionally, their opponent). A player is
kept as written (an id or a name); the event matches it to a registered player
(``event.rounds``). Every row is read into seats or reported (file, row, what was expected);
an empty row is skipped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from validator.errors import InputError, Problem
from validator.files.tabular import Sheet, cell_name, read_sheets
from validator.text.datafile import data_file, read_model
from validator.text.lexicon import fold, whole_number

__all__ = ["MAX_TABLE", "PAIRING_SUFFIXES", "PairingColumns", "Pairings", "Seat",
           "load_columns", "read_pairing_file", "read_pasted_pairings"]

#: the highest table number read (a 1,000-player event has 500 tables)
MAX_TABLE = 9999
PAIRING_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx", ".json", ".tdf")
#: rows searched for the heading row (a title and the event's details may come first)
HEADING_ROWS = 30


class PairingColumns(BaseModel):
    """The headings of each column of a pairings export (see the data file)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    round: list[str]
    table: list[str]
    player: list[str]
    player_id: list[str]
    opponent: list[str]
    opponent_id: list[str]
    player_1: list[str]
    player_1_id: list[str]
    player_2: list[str]
    player_2_id: list[str]
    bye: list[str]

    def of(self, heading: str) -> str | None:
        """The column a heading names, or None."""
        folded = fold(heading)
        return next((key for key, words in self.model_dump().items()
                     if key != "bye" and folded in {fold(w) for w in words}), None)

    def is_bye(self, cell: str) -> bool:
        return fold(cell) in {fold(w) for w in self.bye}


@cache
def load_columns() -> PairingColumns:
    return read_model(PairingColumns, data_file("pairings.toml"))


@dataclass(frozen=True)
class Seat:
    """One player at one table of one round, as written in the pairings."""

    round: int
    table: int | None  # None: a bye (no table)
    player: str  # an id or a name, as written
    file: str
    line: int  # the row (a spreadsheet's row number, a pasted list's line)
    column: str | None = None  # the cell, in a spreadsheet


@dataclass(frozen=True)
class Pairings:
    seats: list[Seat]
    problems: list[Problem]


#: the two player slots of a row: (id column, name column)
_SLOTS = {"one": (("player_id", "player"), ("player_1_id", "player_1")),
          "two": (("opponent_id", "opponent"), ("player_2_id", "player_2"))}


def _heading(sheet: Sheet, columns: PairingColumns) -> tuple[int, dict[str, int]] | None:
    """The heading row (its index) and each known column's position."""
    for index, row in enumerate(sheet.rows[:HEADING_ROWS]):
        found: dict[str, int] = {}
        for position, cell in enumerate(row):
            key = columns.of(cell) if cell else None
            if key is not None and key not in found:
                found[key] = position
        players = {"player", "player_id", "player_1", "player_1_id"} & found.keys()
        if "table" in found and players:
            return index, found
    return None


def _cell(row: list[str], position: int | None) -> str:
    return row[position].strip() if position is not None and position < len(row) else ""


def read_pairing_file(name: str, data: bytes, round: int | None) -> Pairings:
    """The seats of a pairings export; ``round`` is the round of rows without a round
    column (None: the file must have one)."""
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        return _read_json(name, data, round)
    if suffix == ".tdf":
        return _read_tdf(name, data, round)
    columns = load_columns()
    problems: list[Problem] = []
    try:
        sheets = read_sheets(Path(name), data=data, partial=True)
    except InputError as exc:
        return Pairings([], exc.problems)
    seats: list[Seat] = []
    for sheet in sheets:
        problems.extend(sheet.problems)
        found = _heading(sheet, columns)
        if found is None:
            continue
        start, at = found
        for index in range(start + 1, len(sheet.rows)):
            row = sheet.rows[index]
            if not any(cell.strip() for cell in row):
                continue
            if [fold(c) for c in row[:len(sheet.rows[start])]] == [
                    fold(c) for c in sheet.rows[start]]:
                continue  # the heading again (a new page of a printout)
            seats.extend(_row_seats(sheet, index, row, at, round, columns, problems))
        if seats or problems:
            return Pairings(seats, problems)
    if not problems:
        problems.append(Problem.of(name, None, None, "expected a heading row with a table "
                                   "column and player columns (Table, Player 1, Player 2, or "
                                   "Table and Player), found none", code="BAD_PAIRING"))
    return Pairings(seats, problems)


def _row_seats(sheet: Sheet, index: int, row: list[str], at: dict[str, int],
               default_round: int | None, columns: PairingColumns,
               problems: list[Problem],
               cell: Callable[[int, int], str] = cell_name) -> list[Seat]:
    """The seats of one row; ``cell`` names a cell from its line and position."""
    line = index + 1
    where = sheet.file if not sheet.name else f"{sheet.file} [{sheet.name}]"

    def problem(message: str, column: str) -> None:
        position = at.get(column, 0)
        problems.append(Problem(where, line, cell(line, position), message,
                                code="BAD_PAIRING"))

    round_ = default_round
    if "round" in at:
        text = _cell(row, at["round"])
        round_ = whole_number(text, MAX_TABLE) if text else default_round
        if round_ is None or round_ < 1:
            problem(f"expected a round number from 1, got {text[:20]!r}" if text else
                    "expected a round number (no round column value, none given on import)",
                    "round")
            return []
    if round_ is None:
        problem("expected a round number: the file has no round column; give the round on "
                "import", "table")
        return []
    players: list[tuple[str, int]] = []
    for slot in ("one", "two"):
        for id_key, name_key in _SLOTS[slot]:
            value = _cell(row, at.get(id_key)) or _cell(row, at.get(name_key))
            if value and not columns.is_bye(value):
                position = at[id_key] if _cell(row, at.get(id_key)) else at[name_key]
                players.append((value, position))
                break
    table_text = _cell(row, at["table"])
    table = whole_number(table_text, MAX_TABLE) if table_text else None
    if table_text and (table is None or table < 1):
        problem(f"expected a table number 1-{MAX_TABLE}, got {table_text[:20]!r}", "table")
        return []
    if not players:
        problem("expected a player id or name on this row", "player_1" if "player_1" in at
                else "player")
        return []
    if table is None and len(players) > 1:
        problem("expected a table number for two players (only a bye has none)", "table")
        return []
    return [Seat(round_, table, value, where, line, cell(line, position))
            for value, position in players]


#: the columns read from a JSON record: the tools' own numbers for a player (Melee's
#: "Player1Id", "Player1Guid", "Player1UserId") are not Konami ids and are left out
_JSON_KEYS = frozenset({"round", "table", "player", "opponent", "player_1", "player_2"})


def _read_json(name: str, data: bytes, round: int | None) -> Pairings:
    """A Melee.gg round's pairings as its pairings page loads them: ``{"data": [{
    "RoundNumber": 3, "TableNumber": 12, "Player1": "…", "Player2": "…", …}, …]}`` (or the
    list of records alone). Record ``n`` is reported as line ``n``, its field by name."""
    columns = load_columns()

    def refused(message: str) -> Pairings:
        return Pairings([], [Problem(name, None, None, message, code="BAD_PAIRING")])

    try:
        loaded = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        return refused(f"expected a JSON file of pairings, could not read it ({exc})"[:200])
    records = loaded.get("data") if isinstance(loaded, dict) else loaded
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        return refused('expected a JSON list of pairings records (Melee.gg\'s {"data": '
                       '[{"TableNumber": …, "Player1": …, "Player2": …}]}), found none')
    keys: list[str] = []
    for record in records:
        keys.extend(k for k in record if k not in keys and columns.of(k) in _JSON_KEYS)
    at: dict[str, int] = {}
    for position, key in enumerate(keys):
        at.setdefault(columns.of(key) or "", position)
    if "table" not in at or not {"player", "player_1"} & at.keys():
        return refused("expected pairings records with a table and players (TableNumber, "
                       "Player1, Player2), found fields " + ", ".join(keys[:10]))

    def text(value: object) -> str:
        return "" if value is None or isinstance(value, (dict, list)) else str(value)

    sheet = Sheet(name, "", [keys] + [[text(r.get(k)) for k in keys] for r in records])
    problems: list[Problem] = []
    seats: list[Seat] = []
    for index in range(1, len(sheet.rows)):
        row = sheet.rows[index]
        if row[at["table"]].strip() == "0":
            row[at["table"]] = ""  # table 0: no table (a bye, as in a TOM file)
        if any(cell.strip() for cell in row):
            seats.extend(_row_seats(sheet, index - 1, row, at, round, columns, problems,
                                    cell=lambda _line, position: keys[position]))
    return Pairings(seats, problems)


@dataclass
class _TdfMatch:
    """One ``<match>`` of a TOM file, as it is read."""

    line: int
    round: int | None
    players: list[str]
    table: str = ""
    in_table: bool = False


def _read_tdf(name: str, data: bytes, round: int | None) -> Pairings:
    """A TOM tournament file (``.tdf``, XML): each ``<round number="3">`` holds
    ``<match>``es of ``<player1 userid="…"/>``, ``<player2 userid="…"/>`` and
    ``<tablenumber>``; a bye is a match of one ``<player userid="…"/>`` at table 0. Read in
    one pass (expat), a document type or an entity refused."""
    from xml.parsers import expat

    seats: list[Seat] = []
    problems: list[Problem] = []
    parser = expat.ParserCreate()
    rounds: list[int | None] = [round]
    matches: list[_TdfMatch] = []

    def refuse(*_: object) -> None:
        raise ValueError("a document type or an entity declaration (not read)")

    def start(tag: str, attributes: dict[str, str]) -> None:
        if tag == "round":
            number = whole_number(attributes.get("number", "").strip(), MAX_TABLE)
            rounds[-1] = number if number is not None and number >= 1 else round
        elif tag == "match":
            matches[:] = [_TdfMatch(parser.CurrentLineNumber, rounds[-1], [])]
        elif matches and tag in ("player1", "player2", "player"):
            matches[0].players.append(attributes.get("userid", "").strip())
        elif matches and tag == "tablenumber":
            matches[0].in_table = True

    def text(chunk: str) -> None:
        if matches and matches[0].in_table and len(matches[0].table) < 40:
            matches[0].table += chunk

    def end(tag: str) -> None:
        if matches and tag == "tablenumber":
            matches[0].in_table = False
        elif matches and tag == "match":
            _tdf_seats(name, matches.pop(), seats, problems)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, ValueError) as exc:
        problems.append(Problem(name, getattr(exc, "lineno", None), None,
                                f"expected a TOM tournament file (XML), could not read it: "
                                f"{exc}"[:200], code="BAD_PAIRING"))
        return Pairings(seats, problems)
    if not seats and not problems:
        problems.append(Problem.of(name, None, None, "expected <round> elements with "
                                   "<match>es (a TOM tournament file), found none",
                                   code="BAD_PAIRING"))
    return Pairings(seats, problems)


def _tdf_seats(name: str, match: _TdfMatch, seats: list[Seat],
               problems: list[Problem]) -> None:
    """The seats of one ``<match>`` of a TOM file, or its problem."""
    players = [p for p in match.players if p]
    text = match.table.strip()
    table = whole_number(text, MAX_TABLE) if text else None
    if match.round is None:
        message = "expected a round number (<round number=\"…\">, or one given on import)"
    elif not players or len(players) > 2:
        message = f"expected one or two players (userid) in the match, got {len(players)}"
    elif table is None or (table < 1 and len(players) > 1):
        message = f"expected a table number 1-{MAX_TABLE} (<tablenumber>), got {text[:20]!r}"
    else:
        seats.extend(Seat(match.round, table or None, player, name, match.line)
                     for player in players)
        return
    problems.append(Problem(name, match.line, None, message, code="BAD_PAIRING"))


#: the separators of a pasted line: comma, semicolon, tab, "vs", a vertical bar
_SPLIT = re.compile(r"\s*(?:[,;\t|]|\s+vs\.?\s+)\s*", re.IGNORECASE)
#: a line's table number and the rest: "12, …", "12: …", "12. …", "12 …"
_LEAD = re.compile(r"([0-9]{1,6})(?:\s*[,;\t|:.)]\s*|\s+)(.*)")
_TABLE_WORD = re.compile(r"^(?:table|tbl|t|卓|테이블|โต๊ะ)\s*[#.:]?\s*", re.IGNORECASE)


def read_pasted_pairings(text: str, round: int, label: str = "pasted pairings") -> Pairings:
    """The seats of a pasted list, one table per line: ``12, Lucas Tanaka, Ana Silva``
    (or ids; a tab, ``;``, ``|`` or ``vs`` between them; ``Table 12:`` is read as 12). A
    line with only ids may separate them by spaces. ``#`` starts a comment line."""
    columns = load_columns()
    seats: list[Seat] = []
    problems: list[Problem] = []
    for number, raw in enumerate(text.splitlines()[:MAX_TABLE * 2], start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        line = _TABLE_WORD.sub("", line, count=1)
        lead = _LEAD.match(line)
        table = whole_number(lead.group(1), MAX_TABLE) if lead else None
        rest = lead.group(2) if lead else ""
        parts = [p for p in _SPLIT.split(rest) if p]
        if len(parts) == 1 and all(p.isascii() and p.isdigit() for p in rest.split()):
            parts = rest.split()  # ids apart by spaces
        names = [p for p in parts if not columns.is_bye(p)]
        if table is None or table < 1:
            problems.append(Problem.of(label, number, None, "expected a table number, then "
                                       "the players (12, Lucas Tanaka, Ana Silva), got {typed}",
                                       code="BAD_PAIRING", typed=repr(raw[:40])))
            continue
        if not names or len(names) > 2:
            problems.append(Problem.of(label, number, None, "expected one or two players "
                                       "after the table number, got {n}", code="BAD_PAIRING",
                                       n=len(names)))
            continue
        seats.extend(Seat(round, table, name, label, number) for name in names)
    return Pairings(seats, problems)
