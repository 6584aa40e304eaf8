"""One status per player: the terminal, the JSON, the XLSX and the event, player and judge
pages say the same of every player of the sample event, a player whose deck could not be
read and one who submitted none included."""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from validator.cli import main
from validator.vocab import STATUS_LABELS, STATUSES
from validator.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent.parent
WORKBOOK = ROOT / "sample_decklists" / "regional-tcg.xlsx"
NO_DECK = "0400262628"  # submitted no deck
UNREADABLE = "0400001301"  # a legal list; its deck file is made unreadable below
#: the status words of the terminal report's player lines
WORDS = {"legal": "legal", "ILLEGAL": "illegal", "NEEDS A DECISION": "needs_decision",
         "NOT CHECKED": "not_checked"}
HOSTS = frozenset({"testserver", "127.0.0.1", "localhost"})


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample decks, one of them not UTF-8 text."""
    folder = tmp_path_factory.mktemp("decks") / "tcg"
    shutil.copytree(ROOT / "decks" / "tcg", folder)
    (folder / f"{UNREADABLE}.ydk").write_bytes(b"\x00\x01\xff\xfe not a deck")
    return folder


def _terminal(text: str) -> dict[str, str]:
    """Each player's status on the head line of their block (``--all``)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = re.match(r"(\S+) .*?\)  (legal|ILLEGAL|NEEDS A DECISION|NOT CHECKED)  ", line)
        if match:
            found[match.group(1)] = WORDS[match.group(2)]
    return found


def _xlsx(path: Path) -> dict[str, str]:
    labels = {label: status for status, label in STATUS_LABELS.items()}
    sheet = load_workbook(path)["Players"]
    return {str(row[0]): labels[str(row[2])]
            for row in sheet.iter_rows(min_row=2, values_only=True)}


def _pages(decks: Path, db: Path) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Each player's status on the event page, their player page and their judge page."""
    with TestClient(create_app(db, cards_spec="demo", hosts=HOSTS)) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
        assert token
        csrf = token.group(1)
        assert client.post("/event", data={
            "csrf": csrf, "name": "Sample Regional", "date": "2026-12-05",
            "format": "advanced-tcg", "regulation": "th", "lang": "en"}).status_code == 200
        assert client.post("/upload/registrations", data={"csrf": csrf, "replace": "on"},
                           files=[("files", (WORKBOOK.name, WORKBOOK.read_bytes()))]
                           ).status_code == 200
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for deck in sorted(decks.glob("*.ydk")):
                archive.writestr(deck.name, deck.read_bytes())
        assert client.post("/upload/decks", data={"csrf": csrf},
                           files=[("files", ("decks.zip", buffer.getvalue()))]
                           ).status_code == 200
        index = client.get("/").text
        event = dict(re.findall(r'data-player="([^"]+)" data-status="([^"]+)"', index))
        player: dict[str, str] = {}
        judge: dict[str, str] = {}
        for player_id in event:
            for found, path in ((player, f"/players/{player_id}"),
                                (judge, f"/judge/{player_id}")):
                page = client.get(path).text
                status = re.findall(r'data-status="([^"]+)">([^<]*)<', page)
                assert len(status) == 1, path
                word, label = status[0]
                assert label.endswith(STATUS_LABELS[word])
                found[player_id] = word
        counted = client.get("/report.json").json()
        assert counted["statuses"]["not_checked"] == 2
        assert "2 not checked" in index
    return event, player, judge


def test_every_report_and_page_gives_each_player_the_same_status(
        decks: Path, tmp_path: Path) -> None:
    report, data = tmp_path / "report.xlsx", tmp_path / "report.json"
    ran = CliRunner().invoke(main, [
        "event", str(WORKBOOK), "--decks", str(decks), "--cards", "demo", "--all",
        "--report", str(report), "--json", str(data)])
    assert ran.exit_code == 1, ran.output
    players = json.loads(data.read_text(encoding="utf-8"))
    from_json = {p["player_id"]: p["status"] for p in players["players"]}
    surfaces = {"terminal": _terminal(ran.stdout), "json": from_json, "xlsx": _xlsx(report)}
    surfaces["event page"], surfaces["player page"], surfaces["judge page"] = _pages(
        decks, tmp_path / "event.sqlite")
    for name, statuses in surfaces.items():
        assert statuses == from_json, name
    assert len(from_json) == 64
    assert set(from_json.values()) == set(STATUSES)
    unchecked = sorted(p for p, status in from_json.items() if status == "not_checked")
    assert unchecked == sorted([NO_DECK, UNREADABLE])
    # neither is counted legal
    legal = {p["player_id"] for p in players["players"] if p["legal"]}
    assert not legal & set(unchecked)
    assert players["summary"]["legal"] == players["statuses"]["legal"] == 51
    assert players["summary"]["illegal"] == 64 - 51
    unreadable = next(p for p in players["players"] if p["player_id"] == UNREADABLE)
    assert unreadable["deck_source"] == str(decks / f"{UNREADABLE}.ydk")


def test_decks_replaced_by_one_leave_the_others_not_checked_never_legal(
        decks: Path, tmp_path: Path) -> None:
    """Replacing the decks with one file: the players whose decks went are not checked,
    not legal (their deck-only violations are no longer counted as legal)."""
    _pages(decks, tmp_path / "event.sqlite")  # the sample event, every deck uploaded
    kept = "0400064653"  # Lucas Tanaka: a deck-only violation
    with TestClient(create_app(tmp_path / "event.sqlite", cards_spec="demo",
                               hosts=HOSTS)) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
        assert token
        deck = (decks / f"{kept}.ydk").read_bytes()
        sent = client.post("/upload/decks", data={"csrf": token.group(1), "replace": "on"},
                           files=[("files", (f"{kept}.ydk", deck))])
        batch = int(sent.history[0].headers["location"].rsplit("/", 1)[1])
        confirmed = client.post(f"/uploads/{batch}/confirm",
                                data={"csrf": token.group(1), "choice": "replace"})
        assert confirmed.status_code == 200  # replacing every deck is confirmed first
        report = client.get("/report.json").json()
    statuses = {p["player_id"]: p["status"] for p in report["players"]}
    assert statuses[kept] == "illegal"
    assert report["statuses"]["legal"] == 0
    assert report["statuses"]["not_checked"] == sum(
        status == "not_checked" for status in statuses.values()) > 50
    assert report["summary"]["illegal"] == 64
