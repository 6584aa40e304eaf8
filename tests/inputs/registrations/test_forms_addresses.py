"""Every entry of a forms export has its own address: its cell, and its line in the cell."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from tests.inputs.registrations.lists import csv_text
from validator.inputs.registrations.forms import cell_line
from validator.inputs.registrations.read import read_registrations

HEADER = ["Timestamp", "KONAMI ID", "Full name", "Main Deck", "Extra Deck", "Side Deck"]
MAIN = "3 Raigeki\nMonster\n1 Drak Hoel\n1 BW Gale\n0 Pot of Greed"


def test_two_unreadable_names_in_one_cell_are_two_entries_at_two_addresses(
        tmp_path: Path) -> None:
    path = tmp_path / "forms.csv"
    path.write_text(csv_text([HEADER, ["2026-11-29", "0400000001", "Ana", MAIN,
                                       "1 Accesscode Talker", ""]]), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.entries.select("name", "line", "cell").rows() == [
        ("Raigeki", 2, "D2, line 1"), ("Drak Hoel", 2, "D2, line 3"),
        ("BW Gale", 2, "D2, line 4"), ("Accesscode Talker", 2, "E2")]
    # the line that cannot be read is a decision at its own line, the others are kept
    assert [(p.code, p.line, p.column, p.deck_id, p.section) for p in reg.problems] == [
        ("BAD_QUANTITY", 2, "D2, line 5", "0400000001", "main")]


def test_a_workbook_address_names_its_sheet(tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Form responses 1"
    sheet.append(HEADER)
    sheet.append(["2026-11-29", "0400000001", "Ana", MAIN, "", ""])
    book.save(tmp_path / "forms.xlsx")
    reg = read_registrations(tmp_path / "forms.xlsx")
    assert reg.entries["cell"].to_list() == [
        "Form responses 1!D2, line 1", "Form responses 1!D2, line 3",
        "Form responses 1!D2, line 4"]
    assert [p.column for p in reg.problems] == ["Form responses 1!D2, line 5"]


def test_a_cell_of_one_line_is_addressed_by_the_cell_alone() -> None:
    assert cell_line("E2", 1, multiline=False) == "E2"
    assert cell_line("Form responses!D4", 2, multiline=True) == "Form responses!D4, line 2"
