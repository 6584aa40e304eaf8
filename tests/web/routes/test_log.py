"""The penalty log through the web app: recording an infraction of the regulation's
catalogue, the log page, and its CSV and XLSX exports (``validator/web/routes/log.py``).

The tests share one sample event; each records for players of its own."""

from __future__ import annotations

import csv
import datetime as dt
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
    ({"player_id": ""}, [("log", "BAD_OPTION")]),
    ({"penalty": "BANISHMENT"}, [("penalty", "BAD_OPTION")]),
    ({"penalty": "CAUTION"}, [("reason", "BAD_OPTION")]),  # a downgrade without a reason
    ({"round": "²"}, [("round", "BAD_OPTION")]),  # each number field named as itself
    ({"duel": "two"}, [("duel", "BAD_OPTION")]),
    ({"table": "9" * 30}, [("table", "BAD_OPTION")]),
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
    for who, confirm in ((player, ""), (player, "1"), (other, "")):
        assert _record(sample, player_id=who, judge="J", code="LOOK_EXTRA", confirm=confirm) == 303
    page = sample.get("/log", params={"player": player}).text
    assert f'name="player_id" list="players" value="{player}"' in page
    first, again = (e.id for e in sorted(event_of(sample).db.log(player), key=lambda e: e.id))
    rows = {int(number): mark for number, mark in re.findall(
        r'<tr id="entry-(\d+)" class="([^"]*)">', page)}
    assert rows == {first: "", again: "repeat"}  # not the other player's
    assert "repeat: LOOK_EXTRA" in page


def test_the_csv_export_has_a_row_per_entry_under_the_log_s_columns(sample: TestClient) -> None:
    player = player_id(8)
    for duel in ("1", "2"):
        assert _record(sample, player_id=player, judge="CSV judge", code="LATE",
                       round="2", duel=duel, confirm="1" if duel == "2" else "") == 303
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


def _form_key(client: TestClient, path: str = "/log") -> str:
    match = re.search(r'name="form_key" value="([^"]+)"', client.get(path).text)
    assert match
    return match.group(1)


def test_a_form_sent_again_records_once_and_shows_the_entry_made(sample: TestClient) -> None:
    player = player_id(10)
    fields = {"csrf": csrf_token(sample, "/log"), "form_key": _form_key(sample),
              "player_id": player, "judge": "J", "code": "LATE", "round": "1"}
    first = sample.post("/log", data=fields, follow_redirects=False)
    assert first.status_code == 303
    [entry] = event_of(sample).db.log(player)
    for _ in range(2):  # Back and submit, a reload, a second tab with the same form
        again = sample.post("/log", data=fields, follow_redirects=False)
        assert again.headers["location"] == f"/log/{entry.id}?again=1"
    assert [e.id for e in event_of(sample).db.log(player)] == [entry.id]
    shown = sample.get(f"/log/{entry.id}?again=1").text
    assert 'id="already"' in shown


def test_a_second_form_for_the_same_incident_asks_before_recording(sample: TestClient) -> None:
    player = player_id(11)
    fields = {"player_id": player, "judge": "J", "code": "SLOW_PLAY", "round": "2"}
    assert _record(sample, form_key=_form_key(sample), **fields) == 303
    [first] = event_of(sample).db.log(player)
    key = _form_key(sample)
    asked = sample.post("/log", data={"csrf": csrf_token(sample, "/log"), "form_key": key,
                                      **fields})
    assert asked.status_code == 200
    assert f'data-entry="{first.id}"' in asked.text
    assert len(event_of(sample).db.log(player)) == 1  # nothing recorded yet
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                             asked.text))
    assert (hidden["form_key"], hidden["player_id"]) == (key, player)
    confirmed = sample.post("/log", data={**hidden, "confirm": "1"}, follow_redirects=False)
    assert confirmed.status_code == 303
    assert len(event_of(sample).db.log(player)) == 2
    # another round is another incident: no question
    assert _record(sample, form_key=_form_key(sample), **{**fields, "round": "3"}) == 303


def test_an_unknown_player_id_is_refused_with_the_closest_players(sample: TestClient) -> None:
    player = player_id(12)
    typo = player[:-2] + player[-1] + player[-2]  # the last two digits swapped
    assert typo != player
    answer = sample.post("/log", data={"csrf": csrf_token(sample, "/log"), "player_id": typo,
                                       "judge": "J", "code": "LATE"})
    assert answer.status_code == 400
    assert 'data-code="UNKNOWN_PLAYER"' in answer.text
    suggested = re.findall(r'data-suggest="([^"]+)"', answer.text)
    assert player in suggested
    assert event_of(sample).db.log(typo) == []
    assert event_of(sample).db.log(player) == []
    picked = sample.post("/log", data={"csrf": csrf_token(sample, "/log"), "player_id": typo,
                                       "pick": player, "judge": "J", "code": "LATE"},
                         follow_redirects=False)
    assert picked.status_code == 303
    [entry] = event_of(sample).db.log(player)
    assert entry.player_name  # the player's name, from the event
    assert entry.player_name in sample.get("/log").text


def test_a_walk_in_or_a_spectator_is_recorded_as_such(sample: TestClient) -> None:
    assert _record(sample, who="spectator", player_name="Sam Watcher", judge="J",
                   code="TALKING_TO_OTHERS") == 303
    [entry] = [e for e in event_of(sample).db.log() if e.player_name == "Sam Watcher"]
    assert (entry.player_kind, entry.player_id) == ("spectator", "spectator")
    assert _record(sample, who="walk-in", judge="J", code="LATE") == 400  # no name


def test_void_and_correction_keep_the_original_in_the_record_and_exports(
        sample: TestClient) -> None:
    player = player_id(13)
    assert _record(sample, player_id=player, judge="Floor A", code="LATE", round="1") == 303
    assert _record(sample, player_id=player, judge="Floor A", code="LOOK_EXTRA",
                   round="1") == 303
    late, look = sorted(event_of(sample).db.log(player), key=lambda e: e.id)
    token = csrf_token(sample, f"/log/{late.id}")
    assert sample.post(f"/log/{late.id}/void", data={
        "csrf": token, "judge": "HJ Mai", "reason": "wrong player"},
        follow_redirects=False).status_code == 303
    corrected = sample.post(f"/log/{look.id}/correct", data={
        "csrf": token, "judge": "HJ Mai", "penalty": "WARNING", "table": "12",
        "reason": "looked at two cards"}, follow_redirects=False)
    assert corrected.status_code == 303
    entries = {e.id: e for e in event_of(sample).db.log(player)}
    assert len(entries) == 3  # nothing deleted
    new = next(e for e in entries.values() if e.replaces == look.id)
    void, correction = entries[late.id].change, entries[look.id].change
    assert void is not None
    assert correction is not None
    assert (void.action, void.made_by, void.reason) == ("void", "HJ Mai", "wrong player")
    assert (correction.action, correction.replacement) == ("correct", new.id)
    assert (new.penalty, new.table, new.round, new.codes, new.in_effect) == (
        "WARNING", 12, 1, ["LOOK_EXTRA"], True)
    again = sample.post(f"/log/{look.id}/correct", data={
        "csrf": token, "judge": "HJ Mai", "reason": "twice"})
    assert refusal(again) == [("log", "BAD_OPTION")]  # the entry in effect is the new one
    rows = {r["#"]: r for r in _csv_rows(sample) if r["Player ID"] == player}
    assert (rows[str(late.id)]["Status"], rows[str(late.id)]["Changed by"],
            rows[str(late.id)]["Change reason"]) == ("voided", "HJ Mai", "wrong player")
    assert rows[str(look.id)]["Status"] == f"corrected by #{new.id}"
    assert (rows[str(new.id)]["Status"], rows[str(new.id)]["Corrects"]) == (
        "in effect", str(look.id))
    sheet = load_workbook(io.BytesIO(sample.get("/log.xlsx").content))["Penalty log"]
    statuses = {str(r[0]): r[HEADER.index("Status")] for r in sheet.iter_rows(
        min_row=2, values_only=True) if r[2] == player}
    assert statuses == {str(late.id): "voided", str(look.id): f"corrected by #{new.id}",
                        str(new.id): "in effect"}
    printable = sample.get(f"/players/{player}/log").text
    assert 'data-status="void"' in printable
    assert 'data-status="correct"' in printable
    assert "wrong player" in printable
    assert sample.get("/log").text.count(f'id="entry-{late.id}" class=" changed"') == 1


def test_exports_carry_infraction_texts_clause_and_applies_to(sample: TestClient) -> None:
    player = player_id(14)
    assert _record(sample, player_id=player, judge="J", code="LATE_5", round="4",
                   table="7", stage="between-duels") == 303
    [row] = [r for r in _csv_rows(sample) if r["Player ID"] == player]
    [entry] = event_of(sample).db.log(player)
    assert row["Player"] == entry.player_name != ""
    assert row["Infraction"] == entry.details["infraction"] != ""
    assert row["Clause"].startswith("th §5 ")
    assert row["Applies to"] == entry.details["applies_to"] != ""
    assert (row["Round"], row["Table"], row["Time zone"]) == ("4", "7", "UTC")
    printable = sample.get(f"/players/{player}/log").text
    assert entry.details["infraction"] in printable
    assert "th §5 " in printable


def test_times_are_shown_in_the_event_s_time_zone(sample_alone: TestClient) -> None:
    client = sample_alone
    token = csrf_token(client)
    saved = client.post("/event", data={
        "csrf": token, "name": "Sample Regional", "date": "2026-12-05",
        "format": "advanced-tcg", "regulation": "th", "lang": "en",
        "timezone": "Asia/Bangkok"}, follow_redirects=False)
    assert saved.status_code == 303
    assert event_of(client).settings().timezone == "Asia/Bangkok"
    assert _record(client, player_id=LEGAL_PLAYER, judge="J", code="LATE") == 303
    [entry] = event_of(client).db.log(LEGAL_PLAYER)
    utc = dt.datetime.fromisoformat(entry.recorded_at)
    local = (utc + dt.timedelta(hours=7)).strftime("%Y-%m-%d %H:%M:%S")
    [row] = [r for r in _csv_rows(client) if r["Player ID"] == LEGAL_PLAYER]
    assert (row["Recorded (local time)"], row["Time zone"]) == (local, "Asia/Bangkok")
    assert local in client.get("/log").text
    refused = client.post("/event", data={
        "csrf": token, "name": "Sample Regional", "date": "2026-12-05",
        "format": "advanced-tcg", "regulation": "th", "lang": "en", "timezone": "Mars/Base"})
    assert refusal(refused) == [("timezone", "BAD_OPTION")]
    assert event_of(client).settings().timezone == "Asia/Bangkok"


def test_the_judge_s_name_is_entered_once_per_device(sample_alone: TestClient) -> None:
    client = sample_alone
    nobody = client.post("/log", data={"csrf": csrf_token(client, "/log"),
                                       "player_id": LEGAL_PLAYER, "code": "LATE"})
    assert refusal(nobody) == [("judge", "BAD_OPTION")]
    assert client.post("/judges/me", data={"csrf": csrf_token(client), "name": "Mai Head",
                                           "head": "1"},
                       follow_redirects=False).status_code == 303
    page = client.get("/log").text
    assert "Judge: Mai Head (head judge)" in page
    assert 'name="judge"' not in page  # no typed name per record
    assert _record(client, player_id=LEGAL_PLAYER, code="LATE") == 303
    [entry] = event_of(client).db.log(LEGAL_PLAYER)
    assert (entry.judge, entry.head_judge) == ("Mai Head", True)
    client.post("/judges/me", data={"csrf": csrf_token(client), "name": "Kim Floor"})
    assert _record(client, player_id=LEGAL_PLAYER, code="LATE", round="2") == 303
    latest_entry = max(event_of(client).db.log(LEGAL_PLAYER), key=lambda e: e.id)
    assert (latest_entry.judge, latest_entry.head_judge) == ("Kim Floor", False)


@pytest.mark.parametrize("field", ["round", "duel"])
@pytest.mark.parametrize("value", ["²", "٣", "9" * 5000, "-1"])
def test_a_number_of_the_log_form_in_anything_but_ascii_digits_is_a_form_error(
        sample: TestClient, field: str, value: str) -> None:
    before = len(event_of(sample).db.log(LEGAL_PLAYER))
    answer = sample.post("/log", data={"csrf": csrf_token(sample, "/log"),
                                       "player_id": LEGAL_PLAYER, "judge": "J", "code": "LATE",
                                       "round": "1", "duel": "1", field: value})
    assert answer.status_code == 400
    assert refusal(answer) == [(field, "BAD_OPTION")]  # the field at fault, by its name
    assert len(event_of(sample).db.log(LEGAL_PLAYER)) == before
