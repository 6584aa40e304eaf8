"""Writing cells safely (user text is never a formula) and the shared styles."""

from __future__ import annotations

import pytest
from openpyxl import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from validator.report.style import (
    FILLS,
    HEADER_FONT,
    REPLACED,
    autosize,
    csv_safe,
    export_text,
    looks_like_formula,
    put,
    sheet_title,
    write_header,
)

FORMULAS = ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "\nx", "=cmd|' /C calc'!A0",
            " =1", "   +1", "\u3000=1", "＝1+1", "＋1", "－1", "＠SUM(A1)", "﹦1", "\u22121"]
PLAIN = ["Raigeki", "1", "", "a=b", "  ", "Ash = Blossom"]


def _sheet() -> Worksheet:
    sheet = Workbook().active
    assert isinstance(sheet, Worksheet)
    return sheet


@pytest.mark.parametrize("text", FORMULAS)
def test_formula_like_text_is_written_as_text(text: str) -> None:
    assert looks_like_formula(text)
    assert csv_safe(text) == "'" + text
    cell = put(_sheet(), 1, 1, text)
    assert (cell.value, cell.data_type) == (text, "s")


@pytest.mark.parametrize("value", [*PLAIN, 3, None, 1.5])
def test_other_values_are_written_as_they_are(value: object) -> None:
    assert not looks_like_formula(value)
    assert csv_safe(value) == value
    cell = put(_sheet(), 2, 3, value)
    assert cell.value == value
    assert (cell.row, cell.column) == (2, 3)


def test_a_header_row_is_styled() -> None:
    sheet = _sheet()
    write_header(sheet, 2, ["Player ID", "=Penalty"])
    cells = [sheet.cell(row=2, column=c) for c in (1, 2)]
    assert [c.value for c in cells] == ["Player ID", "=Penalty"]
    assert cells[1].data_type == "s"
    assert all(c.font == HEADER_FONT and c.fill == FILLS["header"] for c in cells)


def test_columns_are_sized_by_their_longest_line_within_bounds() -> None:
    sheet = _sheet()
    for row, text in enumerate(["ab", "a" * 20 + "\nshort", "b" * 200], start=1):
        put(sheet, row, 1, text[:22] if row < 3 else None)
        put(sheet, row, 2, text)
    put(sheet, 1, 3, "x")
    autosize(sheet, {3: 30})
    widths = {c: sheet.column_dimensions[c].width for c in "ABC"}
    assert widths == {"A": 22, "B": 60, "C": 32}


@pytest.mark.parametrize(("text", "written"), [
    ("Jordan\x0bLee", f"Jordan{REPLACED}Lee"),
    ("a\x00b\x1fc\x7f", f"a{REPLACED}b{REPLACED}c{REPLACED}"),
    ("lone \ud800 half", f"lone {REPLACED} half"), ("\ufffe", REPLACED),
    ("tab\tand\nlines\r", "tab\tand\nlines\r"), ("灰流うらら", "灰流うらら"),
])
def test_characters_no_export_can_hold_are_shown_replaced(text: str, written: str) -> None:
    assert export_text(text) == written
    assert csv_safe(text) == written
    workbook = Workbook()
    sheet = workbook.active
    assert isinstance(sheet, Worksheet)
    assert put(sheet, 1, 1, text).value == written
    import io

    workbook.save(io.BytesIO())  # openpyxl refuses what XLSX cannot hold: nothing is left


def test_a_formula_after_a_replaced_character_is_still_text() -> None:
    assert csv_safe("\x0b=1") == f"{REPLACED}=1"  # starts with the replacement: no formula
    assert csv_safe(" \x0b") == f" {REPLACED}"


@pytest.mark.parametrize(("text", "title"), [
    ("0400001301", "0400001301"), ("a[b]:c*?/\\d", "a_b__c____d"), ("x\x0by", f"x{REPLACED}y"),
    ("n" * 40, "n" * 31), ("", "Sheet"),
])
def test_a_sheet_title_from_typed_text_is_one_a_workbook_takes(text: str, title: str) -> None:
    assert sheet_title(text) == title
    Workbook().create_sheet(sheet_title(text))
