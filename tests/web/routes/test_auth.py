"""Organizer sign-in and sign-out on a server with a password
(``validator/web/routes/auth.py``). One app for the module; each test is a new visitor."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import client_for, csrf_token
from validator.event.store import EventSettings
from validator.web.security import Throttle

PASSWORD = "s3cret"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with client_for(tmp_path_factory.mktemp("event") / "event.sqlite",
                    password=PASSWORD) as client:
        yield client.app


@pytest.fixture
def visitor(app: Any) -> TestClient:
    """A new browser, not signed in, whose wrong passwords cost no time."""
    app.state.throttle = Throttle(step=0, most=0)
    return TestClient(app)


def _signed_in(client: TestClient) -> bool:
    answer = client.get("/", follow_redirects=False)
    assert answer.status_code in (200, 303)
    return answer.status_code == 200


def _sign_in(client: TestClient, password: str = PASSWORD) -> Any:
    return client.post("/login", data={"csrf": csrf_token(client, "/login"),
                                       "password": password}, follow_redirects=False)


def test_password_protects_every_page(visitor: TestClient) -> None:
    client = visitor
    assert client.get("/", follow_redirects=False).status_code == 303
    token = csrf_token(client, "/login")
    wrong = client.post("/login", data={"csrf": token, "password": "nope"})
    assert wrong.status_code == 401
    ok = client.post("/login", data={"csrf": token, "password": PASSWORD})
    assert ok.status_code == 200
    assert "Registered deck lists" in client.get("/").text


def test_signing_in_leads_to_the_event_page_with_a_new_session(visitor: TestClient) -> None:
    before = visitor.get("/login").cookies["dc_session"]
    signed = _sign_in(visitor)
    assert signed.status_code == 303
    assert signed.headers["location"] == "/"
    cookie = signed.headers["set-cookie"]
    assert cookie.startswith("dc_session=")
    assert "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    assert visitor.cookies["dc_session"] != before
    assert _signed_in(visitor)


def test_a_wrong_password_is_refused_and_counted(app: Any, visitor: TestClient) -> None:
    wrong = _sign_in(visitor, "nope")
    assert wrong.status_code == 401
    assert 'action="/login"' in wrong.text  # the sign-in form again
    assert not _signed_in(visitor)
    assert len(app.state.throttle.failures["testclient"]) == 1


def test_the_right_password_clears_the_client_s_wrong_ones(app: Any,
                                                          visitor: TestClient) -> None:
    assert _sign_in(visitor, "nope").status_code == 401
    assert _sign_in(visitor).status_code == 303
    assert app.state.throttle.failures == {}


def test_many_wrong_passwords_never_lock_the_right_one_out(
        app: Any, visitor: TestClient) -> None:
    app.state.throttle = Throttle(step=0.001, most=0.002)
    assert [_sign_in(visitor, "nope").status_code for _ in range(12)] == [401] * 12
    assert _sign_in(visitor).status_code == 303
    assert _signed_in(visitor)


def test_signing_out_ends_the_session(visitor: TestClient) -> None:
    _sign_in(visitor)
    assert _signed_in(visitor)
    out = visitor.post("/logout", data={"csrf": csrf_token(visitor)}, follow_redirects=False)
    assert out.status_code == 303
    assert out.headers["location"] == "/login"
    assert not _signed_in(visitor)


def test_signing_out_needs_the_form_s_token(visitor: TestClient) -> None:
    _sign_in(visitor)
    refused = visitor.post("/logout", data={"csrf": "forged"}, follow_redirects=False)
    assert refused.status_code == 403
    assert _signed_in(visitor)


def test_login_reveals_nothing_of_the_event(app: Any, visitor: TestClient) -> None:
    # the event exists and has a name, but the sign-in page does not show it
    app.state.event.db.save_settings(
        EventSettings("Secret Regional", "2026-12-05", "advanced-tcg", "th", "en"))
    page = visitor.get("/login").text
    assert "Secret Regional" not in page
    assert "advanced-tcg" not in page
    _sign_in(visitor)
    assert "Secret Regional" in visitor.get("/").text  # it is there once signed in


def test_without_a_password_no_sign_in_is_needed_and_none_matches(client: TestClient) -> None:
    client.app.state.throttle = Throttle(step=0, most=0)  # type: ignore[attr-defined]
    assert client.get("/", follow_redirects=False).status_code == 200
    assert _sign_in(client, "").status_code == 401
    assert _sign_in(client, "anything").status_code == 401


def test_the_page_language_is_chosen_before_signing_in_and_kept_after(
        visitor: TestClient) -> None:
    token = csrf_token(visitor, "/login")
    chosen = visitor.post("/language", data={"csrf": token, "lang": "ko", "back": "/login"},
                          follow_redirects=False)
    assert (chosen.status_code, chosen.headers["location"]) == (303, "/login")
    assert '<html lang="ko">' in visitor.get("/login").text
    assert _sign_in(visitor).status_code == 303
    assert _signed_in(visitor)
    assert '<html lang="ko">' in visitor.get("/").text


def test_a_large_language_form_is_refused_before_signing_in(visitor: TestClient) -> None:
    token = csrf_token(visitor, "/login")
    answer = visitor.post("/language", data={"csrf": token, "lang": "ja", "pad": "x" * 9000},
                          follow_redirects=False)
    assert (answer.status_code, answer.headers["location"]) == (303, "/login")
    assert '<html lang="ja">' not in visitor.get("/login").text
