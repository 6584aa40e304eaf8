"""Which layout a tabular sheet is in: its header row and what its header cells name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.inputs.registrations.lists import csv_text, rows_add_up
from validator.files.tabular import Sheet
from validator.inputs.registrations._found import Found
from validator.inputs.registrations.layout import find_header, header_map, playerless
from validator.inputs.registrations.read import read_registrations


@pytest.mark.parametrize(("cells", "found"), [
    (["Player ID", "Section", "Qty", "Card Name"],
     {"player_id": 0, "section": 1, "qty": 2, "card": 3}),
    (["Timestamp", "KONAMI ID (Card Game ID)", "Full name", "Main Deck", "Extra Deck",
      "Side Deck"],
     {"timestamp": 0, "player_id": 1, "player_name": 2, "sec_main": 3, "sec_extra": 4,
      "sec_side": 5}),
    (["Player", "", "ydke"], {"player_name": 0, "ydke": 2}),
    (["Player", "Player Name", "Qty", "Qty", "Card"], {"player_name": 0, "qty": 2, "card": 4}),
    (["Monster Cards", "", "Spell Cards"], {"sec_main": 0}),  # the first cell of a meaning wins
    # a long header is a question of a form, not a section column
    (["Main Deck (paste your list here, one card per line please)", "Player"],
     {"player_name": 1}),
    (["hello", "world"], {}),
])
def test_header_cells_are_read_by_their_meaning(cells: list[str], found: dict[str, int]) -> None:
    assert header_map(cells) == found


@pytest.mark.parametrize(("rows", "found"), [
    ([["Player ID", "Section", "Qty", "Card"]],
     ("long", 0, {"player_id": 0, "section": 1, "qty": 2, "card": 3})),
    ([["Regional 2026"], [], ["Player", "Qty", "Passcode"]],
     ("long", 2, {"player_name": 0, "qty": 1, "passcode": 2})),
    ([["Konami ID", "Main Deck", "Side Deck"]],
     ("forms", 0, {"player_id": 0, "sec_main": 1, "sec_side": 2})),
    ([["Player", "ydke"]], ("forms", 0, {"player_name": 0, "ydke": 1})),
    ([["Deck owner", "Qty", "Card Name"]], ("playerless", 0, {"qty": 1, "card": 2})),
    ([["ydke", "Timestamp"]], ("playerless", 0, {"ydke": 0, "timestamp": 1})),
    ([["ydke"]], None),
    ([["hello", "world"], ["1", "2"]], None),
    ([["a"]] * 10 + [["Player", "Qty", "Card"]], None),  # a header is in the first 10 rows
])
def test_find_header(rows: list[list[str]],
                     found: tuple[str, int, dict[str, int]] | None) -> None:
    assert find_header(Sheet("x.csv", "", rows)) == found


def test_a_playerless_header_is_one_problem_and_its_rows_are_reported() -> None:
    sheet = Sheet("x.xlsx", "Lists", [["Title"], ["Deck owner", "Qty", "Card Name"],
                                      ["x", "3", "Raigeki"], ["", "", ""], ["y", "1", "Raigeki"]])
    out = Found()
    playerless(sheet, 1, out)
    assert [(p.file, p.line, p.column) for p in out.problems] == [("x.xlsx", 2, "Lists")]
    assert (out.rows_read, out.rows_reported) == (2, 2)
    assert (out.rows, out.players) == ([], [])


def test_a_header_without_a_player_column_is_one_problem(tmp_path: Path) -> None:
    rows = [["Deck owner", "Qty", "Card Name"]] + [["x", "3", "Raigeki"]] * 14
    path = tmp_path / "odd.csv"
    path.write_text(csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert [(p.line, p.code) for p in reg.problems] == [(1, "NO_PLAYER_COLUMN")]
    message = reg.problems[0].message  # names the header found and the columns expected
    assert "'Deck owner', 'Qty', 'Card Name'" in message
    assert "'player id'" in message
    rows_add_up(reg)
    assert reg.rows_reported == 14
