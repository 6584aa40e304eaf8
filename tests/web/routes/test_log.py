"""The penalty log through the web app: recording an infraction of the regulation's
catalogue, the log page, and its CSV and XLSX exports (``validator/web/routes/log.py``).

The tests share one sample event; each records for players of its own."""

from __future__ import annotations

import csv
import io
import re

import polars as pl
import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from bench.sample_event import player_id
from tests.web.helpers import LEGAL_PLAYER, csrf_token, event_of, refusal
from validator.report.penalty_log import HEADER

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _record(client: TestClient, **fields: str) -> int:
    answer = client.post("/log", data={"csrf": csrf_token(client, "/log"), **fields},
                         follow_redirects=False)
    return answer.status_code


def _csv_rows(client: TestClient) -> list[dict[str, str]]:
    exported = client.get("/log.csv")
    assert exported.headers["content-type"] == "text/csv; charset=utf-8"
    assert exported.headers["content-disposition"] == 'attachment; filename="penalty-log.csv"'
    reader = csv.reader(io.StringIO(exported.text))
    header = next(reader)
    assert header == HEADER
    return [dict(zip(header, row, strict=True)) for row in reader]


def test_infraction_log_export_and_print(sample: TestClient) -> None:
    client = sample
    token = csrf_token(client, "/log")
    made = client.post("/log", data={"csrf": token, "player_id": LEGAL_PLAYER,
                                     "judge": "=HYPERLINK(\"http://x\")", "code": "LATE_5",
                                     "round": "1"})
    assert made.status_code == 200
    assert "DUEL_FORFEITURE" in made.text
    exported = client.get("/log.csv").text
    assert "'=HYPERLINK" in exported
    workbook = load_workbook(io.BytesIO(client.get("/log.xlsx").content))
    sheet = workbook.active
    assert sheet is not None
    judge = HEADER.index("Judge")
    [judge_cell] = [row[judge] for row in sheet.iter_rows(min_row=2)
                    if row[judge].value == '=HYPERLINK("http://x")']  # the text, unchanged
    assert judge_cell.data_type == "s"  # a string, not a formula
    printable = client.get(f"/players/{LEGAL_PLAYER}/log").text
    assert "LATE_5" in printable


def test_an_infraction_is_recorded_with_the_regulation_s_penalty(sample: TestClient) -> None:
    player = player_id(3)
    assert _record(sample, player_id=player, judge="Floor judge Kim", code="DRAW_EXTRA",
                   round="4", duel="2") == 303
    [entry] = event_of(sample).db.log(player)
    result = event_of(sample).snapshot().result
    assert result is not None
    name = result.players.filter(pl.col("player_id") == player)["player_name"][0]
    assert (entry.player_name, entry.judge, entry.round, entry.duel, entry.kind, entry.codes,
            entry.default_penalty, entry.penalty, entry.decision, entry.reason) == (
        name, "Floor judge Kim", 4, 2, "infraction", ["DRAW_EXTRA"], "WARNING", "WARNING",
        "confirmed", "")
    assert entry.details["section"] == "4"
    assert entry.details["infraction"]  # the catalogue's wording, in the event's language


def test_a_penalty_other_than_the_default_is_recorded_with_its_reason(
        sample: TestClient) -> None:
    player = player_id(4)
    assert _record(sample, player_id=player, judge="J", code="DRAW_EXTRA",
                   penalty="DUEL_FORFEITURE", reason="drew five cards") == 303
    [entry] = event_of(sample).db.log(player)
    assert (entry.default_penalty, entry.penalty, entry.decision, entry.reason) == (
        "WARNING", "DUEL_FORFEITURE", "upgraded", "drew five cards")


@pytest.mark.parametrize(("fields", "refused"), [
    ({"code": "NO_SUCH_INFRACTION"}, [("NO_SUCH_INFRACTION", "UNKNOWN_INFRACTION")]),
    ({"judge": " "}, [("log", "BAD_OPTION")]),
    ({"player_id": ""}, [("log", "BAD_OPTION")]),
    ({"penalty": "BANISHMENT"}, [("penalty", "BAD_OPTION")]),
    ({"penalty": "CAUTION"}, [("reason", "BAD_OPTION")]),  # a downgrade without a reason
])
def test_an_entry_that_cannot_be_logged_is_refused_and_not_kept(
        sample: TestClient, fields: dict[str, str], refused: list[tuple[str, str]]) -> None:
    player = player_id(5)
    answer = sample.post("/log", data={"csrf": csrf_token(sample, "/log"), **{
        "player_id": player, "judge": "J", "code": "DRAW_EXTRA", **fields}})
    assert answer.status_code == 400
    assert refusal(answer) == refused
    assert event_of(sample).db.log(player) == []


def test_the_log_page_shows_one_player_s_entries_and_flags_repeats(sample: TestClient) -> None:
    player, other = player_id(6), player_id(7)
    for who in (player, player, other):
        assert _record(sample, player_id=who, judge="J", code="LOOK_EXTRA") == 303
    page = sample.get("/log", params={"player": player}).text
    assert f'name="player_id" list="players" value="{player}"' in page
    first, again = (e.id for e in sorted(event_of(sample).db.log(player), key=lambda e: e.id))
    rows = {int(i): mark for mark, i in
            re.findall(r'<tr class="([^"]*)"><td data-label="#">(\d+)</td>', page)}
    assert rows == {first: "", again: "repeat"}  # not the other player's
    assert "repeat: LOOK_EXTRA" in page


def test_the_csv_export_has_a_row_per_entry_under_the_log_s_columns(sample: TestClient) -> None:
    player = player_id(8)
    for duel in ("1", "2"):
        assert _record(sample, player_id=player, judge="CSV judge", code="LATE",
                       round="2", duel=duel) == 303
    rows = [r for r in _csv_rows(sample) if r["Player ID"] == player]
    entries = sorted(event_of(sample).db.log(player), key=lambda e: e.id)
    assert [r["#"] for r in rows] == [str(e.id) for e in entries]
    assert [(r["Judge"], r["Round"], r["Duel"], r["Kind"], r["Codes"], r["Default penalty"],
             r["Penalty"], r["Decision"], r["Repeat of"]) for r in rows] == [
        ("CSV judge", "2", "1", "infraction", "LATE", "WARNING", "WARNING", "confirmed", ""),
        ("CSV judge", "2", "2", "infraction", "LATE", "WARNING", "WARNING", "confirmed",
         "LATE")]


def test_the_xlsx_export_has_the_csv_s_columns_and_rows(sample: TestClient) -> None:
    player = player_id(9)
    assert _record(sample, player_id=player, judge="XLSX judge", code="MARKED_MINOR",
                   round="5") == 303
    exported = sample.get("/log.xlsx")
    assert exported.headers["content-type"] == XLSX
    assert exported.headers["content-disposition"] == 'attachment; filename="penalty-log.xlsx"'
    sheet = load_workbook(io.BytesIO(exported.content))["Penalty log"]
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[0] == HEADER
    [row] = [dict(zip(HEADER, r, strict=True)) for r in values[1:] if r[2] == player]
    [csv_row] = [r for r in _csv_rows(sample) if r["Player ID"] == player]
    assert (row["Judge"], row["Round"], row["Codes"], row["Penalty"]) == (
        "XLSX judge", 5, "MARKED_MINOR", "CAUTION")
    assert {k: "" if v is None else str(v) for k, v in row.items()} == csv_row


@pytest.mark.parametrize("field", ["round", "duel"])
@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "-1"])
def test_a_number_of_the_log_form_in_anything_but_ascii_digits_is_a_form_error(
        sample: TestClient, field: str, value: str) -> None:
    before = len(event_of(sample).db.log(LEGAL_PLAYER))
    answer = sample.post("/log", data={"csrf": csrf_token(sample, "/log"),
                                       "player_id": LEGAL_PLAYER, "judge": "J", "code": "LATE",
                                       "round": "1", "duel": "1", field: value})
    assert answer.status_code == 400
    assert refusal(answer) == [("number", "BAD_OPTION")]
    assert len(event_of(sample).db.log(LEGAL_PLAYER)) == before
