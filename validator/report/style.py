"""Writing workbooks and CSV safely: user text is never a formula, styles in one place."""

from __future__ import annotations

from typing import Any

from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet

from validator.vocab import Status

__all__ = ["FILLS", "HEADER_FONT", "STATUS_FILLS", "autosize", "csv_safe", "looks_like_formula",
           "put", "write_header"]

HEADER_FONT = Font(bold=True, color="FFFFFF")
FILLS = {
    "header": PatternFill("solid", fgColor="305496"),
    "legal": PatternFill("solid", fgColor="C6EFCE"),
    "illegal": PatternFill("solid", fgColor="FFC7CE"),
    "warning": PatternFill("solid", fgColor="FFEB9C"),
    "block": PatternFill("solid", fgColor="D9E1F2"),
    "unknown": PatternFill("solid", fgColor="D9D9D9"),
}
#: the fill of each status
STATUS_FILLS: dict[Status, PatternFill] = {
    "legal": FILLS["legal"], "illegal": FILLS["illegal"], "needs_decision": FILLS["warning"],
    "not_checked": FILLS["unknown"]}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(value: Any) -> bool:
    """A string a spreadsheet program would run as a formula (or DDE command)."""
    return isinstance(value, str) and value.startswith(_FORMULA_START)


def csv_safe(value: Any) -> Any:
    """A CSV cell that no spreadsheet program runs: formula-like text gets a leading quote."""
    return "'" + value if looks_like_formula(value) else value


def put(ws: Worksheet, row: int, col: int, value: Any) -> Cell | MergedCell:
    """Write a value; strings that a spreadsheet would run as a formula stay plain text."""
    cell = ws.cell(row=row, column=col)
    if looks_like_formula(value):
        cell.value = value
        cell.data_type = "s"
    else:
        cell.value = value
    return cell


def write_header(ws: Worksheet, row: int, titles: list[str]) -> None:
    for col, title in enumerate(titles, start=1):
        cell = put(ws, row, col, title)
        cell.font = HEADER_FONT
        cell.fill = FILLS["header"]
        cell.alignment = Alignment(vertical="center", wrap_text=True)


def autosize(ws: Worksheet, widths: dict[int, int] | None = None, most: int = 60) -> None:
    """Column widths from content (bounded), or as given."""
    from openpyxl.utils import get_column_letter

    seen: dict[int, int] = {}
    for row in ws.iter_rows():
        for cell in row:
            if cell.value is not None:
                longest = max(len(line) for line in str(cell.value).splitlines() or [""])
                seen[cell.column] = max(seen.get(cell.column, 0), longest)
    for col, width in {**seen, **(widths or {})}.items():
        ws.column_dimensions[get_column_letter(col)].width = min(max(width + 2, 6), most)
