"""Pairings of a round as seats: who sits at which table, read from a tournament
software's export (CSV or XLSX) or from a pasted "table, player, player" list.

The layouts are found by their column headings (``validator/data/pairings.toml``): one table
per row with two players (by id, by name or both), or one player per row with their table
(and, optionally, their opponent). A player is kept as written (an id or a name); the event
matches it to a registered player (``event.rounds``). Every row is read into seats or
reported (file, row, what was expected); an empty row is skipped.
"""

from __future__ import annotations

import re
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
PAIRING_SUFFIXES = (".csv", ".tsv", ".txt", ".xlsx")
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
        problems.append(Problem(name, None, None, "expected a heading row with a table column "
                                "and player columns (Table, Player 1, Player 2, or Table and "
                                "Player), found none", code="BAD_PAIRING"))
    return Pairings(seats, problems)


def _row_seats(sheet: Sheet, index: int, row: list[str], at: dict[str, int],
               default_round: int | None, columns: PairingColumns,
               problems: list[Problem]) -> list[Seat]:
    line = index + 1
    where = sheet.file if not sheet.name else f"{sheet.file} [{sheet.name}]"

    def problem(message: str, column: str) -> None:
        position = at.get(column, 0)
        problems.append(Problem(where, line, cell_name(line, position), message,
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
    return [Seat(round_, table, value, where, line, cell_name(line, position))
            for value, position in players]


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
            problems.append(Problem(label, number, None, "expected a table number, then the "
                                    f"players (12, Lucas Tanaka, Ana Silva), got {raw[:40]!r}",
                                    code="BAD_PAIRING"))
            continue
        if not names or len(names) > 2:
            problems.append(Problem(label, number, None, "expected one or two players after "
                                    f"the table number, got {len(names)}", code="BAD_PAIRING"))
            continue
        seats.extend(Seat(round, table, name, label, number) for name in names)
    return Pairings(seats, problems)
