"""The organizer's event page: the settings form, the uploads, the results and the report
downloads (``validator/web/routes/event.py``)."""

from __future__ import annotations

import datetime as dt
import html
import io
import json
import re
import subprocess
import sys
import textwrap
import time
import zipfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from urllib.parse import quote

import polars as pl
import pytest
from fastapi.testclient import TestClient
from openpyxl import Workbook, load_workbook

from tests.web.helpers import (
    FORBIDDEN_PLAYER,
    HOSTS,
    LEGAL_PLAYER,
    ROOT,
    client_for,
    csrf_token,
    event_of,
    refusal,
    upload_sample,
)
from validator.cards.store import import_into_store
from validator.event.store import EventSettings
from validator.inputs.decks.ydk import parse_ydk, to_ydke
from validator.text.i18n import say
from validator.web.app import create_app

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
SETTINGS = {"name": "Locals", "date": "2026-12-05", "format": "advanced-ocg",
            "regulation": "ja", "lang": "ja"}
#: one player's list, as a registration CSV
ONE_LIST = b"Player ID,Player Name,Section,Qty,Card Name\nP1,Ana Lee,Main,3,Raigeki\n"


def _legal_ydke() -> str:
    """The legal sample player's deck as a ydke:// link."""
    path = ROOT / "decks" / "tcg" / f"{LEGAL_PLAYER}.ydk"
    return to_ydke(parse_ydk(path.read_bytes(), path.name, LEGAL_PLAYER))


def _submitted_ids(client: TestClient) -> set[str]:
    result = event_of(client).snapshot().result
    assert result is not None
    assert result.submitted is not None
    return set(result.submitted["deck_id"].unique().to_list())


# --- the settings form

def test_the_settings_are_saved_and_shown_back(client: TestClient) -> None:
    saved = client.post("/event", data={"csrf": csrf_token(client), **SETTINGS},
                        follow_redirects=False)
    assert saved.status_code == 303
    # the page speaks the event's language when the browser asks for none of ours
    assert saved.headers["location"] == "/?msg=" + quote(say("ja", "Event saved."))
    assert event_of(client).db.settings() == EventSettings("Locals", "2026-12-05",
                                                           "advanced-ocg", "ja", "ja", "")
    page = client.get("/").text
    assert 'name="name" value="Locals"' in page
    assert "<option selected>advanced-ocg</option>" in page
    assert "<option selected>ja</option>" in page  # the regulation and the language


@pytest.mark.parametrize("wrong", [
    {"name": ""},
    {"format": "no-such-format"},
    {"regulation": "no-such-regulation"},
    {"regulation": "custom"},  # no policy file was uploaded
    {"lang": "xx"},
])
def test_the_settings_form_refuses_a_missing_or_unknown_value(
        sample: TestClient, wrong: dict[str, str]) -> None:
    refused = sample.post("/event", data={"csrf": csrf_token(sample), **SETTINGS, **wrong})
    assert refused.status_code == 400
    assert refusal(refused) == [("event", "BAD_OPTION")]
    assert event_of(sample).db.settings() == EventSettings(
        "Sample Regional", "2026-12-05", "advanced-tcg", "th", "en", "")


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
        assert refusal(refused) == [("banlist", "NO_LIST")]


# --- the organizer's own policy

def test_an_organizers_own_policy_is_uploaded_and_used(sample_alone: TestClient) -> None:
    from validator.engine.rules import CODES

    client = sample_alone
    codes = "".join(f'\n[codes.{c}]\nremedy = "make_legal"\n' for c in CODES
                    if c != "LIST_MISMATCH")
    policy = ('regulation = "store"\ntitle = "Store policy (example)"\n'
              '[penalties.GAME_LOSS]\nseverity = 2\nen = "Game Loss"\n'
              '[types.GAME_LOSS]\nin-duel = "this_duel"\nbetween-duels = "next_duel"\n'
              'between-matches = "next_duel"\npre-event = "first_duel"\n'
              '[codes.LIST_MISMATCH]\npenalty = "GAME_LOSS"\nremedy = "match_list"\n'
              'clause = { section = "4", heading = "Deck lists" }\n' + codes)
    token = csrf_token(client)
    uploaded = client.post("/policy", data={"csrf": token},
                           files=[("file", ("store.toml", policy.encode()))])
    assert uploaded.status_code == 200
    assert "Store policy (example)" in uploaded.text
    chosen = client.post("/event", data={"csrf": token, "name": "Store", "date": "2026-12-05",
                                         "format": "advanced-tcg", "regulation": "custom",
                                         "lang": "en"})
    assert chosen.status_code == 200
    report = client.get("/report.json").json()
    assert report["regulation"] == "store"
    types = {p["penalty"]["type"] for p in report["players"] if p["penalty"]}
    assert types == {"GAME_LOSS"}
    broken = client.post("/policy", data={"csrf": token},
                         files=[("file", ("bad.toml", b'regulation = "x"\ntitle = 3\n'))])
    assert broken.status_code == 400
    assert ("bad.toml (title)", "BAD_SETTING") in refusal(broken)


@pytest.mark.parametrize(("upload", "refused"), [
    ([], [("policy", "BAD_OPTION")]),
    ([("file", ("store.toml", b"regulation = \n"))], [("store.toml", "BAD_TOML")]),
    ([("file", ("store.toml", b"title = \"\xff\"\n"))], [("store.toml", "BAD_TOML")]),
    ([("file", ("store.txt", b"regulation = 'x'\n"))], [("store.txt", "WRONG_FILE_TYPE")]),
])
def test_a_policy_upload_that_is_no_policy_file_is_refused(
        sample: TestClient, upload: list[tuple[str, tuple[str, bytes]]],
        refused: list[tuple[str, str]]) -> None:
    answer = sample.post("/policy", data={"csrf": csrf_token(sample)}, files=upload or None)
    assert answer.status_code == 400
    assert refusal(answer) == refused
    assert event_of(sample).db.meta("policy") is None


# --- uploads

def test_registrations_add_up_unless_replaced(client: TestClient) -> None:
    token = csrf_token(client)
    other = ONE_LIST.replace(b"P1,Ana Lee", b"P2,Ben Kim")
    for name, content in (("a.csv", ONE_LIST), ("a-again.csv", ONE_LIST), ("b.csv", other)):
        client.post("/upload/registrations", data={"csrf": token},
                    files=[("files", (name, content))])
    # the same bytes again are recognised and not kept twice
    assert [n for n, _ in event_of(client).db.uploads("registrations")] == ["a.csv", "b.csv"]
    asked = client.post("/upload/registrations", data={"csrf": token, "replace": "on"},
                        files=[("files", ("c.csv", ONE_LIST))], follow_redirects=False)
    assert asked.headers["location"] == "/uploads/3"  # replace all is confirmed first
    assert [n for n, _ in event_of(client).db.uploads("registrations")] == ["a.csv", "b.csv"]
    client.post("/uploads/3/confirm", data={"csrf": token, "choice": "replace"})
    assert [n for n, _ in event_of(client).db.uploads("registrations")] == ["c.csv"]
    kept = event_of(client).db.submissions()
    assert [(s.kind, s.name, s.size, s.state) for s in kept] == [
        ("registrations", "a.csv", len(ONE_LIST), "active"),
        ("registrations", "b.csv", len(other), "active"),
        ("registrations", "c.csv", len(ONE_LIST), "active")]  # a and b set aside by c


def test_pasted_ydke_links_are_decks_until_the_decks_are_replaced(client: TestClient) -> None:
    token = csrf_token(client)
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", ("lists.csv", ONE_LIST))])
    sent = client.post("/upload/decks", data={"csrf": token, "links": f"P1 {_legal_ydke()}"},
                       follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["location"] == "/?upload=2#received"
    assert _submitted_ids(client) == {"P1"}
    deck = (ROOT / "decks" / "tcg" / f"{LEGAL_PLAYER}.ydk").read_bytes()
    client.post("/upload/decks", data={"csrf": token, "replace": "on"},
                files=[("files", ("P2.ydk", deck))])
    client.post("/uploads/3/confirm", data={"csrf": token, "choice": "replace"})
    assert event_of(client).db.uploads("links") == []
    assert _submitted_ids(client) == {"P2"}


@pytest.mark.parametrize("path", ["/upload/registrations", "/upload/decks"])
def test_an_upload_without_files_is_refused(sample: TestClient, path: str) -> None:
    before = event_of(sample).db.version()
    answer = sample.post(path, data={"csrf": csrf_token(sample)})
    assert answer.history[0].status_code == 303  # a reload sends nothing again
    assert "nothing was uploaded" in answer.text
    assert event_of(sample).db.version() == before


def test_zip_bomb_and_wrong_types_are_refused(sample: TestClient) -> None:
    client = sample
    before = event_of(client).db.version()
    token = csrf_token(client)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("0001.ydk", b"0" * (300 << 20))
    bomb = client.post("/upload/decks", data={"csrf": token},
                       files=[("files", ("decks.zip", buffer.getvalue()))])
    # each refusal is shown at the top of the event page (a reload uploads nothing again)
    assert bomb.history[0].status_code == 303
    assert refusal(bomb) == [("decks.zip", "ZIP_UNSAFE")]
    exe = client.post("/upload/decks", data={"csrf": token},
                      files=[("files", ("tool.exe", b"MZ"))])
    assert refusal(exe) == [("tool.exe", "WRONG_FILE_TYPE")]
    fake = client.post("/upload/registrations", data={"csrf": token},
                       files=[("files", ("lists.xlsx", b"not a zip"))])
    assert refusal(fake) == [("lists.xlsx", "WRONG_FILE_TYPE")]
    refused = [s for s in event_of(client).db.submissions() if s.state == "refused"]
    assert [(s.name, s.size) for s in refused] == [  # only the refusal is kept, no bytes
        ("decks.zip", 0), ("tool.exe", 0), ("lists.xlsx", 0)]
    assert before.split("|", 1)[1] == event_of(client).db.version().split("|", 1)[1]


def test_path_in_upload_name_never_reaches_the_file_system(client: TestClient) -> None:
    token = csrf_token(client)
    evil = "../../../../tmp/deckcheck-evil.csv"
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", (evil, b"Player ID,Section,Qty,Card Name\nP1,Main,3,Raigeki\n"))])
    assert not Path("/tmp/deckcheck-evil.csv").exists()
    assert "deckcheck-evil.csv" in client.get("/").text


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


def _xlsx_far_cell() -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet["A1"] = "Player ID"
    sheet["XFD1048576"] = "far"
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


HOSTILE: dict[str, Callable[[], bytes]] = {
    "far-cell.xlsx": _xlsx_far_cell,
    "field.csv": lambda: b'Player ID,Qty,Card Name\nP1,3,"' + b"x" * (128 << 10) + b'"\n',
    "wide.csv": lambda: b",".join([b"a"] * 1_000_000) + b"\n",
}


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_registration_file_is_one_clear_problem(client: TestClient,
                                                          name: str) -> None:
    token = csrf_token(client)
    started = time.perf_counter()
    response = client.post("/upload/registrations", data={"csrf": token},
                           files=[("files", (name, HOSTILE[name]()))])
    assert response.status_code == 200
    page = client.get("/").text
    assert time.perf_counter() - started < 10
    assert name in page
    assert re.search(r"columns|characters|cells", page)


HOSTILE_UNDER_LIMIT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))  # 2 GiB: a regression fails
sys.path.insert(0, {root!r})
from pathlib import Path
from tests.web.routes.test_event import HOSTILE
from validator.inputs.registrations.read import read_registration_files
for name, make in HOSTILE.items():
    reg = read_registration_files([Path(name)], [make()])
    assert reg.problems, name
    print(name, reg.problems[0].message[:60])
"""


def test_hostile_files_are_read_within_a_memory_limit() -> None:
    """The reader the upload hands those files to stays under 2 GiB."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(
        HOSTILE_UNDER_LIMIT.format(root=str(ROOT)))], capture_output=True, text=True,
        timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("\n") == len(HOSTILE)


def test_a_megabyte_of_bad_deck_lines_is_a_bounded_report(sample_alone: TestClient) -> None:
    client = sample_alone
    token = csrf_token(client)
    response = client.post("/upload/decks", data={"csrf": token},
                           files=[("files", ("0499999998.ydk", b"not a card\n" * 95_000))])
    assert response.status_code == 200
    page = client.get("/").text
    assert len(page) < 500_000
    assert "more lines that are not passcodes" in page


# --- the results

def test_the_sample_event_s_illegal_players_are_listed(sample: TestClient) -> None:
    page = sample.get("/?status=illegal").text
    assert "64 players" in page
    # 9 illegal; the 'Ash Blosom' and 'three' players wait for the head judge's decision
    assert "9 illegal" in page
    assert "2 need a decision" in page
    assert FORBIDDEN_PLAYER in page
    assert LEGAL_PLAYER not in page
    by_code = sample.get("/?code=FORBIDDEN_CARD").text
    assert FORBIDDEN_PLAYER in by_code
    assert "0400025058" not in by_code  # illegal, but for LIMIT_EXCEEDED


def _listed(page: str) -> list[str]:
    return re.findall(r'<td data-label="Player ID"><a href="/players/[^"]+">([^<]+)</a>', page)


def test_the_players_are_found_by_name_or_id_whatever_the_case(sample: TestClient) -> None:
    result = event_of(sample).snapshot().result
    assert result is not None
    legal = result.players.filter(pl.col("player_id") == LEGAL_PLAYER).row(0, named=True)
    assert _listed(sample.get("/", params={"q": LEGAL_PLAYER}).text) == [LEGAL_PLAYER]
    by_name = _listed(sample.get("/", params={"q": legal["player_name"].upper()}).text)
    assert LEGAL_PLAYER in by_name
    assert len(_listed(sample.get("/").text)) == 64
    assert _listed(sample.get("/", params={"q": "no such player"}).text) == []


def test_the_status_says_whether_a_check_is_ready(client: TestClient,
                                                  sample: TestClient) -> None:
    status = json.loads(client.get("/status.json").text)
    assert set(status) == {"checking", "ready", "finished"}
    assert status["ready"] is False
    assert sample.get("/status.json").json()["ready"] is True


# --- downloads

def test_report_downloads(sample: TestClient) -> None:
    xlsx = sample.get("/report.xlsx")
    assert xlsx.status_code == 200
    assert xlsx.headers["content-type"] == XLSX
    assert xlsx.headers["content-disposition"] == 'attachment; filename="report.xlsx"'
    workbook = load_workbook(io.BytesIO(xlsx.content))
    assert workbook.sheetnames[:3] == ["Summary", "Players", "Violations"]
    answer = sample.get("/report.json")
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-disposition"] == 'attachment; filename="report.json"'
    report = answer.json()
    assert report["summary"]["illegal"] == 12  # 9 illegal, 2 to decide, 1 deck not checked
    assert (report["format"], report["regulation"]) == ("advanced-tcg", "th")
    assert len(report["players"]) == 64


@pytest.mark.parametrize("path", ["/report.json", "/report.xlsx"])
def test_a_report_before_any_registration_is_refused(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 400
    assert refusal(answer) == [("report", "NOT_READY")]


def test_the_web_report_is_dated_by_source_date_epoch_as_the_command_lines_is(
        sample: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # 2025-12-01 00:00 UTC
    first = sample.get("/report.xlsx").content
    workbook = load_workbook(io.BytesIO(first))
    assert workbook.properties.created == dt.datetime(2025, 12, 1)
    assert sample.get("/report.xlsx").content == first  # the same bytes every time


# --- the list in force on the event's date, and the demo pool said


def test_the_event_date_picks_the_list_in_force(tmp_path: Path) -> None:
    own = tmp_path / "cards.csv"  # the demo cards, imported as real card data
    own.write_bytes((resources.files("validator") / "data" / "demo_cards.csv").read_bytes())
    lists = tmp_path / "TCG.lflist.conf"
    lists.write_text("!2026.01 TCG\n14558127 3 --Ash Blossom\n"
                     "!2026.06 TCG\n14558127 0 --Ash Blossom\n")
    data = tmp_path / "data"
    import_into_store([own, lists], data)
    app = create_app(tmp_path / "event.sqlite", data_dir=data, hosts=HOSTS)
    with TestClient(app) as client:
        token = csrf_token(client)
        for day, shown in (("2026-03-01", "2026.01 TCG (effective 2026-01-01; in force on "
                                          "2026-03-01)"),
                           ("2026-07-01", "2026.06 TCG (effective 2026-06-01; in force on "
                                          "2026-07-01)"),
                           ("2025-12-31", "2026-01-01")):  # before every list: said so
            saved = client.post("/event", data={"csrf": token, "name": "Locals", "date": day,
                                                "format": "advanced-tcg", "regulation": "th",
                                                "lang": "en", "banlist": ""})
            assert saved.status_code == 200
            found = re.search(r'id="list-in-force">List used: ([^<]+)<', client.get("/").text)
            assert found is not None
            assert shown in html.unescape(found.group(1))
        # a list chosen on the form wins over the date
        client.post("/event", data={"csrf": token, "name": "Locals", "date": "2026-07-01",
                                    "format": "advanced-tcg", "regulation": "th",
                                    "lang": "en", "banlist": "2026.01 TCG"})
        assert "2026.01 TCG (effective 2026-01-01; given by name)" in html.unescape(
            client.get("/").text)


def test_the_demo_pool_is_said_on_the_event_page(sample: TestClient) -> None:
    page = sample.get("/").text
    assert 'data-code="DEMO_POOL"' in page
    assert "Demo 2026.05 TCG (effective 2026-05-01; the demo list: no card data imported)" in (
        page)
