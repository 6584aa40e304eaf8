"""What the registration readers have found so far, and the helpers every layout shares."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import repeat
from typing import Any

import polars as pl

from validator.errors import Problem
from validator.files.tabular import Sheet, cell_name
from validator.inputs.entries import ENTRY_SCHEMA, typed_card
from validator.text.lexicon import MAX_QUANTITY, entry_line, quantity_in_range, quantity_of
from validator.text.normalize import as_typed

__all__ = ["PLAYER_COLUMNS", "Columns", "Found", "Player", "entry_row", "full_name", "place",
           "quantity_and_name", "where"]

PLAYER_COLUMNS = ("player_id", "player_name", "first_name", "last_name")


@dataclass
class Player:
    """One player's registration as found: where, and the rows that came from there."""

    player_id: str
    player_name: str
    file: str
    sheet: str
    place: str  # the sheet or row, for messages
    origin: int  # which registration the entries belong to
    rows: int  # source rows used
    forms: bool = False  # one submission of a forms export
    line: int | None = None  # its row
    stamp: dt.datetime | None = None
    event: str = ""
    date: str = ""

#: the entry columns and the registration each entry belongs to
_COLUMN_SCHEMA: dict[str, pl.DataType] = {**ENTRY_SCHEMA, "origin": pl.Int64()}


@dataclass
class Columns:
    """Entries kept as columns, registration by registration (those of a reader that reads
    a whole registration at once, e.g. a PDF sheet): one frame made once at the end."""

    data: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in _COLUMN_SCHEMA})

    def add(self, deck_id: str, file: str, line: int | None, origin: int,
            columns: dict[str, list[Any]]) -> None:
        """One registration's entries: ``columns`` by entry column name (of equal length),
        the others the same for every entry."""
        rows = len(next(iter(columns.values())))
        constant = {"deck_id": deck_id, "file": file, "line": line, "origin": origin}
        for name, values in self.data.items():
            given = columns.get(name)
            values.extend(repeat(constant.get(name), rows) if given is None else given)

    def frame(self) -> pl.DataFrame:
        """The entries, with their ``origin``."""
        return pl.DataFrame(self.data, schema=_COLUMN_SCHEMA)

    def __len__(self) -> int:
        return len(self.data["origin"])


@dataclass
class Found:
    """What the files held so far: entry rows (as rows or as columns), players, problems,
    and the row counts."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    columns: Columns = field(default_factory=Columns)
    players: list[Player] = field(default_factory=list)
    frames: list[pl.DataFrame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows_read: int = 0
    rows_reported: int = 0
    origins: int = 0
    notes: list[Problem] = field(default_factory=list)

    def problem(self, sheet: Sheet, row: int, col: int | None, msgid: str, *, code: str,
                deck_id: str | None = None, section: str | None = None,
                text: str | None = None, **values: Any) -> None:
        """A problem at a cell, its message the catalog entry ``msgid`` filled with
        ``values``; with ``deck_id`` the row could hold a card of that player's list, so it
        is also a decision for the head judge."""
        at = where(sheet, row, col) if col is not None else (sheet.name or None)
        self.problems.append(Problem.of(sheet.file, row, at, msgid, code=code, deck_id=deck_id,
                                        section=section, text=text or None, **values))

    def origin(self) -> int:
        self.origins += 1
        return self.origins

def where(sheet: Sheet, row: int, col: int) -> str:
    """``Sheet!B12`` in a workbook, ``B12`` in a CSV."""
    return f"{sheet.name}!{cell_name(row, col)}" if sheet.name else cell_name(row, col)

def place(sheet: Sheet) -> str:
    return f"{sheet.file}!{sheet.name}" if sheet.name else sheet.file

def full_name(first: str, last: str, full: str) -> str:
    return full or " ".join(p for p in (first, last) if p)

#: catalog entries of problems more than one layout finds
TOTAL_DIFFERS = "written {title} total {written} but its rows add up to {added}"
FORM_TOO_LARGE = "larger than any deck list form ({most} MB); skipped"

#: a quantity cell read once per distinct text (most sheets say only "1", "2" and "3")
_quantity = lru_cache(maxsize=1024)(quantity_of)

#: what is wrong with a row: a problem's code, its catalog entry and the entry's values
Wrong = tuple[str, str, dict[str, Any]]


def quantity_and_name(qty_text: str, name_text: str) -> tuple[int | None, str, Wrong | None]:
    """A block row's quantity and card name, or what is wrong with it (a quantity that is not
    a number; a quantity without a name). "3 Raigeki" typed in the quantity cell is read as
    both."""
    qty = _quantity(qty_text)
    if qty is None and not name_text:
        qty, name_text = entry_line(qty_text) if qty_text else (None, "")
        name_text = as_typed(qty_text, name_text)
        if name_text == qty_text:
            qty = None
    if not quantity_in_range(qty):
        return None, name_text, ("BAD_QUANTITY", "quantity {typed} is not a number 1-{most}",
                                 {"typed": repr(qty_text), "most": MAX_QUANTITY})
    if not name_text:
        return qty, name_text, ("NO_CARD", "quantity {qty} without a card name", {"qty": qty})
    return qty, name_text, None

def entry_row(section: str, slot: str | None, qty: int, name: str, file: str, line: int | None,
         cell: str) -> dict[str, Any]:
    """An entry row (a name of digits is a passcode too)."""
    return {"section": section, **typed_card(name), "qty": qty, "file": file, "line": line,
            "cell": cell, "slot": slot}
