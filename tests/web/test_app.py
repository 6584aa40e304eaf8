"""The web app through its HTTP interface (no browser): organizer flow, judge flow,
penalty log, and every security item."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from tests.web.helpers import (
    FORBIDDEN_PLAYER,
    LEGAL_PLAYER,
    ROOT,
    client_for,
    csrf_token,
    upload_sample,
)


def test_upload_sample_event_and_see_illegal_players(client: TestClient) -> None:
    upload_sample(client)
    page = client.get("/?status=illegal").text
    assert "64 players" in page
    # 9 illegal; the 'Ash Blosom' and 'three' players wait for the head judge's decision
    assert "9 illegal" in page
    assert "2 need a decision" in page
    assert FORBIDDEN_PLAYER in page
    assert LEGAL_PLAYER not in page
    by_code = client.get("/?code=FORBIDDEN_CARD").text
    assert FORBIDDEN_PLAYER in by_code
    assert "0400025058" not in by_code  # illegal, but for LIMIT_EXCEEDED
    player = client.get(f"/players/{FORBIDDEN_PLAYER}").text
    assert "Pot of Greed is Forbidden" in player
    assert "Duel Forfeiture" in player
    assert "the head judge decides how the deck list and the deck" in player


def test_report_downloads(client: TestClient) -> None:
    upload_sample(client)
    xlsx = client.get("/report.xlsx")
    assert xlsx.status_code == 200
    workbook = load_workbook(io.BytesIO(xlsx.content))
    assert workbook.sheetnames[:3] == ["Summary", "Players", "Violations"]
    report = client.get("/report.json").json()
    assert report["summary"]["illegal"] == 11


def test_forged_form_without_csrf_is_refused(client: TestClient) -> None:
    refused = client.post("/event", data={"name": "x", "date": "2026-01-01",
                                          "format": "advanced-tcg", "regulation": "th",
                                          "lang": "en"})
    assert refused.status_code == 403
    assert "security token" in refused.text
    wrong = client.post("/event", data={"csrf": "forged", "name": "x"})
    assert wrong.status_code == 403


def test_oversized_upload_is_refused_with_a_message(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", max_upload=1 << 20) as client:
        token = csrf_token(client)
        big = client.post("/upload/registrations", data={"csrf": token},
                          files=[("files", ("big.csv", b"a," * (1 << 20)))])
        assert big.status_code == 413
        assert "larger than 1 MiB" in big.text


def test_zip_bomb_and_wrong_types_are_refused(client: TestClient) -> None:
    token = csrf_token(client)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("0001.ydk", b"0" * (300 << 20))
    bomb = client.post("/upload/decks", data={"csrf": token},
                       files=[("files", ("decks.zip", buffer.getvalue()))])
    assert bomb.status_code == 400
    assert "decks.zip: ZIP_UNSAFE" in bomb.text
    exe = client.post("/upload/decks", data={"csrf": token},
                      files=[("files", ("tool.exe", b"MZ"))])
    assert exe.status_code == 400
    assert "tool.exe: WRONG_FILE_TYPE" in exe.text
    fake = client.post("/upload/registrations", data={"csrf": token},
                       files=[("files", ("lists.xlsx", b"not a zip"))])
    assert fake.status_code == 400
    assert "lists.xlsx: WRONG_FILE_TYPE" in fake.text


def test_path_in_upload_name_never_reaches_the_file_system(client: TestClient,
                                                           tmp_path: Path) -> None:
    token = csrf_token(client)
    evil = "../../../../tmp/deckcheck-evil.csv"
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", (evil, b"Player ID,Section,Qty,Card Name\nP1,Main,3,Raigeki\n"))])
    assert not Path("/tmp/deckcheck-evil.csv").exists()
    assert "deckcheck-evil.csv" in client.get("/").text


def test_the_organizer_picks_the_events_list_from_the_data_store(tmp_path: Path) -> None:
    from validator.cards.store import import_into_store

    # a stricter list than the demo one: Ash Blossom Forbidden
    strict = tmp_path / "Strict.lflist.conf"
    strict.write_text("#[2026.06 Strict TCG]\n!2026.06 Strict TCG\n14558127 0 --Ash Blossom\n")
    data = tmp_path / "data"
    import_into_store([strict], data)
    with client_for(tmp_path / "event.sqlite", data_dir=data) as client:
        upload_sample(client)
        assert "2026.06 Strict TCG" in client.get("/").text  # offered on the event form
        assert "9 illegal" in client.get("/").text  # the demo cards' own list by default
        token = csrf_token(client)
        chosen = client.post("/event", data={"csrf": token, "name": "Sample Regional",
                                             "date": "2026-12-05", "format": "advanced-tcg",
                                             "regulation": "th", "lang": "en",
                                             "banlist": "2026.06 Strict TCG"})
        assert chosen.status_code == 200
        page = client.get("/?code=FORBIDDEN_CARD").text
        assert 'value="2026.06 Strict TCG" selected' in page
        report = client.get("/report.json").json()
        assert report["banlist"] == "2026.06 Strict TCG"
        assert report["summary"]["violations_by_code"]["FORBIDDEN_CARD"] > 1
        refused = client.post("/event", data={"csrf": token, "name": "x", "date": "2026-12-05",
                                              "format": "advanced-tcg", "regulation": "th",
                                              "lang": "en", "banlist": "No Such List"})
        assert refused.status_code == 400


def test_a_zip_of_filled_pdf_sheets_is_an_event_s_registrations(client: TestClient) -> None:
    """An organizer's e-mailed PDF sheets, uploaded as one zip: every player listed, each
    sheet's unreadable row shown at its field."""
    token = csrf_token(client)
    buffer = io.BytesIO()
    sheets = sorted((ROOT / "sample_decklists" / "pdf").glob("*.pdf"))
    with zipfile.ZipFile(buffer, "w") as archive:
        for sheet in sheets:
            archive.writestr(sheet.name, sheet.read_bytes())
    sent = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                       files=[("files", ("sheets.zip", buffer.getvalue()))])
    assert "1 registration file(s) received" in sent.text
    players = client.get("/").text
    for sheet in sheets:
        assert sheet.stem in players
    assert "Monster Card 10 Count" in client.get("/players/0400381413").text


def test_the_web_report_is_dated_by_source_date_epoch_as_the_command_lines_is(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    upload_sample(client)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # 2025-12-01 00:00 UTC
    first = client.get("/report.xlsx").content
    workbook = load_workbook(io.BytesIO(first))
    assert workbook.properties.created == dt.datetime(2025, 12, 1)
    assert client.get("/report.xlsx").content == first  # the same bytes every time
