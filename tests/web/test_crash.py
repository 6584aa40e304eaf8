"""Killing the server mid-upload and mid-write loses nothing recorded and half-writes nothing."""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

from tests.web.server import Server, session
from validator.event.store import FAULT_PAUSE, EventDB

ROOT = Path(__file__).resolve().parent.parent.parent


def _post(server: Server, path: str, cookie: str, fields: dict[str, str]) -> int:
    request = urllib.request.Request(server.url + path,
                                     data=urllib.parse.urlencode(fields).encode(),
                                     headers={"Cookie": cookie}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.status)


def _record(server: Server, cookie: str, token: str, judge: str) -> int:
    return _post(server, "/log", cookie, {"csrf": token, "who": "walk-in", "player_id": "P1",
                                          "player_name": "Walk-in P1", "judge": judge,
                                          "code": "LATE", "round": "1", "confirm": "1"})


def _integrity(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def test_kill_mid_upload_leaves_no_partial_upload(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with Server(db) as server:
        cookie, token = session(server)
        assert _record(server, cookie, token, "before the crash") == 200
        body = (b"--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + token.encode()
                + b"\r\n--b\r\nContent-Disposition: form-data; name=\"files\"; "
                b"filename=\"lists.csv\"\r\nContent-Type: text/csv\r\n\r\n"
                + b"Player ID,Section,Qty,Card Name\r\n" + b"P1,Main,3,Raigeki\r\n" * 2000)
        with socket.create_connection(("127.0.0.1", server.port)) as sock:
            sock.sendall(b"POST /upload/registrations HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: "
                         + cookie.encode() + b"\r\nContent-Type: multipart/form-data; "
                         b"boundary=b\r\nContent-Length: " + str(len(body) + 5000).encode()
                         + b"\r\n\r\n" + body)  # the rest of the body never comes
            time.sleep(0.5)
            server.kill()
    assert _integrity(db) == "ok"
    again = EventDB(db)
    assert again.uploads("registrations") == []
    assert [e.judge for e in again.log()] == ["before the crash"]


def test_kill_mid_write_leaves_nothing_half_written(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with Server(db) as server:
        cookie, token = session(server)
        assert _record(server, cookie, token, "first") == 200
    with Server(db, env={FAULT_PAUSE: "5"}) as server:
        cookie, token = session(server)
        thread = threading.Thread(target=lambda: _swallow(
            lambda: _record(server, cookie, token, "interrupted")), daemon=True)
        thread.start()
        time.sleep(1.5)  # the insert is done, the commit is waiting
        server.kill()
        thread.join(timeout=10)
    assert _integrity(db) == "ok"
    assert [e.judge for e in EventDB(db).log()] == ["first"]
    with Server(db) as server:
        cookie, token = session(server)
        assert _record(server, cookie, token, "after restart") == 200
    assert [e.judge for e in EventDB(db).log()] == ["first", "after restart"]


def _swallow(action: object) -> None:
    with contextlib.suppress(OSError):
        action()  # type: ignore[operator]


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def test_event_checks_run_in_a_lower_priority_process_that_ends_with_the_server(
        tmp_path: Path) -> None:
    """``deckcheck serve`` checks the event in a worker process niced below it; killed
    without a shutdown, the server leaves no process behind."""
    with Server(tmp_path / "e.sqlite") as server:
        cookie, token = session(server)
        assert _post(server, "/event", cookie, {
            "csrf": token, "name": "E", "date": "2026-12-05", "format": "advanced-tcg",
            "regulation": "th", "lang": "en"}) == 200
        assert _post(server, "/upload/decks", cookie, {
            "csrf": token, "links": "P1 ydke://!!!"}) == 200
        with urllib.request.urlopen(server.url + "/status.json") as response:
            assert b'"checking"' in response.read()
        workers: list[int] = []
        deadline = time.monotonic() + 20
        while not workers and time.monotonic() < deadline:
            workers = [p for p in _children(server.process.pid)
                       if "spawn_main" in Path(f"/proc/{p}/cmdline").read_text()]
            time.sleep(0.2)
        assert workers, "no checking process"
        nice = int(Path(f"/proc/{workers[0]}/stat").read_text().rsplit(")", 1)[1].split()[16])
        assert nice == 10
        server.kill()
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{p}").exists() for p in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [p for p in workers if Path(f"/proc/{p}").exists()
                    and "Z" not in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1][:3]]
