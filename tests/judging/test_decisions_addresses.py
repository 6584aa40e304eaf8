"""A decision names an entry by its address in any form a report prints it."""

from __future__ import annotations

import pytest

from validator.errors import Problem
from validator.inputs.entries import entries_frame
from validator.judging.decisions import Decision, address_forms, apply_decisions

ENTRIES = entries_frame([
    {"deck_id": "P1", "section": "main", "name": "Drak Hoel", "qty": 1, "file": "f.xlsx",
     "line": 4, "cell": "Form responses!D4, line 2"},
    {"deck_id": "P1", "section": "main", "name": "BW Gale", "qty": 1, "file": "f.xlsx",
     "line": 4, "cell": "Form responses!D4, line 3"},
    {"deck_id": "P1", "section": "main", "name": "Riagekki", "qty": 3, "file": "l.xlsx",
     "line": 10, "cell": "Registrations!E10"},
    {"deck_id": "P2", "section": "main", "name": "Riagekki", "qty": 3, "file": "p2.ydk",
     "line": 7},
])


def _decided(*decisions: Decision) -> dict[str | None, str]:
    applied = apply_decisions(ENTRIES, [], list(decisions))
    assert applied.unmatched == []
    return dict(applied.entries.select("cell", "name").rows())


def test_two_lines_of_one_cell_are_decided_apart() -> None:
    decided = _decided(Decision("P1", "Form responses!D4, line 2", "Dark Hole", "HJ", "typo"),
                       Decision("P1", "D4, line 3", "Blackwing - Gale the Whirlwind", "HJ", "x"))
    assert decided["Form responses!D4, line 2"] == "Dark Hole"
    assert decided["Form responses!D4, line 3"] == "Blackwing - Gale the Whirlwind"


@pytest.mark.parametrize("where", [
    "Registrations!E10", "E10", "e10", " registrations!e10 ", "l.xlsx:Registrations!E10",
    "l.xlsx:E10"])
def test_a_cell_with_or_without_its_sheet_or_file(where: str) -> None:
    assert _decided(Decision("P1", where, "Raigeki", "HJ", "typo"))["Registrations!E10"] \
        == "Raigeki"


@pytest.mark.parametrize("where", ["D4 line 2", "d4,line 2", "Form responses!D4 ,  line 2"])
def test_the_line_of_a_cell_however_spaced(where: str) -> None:
    assert _decided(Decision("P1", where, "Dark Hole", "HJ", "typo"))[
        "Form responses!D4, line 2"] == "Dark Hole"


@pytest.mark.parametrize("where", ["7", "line 7", "p2.ydk:7"])
def test_a_line_of_a_file_without_cells(where: str) -> None:
    assert _decided(Decision("P2", where, "Raigeki", "HJ", "typo"))[None] == "Raigeki"


@pytest.mark.parametrize("where", ["D4", "4", "Form responses!D4", "E11"])
def test_a_place_that_is_no_entry_or_several_is_not_applied(where: str) -> None:
    applied = apply_decisions(ENTRIES, [], [Decision("P1", where, "Dark Hole", "HJ", "typo")])
    assert [p.code for p in applied.unmatched] == ["UNMATCHED_DECISION"]
    assert applied.decisions == []
    assert applied.entries.equals(ENTRIES)


def test_a_cell_in_two_sheets_needs_its_sheet() -> None:
    entries = entries_frame([
        {"deck_id": "P1", "section": "main", "name": n, "qty": 1, "file": "l.xlsx",
         "line": 10, "cell": f"{sheet}!E10"} for sheet, n in (("A", "Riagekki"), ("B", "Pot"))])
    applied = apply_decisions(entries, [], [Decision("P1", "E10", "Raigeki", "HJ", "typo")])
    assert [p.code for p in applied.unmatched] == ["UNMATCHED_DECISION"]
    named = apply_decisions(entries, [], [Decision("P1", "B!E10", "Pot of Greed", "HJ", "x")])
    assert named.unmatched == []
    assert named.entries["name"].to_list() == ["Riagekki", "Pot of Greed"]


def test_an_unreadable_line_of_a_cell_is_decided_at_its_address() -> None:
    rows = [Problem("f.xlsx", 4, f"Form responses!D4, line {n}", "quantity 0 for 'Raigeki'",
                    code="BAD_QUANTITY", deck_id="P1", section="main") for n in (5, 6)]
    applied = apply_decisions(entries_frame([]), rows, [
        Decision("P1", "D4, line 6", "Raigeki", "HJ", "written 0", 1)])
    assert applied.unmatched == []
    assert applied.problems == [rows[0]]  # the other line stays open
    assert applied.entries.select("name", "qty", "cell").rows() == [
        ("Raigeki", 1, "Form responses!D4, line 6")]


def test_address_forms() -> None:
    assert address_forms("l.csv", 10, "E10") == {"e10", "l.csv:e10"}
    assert address_forms("l.ydk", 7, None) == {"7", "line 7", "l.ydk:7", "l.ydk:line 7"}
    assert address_forms(None, None, None) == set()
    assert address_forms("/event/l.csv", 10, "E10") == {"e10", "/event/l.csv:e10", "l.csv:e10"}
