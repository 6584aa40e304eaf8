"""Rounds on the floor over HTTP: pairings imported, a player found by table, a deck check
recorded with its round and table, deck-check draws and the round's sheet."""

from __future__ import annotations

import html
import io
import json
import re

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from tests.web.helpers import LEGAL_PLAYER, csrf_token, event_of
from validator.event import rounds

TABLE = 12


def _players(client: TestClient) -> list[tuple[str, str]]:
    result = event_of(client).snapshot().result
    assert result is not None
    return [(str(p), str(n)) for p, n in result.players.select("player_id", "player_name")
            .sort("player_id").rows()]


def _pairings_csv(client: TestClient, round_: int, shift: int = 0) -> bytes:
    """A KTS-style export of a round: the legal player at table 12, the others in order."""
    ids = [pid for pid, _ in _players(client) if pid != LEGAL_PLAYER]
    ids = ids[shift:] + ids[:shift]
    ids.insert(2 * (TABLE - 1), LEGAL_PLAYER)
    names = dict(_players(client))
    lines = ["Round,Table,Player 1 ID,Player 1,Player 2 ID,Player 2"]
    for i in range(0, len(ids) - 1, 2):
        lines.append(f"{round_},{i // 2 + 1},{ids[i]},{names[ids[i]]},{ids[i + 1]},"
                     f"{names[ids[i + 1]]}")
    return ("\n".join(lines) + "\n").encode()


def _import(client: TestClient, data: bytes, round_: str = "", name: str = "round.csv",
            pasted: str = "") -> str:
    response = client.post("/rounds/import", data={"csrf": csrf_token(client, "/rounds"),
                                                     "round": round_, "pasted": pasted},
                           files=[("file", (name, data))] if data else None)
    assert response.status_code == 200
    return response.text


def _codes(page: str) -> list[tuple[str, str]]:
    return [(html.unescape(place), code) for place, code in
            re.findall(r'<li data-place="([^"]*)" data-code="([A-Z_]+)">', page)]


def _hidden(page: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page))


def _table(page: str) -> str:
    """The table field of the judge's form (prefilled with the player's table)."""
    found = re.search(r'name="table"[^>]*value="([^"]*)"', page)
    assert found is not None
    return found.group(1)


def test_round_3_pairings_a_judge_finds_table_12_and_records_a_duel_forfeiture(
        sample_alone: TestClient) -> None:
    client = sample_alone
    page = _import(client, _pairings_csv(client, 3))
    assert "64 player(s) seated." in page
    db = event_of(client).db
    assert rounds.current_round(db) == 3
    assert rounds.table_of(db, LEGAL_PLAYER) == TABLE
    found = client.get("/judge", params={"q": str(TABLE)}).text
    seated = found[found.index("at-table"):found.index("</ul>", found.index("at-table"))]
    assert f'href="/judge/{LEGAL_PLAYER}"' in seated
    assert len(re.findall(r'href="/judge/', seated)) == 2
    seat = f'data-round="3" data-table="{TABLE}"'
    assert seat in client.get(f"/players/{LEGAL_PLAYER}").text
    form_page = client.get(f"/judge/{LEGAL_PLAYER}").text
    assert seat in form_page
    hidden = _hidden(form_page)
    assert _table(form_page) == str(TABLE)
    assert re.search(r'name="round"[^>]*value="3"', form_page)
    log_form = client.get("/log", params={"player": LEGAL_PLAYER}).text  # the same defaults
    assert _table(log_form) == str(TABLE)
    assert re.search(r'name="round"[^>]*value="3"', log_form)
    counts = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', form_page))
    first = next(iter(counts))
    counts[first] = str(int(counts[first]) - 1)
    form = {"csrf": hidden["csrf"], "judge": "Mai", "round": "3", "duel": "1",
            "stage": "in-duel", "table": _table(form_page), "started_at": hidden["started_at"],
            **counts}
    result = client.post(f"/judge/{LEGAL_PLAYER}/check", data=form).text
    record = result[result.index(f'action="/judge/{LEGAL_PLAYER}/record"'):]
    assert _hidden(record)["table"] == str(TABLE)
    extension = re.search(r'name="extension"[^>]*value="(\d+)"', record)
    assert extension is not None
    done = client.post(f"/judge/{LEGAL_PLAYER}/record",
                       data={**form, "penalty": "DUEL_FORFEITURE", "extension": "4"})
    assert done.status_code == 200
    [entry] = db.log(LEGAL_PLAYER)
    assert (entry.penalty, entry.round, entry.table) == ("DUEL_FORFEITURE", 3, TABLE)
    [check] = rounds.deck_checks(db, 3)
    assert (check.player_id, check.judge, check.table, check.result, check.log_entry,
            check.extension) == (LEGAL_PLAYER, "Mai", TABLE, "DUEL_FORFEITURE", entry.id, 4)
    assert check.started_at == hidden["started_at"]
    sheet = client.get("/rounds/3/sheet").text
    assert "DUEL_FORFEITURE" in sheet
    assert "4 min" in sheet


def test_a_legal_deck_check_is_recorded_with_its_extension(sample_alone: TestClient) -> None:
    client = sample_alone
    _import(client, _pairings_csv(client, 1))
    form_page = client.get(f"/judge/{LEGAL_PLAYER}").text
    hidden = _hidden(form_page)
    counts = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', form_page))
    form = {"csrf": hidden["csrf"], "judge": "Mai", "round": "1", "duel": "1",
            "stage": "in-duel", "table": _table(form_page),
            "started_at": "2026-12-05T10:00:00+00:00", **counts}
    result = client.post(f"/judge/{LEGAL_PLAYER}/check", data=form).text
    legal = result[result.index('action="/rounds/checks"'):]
    assert re.search(r'name="extension"[^>]*value="\d+"', legal)
    fields = {**_hidden(legal), "extension": "3"}
    answer = client.post("/rounds/checks", data=fields)
    assert answer.status_code == 200
    [check] = rounds.deck_checks(event_of(client).db, 1)
    assert (check.player_id, check.table, check.result, check.extension) == (
        LEGAL_PLAYER, TABLE, "legal", 3)
    refused = client.post("/rounds/checks", data={**fields, "extension": "lots"})
    assert refused.status_code == 400


def test_a_draw_of_5_is_recorded_repeatable_and_skips_tables_checked_in_rounds_1_2(
        sample_alone: TestClient) -> None:
    client = sample_alone
    db = event_of(client).db
    for round_ in (1, 2, 3):
        _import(client, _pairings_csv(client, round_, shift=round_))
    token = csrf_token(client, "/rounds/1")
    client.post("/rounds/1/draw", data={"csrf": token, "size": "4", "seed": "11"})
    earlier = rounds.draws(db, 1)[0].tables
    rounds.record_deck_check(db, player_id=LEGAL_PLAYER, judge="J", round=2, result="legal",
                             started_at="2026-12-05T10:00:00+00:00")
    skipped = {*earlier, TABLE}  # the legal player, checked in round 2, sits at table 12
    drawn = client.post("/rounds/3/draw", data={"csrf": token, "size": "5", "seed": "2026",
                                                "judge": "Head"})
    assert drawn.status_code == 200
    made = rounds.draws(db, 3)[0]
    assert (made.size, made.seed, made.drawn_by, len(made.tables)) == (5, 2026, "Head", 5)
    assert set(made.excluded) == skipped
    assert not skipped & set(made.tables)
    assert "2026" in drawn.text
    assert f"Tables {', '.join(map(str, made.tables))}" in drawn.text
    client.post("/rounds/3/draw", data={"csrf": token, "size": "5", "seed": "2026"})
    assert rounds.draws(db, 3)[0].tables == made.tables
    sheet = client.get("/rounds/3/sheet").text
    assert [int(t) for t in re.findall(r'<tr><td class="num">(\d+)</td>', sheet)] == \
        made.tables
    workbook = client.get("/rounds/3/sheet.xlsx")
    assert workbook.headers["content-type"].startswith("application/vnd.openxmlformats")
    ws = load_workbook(io.BytesIO(workbook.content)).active
    assert ws is not None
    assert [ws.cell(5 + 2 * i, 1).value for i in range(5)] == made.tables
    with_checked = client.post("/rounds/3/draw", data={"csrf": token, "size": "32",
                                                       "include_checked": "on"})
    assert with_checked.status_code == 200
    assert sorted(rounds.draws(db, 3)[0].tables) == list(range(1, 33))


def test_every_pairings_row_not_used_is_reported_with_the_closest_player(
        sample_alone: TestClient) -> None:
    client = sample_alone
    typo = LEGAL_PLAYER[:-2] + LEGAL_PLAYER[-1] + LEGAL_PLAYER[-2]
    others = [pid for pid, _ in _players(client) if pid != LEGAL_PLAYER]
    data = (f"Table,Player 1,Player 2\n1,{typo},{others[0]}\nx,{others[1]},{others[2]}\n"
            f"2,{others[3]},{others[4]}\n").encode()
    page = _import(client, data, round_="4")
    assert _codes(page) == [("round.csv:2 (B2)", "UNKNOWN_PAIRED_PLAYER"),
                            ("round.csv:3 (A3)", "BAD_PAIRING")]
    assert LEGAL_PLAYER in page[page.index("UNKNOWN_PAIRED_PLAYER"):]
    assert "3 player(s) seated" in page
    pasted = _import(client, b"", round_="5", pasted=f"1, {others[0]}, nobody at all\n")
    assert _codes(pasted) == [("pasted pairings:1", "UNKNOWN_PAIRED_PLAYER")]


def test_a_melee_round_and_a_tom_file_are_imported(sample_alone: TestClient) -> None:
    """Melee.gg's round pairings (JSON) name players (its Player1Id is Melee's own number,
    not read): a name two players share is reported at its record and field. A TOM file
    (.tdf, players by id, two rounds and a bye) seats the event's players."""
    client = sample_alone
    (_, a_name), (b, _), (c, _), (d, _), (e, _) = _players(client)[:5]
    melee = json.dumps({"draw": 1, "data": [
        {"RoundNumber": 6, "TableNumber": TABLE, "Player1": a_name, "Player1Id": 12345,
         "Player2": b, "Player2Id": 67890, "Result": "Not reported"}]}).encode()
    page = _import(client, melee, round_="6", name="melee.json")
    assert _codes(page) == [("melee.json:1 (Player1)", "AMBIGUOUS_PLAYER")]
    db = event_of(client).db
    assert rounds.round_tables(db, 6) == {TABLE: [b]}
    tom = (f'<tournament><pods><pod><rounds><round number="7"><matches><match outcome="1">'
           f'<player1 userid="{c}"/><player2 userid="{d}"/><tablenumber>3</tablenumber>'
           f'</match></matches></round><round number="8"><matches><match outcome="5">'
           f'<player userid="{e}"/><tablenumber>0</tablenumber></match><match outcome="0">'
           f'<player1 userid="{d}"/><player2 userid="{c}"/><tablenumber>1</tablenumber>'
           f'</match></matches></round></rounds></pod></pods></tournament>').encode()
    page = _import(client, tom, name="cup.tdf")
    assert _codes(page) == []
    assert "5 player(s) seated." in page
    assert rounds.round_tables(db, 7) == {3: [c, d]}
    assert rounds.round_tables(db, 8) == {1: [d, c], None: [e]}
    assert rounds.current_round(db) == 8


def test_the_organizer_sets_the_current_round(sample_alone: TestClient) -> None:
    client = sample_alone
    _import(client, _pairings_csv(client, 2))
    token = csrf_token(client, "/rounds")
    assert client.post("/rounds/current", data={"csrf": token, "round": "1"}).status_code == 200
    assert rounds.current_round(event_of(client).db) == 1
    assert 'class="current-round">1<' in client.get("/rounds").text
    assert client.post("/rounds/current", data={"csrf": token, "round": "0"}).status_code == 400


@pytest.mark.parametrize(("fields", "status"), [
    ({"round": "3"}, 400),  # neither a file nor pasted pairings
    ({"round": "", "pasted": "1, a, b"}, 400),  # pasted without a round
    ({"round": "three", "pasted": "1, a, b"}, 400),
])
def test_an_import_without_what_it_needs_is_refused(sample: TestClient,
                                                    fields: dict[str, str],
                                                    status: int) -> None:
    answer = sample.post("/rounds/import", data={"csrf": csrf_token(sample), **fields})
    assert answer.status_code == status
    assert rounds.rounds(event_of(sample).db) == []


def test_the_round_pages_before_any_registration(client: TestClient) -> None:
    assert "No registered lists yet" in client.get("/rounds").text
    refused = client.post("/rounds/import", data={"csrf": csrf_token(client), "pasted": "1,a,b",
                                                  "round": "1"})
    assert refused.status_code == 400
    assert "No pairings for this round" in client.get("/rounds/1").text
