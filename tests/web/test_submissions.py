"""Submissions as versions over HTTP: one player's corrected deck replaces only theirs and
keeps the earlier one in their history (viewable, restorable); the same file twice is not
counted twice; one upload can be undone; replace all is asked for and confirmed; an upload
from which nothing could be read is a failure at the top of the page; an older event
database opens with its uploads in effect."""

from __future__ import annotations

import io
import re
import sqlite3
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import DECKS, HOSTS, LUCAS, WORKBOOK, corrected_deck, csrf_token, event_of
from validator.event.store import EventDB
from validator.web.app import create_app


def _decks_zip() -> bytes:
    """The 64 sample decks, zipped: the same bytes every time (one file uploaded twice)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for deck in sorted(DECKS.glob("*.ydk")):
            archive.writestr(zipfile.ZipInfo(deck.name, (2026, 12, 5, 9, 0, 0)),
                             deck.read_bytes())
    return buffer.getvalue()


def _db(client: TestClient) -> EventDB:
    return event_of(client).db


def _statuses(client: TestClient) -> dict[str, str]:
    players = client.get("/report.json").json()["players"]
    return {p["player_id"]: p["status"] for p in players}


def _problems(client: TestClient) -> list[tuple[str, str]]:
    return [(p["code"], p["file"]) for p in client.get("/report.json").json()["problems"]]


def _upload(client: TestClient, kind: str, name: str, data: bytes,
            **fields: str) -> tuple[int, str]:
    """Upload one file; the batch it became (0 when none) and the page shown after it."""
    sent = client.post(f"/upload/{kind}", data={"csrf": csrf_token(client), **fields},
                       files=[("files", (name, data))])
    assert sent.history  # post/redirect/get
    assert sent.history[0].status_code == 303
    found = re.search(r"upload=(\d+)", str(sent.url))
    return (int(found.group(1)) if found else 0), sent.text


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "event.sqlite", cards_spec="demo",
                               hosts=HOSTS)) as c:
        c.post("/event", data={"csrf": csrf_token(c), "name": "Sample Regional",
                               "date": "2026-12-05", "format": "advanced-tcg",
                               "regulation": "th", "lang": "en"})
        _upload(c, "registrations", WORKBOOK.name, WORKBOOK.read_bytes())
        _upload(c, "decks", "decks.zip", _decks_zip())
        yield c


def test_one_corrected_deck_replaces_only_that_players_and_can_be_restored(
        client: TestClient) -> None:
    before = _statuses(client)
    assert before[LUCAS] == "illegal"
    batch, shown = _upload(client, "decks", f"{LUCAS}.ydk", corrected_deck())
    assert "1 deck file(s) received" in shown
    after = _statuses(client)
    assert after[LUCAS] == "legal"
    assert {p: s for p, s in after.items() if p != LUCAS} == {
        p: s for p, s in before.items() if p != LUCAS}
    page = client.get(f"/players/{LUCAS}").text
    history = re.findall(r'/players/0400064653/versions/deck/(\d+)"', page)
    assert history == [str(batch), "2"]  # newest first: the corrected deck, then the zip's
    earlier = client.get(f"/players/{LUCAS}/versions/deck/2")
    assert earlier.status_code == 200
    assert "not the one checked" in earlier.text
    restored = client.post(f"/players/{LUCAS}/restore",
                           data={"csrf": csrf_token(client), "part": "deck", "upload": "2"})
    assert restored.history[0].status_code == 303
    assert _statuses(client) == before
    # a newer upload for the player replaces the restored version again
    _upload(client, "decks", f"{LUCAS}.ydk",
            corrected_deck().replace(b"#created by", b"#created again by"))
    assert _statuses(client)[LUCAS] == "legal"


def test_the_same_zip_twice_is_recognised_and_adds_no_problem(client: TestClient) -> None:
    problems = _problems(client)
    uploads = len(_db(client).submissions())
    batch, shown = _upload(client, "decks", "decks-again.zip", _decks_zip())
    assert batch == 0
    assert "not counted twice" in shown
    assert _problems(client) == problems
    assert len(_db(client).submissions()) == uploads
    _, lists = _upload(client, "registrations", WORKBOOK.name, WORKBOOK.read_bytes())
    assert "not counted twice" in lists
    assert _problems(client) == problems


def test_a_list_with_other_bytes_for_the_same_players_replaces_theirs_without_duplicates(
        client: TestClient) -> None:
    from openpyxl import load_workbook

    problems = _problems(client)
    workbook = load_workbook(WORKBOOK)
    workbook.properties.title = "re-exported"  # other bytes, the same lists
    buffer = io.BytesIO()
    workbook.save(buffer)
    batch, _ = _upload(client, "registrations", "regional-tcg-2.xlsx", buffer.getvalue())
    assert batch > 0
    again = _problems(client)
    assert len(again) == len(problems)
    assert {code for code, _ in again} == {code for code, _ in problems}


def test_undo_of_an_upload_restores_the_previous_results(client: TestClient) -> None:
    before, problems = _statuses(client), _problems(client)
    batch, _ = _upload(client, "decks", f"{LUCAS}.ydk", corrected_deck())
    assert _statuses(client) != before
    undone = client.post(f"/uploads/{batch}/remove", data={"csrf": csrf_token(client)})
    assert undone.history[0].status_code == 303
    assert _statuses(client) == before
    assert _problems(client) == problems
    client.post(f"/uploads/{batch}/restore", data={"csrf": csrf_token(client)})  # put back
    assert _statuses(client)[LUCAS] == "legal"


def test_replace_all_is_asked_for_then_confirmed_and_can_be_undone(
        client: TestClient) -> None:
    before = _statuses(client)
    sent = client.post("/upload/decks", data={"csrf": csrf_token(client), "replace": "on"},
                       files=[("files", (f"{LUCAS}.ydk", corrected_deck()))])
    assert str(sent.url).endswith(f"/uploads/{sent.history[0].headers['location'][9:]}")
    assert "Replace all earlier decks" in sent.text
    assert _statuses(client) == before  # nothing changes until it is confirmed
    batch = int(sent.history[0].headers["location"].rsplit("/", 1)[1])
    client.post(f"/uploads/{batch}/confirm", data={"csrf": csrf_token(client), "choice": "replace"})
    report = client.get("/report.json").json()
    no_deck = [p for p in report["problems"] if p["code"] == "NO_DECK"]
    assert len(no_deck) == len(before) - 1  # every other player's deck was set aside
    assert _statuses(client)[LUCAS] == "legal"
    client.post(f"/uploads/{batch}/remove", data={"csrf": csrf_token(client)})
    assert _statuses(client) == before


def test_replace_all_cancelled_changes_nothing(client: TestClient) -> None:
    before = _statuses(client)
    sent = client.post("/upload/decks", data={"csrf": csrf_token(client), "replace": "on"},
                       files=[("files", (f"{LUCAS}.ydk", corrected_deck()))])
    batch = int(sent.history[0].headers["location"].rsplit("/", 1)[1])
    client.post(f"/uploads/{batch}/confirm", data={"csrf": csrf_token(client), "choice": "cancel"})
    assert _statuses(client) == before
    state = {s.id: s.state for s in _db(client).submissions()}
    assert state[batch] == "removed"


@pytest.mark.parametrize(("kind", "name", "data", "code"), [
    ("registrations", "garbage.csv", b"hello,world\n1,2\n", "NO_HEADER"),
    ("registrations", "empty.csv", b"", "NOTHING_READ"),
    ("registrations", "decks.zip", None, "NO_REGISTRATIONS"),  # decks uploaded as lists
    ("decks", "lists.zip", "lists", "NO_DECK_FILES"),  # lists uploaded as decks
])
def test_an_upload_nothing_could_be_read_from_is_a_failure_at_the_top(
        client: TestClient, kind: str, name: str, data: bytes | str | None, code: str) -> None:
    before = _statuses(client)
    if data == "lists":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr(WORKBOOK.name, WORKBOOK.read_bytes())
        data = buffer.getvalue()
    batch, shown = _upload(client, kind, name, data if isinstance(data, bytes) else _decks_zip())
    top = shown.split('<div id="received"', 1)[1].split("</div>", 1)[0]
    assert "Upload failed" in top
    assert f"<code>{code}</code>" in top
    assert "file(s) received" not in top
    assert _statuses(client) == before  # it replaced nothing
    again = client.get(f"/?upload={batch}")  # a reload shows it again, uploads nothing
    assert "Upload failed" in again.text
    assert len([s for s in _db(client).submissions() if s.batch == batch]) == 1


def test_a_refused_upload_redirects_and_a_reload_uploads_nothing(client: TestClient) -> None:
    uploads = len(_db(client).submissions())
    batch, shown = _upload(client, "decks", "tool.exe", b"MZ")
    assert "<code>WRONG_FILE_TYPE</code>" in shown
    reload = client.get(f"/?upload={batch}")
    assert reload.status_code == 200
    assert "<code>WRONG_FILE_TYPE</code>" in reload.text
    submissions = _db(client).submissions()
    assert len(submissions) == uploads + 1
    assert submissions[-1].state == "refused"
    assert submissions[-1].size == 0  # the refused bytes are not kept


def test_an_older_event_database_opens_with_its_uploads_in_effect(tmp_path: Path) -> None:
    """A file written before uploads had states: every upload is in effect; the same
    players' lists uploaded twice are checked once."""
    db = tmp_path / "old.sqlite"
    lists = b"Player ID,Player Name,Section,Qty,Card Name\nP1,Ana,Main,3,Raigeki\n"
    with sqlite3.connect(db) as conn:
        conn.executescript("""
            CREATE TABLE uploads (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('registrations', 'decks', 'links')),
                name TEXT NOT NULL, data BLOB NOT NULL, sha256 TEXT NOT NULL,
                received_at TEXT NOT NULL);
        """)
        for number, when in ((1, "2026-12-01T09:00:00+00:00"), (2, "2026-12-01T09:05:00+00:00")):
            conn.execute("INSERT INTO uploads VALUES (?, 'registrations', 'lists.csv', ?, "
                         "'x', ?)", (number, lists, when))
    opened = EventDB(db)
    assert [(s.id, s.batch, s.state, s.replace_all) for s in opened.submissions()] == [
        (1, 1, "active", False), (2, 2, "active", False)]
    assert len(opened.uploads("registrations")) == 2
    opened.close()
    with TestClient(create_app(db, cards_spec="demo", hosts=HOSTS)) as client:
        report = client.get("/report.json").json()
        assert [p["player_id"] for p in report["players"]] == ["P1"]
        assert not [p for p in report["problems"] if p["code"] == "REGISTERED_TWICE"]
        page = client.get("/players/P1").text
        assert re.findall(r"/players/P1/versions/list/(\d+)", page) == ["2", "1"]


def test_a_kill_while_an_upload_of_several_files_commits_keeps_none_of_them(
        tmp_path: Path) -> None:
    """The files of one form are one change: all of them, or (killed before the commit)
    none; a kill while an undo commits leaves the upload in effect."""
    import contextlib
    import threading
    import time
    import urllib.request

    from tests.web.server import Server, session
    from validator.event.store import FAULT_PAUSE

    db = tmp_path / "event.sqlite"
    EventDB(db).add_uploads("decks", [("P0.ydk", b"#main\n")])  # an upload to undo later

    def post(server: Server, path: str, cookie: str, body: bytes, kind: str) -> None:
        request = urllib.request.Request(server.url + path, data=body, method="POST",
                                         headers={"Cookie": cookie, "Content-Type": kind})
        with contextlib.suppress(OSError):  # the server was killed
            urllib.request.urlopen(request, timeout=30).close()

    with Server(db) as server:  # the event's secret is made before any pause
        session(server)
    for path, body_of in (
            ("/upload/decks", lambda token: (
                b"--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n"
                + token.encode() + b"\r\n"
                + b"".join(b"--b\r\nContent-Disposition: form-data; name=\"files\"; "
                           b"filename=\"P%d.ydk\"\r\n\r\n#main\r\n" % n for n in (1, 2))
                + b"--b--\r\n", "multipart/form-data; boundary=b")),
            ("/uploads/1/remove", lambda token: (
                f"csrf={token}".encode(), "application/x-www-form-urlencoded"))):
        with Server(db, env={FAULT_PAUSE: "5"}) as server:
            cookie, token = session(server)
            body, kind = body_of(token)
            thread = threading.Thread(target=post, args=(server, path, cookie, body, kind),
                                      daemon=True)
            thread.start()
            time.sleep(1.5)  # the change is made, its commit waits
            server.kill()
            thread.join(timeout=10)
        assert [(s.id, s.name, s.state) for s in EventDB(db).submissions()] == [
            (1, "P0.ydk", "active")], path


def test_a_form_with_a_file_already_received_keeps_only_the_new_ones_and_says_so(
        client: TestClient) -> None:
    deck = corrected_deck()
    sent = client.post("/upload/decks", data={"csrf": csrf_token(client)}, files=[
        ("files", ("decks-again.zip", _decks_zip())), ("files", (f"{LUCAS}.ydk", deck)),
        ("files", (f"{LUCAS}-copy.ydk", deck))])
    batch = next(s for s in _db(client).submissions() if s.name == f"{LUCAS}.ydk").batch
    assert [s.name for s in _db(client).submissions() if s.batch == batch] == [f"{LUCAS}.ydk"]
    assert "decks-again.zip (upload #2," in sent.text
    assert f"{LUCAS}-copy.ydk (also {LUCAS}.ydk in this upload)" in sent.text
    assert _statuses(client)[LUCAS] == "legal"
