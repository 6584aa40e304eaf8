"""Which layout a tabular sheet is in: its header row and what each header cell names."""

from __future__ import annotations

from validator.errors import Problem
from validator.files.tabular import Sheet
from validator.inputs.registrations._found import PLAYER_COLUMNS, Found
from validator.text.lexicon import column_of, columns, header_of

__all__ = ["find_header", "header_map", "playerless"]


def header_map(cells: list[str]) -> dict[str, int]:
    """What each header cell names (first cell wins), section columns as ``sec_<section>``."""
    found: dict[str, int] = {}
    for i, text in enumerate(cells):
        if not text.strip():
            continue
        header = header_of(text)
        column = column_of(text)
        # a section header is short (header_of reads no longer text as one)
        key = f"sec_{header.section}" if header is not None and column in (None, "section") \
            else column
        if key is not None and key not in found:
            found[key] = i
    return found

def has_player(found: dict[str, int]) -> bool:
    return any(c in found for c in PLAYER_COLUMNS)

def find_header(sheet: Sheet) -> tuple[str, int, dict[str, int]] | None:
    """The layout of a tabular sheet: ``long`` or ``forms`` (or ``playerless``: a header
    that names the cards but no player), its header row and columns."""
    for r, cells in enumerate(sheet.rows[:10]):
        found = header_map(cells)
        cards = "qty" in found and ("card" in found or "passcode" in found)
        decks = any(k.startswith("sec_") for k in found) or "ydke" in found
        if has_player(found) and cards:
            return "long", r, found
        if has_player(found) and decks:
            return "forms", r, found
        if cards or ("ydke" in found and len(found) >= 2):
            return "playerless", r, found
    return None

def playerless(sheet: Sheet, header_row: int, out: Found) -> None:
    """One problem for a header without a player column, never one per row."""
    cells = sheet.rows[header_row]
    seen = ", ".join(repr(c.strip()) for c in cells if c.strip())
    expected = ", ".join(repr(w) for w in columns()["player_id"][:6])
    out.problems.append(Problem.of(
        sheet.file, header_row + 1, sheet.name or None,
        "no player column in the header (found {seen}): expected one of {expected} or a "
        "player name column; the sheet was not read", code="NO_PLAYER_COLUMN", seen=seen,
        expected=expected))
    rows = sum(1 for row in sheet.rows[header_row + 1:] if any(c.strip() for c in row))
    out.rows_read += rows
    out.rows_reported += rows
