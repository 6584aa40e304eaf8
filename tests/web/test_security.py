"""What keeps ``deckcheck serve`` safe on a venue LAN (``validator/web/security.py``): host
names, other sites' forms, signed sessions, throttled passwords and bounded bodies, each on
its own and as an attacker would probe the app (HTTP, no browser)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import HOSTS, LEGAL_PLAYER, client_for, csrf_token, event_of
from validator.event.store import EventDB
from validator.web.app import create_app
from validator.web.security import (
    SMALL_BODY,
    BodyLimit,
    Sessions,
    Throttle,
    allowed_hosts,
    host_name,
    same_origin,
)

# --- DNS rebinding, other sites' forms

def test_a_host_name_the_server_was_not_started_for_is_refused(client: TestClient) -> None:
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 400
    assert client.get("/", headers={"host": "127.0.0.1:8000"}).status_code == 200
    hosts = allowed_hosts("0.0.0.0", ["deckcheck.local"])
    assert {"localhost", "127.0.0.1", "deckcheck.local"} <= hosts
    assert "attacker.example" not in hosts


def test_a_post_from_another_site_is_refused(client: TestClient) -> None:
    token = csrf_token(client)
    form = {"csrf": token, "name": "x", "date": "2026-01-01", "format": "advanced-tcg",
            "regulation": "th", "lang": "en"}
    other = client.post("/event", data=form, headers={"origin": "http://attacker.example"})
    assert other.status_code == 403
    referer = client.post("/event", data=form,
                          headers={"referer": "http://attacker.example/page"})
    assert referer.status_code == 403
    own = client.post("/event", data=form, headers={"origin": "http://testserver"})
    assert own.status_code == 200
    assert not same_origin("null", None, HOSTS)


# --- sessions

def _cookie(response: httpx2.Response) -> str:
    match = re.search(r"dc_session=([^;]+)", response.headers.get("set-cookie", ""))
    assert match
    return match.group(1)


def test_a_session_id_the_server_never_issued_is_replaced(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", password="s3cret") as client:
        client.cookies.set("dc_session", "chosen-by-the-attacker")
        page = client.get("/login")
        issued = _cookie(page)
        assert issued != "chosen-by-the-attacker"
        assert "." in issued  # signed


def test_signing_in_rotates_the_session_and_signing_out_ends_it(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", password="s3cret") as client:
        before = _cookie(client.get("/login"))
        token = csrf_token(client, "/login")
        signed_in = client.post("/login", data={"csrf": token, "password": "s3cret"},
                                follow_redirects=False)
        after = _cookie(signed_in)
        assert after != before  # no fixation: a new session at sign-in
        assert client.get("/", follow_redirects=False).status_code == 200
        # the old id does not carry the sign-in
        old = TestClient(client.app)
        old.cookies.set("dc_session", before)
        assert old.get("/", follow_redirects=False).status_code == 303
        out = client.post("/logout", data={"csrf": csrf_token(client)}, follow_redirects=False)
        assert out.status_code == 303
        stolen = TestClient(client.app)
        stolen.cookies.set("dc_session", after)
        assert stolen.get("/", follow_redirects=False).status_code == 303


def test_a_password_change_signs_everyone_out(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite"
    with client_for(db, password="old") as client:
        token = csrf_token(client, "/login")
        client.post("/login", data={"csrf": token, "password": "old"})
        cookie = client.cookies.get("dc_session")
        assert client.get("/", follow_redirects=False).status_code == 200
    with client_for(db, password="old") as same:  # a restart keeps the sign-in
        same.cookies.set("dc_session", str(cookie))
        assert same.get("/", follow_redirects=False).status_code == 200
    with client_for(db, password="new") as changed:
        changed.cookies.set("dc_session", str(cookie))
        assert changed.get("/", follow_redirects=False).status_code == 303


def test_wrong_passwords_are_throttled_without_blocking_others(tmp_path: Path) -> None:
    app = create_app(tmp_path / "e.sqlite", password="s3cret", cards_spec="demo", hosts=HOSTS)
    app.state.throttle = Throttle(step=1.0, most=1.0)

    async def scenario() -> tuple[float, list[int]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            page = await c.get("/login")
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token
            wrong = [c.post("/login", data={"csrf": token.group(1), "password": "nope"})
                     for _ in range(6)]
            started = time.perf_counter()
            tasks = [asyncio.ensure_future(w) for w in wrong]
            await asyncio.sleep(0.05)  # the wrong logins are now waiting out their delay
            static = await c.get("/static/style.css")
            elapsed = time.perf_counter() - started
            codes = [r.status_code for r in await asyncio.gather(*tasks)]
            assert static.status_code == 200
            return elapsed, codes

    elapsed, codes = asyncio.run(scenario())
    assert codes == [401] * 3 + [429] * 3  # three heard at once from one address
    assert elapsed < 0.8  # served while the wrong logins sleep 1 s each


def test_each_wrong_password_waits_longer_up_to_a_cap() -> None:
    throttle = Throttle(step=0.001, most=0.004)
    delays = []
    for _ in range(5):
        asyncio.run(throttle.failed("10.0.0.9"))
        delays.append(throttle.delay("10.0.0.9"))
    assert delays == [0.001, 0.002, 0.004, 0.004, 0.004]
    assert throttle.delay("10.0.0.10") == 0.0


def test_ten_wrong_passwords_then_the_right_one_signs_in_at_once(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", password="s3cret-enough") as client:
        client.app.state.throttle = Throttle(step=0.01, most=0.05)  # type: ignore[attr-defined]
        token = csrf_token(client, "/login")
        for guess in range(10):
            wrong = client.post("/login", data={"csrf": token, "password": f"guess{guess}"},
                                headers={"x-forwarded-for": f"10.9.9.{guess}"})
            assert wrong.status_code == 401
        # a spoofed X-Forwarded-For changed nothing: every failure counts against the client
        throttle: Throttle = client.app.state.throttle  # type: ignore[attr-defined]
        assert len(throttle.failures["testclient"]) == 10
        started = time.perf_counter()
        right = client.post("/login", data={"csrf": token, "password": "s3cret-enough"},
                            follow_redirects=False)
        assert right.status_code == 303
        assert time.perf_counter() - started < 10
        assert client.get("/", follow_redirects=False).status_code == 200


# --- bodies and hostile files

def test_a_chunked_body_over_the_limit_is_413(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", max_upload=1 << 20) as client:
        token = csrf_token(client)

        def chunks() -> Iterator[bytes]:
            yield b"csrf=" + token.encode() + b"&x="
            for _ in range(40):
                yield b"a" * 65536

        response = client.post("/event", content=chunks(),
                               headers={"content-type": "application/x-www-form-urlencoded"})
        assert response.status_code == 413


def test_oversized_upload_is_refused_with_a_message(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", max_upload=1 << 20) as client:
        token = csrf_token(client)
        big = client.post("/upload/registrations", data={"csrf": token},
                          files=[("files", ("big.csv", b"a," * (1 << 20)))])
        assert big.status_code == 413
        assert "larger than 1 MiB" in big.text
        assert client.app.state.event.db.uploads("registrations") == []  # type: ignore[attr-defined]


# --- each part on its own

@pytest.mark.parametrize(("origin", "referer", "same"), [
    ("http://testserver", None, True),
    ("http://127.0.0.1:8000", "http://attacker.example/", True),  # Origin decides
    (None, "http://localhost:8000/log", True),
    ("http://attacker.example", None, False),
    (None, "http://attacker.example/page", False),
    ("null", "http://testserver/", True),  # an opaque origin: the Referer decides
    ("null", None, False),
    (None, None, True),  # not a browser: left to the CSRF token
])
def test_same_origin_trusts_the_origin_else_the_referer(origin: str | None,
                                                        referer: str | None,
                                                        same: bool) -> None:
    assert same_origin(origin, referer, HOSTS) is same


def test_the_loopback_server_answers_only_to_loopback_names_and_those_allowed() -> None:
    assert allowed_hosts("127.0.0.1") == frozenset({"127.0.0.1", "localhost", "::1"})
    assert allowed_hosts("127.0.0.1", ["Judges.Local"]) == frozenset(
        {"127.0.0.1", "localhost", "::1", "judges.local"})


@pytest.fixture(scope="module")
def loopback(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    """An app that answers to the loopback names only."""
    return TestClient(create_app(tmp_path_factory.mktemp("event") / "e.sqlite",
                                 cards_spec="demo", hosts=frozenset({"localhost", "::1"})))


@pytest.mark.parametrize(("host", "status"), [
    ("localhost", 200), ("LOCALHOST:8000", 200), ("[::1]:8000", 200), ("::1", 200),
    ("localhost.attacker.example", 400), ("", 400),
])
def test_the_host_guard_reads_the_host_without_its_port(loopback: TestClient, host: str,
                                                        status: int) -> None:
    assert loopback.get("/static/style.css", headers={"host": host}).status_code == status


def test_a_session_cookie_is_the_server_s_only_when_signed_with_its_secret(
        tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    sessions = Sessions(db.secret(), db, "pw")
    sid, cookie = sessions.issue()
    assert sessions.verify(cookie) == sid
    assert sessions.verify(cookie[:-1] + ("0" if cookie[-1] != "0" else "1")) is None
    assert sessions.verify(sid) is None  # unsigned
    assert sessions.verify(None) is None
    other = Sessions(b"another secret", db, "pw")
    assert other.verify(cookie) is None
    assert sessions.csrf(sid) != sessions.csrf(sessions.issue()[0])  # a token per session


def test_a_sign_in_lasts_until_sign_out_and_only_under_its_password(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    sessions = Sessions(db.secret(), db, "pw")
    old, _ = sessions.issue()
    assert not sessions.signed_in(old)
    sid, _ = sessions.sign_in(old)
    assert sid != old
    assert sessions.signed_in(sid)
    assert not Sessions(db.secret(), db, "changed").signed_in(sid)
    sessions.sign_out(sid)
    assert not sessions.signed_in(sid)
    assert Sessions(db.secret(), db, None).signed_in("any id")  # no password: open
    assert sessions.password_matches("pw")
    assert not sessions.password_matches("PW")
    assert not Sessions(db.secret(), db, None).password_matches("")


def test_a_right_password_forgets_the_client_s_failures() -> None:
    throttle = Throttle(step=0.001, most=1)
    asyncio.run(throttle.failed("10.0.0.9"))
    asyncio.run(throttle.failed("10.0.0.9"))
    throttle.succeeded("10.0.0.9")
    asyncio.run(throttle.failed("10.0.0.9"))
    assert throttle.delay("10.0.0.9") == 0.001


def test_wrong_passwords_older_than_the_window_are_forgotten() -> None:
    throttle = Throttle(step=0.001, most=1, window=0.05)
    for _ in range(2):
        asyncio.run(throttle.failed("10.0.0.9"))
    assert throttle.delay("10.0.0.9") == 0.002
    time.sleep(0.06)
    assert throttle.delay("10.0.0.9") == 0.0


def test_only_a_few_attempts_from_one_address_are_heard_at_once() -> None:
    throttle = Throttle(at_once=2)

    async def scenario() -> list[bool]:
        async with throttle.attempt("a") as first, throttle.attempt("a") as second, \
                throttle.attempt("a") as third, throttle.attempt("b") as other:
            return [first, second, third, other]

    assert asyncio.run(scenario()) == [True, True, False, True]
    assert throttle.trying == {}


# --- the Host header and the path

@pytest.mark.parametrize("host", [
    "127.0.0.1:8000/static/", "127.0.0.1/static/x", "127.0.0.1:8000/", "user@127.0.0.1",
    "127.0.0.1:8000?x", "127.0.0.1 :8000", "127.0.0.1:80:80", "[::1]/x", "127.0.0.1#x",
])
def test_a_host_header_carrying_more_than_host_and_port_is_refused(host: str) -> None:
    assert host_name(host) is None
    app = create_app_for_hosts()
    with TestClient(app) as client:
        assert client.get("/report.json", headers={"host": host}).status_code == 400


def create_app_for_hosts() -> Any:
    import tempfile

    folder = Path(tempfile.mkdtemp())
    return create_app(folder / "e.sqlite", password="s3cret-enough", cards_spec="demo",
                      hosts=frozenset({"127.0.0.1", "::1"}))


@pytest.mark.parametrize(("host", "name"), [
    ("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:8000", "::1"),
    ("::1", "::1"), ("judges.venue-lan.local", "judges.venue-lan.local"),
])
def test_a_host_header_names_its_host(host: str, name: str) -> None:
    assert host_name(host) == name


def test_signing_in_is_decided_on_the_path_sent_not_on_a_url_rebuilt_from_the_host(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starlette before 1.0.1 rebuilt ``request.url`` from the Host header: a Host of
    ``127.0.0.1:8000/static/`` made every path look like a static file. Here the URL is
    rebuilt that way on purpose, behind the host guard, and the pages stay closed."""
    from starlette.datastructures import URL
    from starlette.requests import Request

    app = create_app(tmp_path / "e.sqlite", password="s3cret-enough", cards_spec="demo",
                     hosts=HOSTS)
    monkeypatch.setattr(Request, "url", property(
        lambda request: URL(f"http://testserver/static/{request.scope['path']}")))
    with TestClient(app.fastapi) as client:
        for path in ("/report.json", "/", "/log"):
            assert client.get(path, follow_redirects=False).status_code == 303
        renamed = client.post("/event", data={"name": "taken"}, follow_redirects=False)
        assert renamed.status_code == 303
    assert EventDB(tmp_path / "e.sqlite").settings() is None


# --- signed out: nothing but the sign-in page

def test_a_signed_out_visitor_s_body_is_never_read(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite", password="s3cret-enough") as client:
        read = 0

        def chunks() -> Iterator[bytes]:
            nonlocal read
            for _ in range(64):
                read += 1
                yield b"a" * 65536

        response = client.post("/upload/decks", content=chunks(), follow_redirects=False,
                               headers={"content-type": "multipart/form-data; boundary=x"})
        assert response.status_code == 303
        assert response.headers["location"] == "/login"
        assert response.headers["connection"] == "close"
        big_login = client.post("/login", content=b"password=" + b"a" * 10_000,
                                follow_redirects=False,
                                headers={"content-type": "application/x-www-form-urlencoded"})
        assert big_login.status_code == 303


def test_a_signed_out_error_page_names_no_event(tmp_path: Path) -> None:
    with client_for(tmp_path / "e.sqlite") as open_client:
        token = csrf_token(open_client)
        form = {"csrf": token, "name": "Regional Secret Venue", "date": "2026-01-01",
                "format": "advanced-tcg", "regulation": "th", "lang": "en"}
        assert open_client.post("/event", data=form).status_code == 200
        assert "Regional Secret Venue" in open_client.get("/").text
    with client_for(tmp_path / "e.sqlite", password="s3cret-enough") as client:
        for path in ("/static/missing.css", "/login/x", "/players/0400001301"):
            response = client.get(path)
            assert "Regional Secret Venue" not in response.text
            assert "2026-01-01" not in response.text
        assert client.get("/static/missing.css").status_code == 404


def test_the_session_cookie_is_secure_when_the_request_came_over_https(
        tmp_path: Path) -> None:
    app = create_app(tmp_path / "e.sqlite", password="s3cret-enough", cards_spec="demo",
                     hosts=HOSTS)
    with TestClient(app, base_url="https://testserver") as secure:
        assert "secure" in secure.get("/login").headers["set-cookie"].lower()
    with TestClient(app) as plain:
        assert "secure" not in plain.get("/login").headers["set-cookie"].lower()


# --- text built to be slow, through the web's forms

SLOW_LINE = "a" + " " * ((1 << 20) - 2000) + "b"


@pytest.mark.parametrize(("path", "fields"), [
    (f"/judge/{LEGAL_PLAYER}/check", {"judge": "J", "deck_text": SLOW_LINE}),
    (f"/judge/{LEGAL_PLAYER}/check", {"judge": "J", "deck_text": "3 Raigeki" + "\t" * 900_000}),
    ("/upload/decks", {"links": "P1 " + SLOW_LINE}),
], ids=["judge-spaces", "judge-tabs", "pasted-links"])
def test_a_pasted_line_built_to_be_slow_holds_no_one(sample: TestClient, path: str,
                                                     fields: dict[str, str]) -> None:
    app = sample.app

    async def scenario() -> tuple[float, float, int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            page = await c.get(f"/judge/{LEGAL_PLAYER}")
            token = re.search(r'name="csrf" value="([^"]+)"', page.text)
            assert token
            started = time.perf_counter()
            slow = asyncio.ensure_future(c.post(path, data={"csrf": token.group(1), **fields}))
            await asyncio.sleep(0.01)
            other_started = time.perf_counter()
            other = await c.get("/static/style.css")
            other_took = time.perf_counter() - other_started
            assert other.status_code == 200
            answer = await slow
            return time.perf_counter() - started, other_took, answer.status_code

    took, other_took, status = asyncio.run(scenario())
    assert status in (200, 303, 400)
    assert took < 2.0
    assert other_took < 0.5


def test_a_ten_megabyte_text_deck_is_refused_at_once(sample: TestClient) -> None:
    token = csrf_token(sample)
    started = time.perf_counter()  # the same path with a small deck: what a busy machine adds
    sample.post("/upload/decks", data={"csrf": token},
                files=[("files", ("usual.txt", b"3 Ash Blossom & Joyous Spring\n"))])
    event_of(sample).refresh().result(timeout=30)
    usual = time.perf_counter() - started
    started = time.perf_counter()
    sent = sample.post("/upload/decks", data={"csrf": token},
                       files=[("files", ("slow.txt", (b"a" + b" " * 4000 + b"b\n") * 2600))])
    event_of(sample).refresh().result(timeout=30)
    assert time.perf_counter() - started - usual < 2.0  # quadratic reading took minutes
    assert sent.status_code == 200
    [upload] = [s for s in event_of(sample).db.submissions() if s.name == "slow.txt"]
    read = event_of(sample).read_upload(upload)
    assert [(p.file, p.code) for p in read.problems] == [("slow.txt", "FILE_TOO_LARGE")]


# --- exports that data cannot break

def test_a_control_character_in_any_field_leaves_every_export_working(tmp_path: Path) -> None:
    import io

    from openpyxl import load_workbook

    from validator.report.style import REPLACED

    with client_for(tmp_path / "e.sqlite") as client:
        token = csrf_token(client)
        assert client.post("/event", data={
            "csrf": token, "name": "Cup", "date": "2026-12-05", "format": "advanced-tcg",
            "regulation": "th", "lang": "en"}).status_code == 200
        registrations = (b"KONAMI ID,Name,Section,Qty,Card Name\n"
                         b"0400000001,Jordan\x0bLee,main,3,No\x0bsuch card\n")
        client.post("/upload/registrations", data={"csrf": token},
                    files=[("files", ("lists.csv", registrations))])
        event_of(client).refresh().result(timeout=60)
        logged = client.post("/log", data={"csrf": csrf_token(client, "/log"),
                                           "player_id": "0400000001", "judge": "Ann\x0bJudge",
                                           "code": "LATE", "round": "1"},
                             follow_redirects=False)
        assert logged.status_code in (200, 303)
        texts: list[str] = []
        for path in ("/report.xlsx", "/log.xlsx"):
            exported = client.get(path)
            assert exported.status_code == 200, path
            workbook = load_workbook(io.BytesIO(exported.content))
            texts.extend(str(cell.value) for sheet in workbook for row in sheet.iter_rows()
                         for cell in row if cell.value is not None)
        shown = "\n".join(texts)
        assert f"Jordan{REPLACED}Lee" in shown
        assert f"Ann{REPLACED}Judge" in shown
        assert f"No{REPLACED}such card" in shown
        assert "\x0b" not in shown
        log_csv = client.get("/log.csv")
        assert log_csv.status_code == 200
        assert f"Ann{REPLACED}Judge" in log_csv.text
        assert client.get("/report.json").status_code == 200


def test_small_forms_pass_while_the_upload_turns_are_taken() -> None:
    """With the only upload turn held, a judge's small form is answered at once, and a
    second upload waits its time and is told the server is busy."""
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["path"] == "/upload":
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def request(path: str, size: int) -> dict[str, Any]:
        return {"type": "http", "method": "POST", "path": path,
                "headers": [(b"content-length", str(size).encode())]}

    async def answer(guarded: BodyLimit, path: str, size: int) -> int:
        statuses: list[int] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])

        await guarded(request(path, size), receive, send)
        return statuses[0]

    async def walk() -> tuple[int, int, int]:
        guarded = BodyLimit(app, 100 << 20, at_once=1, wait=0.2)
        upload = asyncio.create_task(answer(guarded, "/upload", 10 << 20))
        await asyncio.sleep(0.01)  # the upload holds the turn
        form = await asyncio.wait_for(answer(guarded, "/log", SMALL_BODY), 0.1)
        busy = await answer(guarded, "/upload", SMALL_BODY + 1)
        release.set()
        return form, busy, await upload

    assert asyncio.run(walk()) == (200, 503, 200)


def test_signed_out_uploads_at_once_leave_the_server_s_memory_alone(tmp_path: Path) -> None:
    """Eight signed-out 95 MiB uploads to a real server at once: none is read, so the
    server's memory hardly moves."""
    import socket
    import threading

    from tests.web.server import Server

    def rss(pid: int) -> int:
        status = Path(f"/proc/{pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) << 10  # type: ignore[union-attr]

    size = 95 << 20
    with Server(tmp_path / "e.sqlite", env={"DECKCHECK_PASSWORD": "a-long-venue-password"}) \
            as server:
        before = rss(server.process.pid)
        answers: list[bytes] = []

        def upload() -> None:
            with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
                sock.sendall(b"POST /upload/decks HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                             b"Content-Type: multipart/form-data; boundary=x\r\n"
                             b"Content-Length: %d\r\n\r\n" % size)
                chunk = b"a" * (1 << 20)
                try:
                    for _ in range(size >> 20):
                        sock.sendall(chunk)
                except OSError:
                    pass  # the server closed the connection without reading the body
                with contextlib.suppress(OSError):
                    answers.append(sock.recv(200))

        threads = [threading.Thread(target=upload) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        grown = rss(server.process.pid) - before
    assert len(answers) == 8
    assert all(a.startswith(b"HTTP/1.1 303") for a in answers), answers
    assert grown < 100 << 20


def test_a_staff_code_signs_in_its_person_until_it_is_revoked(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    sessions = Sessions(db.secret(), db, "pw", "judge-pw")
    code = sessions.issue_code("Ana", "head", "organizer")
    who = sessions.credential(code.lower().replace("-", " - ", 1))  # typed loosely
    assert who is not None
    assert (who.role, who.person) == ("head", "Ana")
    wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
    assert sessions.credential(wrong) is None
    assert sessions.credential("999-" + code.split("-", 1)[1]) is None
    judge = sessions.credential("judge-pw")
    assert judge is not None
    assert (judge.role, judge.staff) == ("judge", None)
    assert getattr(sessions.credential("pw"), "role", None) == "organizer"
    old, _ = sessions.issue()
    sid, _ = sessions.sign_in(old, who)
    assert getattr(sessions.who(sid), "person", None) == "Ana"
    assert who.staff is not None
    db.revoke_staff(who.staff, "organizer")
    assert sessions.who(sid) is None
    assert sessions.credential(code) is None


def test_a_judge_password_session_ends_when_the_server_has_no_judge_password(
        tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    shared = Sessions(db.secret(), db, "pw", "judge-pw")
    judge = shared.credential("judge-pw")
    assert judge is not None
    sid, _ = shared.sign_in(shared.issue()[0], judge)
    assert getattr(shared.who(sid), "role", None) == "judge"
    assert Sessions(db.secret(), db, "pw").who(sid) is None
    assert Sessions(db.secret(), db, "pw", "another-pw").who(sid) is None
    assert Sessions(db.secret(), db, None).who(sid) is not None  # no password: all open


def test_at_most_two_staff_codes_are_hashed_at_once(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from validator.web import security

    db = EventDB(tmp_path / "e.sqlite")
    sessions = Sessions(db.secret(), db, "pw")
    code = sessions.issue_code("Ana", "judge", "organizer")
    hashed = security._code_hash
    running, most = [0], [0]
    counting = threading.Lock()

    def slow_hash(secret: str, salt: bytes) -> str:
        with counting:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with counting:
            running[0] -= 1
        return hashed(secret, salt)

    monkeypatch.setattr(security, "_code_hash", slow_hash)
    with ThreadPoolExecutor(8) as pool:
        found = list(pool.map(sessions.credential, [code] * 8))
    assert [getattr(who, "person", None) for who in found] == ["Ana"] * 8
    assert most[0] == 2
