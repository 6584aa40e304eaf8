"""Pairings read from tournament software exports and pasted lists: every row a seat or a
problem at its row."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from openpyxl import Workbook

from validator.inputs.pairings import (
    Seat,
    load_columns,
    read_pairing_file,
    read_pasted_pairings,
)


def _seats(seats: list[Seat]) -> list[tuple[int, int | None, str]]:
    return [(s.round, s.table, s.player) for s in seats]


def _xlsx(rows: list[list[object]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(("header", "row"), [
    # one table per row, ids and names (a KTS-style export)
    ("Round,Table,Player 1 ID,Player 1,Player 2 ID,Player 2",
     "3,12,0400000001,Ana Silva,0400000002,Bo Kim"),
    # Melee-style: names only, "Table #"
    ("Table #,Player 1,Player 2", "12,0400000001,0400000002"),
    # Challonge-style headings, other order
    ("Participant 2,Match Table,Participant 1", "0400000002,12,0400000001"),
])
def test_a_table_per_row_gives_two_seats(header: str, row: str) -> None:
    read = read_pairing_file("pairings.csv", f"{header}\n{row}\n".encode(), 3)
    assert read.problems == []
    assert sorted(_seats(read.seats)) == [(3, 12, "0400000001"), (3, 12, "0400000002")]


def test_an_id_column_wins_over_the_name_beside_it() -> None:
    read = read_pairing_file("p.csv", b"Table,Player 1,Player 1 ID,Player 2,Player 2 ID\n"
                             b"4,Ana Silva,0400000001,Bo Kim,\n", 1)
    assert _seats(read.seats) == [(1, 4, "0400000001"), (1, 4, "Bo Kim")]
    assert [s.column for s in read.seats] == ["C2", "D2"]


def test_a_player_per_row_with_a_title_above_the_heading_and_a_bye() -> None:
    data = _xlsx([["Regional · Round 2 pairings"], [], ["Table", "Player", "Opponent"],
                  [1, "Ana Silva", "Bo Kim"], [1, "Bo Kim", "Ana Silva"], [None, "Cy", "BYE"],
                  ["Table", "Player", "Opponent"]])
    read = read_pairing_file("round2.xlsx", data, 2)
    assert read.problems == []
    assert _seats(read.seats) == [(2, 1, "Ana Silva"), (2, 1, "Bo Kim"), (2, 1, "Bo Kim"),
                                  (2, 1, "Ana Silva"), (2, None, "Cy")]
    assert [s.line for s in read.seats] == [4, 4, 5, 5, 6]


def test_every_row_not_used_is_reported_at_its_cell() -> None:
    data = (b"Round,Table,Player 1,Player 2\n"
            b"3,1,Ana,Bo\n"
            b"x,2,Cy,Di\n"       # no round number
            b"3,two,Ed,Flo\n"    # no table number
            b"3,,Gus,Hal\n"      # two players, no table
            b"3,5,,\n"           # no player
            b",,,\n")            # empty: skipped
    read = read_pairing_file("p.csv", data, None)
    assert _seats(read.seats) == [(3, 1, "Ana"), (3, 1, "Bo")]
    assert [(p.line, p.column, p.code) for p in read.problems] == [
        (3, "A3", "BAD_PAIRING"), (4, "B4", "BAD_PAIRING"), (5, "B5", "BAD_PAIRING"),
        (6, "C6", "BAD_PAIRING")]


def test_a_file_without_a_round_column_needs_the_round_given() -> None:
    read = read_pairing_file("p.csv", b"Table,Player 1,Player 2\n1,Ana,Bo\n", None)
    assert read.seats == []
    assert [(p.line, p.code) for p in read.problems] == [(2, "BAD_PAIRING")]


def test_a_file_without_a_heading_row_is_reported() -> None:
    read = read_pairing_file("p.csv", b"1,Ana,Bo\n2,Cy,Di\n", 1)
    assert read.seats == []
    assert [(p.file, p.line, p.code) for p in read.problems] == [("p.csv", None, "BAD_PAIRING")]


def test_a_file_of_another_type_is_refused_as_a_problem() -> None:
    read = read_pairing_file("p.pdf", b"%PDF", 1)
    assert [p.code for p in read.problems] == ["WRONG_FILE_TYPE"]


def test_a_pasted_list_reads_names_ids_and_byes() -> None:
    read = read_pasted_pairings("# round 3\nTable 12: Lucas Tanaka vs Ana Silva\n"
                                "13 0400000001 0400000002\n14\tBo Kim\tBYE\n15; Cy | Di\n", 3)
    assert read.problems == []
    assert _seats(read.seats) == [(3, 12, "Lucas Tanaka"), (3, 12, "Ana Silva"),
                                  (3, 13, "0400000001"), (3, 13, "0400000002"),
                                  (3, 14, "Bo Kim"), (3, 15, "Cy"), (3, 15, "Di")]
    assert [s.line for s in read.seats] == [2, 2, 3, 3, 4, 5, 5]


def test_a_pasted_line_without_a_table_or_with_three_players_is_reported() -> None:
    read = read_pasted_pairings("Ana, Bo\n12, A, B, C\n0, A, B\n7, Ana, Bo\n", 1)
    assert _seats(read.seats) == [(1, 7, "Ana"), (1, 7, "Bo")]
    assert [(p.line, p.code) for p in read.problems] == [
        (1, "BAD_PAIRING"), (2, "BAD_PAIRING"), (3, "BAD_PAIRING")]


def test_the_column_headings_are_data_and_folded() -> None:
    columns = load_columns()
    assert columns.of("TABLE #") == "table"
    assert columns.of("Player 1 Konami ID") == "player_1_id"
    assert columns.of("Deck") is None
    assert columns.is_bye("*** BYE ***")


EXPORTS = Path(__file__).parent / "pairing_exports"


def test_a_melee_round_is_read_by_player_names_not_melee_numbers() -> None:
    """Melee.gg's round pairings (the JSON its pairings page loads): the round and table
    from RoundNumber and TableNumber, players by name (Player1Id is Melee's own number),
    table 0 with one player a bye."""
    data = (EXPORTS / "melee-round3.json").read_bytes()
    read = read_pairing_file("melee-round3.json", data, 1)
    assert read.problems == []
    assert _seats(read.seats) == [(3, 1, "Ana Silva"), (3, 1, "Bo Kim"), (3, 12, "Cy Tanaka"),
                                  (3, 12, "Di Sato"), (3, None, "Ed Park")]
    assert [(s.line, s.column) for s in read.seats] == [
        (1, "Player1"), (1, "Player2"), (2, "Player1"), (2, "Player2"), (3, "Player1")]


def test_a_melee_record_not_used_is_reported_at_its_field() -> None:
    data = (b'{"data": [{"RoundNumber": 2, "TableNumber": "x", "Player1": "Ana", '
            b'"Player2": "Bo"}, {"RoundNumber": 2, "TableNumber": 4, "Player1": "Cy", '
            b'"Player2": "Di"}]}')
    read = read_pairing_file("r2.json", data, None)
    assert _seats(read.seats) == [(2, 4, "Cy"), (2, 4, "Di")]
    assert [(p.line, p.column, p.code) for p in read.problems] == [
        (1, "TableNumber", "BAD_PAIRING")]


@pytest.mark.parametrize("data", [b"{not json", b'{"data": 3}', b'[{"Rank": 1}]'])
def test_a_json_file_that_holds_no_pairings_is_one_problem(data: bytes) -> None:
    read = read_pairing_file("standings.json", data, 1)
    assert read.seats == []
    assert [(p.file, p.code) for p in read.problems] == [("standings.json", "BAD_PAIRING")]


def test_a_tom_file_gives_every_round_with_its_tables_and_byes() -> None:
    """A TOM tournament file (.tdf): rounds by their number, players by userid, the
    match's line; a bye (one player, table 0) has no table."""
    data = (EXPORTS / "tom-cup.tdf").read_bytes()
    read = read_pairing_file("tom-cup.tdf", data, None)
    assert read.problems == []
    assert _seats(read.seats) == [(1, 1, "3865580"), (1, 1, "4268713"), (1, None, "5124501"),
                                  (2, 12, "5124501"), (2, 12, "3865580")]
    assert [s.line for s in read.seats] == [49, 49, 55, 67, 67]


def test_a_tom_match_without_what_it_needs_is_reported_at_its_line() -> None:
    data = (b'<tournament><pods><pod><rounds><round number="4"><matches>\n'
            b'<match><player1 userid="1"/><player2 userid="2"/><tablenumber>3</tablenumber>'
            b'</match>\n'
            b'<match><player1 userid="5"/><player2 userid="6"/><tablenumber>0</tablenumber>'
            b'</match>\n'
            b'<match><tablenumber>7</tablenumber></match>\n'
            b'</matches></round></rounds></pod></pods></tournament>')
    read = read_pairing_file("t.tdf", data, None)
    assert _seats(read.seats) == [(4, 3, "1"), (4, 3, "2")]
    assert [(p.line, p.code) for p in read.problems] == [(3, "BAD_PAIRING"),
                                                         (4, "BAD_PAIRING")]


@pytest.mark.parametrize("data", [
    b'<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa">]><tournament>&a;</tournament>',
    b"<tournament><rounds><round number='1'>",  # cut short
    b"<tournament><players/></tournament>",  # no rounds
])
def test_a_tom_file_that_cannot_be_read_safely_is_a_problem(data: bytes) -> None:
    read = read_pairing_file("bad.tdf", data, 1)
    assert read.seats == []
    assert [(p.file, p.code) for p in read.problems] == [("bad.tdf", "BAD_PAIRING")]
