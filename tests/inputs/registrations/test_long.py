"""The long layout: one row per (player, section, quantity, card)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from openpyxl import Workbook
from polars.testing import assert_frame_equal

from tests.inputs.registrations.lists import (
    csv_text,
    expected,
    long_rows,
    rows_add_up,
    table,
)
from validator.files.tabular import Sheet
from validator.inputs.entries import ENTRY_SCHEMA
from validator.inputs.registrations._found import Found, Player
from validator.inputs.registrations.long import read_long
from validator.inputs.registrations.read import read_registrations

COLUMNS = {"player_id": 0, "section": 1, "qty": 2, "card": 3, "passcode": 4}


def _read(rows: list[list[str]], cols: dict[str, int], name: str = "") -> Found:
    out = Found()
    read_long(Sheet("l.xlsx" if name else "l.csv", name, rows), 0, cols, out)
    return out


def _entries(rows: list[tuple[object, ...]]) -> pl.DataFrame:
    return pl.DataFrame(rows, orient="row", schema={
        **{k: ENTRY_SCHEMA[k] for k in ("deck_id", "section", "passcode", "name", "qty", "file",
                                        "line", "cell", "slot")}, "origin": pl.Int64()})


def test_rows_become_entries_located_by_their_cells() -> None:
    out = _read([["Player ID", "Section", "Qty", "Card Name", "Passcode"],
                 ["1", "Monster", "3", "Raigeki", ""],
                 ["1", "", "2", "", "55144522"],  # no section: the section above
                 ["", "", "", "", ""],
                 ["1", "Side", "1", "Dark Hole", ""],
                 ["Total", "", "6", "", ""],
                 ["2", "Extra", "1", "Accesscode Talker", ""]], COLUMNS)
    assert_frame_equal(out.frames[0], _entries([
        ("1", "main", None, "Raigeki", 3, "l.csv", 2, "D2", "monster", 1),
        ("1", "main", 55144522, None, 2, "l.csv", 3, "E3", None, 1),
        ("1", "side", None, "Dark Hole", 1, "l.csv", 5, "D5", None, 1),
        ("2", "extra", None, "Accesscode Talker", 1, "l.csv", 7, "D7", "extra", 2)]))
    assert [(p.player_id, p.player_name, p.origin, p.rows) for p in out.players] == [
        ("1", "1", 1, 3), ("2", "2", 2, 1)]
    assert out.problems == []
    assert (out.rows_read, out.rows_reported) == (4, 0)


def test_a_workbook_cell_names_its_sheet() -> None:
    out = _read([["Player ID", "Qty", "Card"], ["7", "3", "Raigeki"]],
                {"player_id": 0, "qty": 1, "card": 2}, name="Lists")
    assert out.frames[0]["cell"].to_list() == ["Lists!C2"]
    assert out.players == [Player("7", "7", "l.xlsx", "Lists", "l.xlsx!Lists", 1, 1)]


@pytest.mark.parametrize(("row", "line", "column", "section"), [
    (["1", "Main", "three", "Raigeki", ""], 2, "C2", "main"),
    (["", "Main", "1", "Raigeki", ""], 2, "A2", "main"),
    (["1", "Sideboard??", "1", "Raigeki", ""], 2, "B2", "main"),  # the section above
    (["1", "Side", "2", "", ""], 2, "D2", "side"),
    (["1", "Extra", "0", "Raigeki", ""], 2, "C2", "extra"),
    (["1", "Main", "1", "", "12a"], 2, "E2", "main"),
])
def test_a_row_that_cannot_be_read_is_a_problem_at_its_cell(
        row: list[str], line: int, column: str, section: str) -> None:
    out = _read([["Player ID", "Section", "Qty", "Card Name", "Passcode"], row], COLUMNS)
    assert [(p.line, p.column, p.section) for p in out.problems] == [(line, column, section)]
    assert out.problems[0].deck_id == (row[0] or None)  # a decision for that player's list
    assert out.frames[0].is_empty()
    assert out.players == []
    assert (out.rows_read, out.rows_reported) == (1, 1)


def test_players_are_named_by_their_name_column_or_first_and_last_name() -> None:
    out = _read([["ID", "First", "Last", "Name", "Qty", "Card"],
                 ["0401-999-888", "Kim", "Min", "Kim M.", "2", "Pot of Greed"],
                 ["401357911", "Jordan", "Lee", "", "3", "Raigeki"],
                 ["", "Ana", "Sato", "", "3", "Raigeki"]],
                {"player_id": 0, "first_name": 1, "last_name": 2, "player_name": 3, "qty": 4,
                 "card": 5})
    assert [(p.player_id, p.player_name) for p in out.players] == [
        ("0401999888", "Kim M."), ("401357911", "Jordan Lee"), ("Ana Sato", "Ana Sato")]
    assert out.frames[0]["deck_id"].to_list() == ["0401999888", "401357911", "Ana Sato"]
    assert out.notes == []


def test_an_id_in_scientific_notation_is_a_problem_of_the_sheet() -> None:
    out = _read([["ID", "Qty", "Card"], ["4.01235E+09", "3", "Raigeki"]],
                {"player_id": 0, "qty": 1, "card": 2}, name="Lists")
    assert [(p.line, p.column) for p in out.problems] == [(None, "Lists")]
    assert "scientific notation" in out.problems[0].message
    assert out.frames[0]["deck_id"].to_list() == ["4.01235E+09"]  # still read, as typed


@pytest.mark.parametrize(("cols", "notes"), [
    ({"player_id": 0, "qty": 1, "card": 2}, [(1, "Lists")]),
    ({"player_name": 0, "qty": 1, "card": 2}, []),
])
def test_ids_without_names_are_a_note(cols: dict[str, int], notes: list[tuple[int, str]]) -> None:
    out = _read([["Player", "Qty", "Card"], ["7", "3", "Raigeki"]], cols, name="Lists")
    assert [(p.line, p.column) for p in out.notes] == notes
    assert out.problems == []


@pytest.mark.parametrize(("encoding", "header"), [
    ("utf-8", ["Player ID", "Section", "Qty", "Card Name"]),
    ("utf-8-sig", ["player", "deck", "quantity", "card"]),
    ("utf-16", ["Player ID", "Section", "Qty", "Card Name"]),
    ("cp932", ["プレイヤーID", "区分", "枚数", "カード名"]),
])
def test_long_csv_in_every_encoding(tmp_path: Path, encoding: str, header: list[str]) -> None:
    rows = long_rows(header)
    if encoding == "cp932":
        # cp932 cannot hold Korean: that player's Korean name is typed in English there
        rows = [[c.replace("하루 우라라", "灰流うらら") for c in r] for r in rows]
    path = tmp_path / "list.csv"
    path.write_bytes(csv_text(rows).encode(encoding))
    want = expected()
    if encoding == "cp932":
        want = sorted((p, s, n.replace("하루 우라라", "灰流うらら"), q) for p, s, n, q in want)
    assert table(path) == want


def test_long_xlsx_with_title_empty_rows_and_total(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Regional 2026 — registered lists"])
    ws.merge_cells("A1:D1")
    for i, row in enumerate(long_rows(["Player ID", "Section", "Qty", "Card Name"])):
        ws.append([int(c) if c.isdigit() and i and len(c) < 3 else c for c in row])
        if i == 3:
            ws.append([])
    ws.append(["Total", "", "20", ""])
    path = tmp_path / "list.xlsx"
    wb.save(path)
    assert table(path) == expected()


def test_no_row_is_lost(tmp_path: Path) -> None:
    rows = [["Player", "Section", "Qty", "Card"],
            ["1", "Main", "3", "Raigeki"],
            ["1", "Main", "three", "Pot of Greed"],
            ["", "Main", "1", "Dark Hole"],
            ["1", "Sideboard??", "1", "Dark Hole"],
            ["1", "Side", "2", ""],
            ["2", "Main", "１", "ブラック・マジシャン"]]
    path = tmp_path / "l.csv"
    path.write_text(csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.rows_read == 6
    assert reg.entries.height + len(reg.problems) == reg.rows_read
    assert sorted((p.line, p.column, p.code) for p in reg.problems) == [
        (3, "C3", "BAD_QUANTITY"), (4, "A4", "NO_PLAYER"), (5, "B5", "BAD_SECTION"),
        (6, "D6", "NO_CARD")]


def test_first_and_last_name_labels_and_loose_id_headers(tmp_path: Path) -> None:
    rows = [["Konami ID #", "First (Given) Name", "Last (Family) Name", "Deck", "Qty", "Card"],
            ["401357911", "Jordan", "Lee", "Main", "3", "Raigeki"],
            ["0401-999-888", "Kim", "Min", "Main", "3", "Raigeki"],
            ["4.01235E+09", "Lost", "Digits", "Main", "3", "Raigeki"],
            ["0400000003", "Ana", "Sato", "Main", "3", "Raigeki"]]
    path = tmp_path / "long.csv"
    path.write_text(csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.players.select("player_id", "player_name").rows() == [
        ("0401357911", "Jordan Lee"), ("0401999888", "Kim Min"), ("4.01235E+09", "Lost Digits"),
        ("0400000003", "Ana Sato")]
    assert [p.code for p in reg.problems] == ["PLAYER_ID"]
    rows_add_up(reg)
