"""The app factory (``validator/web/app.py``): its routers, the guard every request passes
(session cookie, sign-in, other sites' forms, security headers) and the error pages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import Request
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.web.helpers import ROOT, client_for, csrf_token, event_of, refusal
from validator.errors import SHOWN, InputError, Problem
from validator.event import submissions
from validator.web.routes import ROUTERS

#: a page of every router, and a static file
PAGES = ["/", "/status.json", "/judge", "/log", "/players/P1/log", "/login",
         "/static/style.css"]
#: the registration page's event code in the routes' paths
CODE = "ABC234"
#: what a visitor who has not signed in may see
OPEN = ["/login", "/static/style.css"]


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An app with a password, shared by the module's tests (each its own visitor)."""
    with client_for(tmp_path_factory.mktemp("event") / "event.sqlite",
                    password="s3cret") as client:
        yield client.app


def _routes() -> list[tuple[str, str]]:
    """Every (method, path) of the routers, a player id (and the registration page's event
    code) in place of the path's parameters."""
    return sorted((method, route.path.replace("{player_id}", "P1").replace("{code}", CODE))
                  for router in ROUTERS for route in router.routes
                  if isinstance(route, APIRoute) for method in route.methods or ())


def test_every_router_s_routes_are_served(client: TestClient) -> None:
    routes = _routes()
    assert ("POST", "/judge/P1/record") in routes
    submissions.set_event_code(event_of(client).db, CODE)
    # a POST without its form's token reaches its handler, which refuses it (403)
    answers = {(method, path): client.request(method, path, follow_redirects=False).status_code
               for method, path in routes}
    assert {route: code for route, code in answers.items() if code in (404, 405)} == {}


def test_route_handlers_live_in_routers_not_in_the_factory() -> None:
    source = (ROOT / "validator" / "web" / "app.py").read_text()
    assert "@app.get" not in source
    assert "@app.post" not in source
    assert "def _diff" not in source


@pytest.mark.parametrize("path", PAGES)
def test_without_a_password_every_page_is_open(client: TestClient, path: str) -> None:
    assert client.get(path, follow_redirects=False).status_code == 200


@pytest.mark.parametrize("path", PAGES)
def test_with_a_password_only_the_sign_in_and_static_files_are_open(guarded: Any,
                                                                     path: str) -> None:
    answer = TestClient(guarded).get(path, follow_redirects=False)
    if path in OPEN:
        assert answer.status_code == 200
    else:
        assert answer.status_code == 303
        assert answer.headers["location"] == "/login"


def test_a_form_sent_before_signing_in_is_not_handled(guarded: Any) -> None:
    visitor = TestClient(guarded)
    token = csrf_token(visitor, "/login")
    sent = visitor.post("/event", data={"csrf": token, "name": "x", "date": "2026-01-01",
                                        "format": "advanced-tcg", "regulation": "th",
                                        "lang": "en"}, follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["location"] == "/login"
    assert guarded.state.event.db.settings() is None


def test_a_visitor_gets_one_signed_session_cookie(guarded: Any) -> None:
    visitor = TestClient(guarded)
    first = visitor.get("/login")
    cookie = first.headers["set-cookie"]
    assert cookie.startswith("dc_session=")
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert guarded.state.sessions.verify(visitor.cookies["dc_session"]) is not None
    assert "set-cookie" not in visitor.get("/login").headers  # kept, not issued again


@pytest.mark.parametrize("path", [*PAGES, "/no-such-page", "/report.json"])
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    headers = client.get(path, follow_redirects=False).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    policy = headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy


def test_forged_form_without_csrf_is_refused(client: TestClient) -> None:
    refused = client.post("/event", data={"name": "x", "date": "2026-01-01",
                                          "format": "advanced-tcg", "regulation": "th",
                                          "lang": "en"})
    assert refused.status_code == 403
    assert "security token" in refused.text
    wrong = client.post("/event", data={"csrf": "forged", "name": "x"})
    assert wrong.status_code == 403


def test_an_input_error_is_a_400_page_of_its_first_problems(client: TestClient) -> None:
    problems = [Problem(f"file{i:02}.csv", i + 1, None, "cannot be read", code="FILE_UNREADABLE")
                for i in range(SHOWN + 7)]

    async def refuse(request: Request) -> None:
        raise InputError(problems)

    client.app.fastapi.add_api_route("/refuse", refuse)  # type: ignore[attr-defined]
    answer = client.get("/refuse")
    assert answer.status_code == 400
    shown = refusal(answer)
    assert shown == [(f"file{i:02}.csv:{i + 1}", "FILE_UNREADABLE") for i in range(SHOWN)]
    assert "… and 7 more" in answer.text
