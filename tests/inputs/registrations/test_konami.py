"""The Konami sheet layout: labels for the player, then blocks of quantity + card name."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook

from tests.inputs.registrations.lists import LISTS, expected, table
from validator.files.tabular import Sheet
from validator.inputs.registrations._found import Found, Player
from validator.inputs.registrations.konami import label_value, read_konami
from validator.inputs.registrations.read import read_registrations
from validator.sheets.workbook import KonamiSheet, write_konami_workbook

GRID = [
    ["Yu-Gi-Oh! Deck List", "", "", ""],
    ["Player Name", "Ana Lee", "KONAMI ID", "0400000001"],
    ["Event", "Regional", "Date", "2026-11-29"],
    ["Monster Cards", "", "Spell Cards", ""],
    ["Qty", "Card Name", "Qty", "Card Name"],
    ["3", "Dark Magician", "2", "Pot of Greed"],
    ["three", "Raigeki", "1", ""],
    ["3 Effect Veiler", "", "", ""],
    ["Total", "7", "Total", "2"],
    ["Extra Deck", "", "Side Deck", ""],
    ["1", "Accesscode Talker", "", ""],
]


def _read(rows: list[list[str]], name: str = "Ana", fallback: str = "fallback") -> Found:
    out = Found()
    assert read_konami(Sheet("k.xlsx", name, rows), out, fallback)
    return out


def test_blocks_become_entries_of_their_section_and_slot() -> None:
    out = _read(GRID)
    assert [(r["deck_id"], r["section"], r["slot"], r["qty"], r["name"], r["line"], r["cell"])
            for r in out.rows] == [
        ("0400000001", "main", "monster", 3, "Dark Magician", 6, "Ana!B6"),
        ("0400000001", "main", "monster", 3, "Effect Veiler", 8, "Ana!B8"),  # typed in A8
        ("0400000001", "main", "spell", 2, "Pot of Greed", 6, "Ana!D6"),
        ("0400000001", "extra", "extra", 1, "Accesscode Talker", 11, "Ana!B11")]
    assert out.players == [Player("0400000001", "Ana Lee", "k.xlsx", "Ana", "k.xlsx!Ana", 1, 4,
                                  event="Regional", date="2026-11-29")]


def test_rows_that_cannot_be_read_and_wrong_totals_are_problems_at_their_cells() -> None:
    out = _read(GRID)
    assert [(p.line, p.column, p.deck_id, p.section) for p in out.problems] == [
        (7, "Ana!A7", "0400000001", "main"),  # "three"
        (7, "Ana!D7", "0400000001", "main"),  # a quantity without a name
        (9, "Ana!B9", None, None)]  # written 7, the rows add up to 6
    assert "total 7" in out.problems[2].message
    assert (out.rows_read, out.rows_reported) == (6, 2)


def test_a_total_typed_in_the_quantity_cell_is_checked_at_that_cell() -> None:
    out = _read([["Monster Cards", ""], ["3", "Raigeki"], ["Total 4", ""]])
    assert [(p.line, p.column) for p in out.problems] == [(3, "Ana!A3")]
    assert [r["qty"] for r in out.rows] == [3]


def test_a_sheet_without_an_id_is_the_player_its_name_gives() -> None:
    out = _read([["Monster Cards", ""], ["1", "Raigeki"]], fallback="0400000002")
    assert [(p.player_id, p.player_name, p.rows) for p in out.players] == [
        ("0400000002", "0400000002", 1)]
    assert out.problems == []


def test_a_blank_template_is_skipped_and_reported() -> None:
    out = _read([["Player Name", ""], ["Monster Cards", ""], ["Qty", "Card Name"],
                 ["Total", ""]], name="Blank")
    assert [(p.line, p.column) for p in out.problems] == [(None, "Blank")]
    assert "blank deck list" in out.problems[0].message
    assert (out.players, out.rows, out.origins) == ([], [], 0)


def test_a_sheet_without_blocks_is_not_this_layout() -> None:
    out = Found()
    assert not read_konami(Sheet("k.csv", "", [["hello", "world"], ["1", "2"]]), out, "x")
    assert (out.problems, out.players, out.rows_read) == ([], [], 0)


@pytest.mark.parametrize(("rows", "meaning", "value"), [
    (GRID, "player_id", "0400000001"),
    (GRID, "event", "Regional"),
    (GRID, "date", "2026-11-29"),
    ([["Player Name", "", "KONAMI ID", "1"]], "player_name", ""),  # the next cell is a label
    ([["First Name", "Ana", "Last Name", "Lee"]], "last_name", "Lee"),
])
def test_a_label_gives_the_value_right_of_it(rows: list[list[str]], meaning: str,
                                             value: str) -> None:
    assert label_value(Sheet("k.xlsx", "A", rows), meaning) == value


def test_konami_sheets_one_per_player(tmp_path: Path) -> None:
    sheets = [KonamiSheet(f"Player {p}", p, "Regional", "2026-11-29",
                          {"monster": list(s["main"]), "extra": list(s["extra"]),
                           "side": list(s["side"])})
              for p, s in LISTS.items()]
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, sheets)
    assert table(path) == expected()
    players = read_registrations(path).players
    assert players.select("player_id", "player_name", "event").rows() == [
        ("1001", "Player 1001", "Regional"), ("1002", "Player 1002", "Regional")]


def _monster_total_written_as_4(tmp_path: Path) -> Path:
    """A Konami sheet of 3 Raigeki whose Monster total (B28) says 4."""
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, [KonamiSheet("A", "1", blocks={"monster": [(3, "Raigeki")]})])
    wb = load_workbook(path)
    wb["1"]["B28"] = 4
    wb.save(path)
    return path


def test_written_total_that_disagrees_is_reported(tmp_path: Path) -> None:
    reg = read_registrations(_monster_total_written_as_4(tmp_path))
    assert len(reg.problems) == 1
    assert (reg.problems[0].line, reg.problems[0].code) == (28, "TOTAL_MISMATCH")


def test_konami_total_names_the_block_and_the_number_cell(tmp_path: Path) -> None:
    problem = read_registrations(_monster_total_written_as_4(tmp_path)).problems[0]
    assert (problem.column, problem.code) == ("1!B28", "TOTAL_MISMATCH")
