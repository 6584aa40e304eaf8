"""Registration layouts and encodings all read to the same long table."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import polars as pl
import pytest
from openpyxl import Workbook, load_workbook

from validator.inputs.decks.ydk import to_ydke
from validator.inputs.entries import entries_frame
from validator.inputs.registrations.read import Registrations, read_registrations
from validator.sheets.workbook import KonamiSheet, write_konami_workbook

LISTS = {
    "1001": {"main": [(3, "Ash Blossom & Joyous Spring"), (2, "灰流うらら"), (1, "Pot of Greed")],
             "extra": [(1, "Accesscode Talker")], "side": [(2, "Effect Veiler")]},
    "1002": {"main": [(3, "하루 우라라"), (3, "Dark Magician")],
             "extra": [], "side": [(1, "Raigeki")]},
}


def _expected() -> list[tuple[str, str, str, int]]:
    return sorted((player, section, name, qty) for player, sections in LISTS.items()
                  for section, cards in sections.items() for qty, name in cards)


def _table(path: Path) -> list[tuple[str, str, str, int]]:
    reg = read_registrations(path)
    assert reg.problems == []
    return sorted(reg.entries.select("deck_id", pl.col("section").cast(pl.Utf8), "name", "qty")
                  .rows())


def _long_rows(header: list[str]) -> list[list[str]]:
    rows = [header]
    for player, sections in LISTS.items():
        for section, cards in sections.items():
            rows.extend([player, section.title(), str(qty), name] for qty, name in cards)
    return rows


def _csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


@pytest.mark.parametrize(("encoding", "header"), [
    ("utf-8", ["Player ID", "Section", "Qty", "Card Name"]),
    ("utf-8-sig", ["player", "deck", "quantity", "card"]),
    ("utf-16", ["Player ID", "Section", "Qty", "Card Name"]),
    ("cp932", ["プレイヤーID", "区分", "枚数", "カード名"]),
])
def test_long_csv_in_every_encoding(tmp_path: Path, encoding: str, header: list[str]) -> None:
    rows = _long_rows(header)
    if encoding == "cp932":
        # cp932 cannot hold Korean: that player's Korean name is typed in English there
        rows = [[c.replace("하루 우라라", "灰流うらら") for c in r] for r in rows]
    path = tmp_path / "list.csv"
    path.write_bytes(_csv_text(rows).encode(encoding))
    expected = _expected()
    if encoding == "cp932":
        expected = sorted((p, s, n.replace("하루 우라라", "灰流うらら"), q)
                          for p, s, n, q in expected)
    assert _table(path) == expected


def test_long_xlsx_with_title_empty_rows_and_total(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Regional 2026 — registered lists"])
    ws.merge_cells("A1:D1")
    for i, row in enumerate(_long_rows(["Player ID", "Section", "Qty", "Card Name"])):
        ws.append([int(c) if c.isdigit() and i and len(c) < 3 else c for c in row])
        if i == 3:
            ws.append([])
    ws.append(["Total", "", "20", ""])
    path = tmp_path / "list.xlsx"
    wb.save(path)
    assert _table(path) == _expected()


def test_konami_sheets_one_per_player(tmp_path: Path) -> None:
    sheets = [KonamiSheet(f"Player {p}", p, "Regional", "2026-11-29",
                          {"monster": list(s["main"]), "extra": list(s["extra"]),
                           "side": list(s["side"])})
              for p, s in LISTS.items()]
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, sheets)
    assert _table(path) == _expected()
    players = read_registrations(path).players
    assert players.select("player_id", "player_name", "event").rows() == [
        ("1001", "Player 1001", "Regional"), ("1002", "Player 1002", "Regional")]


def test_forms_export_multiline_cells(tmp_path: Path) -> None:
    rows = [["Timestamp", "Player ID", "Main Deck", "Extra Deck", "Side Deck"]]
    for player, s in LISTS.items():
        rows.append(["2026-11-29", player] + ["\n".join(f"{q} {n}" for q, n in s[sec])
                                              for sec in ("main", "extra", "side")])
    path = tmp_path / "forms.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    assert _table(path) == _expected()


def test_forms_export_ydke_links(tmp_path: Path) -> None:
    deck = entries_frame([{"deck_id": "x", "section": "main", "passcode": 14558127, "qty": 3},
                          {"deck_id": "x", "section": "extra", "passcode": 86066372, "qty": 1}])
    path = tmp_path / "forms.csv"
    path.write_text(_csv_text([["Player", "ydke"], ["1001", to_ydke(deck)]]), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.entries.select("deck_id", "passcode").rows() == [
        ("1001", 14558127)] * 3 + [("1001", 86066372)]


@pytest.mark.parametrize("column", ["Deck code", "Omega code", "ydke", "YGOMobile link"])
def test_forms_export_deck_codes(column: str, tmp_path: Path) -> None:
    """A column of deck codes, each player's in any format; one that does not decode is one
    problem naming its cell."""
    from validator.inputs.decks.codes import to_mycard, to_omega, ygomobile_link

    main, extra = [14558127] * 3 + list(range(10_000_000, 10_000_037)), [86066372]
    rows = [["Player", column], ["1001", to_omega(main, extra, [])],
            ["1002", to_mycard(main, extra, [])], ["1003", ygomobile_link(main, extra, [])],
            ["1004", "A" * 60]]
    path = tmp_path / "forms.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    got = reg.entries.group_by("deck_id", "passcode").agg(pl.col("qty").sum()).sort(
        "deck_id", "passcode").rows()
    expected = sorted({code: (main + extra).count(code) for code in main + extra}.items())
    assert got == [(player, code, qty) for player in ("1001", "1002", "1003")
                   for code, qty in expected]
    assert [(p.line, p.column, p.deck_id, p.code) for p in reg.problems] == [
        (5, "B5", "1004", "BAD_INPUT")]


def test_hidden_sheet_is_reported_not_read(tmp_path: Path) -> None:
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, [KonamiSheet("A", "1", blocks={"monster": [(3, "Raigeki")]}),
                                 KonamiSheet("B", "2", blocks={"monster": [(3, "Raigeki")]})])
    wb = load_workbook(path)
    wb["2"].sheet_state = "hidden"
    wb.save(path)
    reg = read_registrations(path)
    assert reg.entries["deck_id"].unique().to_list() == ["1"]
    assert [p.column for p in reg.problems] == ["2"]
    assert "hidden sheet" in reg.problems[0].message


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
    assert reg.problems[0].line == 28
    assert "total 4" in reg.problems[0].message


def test_no_row_is_lost(tmp_path: Path) -> None:
    rows = [["Player", "Section", "Qty", "Card"],
            ["1", "Main", "3", "Raigeki"],
            ["1", "Main", "three", "Pot of Greed"],
            ["", "Main", "1", "Dark Hole"],
            ["1", "Sideboard??", "1", "Dark Hole"],
            ["1", "Side", "2", ""],
            ["2", "Main", "１", "ブラック・マジシャン"]]
    path = tmp_path / "l.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.rows_read == 6
    assert reg.entries.height + len(reg.problems) == reg.rows_read
    assert sorted(p.line for p in reg.problems if p.line) == [3, 4, 5, 6]
    assert {p.column for p in reg.problems} == {"C3", "A4", "B5", "D6"}


def test_unrecognised_sheet_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("hello,world\n1,2\n", encoding="utf-8")
    reg = read_registrations(path)
    assert reg.entries.is_empty()
    assert "no deck list found" in reg.problems[0].message


def _rows_add_up(reg: Registrations) -> None:
    assert reg.rows_read == reg.rows_used + reg.rows_reported


def test_forms_export_resubmission_keeps_the_later_list(tmp_path: Path) -> None:
    rows = [["Timestamp", "KONAMI ID (Card Game ID)", "Full name", "Main Deck", "Extra Deck",
             "Side Deck"],
            ["11/29/2026 20:01:00", "0400000001", "Jordan Lee", "3 Raigeki", "", ""],
            ["11/29/2026 20:05:00", "0400000002", "Kim Min", "3 Pot of Greed", "", ""],
            ["11/30/2026 08:15:30", "0400000001", "Jordan Lee", "2 Raigeki\n1 Dark Hole", "",
             "1 Effect Veiler"]]
    path = tmp_path / "forms.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.players.select("player_id", "player_name").rows() == [
        ("0400000001", "Jordan Lee"), ("0400000002", "Kim Min")]
    jordan = reg.entries.filter(pl.col("deck_id") == "0400000001")
    assert sorted(jordan.select("name", "qty").rows()) == [("Dark Hole", 1), ("Effect Veiler", 1),
                                                            ("Raigeki", 2)]
    superseded = [p for p in reg.problems if "superseded" in p.message]
    assert len(superseded) == 1
    assert superseded[0].line == 2
    assert "row 4" in superseded[0].message
    _rows_add_up(reg)
    assert reg.rows_read == 3


def test_the_same_player_in_two_places_is_reported_not_merged(tmp_path: Path) -> None:
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, [
        KonamiSheet("Ana", "0400000009", blocks={"monster": [(3, "Raigeki")]}, sheet_name="A"),
        KonamiSheet("Ana", "0400000009", blocks={"monster": [(2, "Dark Hole")]},
                    sheet_name="B")])
    reg = read_registrations(path)
    assert reg.entries.select("name", "qty").rows() == [("Raigeki", 3)]
    twice = [p.message for p in reg.problems]
    assert len(twice) == 1
    assert "registered twice" in twice[0]
    assert "!A" in twice[0]
    assert "!B" in twice[0]
    _rows_add_up(reg)


def test_first_and_last_name_labels_and_loose_id_headers(tmp_path: Path) -> None:
    rows = [["Konami ID #", "First (Given) Name", "Last (Family) Name", "Deck", "Qty", "Card"],
            ["401357911", "Jordan", "Lee", "Main", "3", "Raigeki"],
            ["0401-999-888", "Kim", "Min", "Main", "3", "Raigeki"],
            ["4.01235E+09", "Lost", "Digits", "Main", "3", "Raigeki"],
            ["0400000003", "Ana", "Sato", "Main", "3", "Raigeki"]]
    path = tmp_path / "long.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.players.select("player_id", "player_name").rows() == [
        ("0401357911", "Jordan Lee"), ("0401999888", "Kim Min"), ("4.01235E+09", "Lost Digits"),
        ("0400000003", "Ana Sato")]
    assert any("scientific notation" in p.message for p in reg.problems)
    _rows_add_up(reg)


def test_a_header_without_a_player_column_is_one_problem(tmp_path: Path) -> None:
    rows = [["Deck owner", "Qty", "Card Name"]] + [["x", "3", "Raigeki"]] * 14
    path = tmp_path / "odd.csv"
    path.write_text(_csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert len(reg.problems) == 1
    message = reg.problems[0].message
    assert "'Deck owner', 'Qty', 'Card Name'" in message
    assert "'player id'" in message
    _rows_add_up(reg)
    assert reg.rows_reported == 14


def test_konami_total_names_the_block_and_the_number_cell(tmp_path: Path) -> None:
    problem = read_registrations(_monster_total_written_as_4(tmp_path)).problems[0]
    assert problem.column == "1!B28"
    assert "written Monster Cards total 4" in problem.message


def test_every_registration_fixture_reads_every_row(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent.parent.parent / "sample_decklists"
    for path in (root / "regional-tcg.xlsx", root / "rush-cup.csv"):
        _rows_add_up(read_registrations(path))
