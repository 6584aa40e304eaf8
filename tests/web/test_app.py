"""The web app through its HTTP interface (no browser): organizer flow, judge flow,
penalty log, and every security item."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TypedDict, Unpack

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from validator.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent.parent
WORKBOOK = ROOT / "sample_decklists" / "regional-tcg.xlsx"
DECKS = ROOT / "decks" / "tcg"
FORBIDDEN_PLAYER = "0400143843"  # Pot of Greed in the side deck (README table)
LEGAL_PLAYER = "0400001301"


def _token(client: TestClient, path: str = "/") -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert match
    return match.group(1)


#: the test client calls itself "testserver"
HOSTS = frozenset({"testserver", "127.0.0.1", "localhost"})


class _AppOptions(TypedDict, total=False):
    """The options of :func:`create_app` that the tests vary."""

    password: str | None
    data_dir: Path | None
    max_upload: int


def _client(db: Path, **options: Unpack[_AppOptions]) -> TestClient:
    return TestClient(create_app(db, cards_spec="demo", hosts=HOSTS, **options))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path / "event.sqlite") as c:
        yield c


def _upload_sample(client: TestClient) -> None:
    token = _token(client)
    event = client.post("/event", data={"csrf": token, "name": "Sample Regional",
                                        "date": "2026-12-05", "format": "advanced-tcg",
                                        "regulation": "th", "lang": "en"})
    assert event.status_code == 200
    lists = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                        files=[("files", (WORKBOOK.name, WORKBOOK.read_bytes()))])
    assert "1 registration file(s) received" in lists.text
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for deck in sorted(DECKS.glob("*.ydk")):
            archive.writestr(deck.name, deck.read_bytes())
    decks = client.post("/upload/decks", data={"csrf": token},
                        files=[("files", ("decks.zip", buffer.getvalue()))])
    assert decks.status_code == 200


def test_upload_sample_event_and_see_illegal_players(client: TestClient) -> None:
    _upload_sample(client)
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
    _upload_sample(client)
    xlsx = client.get("/report.xlsx")
    assert xlsx.status_code == 200
    workbook = load_workbook(io.BytesIO(xlsx.content))
    assert workbook.sheetnames[:3] == ["Summary", "Players", "Violations"]
    report = client.get("/report.json").json()
    assert report["summary"]["illegal"] == 11


def test_judge_finds_missing_card_records_and_history_survives_restart(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with _client(db) as client:
        _upload_sample(client)
        page = client.get(f"/judge/{LEGAL_PLAYER}").text
        fields = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))
        assert len(fields) > 10
        missing = next(iter(fields))
        fields[missing] = str(int(fields[missing]) - 1)  # one copy is not in the deck
        token = _token(client, f"/judge/{LEGAL_PLAYER}")
        form = {"csrf": token, "judge": "Head Judge", "round": "3", "duel": "2",
                "stage": "in-duel", **fields}
        checked = client.post(f"/judge/{LEGAL_PLAYER}/check", data=form).text
        assert "LIST_MISMATCH" in checked
        assert "Duel Forfeiture" in checked
        assert "the duel in progress" in checked
        recorded = client.post(f"/judge/{LEGAL_PLAYER}/record",
                               data={**form, "penalty": "DUEL_FORFEITURE"})
        assert recorded.status_code == 200
        assert "LIST_MISMATCH" in recorded.text
    with _client(db) as restarted:
        history = restarted.get(f"/players/{LEGAL_PLAYER}").text
        assert "Head Judge" in history
        assert "DUEL_FORFEITURE" in history
        again = restarted.post(f"/judge/{LEGAL_PLAYER}/check",
                               data={**form, "csrf": _token(restarted)}).text
        assert "Repeat" in again


def test_downgrade_needs_a_reason(client: TestClient) -> None:
    _upload_sample(client)
    token = _token(client)
    form = {"csrf": token, "judge": "J", "deck_text": "#main\n14558127\n"}
    refused = client.post(f"/judge/{LEGAL_PLAYER}/record", data={**form, "penalty": "WARNING"})
    assert refused.status_code == 400
    assert "the reason</span>: <code>BAD_OPTION</code>" in refused.text


def test_infraction_log_export_and_print(client: TestClient) -> None:
    _upload_sample(client)
    token = _token(client, "/log")
    made = client.post("/log", data={"csrf": token, "player_id": LEGAL_PLAYER,
                                     "judge": "=HYPERLINK(\"http://x\")", "code": "LATE_5",
                                     "round": "1"})
    assert made.status_code == 200
    assert "DUEL_FORFEITURE" in made.text
    exported = client.get("/log.csv").text
    assert "'=HYPERLINK" in exported
    workbook = load_workbook(io.BytesIO(client.get("/log.xlsx").content))
    judge_cell = workbook.active["E2"]  # type: ignore[index]
    assert judge_cell.value.startswith("=HYPERLINK")
    assert judge_cell.data_type == "s"
    printable = client.get(f"/players/{LEGAL_PLAYER}/log").text
    assert "LATE_5" in printable


def test_forged_form_without_csrf_is_refused(client: TestClient) -> None:
    refused = client.post("/event", data={"name": "x", "date": "2026-01-01",
                                          "format": "advanced-tcg", "regulation": "th",
                                          "lang": "en"})
    assert refused.status_code == 403
    assert "security token" in refused.text
    wrong = client.post("/event", data={"csrf": "forged", "name": "x"})
    assert wrong.status_code == 403


def test_oversized_upload_is_refused_with_a_message(tmp_path: Path) -> None:
    with _client(tmp_path / "e.sqlite", max_upload=1 << 20) as client:
        token = _token(client)
        big = client.post("/upload/registrations", data={"csrf": token},
                          files=[("files", ("big.csv", b"a," * (1 << 20)))])
        assert big.status_code == 413
        assert "larger than 1 MiB" in big.text


def test_card_name_script_is_shown_as_text(client: TestClient) -> None:
    token = _token(client)
    csv_text = ("Player ID,Player Name,Section,Qty,Card Name\n"
                "P1,<script>alert(1)</script>,Main,3,<script>alert('x')</script>\n")
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", ("list.csv", csv_text.encode()))])
    page = client.get("/players/P1").text
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_zip_bomb_and_wrong_types_are_refused(client: TestClient) -> None:
    token = _token(client)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("0001.ydk", b"0" * (300 << 20))
    bomb = client.post("/upload/decks", data={"csrf": token},
                       files=[("files", ("decks.zip", buffer.getvalue()))])
    # refused, and shown at the top of the event page (a reload uploads nothing again)
    assert bomb.history[0].status_code == 303
    assert "decks.zip: <code>ZIP_UNSAFE</code>" in bomb.text
    exe = client.post("/upload/decks", data={"csrf": token},
                      files=[("files", ("tool.exe", b"MZ"))])
    assert "tool.exe: <code>WRONG_FILE_TYPE</code>" in exe.text
    fake = client.post("/upload/registrations", data={"csrf": token},
                       files=[("files", ("lists.xlsx", b"not a zip"))])
    assert "lists.xlsx: <code>WRONG_FILE_TYPE</code>" in fake.text


def test_path_in_upload_name_never_reaches_the_file_system(client: TestClient,
                                                           tmp_path: Path) -> None:
    token = _token(client)
    evil = "../../../../tmp/deckcheck-evil.csv"
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", (evil, b"Player ID,Section,Qty,Card Name\nP1,Main,3,Raigeki\n"))])
    assert not Path("/tmp/deckcheck-evil.csv").exists()
    assert "deckcheck-evil.csv" in client.get("/").text


def test_password_protects_every_page(tmp_path: Path) -> None:
    with _client(tmp_path / "e.sqlite", password="s3cret") as client:
        assert client.get("/", follow_redirects=False).status_code == 303
        token = _token(client, "/login")
        wrong = client.post("/login", data={"csrf": token, "password": "nope"})
        assert wrong.status_code == 401
        ok = client.post("/login", data={"csrf": token, "password": "s3cret"})
        assert ok.status_code == 200
        assert "Registered deck lists" in client.get("/").text


def test_the_organizer_picks_the_events_list_from_the_data_store(tmp_path: Path) -> None:
    from validator.cards.store import import_into_store

    # a stricter list than the demo one: Ash Blossom Forbidden
    strict = tmp_path / "Strict.lflist.conf"
    strict.write_text("#[2026.06 Strict TCG]\n!2026.06 Strict TCG\n14558127 0 --Ash Blossom\n")
    data = tmp_path / "data"
    import_into_store([strict], data)
    with _client(tmp_path / "event.sqlite", data_dir=data) as client:
        _upload_sample(client)
        assert "2026.06 Strict TCG" in client.get("/").text  # offered on the event form
        assert "9 illegal" in client.get("/").text  # the demo cards' own list by default
        token = _token(client)
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
    token = _token(client)
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
    _upload_sample(client)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # 2025-12-01 00:00 UTC
    first = client.get("/report.xlsx").content
    workbook = load_workbook(io.BytesIO(first))
    assert workbook.properties.created == dt.datetime(2025, 12, 1)
    assert client.get("/report.xlsx").content == first  # the same bytes every time
