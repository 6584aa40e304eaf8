"""Writing workbooks, CSV and PDF safely: user text is never a formula and never holds a
character the format cannot (:func:`export_text`, used by every writer), styles in one place."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from openpyxl.cell.cell import Cell, MergedCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet

from validator.vocab import Status

__all__ = ["FILLS", "HEADER_FONT", "REPLACED", "STATUS_FILLS", "autosize", "csv_safe",
           "export_text", "looks_like_formula", "put", "sheet_title", "write_header"]

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
#: what a character no export can hold is shown as
REPLACED = "\ufffd"
#: characters XLSX (XML 1.0) cannot hold, nor CSV readers and PDF fonts take: control
#: characters but tab and line breaks, lone surrogates, and the two non-characters
_UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
#: what makes Excel or LibreOffice evaluate a cell, after any leading spaces (full-width and
#: small forms read as these once NFKC-folded), and the minus sign
_FORMULA_START = frozenset("=+-@\u2212")
_LEADING_SPACES = " \u00a0\u3000"


def export_text(value: Any) -> Any:
    """A value as every writer puts it out: in a string, each character a workbook, CSV file
    or PDF cannot hold is replaced by :data:`REPLACED` (shown, never dropped)."""
    return _UNWRITABLE.sub(REPLACED, value) if isinstance(value, str) else value


def looks_like_formula(value: Any) -> bool:
    """A string a spreadsheet program would run as a formula (or DDE command): one that
    starts with a tab or line break, or, after leading spaces, with = + - @ (full-width
    ＝＋－＠ too)."""
    if not isinstance(value, str) or not value:
        return False
    if value[0] in "\t\r\n":
        return True
    head = value.lstrip(_LEADING_SPACES)[:1]
    return bool(head) and (head in _FORMULA_START
                           or unicodedata.normalize("NFKC", head)[:1] in _FORMULA_START)


def csv_safe(value: Any) -> Any:
    """A CSV cell that no spreadsheet program runs and that holds only writable characters:
    formula-like text gets a leading quote."""
    value = export_text(value)
    return "'" + value if looks_like_formula(value) else value


def sheet_title(text: str) -> str:
    """A worksheet's title from typed text: writable characters, none of ``[]:*?/\\``, at
    most 31 characters."""
    return re.sub(r"[\[\]:*?/\\]", "_", export_text(text))[:31] or "Sheet"


def put(ws: Worksheet, row: int, col: int, value: Any) -> Cell | MergedCell:
    """Write a value; strings keep only writable characters (:func:`export_text`), and those
    that a spreadsheet would run as a formula stay plain text."""
    cell = ws.cell(row=row, column=col)
    value = export_text(value)
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
