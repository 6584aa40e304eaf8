"""The web app under hostile input and as an attacker would probe it (HTTP, no browser)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import httpx2
from click.testing import CliRunner
from fastapi.testclient import TestClient

from tests.web.helpers import HOSTS, client_for, csrf_token
from validator.cli import main
from validator.web.app import create_app
from validator.web.security import Throttle, allowed_hosts, same_origin

# --- DNS rebinding, other sites' forms, binding beyond loopback

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


def test_serving_beyond_loopback_needs_a_password(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                       "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "--host: BAD_OPTION" in result.output


def test_a_busy_port_is_one_clear_line(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "e.sqlite"),
                                           "--port", str(port)])
    assert result.exit_code == 2
    assert f"127.0.0.1:{port}: BAD_OPTION" in result.output
    assert "deckcheck serving" not in result.output  # the address only once listening


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
    app.state.throttle = Throttle(step=0.4, most=0.4)

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
    assert codes == [401] * 6
    assert elapsed < 0.35  # served while six wrong logins sleep 0.4 s each


def test_many_wrong_passwords_lock_the_client_out() -> None:
    throttle = Throttle(step=0, most=0, lock_after=3)
    for _ in range(3):
        asyncio.run(throttle.failed("10.0.0.9"))
    assert throttle.locked("10.0.0.9")
    assert not throttle.locked("10.0.0.10")


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


# --- the judge form: bad input is a clear 400, never a 500


def test_route_handlers_live_in_routers_not_in_the_factory() -> None:
    source = (Path(__file__).resolve().parent.parent.parent / "validator" / "web" /
              "app.py").read_text()
    assert "@app.get" not in source
    assert "@app.post" not in source
    assert "def _diff" not in source
