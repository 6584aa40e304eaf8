"""The forms export: one row per submission, deck lists in multi-line cells or ydke links."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import polars as pl
import pytest

from tests.inputs.registrations.lists import LISTS, csv_text, expected, table
from validator.files.tabular import Sheet
from validator.inputs.decks.ydk import to_ydke
from validator.inputs.entries import entries_frame
from validator.inputs.registrations._found import Found
from validator.inputs.registrations.forms import read_forms, stamp
from validator.inputs.registrations.read import read_registrations

HEADER = ["Timestamp", "KONAMI ID", "Full name", "Main Deck", "Extra Deck", "Side Deck"]
COLUMNS = {"timestamp": 0, "player_id": 1, "player_name": 2, "sec_main": 3, "sec_extra": 4,
           "sec_side": 5}


def _read(*rows: list[str]) -> Found:
    out = Found()
    read_forms(Sheet("f.csv", "", [HEADER, *rows]), 0, COLUMNS, out)
    return out


def test_each_cell_is_a_text_list_of_its_columns_section() -> None:
    out = _read(["11/29/2026 20:01:00", "0400000001", "Jordan Lee", "3 Raigeki\n2 Pot of Greed",
                 "1 Accesscode Talker", ""],
                ["", "", "", "", "", ""],
                ["2026-11-29", "0401-999-888", "Kim Min", "", "", "Effect Veiler"])
    assert [(r["deck_id"], r["section"], r["qty"], r["name"], r["line"], r["cell"], r["origin"])
            for r in out.rows] == [
        ("0400000001", "main", 3, "Raigeki", 2, "D2, line 1", 1),
        ("0400000001", "main", 2, "Pot of Greed", 2, "D2, line 2", 1),
        ("0400000001", "extra", 1, "Accesscode Talker", 2, "E2", 1),
        ("0401999888", "side", 1, "Effect Veiler", 4, "F4", 2)]
    assert [(p.player_id, p.player_name, p.place, p.line, p.stamp, p.rows, p.forms)
            for p in out.players] == [
        ("0400000001", "Jordan Lee", "f.csv row 2", 2, dt.datetime(2026, 11, 29, 20, 1), 1, True),
        ("0401999888", "Kim Min", "f.csv row 4", 4, dt.datetime(2026, 11, 29), 1, True)]
    assert out.problems == []
    assert (out.rows_read, out.rows_reported) == (2, 0)


def test_a_ydke_cell_is_decoded_into_a_frame_of_its_submission() -> None:
    out = _read(["", "7", "Ana", "ydke://AQAAAA==!!!", "", ""])
    assert out.rows == []
    assert out.frames[0].select("deck_id", "passcode", "qty", "line", "cell", "origin").rows() \
        == [("7", 1, 1, 2, "D2", 1)]


def test_a_row_without_a_player_is_a_problem_of_that_row() -> None:
    out = _read(["2026-11-29", "", "", "3 Raigeki", "", ""])
    assert [(p.line, p.column, p.deck_id) for p in out.problems] == [(2, "B2", None)]
    assert (out.players, out.rows) == ([], [])
    assert (out.rows_read, out.rows_reported) == (1, 1)


def test_a_cell_that_is_not_a_list_reports_its_submission() -> None:
    row = ["", "7", "Ana", "ydke://%%%!!!", "1 Accesscode Talker", ""]
    out = _read(row)
    assert [(p.line, p.column, p.deck_id, p.section) for p in out.problems] == [
        (2, "D2", "7", "main")]
    assert [(p.player_id, p.rows) for p in out.players] == [("7", 0)]  # not used, reported
    assert (out.rows_read, out.rows_reported) == (1, 1)
    assert [r["name"] for r in out.rows] == ["Accesscode Talker"]  # the readable cell is kept


@pytest.mark.parametrize(("at", "cell", "column", "section"), [
    (3, "0 Raigeki", "D2", "main"),
    (5, "Blue-Eyes " * 30, "F2", "side"),  # a name longer than any card's
    (3, "1 Pot of Greed\n0 Raigeki", "D2, line 2", "main"),
])
def test_a_line_that_cannot_be_read_is_a_decision_at_its_own_address(
        at: int, cell: str, column: str, section: str) -> None:
    row = ["", "7", "Ana", "", "1 Accesscode Talker", ""]
    row[at] = cell
    out = _read(row)
    assert [(p.code in ("BAD_QUANTITY", "NAME_TOO_LONG"), p.line, p.column, p.deck_id,
             p.section) for p in out.problems] == [(True, 2, column, "7", section)]
    assert [(p.player_id, p.rows) for p in out.players] == [("7", 1)]
    assert (out.rows_read, out.rows_reported) == (1, 0)
    assert "Accesscode Talker" in [r["name"] for r in out.rows]  # every readable line is kept
    assert len(out.rows) == 1 + cell.count("\n")


@pytest.mark.parametrize(("text", "when"), [
    ("2026-11-29 20:01:00", dt.datetime(2026, 11, 29, 20, 1)),
    ("2026-11-29T08:15:30", dt.datetime(2026, 11, 29, 8, 15, 30)),
    ("2026/11/29 08:15:30", dt.datetime(2026, 11, 29, 8, 15, 30)),
    ("11/30/2026 08:15:30", dt.datetime(2026, 11, 30, 8, 15, 30)),
    ("30/11/2026 08:15:30", dt.datetime(2026, 11, 30, 8, 15, 30)),
    ("2026-11-29 20:01", dt.datetime(2026, 11, 29, 20, 1)),
    ("11/29/2026 20:01", dt.datetime(2026, 11, 29, 20, 1)),
    ("2026-11-29", dt.datetime(2026, 11, 29)),
    ("11/29/2026", dt.datetime(2026, 11, 29)),
    ("2026-11-29 20:01:00 GMT+09:00", dt.datetime(2026, 11, 29, 20, 1)),
    (" 2026-11-29 20:01:00 UTC ", dt.datetime(2026, 11, 29, 20, 1)),
    ("yesterday", None),
    ("", None),
])
def test_form_timestamps_in_the_usual_formats(text: str, when: dt.datetime | None) -> None:
    assert stamp(text) == when


def test_forms_export_multiline_cells(tmp_path: Path) -> None:
    rows = [["Timestamp", "Player ID", "Main Deck", "Extra Deck", "Side Deck"]]
    for player, s in LISTS.items():
        rows.append(["2026-11-29", player] + ["\n".join(f"{q} {n}" for q, n in s[sec])
                                              for sec in ("main", "extra", "side")])
    path = tmp_path / "forms.csv"
    path.write_text(csv_text(rows), encoding="utf-8")
    assert table(path) == expected()


def test_forms_export_ydke_links(tmp_path: Path) -> None:
    deck = entries_frame([{"deck_id": "x", "section": "main", "passcode": 14558127, "qty": 3},
                          {"deck_id": "x", "section": "extra", "passcode": 86066372, "qty": 1}])
    path = tmp_path / "forms.csv"
    path.write_text(csv_text([["Player", "ydke"], ["1001", to_ydke(deck)]]), encoding="utf-8")
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
    path.write_text(csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    got = reg.entries.group_by("deck_id", "passcode").agg(pl.col("qty").sum()).sort(
        "deck_id", "passcode").rows()
    expected = sorted({code: (main + extra).count(code) for code in main + extra}.items())
    assert got == [(player, code, qty) for player in ("1001", "1002", "1003")
                   for code, qty in expected]
    assert [(p.line, p.column, p.deck_id, p.code) for p in reg.problems] == [
        (5, "B5", "1004", "BAD_DECK_CODE")]


#: a 64 KiB forms cell built to be slow: runs of spaces, tabs, digits and quotes
SLOW_CELLS = ["a" + " " * (64 << 10) + "b", "3" + "\t" * (64 << 10) + "x",
              "1" * (64 << 10) + "x", '"' * (64 << 10), "3 Raigeki" + " ," * (32 << 10) + "b",
              "ydke://" + "A" * (64 << 10) + "!", "?" * (64 << 10) + "!!"]


@pytest.mark.parametrize("cell", SLOW_CELLS, ids=range(len(SLOW_CELLS)))
def test_a_cell_built_to_be_slow_is_read_at_once(cell: str) -> None:
    import time

    started = time.perf_counter()
    out = _read([cell[:1000], "0400000001", cell, cell, "", cell])
    assert time.perf_counter() - started < 2.0
    assert out.rows or out.problems or out.frames  # each cell used or reported
    assert stamp(cell) is None


def test_a_form_line_longer_than_any_entry_is_reported_not_read() -> None:
    out = _read(["", "0400000001", "Ana", "3 Raigeki\n" + "a" + " " * 5000 + "b", "", ""])
    assert [r["name"] for r in out.rows] == ["Raigeki"]
    assert [(p.code, p.column) for p in out.problems] == [("LINE_TOO_LONG", "D2, line 2")]
