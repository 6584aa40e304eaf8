"""Every error is a page of the app (its layout, a way back, the field or file at fault),
never JSON; every form that changes the event answers with a redirect."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import HOSTS, csrf_token
from validator.web.app import create_app

LISTS = b"Player ID,Player Name,Section,Qty,Card Name\nP1,Ana,Main,3,Raigeki\n"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "event.sqlite", cards_spec="demo", hosts=HOSTS,
                               max_upload=1 << 20), raise_server_exceptions=False) as c:
        yield c


def _is_app_page(text: str, status: int) -> None:
    """An HTML page of the app's layout, with its error number and a way back."""
    assert text.lstrip().startswith("<!doctype html>")
    assert '<link rel="stylesheet" href="/static/style.css">' in text
    assert f"error {status}" in text
    assert '<a href="/" class="button' in text  # a way back
    assert '"detail"' not in text


def test_an_unknown_address_is_a_page(client: TestClient) -> None:
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    _is_app_page(response.text, 404)
    assert "/no/such/page" in response.text


def test_an_unknown_player_is_a_not_found_page_naming_the_code(client: TestClient) -> None:
    client.post("/upload/registrations", data={"csrf": csrf_token(client)},
                files=[("files", ("lists.csv", LISTS))])
    response = client.get("/players/NOBODY")
    assert response.status_code == 404
    _is_app_page(response.text, 404)
    assert "<code>UNKNOWN_PLAYER</code>" in response.text


@pytest.mark.parametrize(("path", "back"), [
    ("/upload/registrations", "/"), ("/upload/decks", "/"), ("/event", "/"),
    ("/players/P1/decide", "/players/P1"), ("/judge/P1/record", "/judge/P1"),
    ("/uploads/1/remove", "/"),
])
def test_opening_a_forms_address_is_a_page_that_leads_back_to_its_form(
        client: TestClient, path: str, back: str) -> None:
    response = client.get(path)
    assert response.status_code == 405
    _is_app_page(response.text, 405)
    assert f'<a href="{back}" class="button">Back' in response.text


def test_an_oversized_upload_is_a_page(client: TestClient) -> None:
    response = client.post("/upload/registrations", data={"csrf": csrf_token(client)},
                           files=[("files", ("big.csv", b"a," * (1 << 20)))])
    assert response.status_code == 413
    _is_app_page(response.text, 413)
    assert "larger than 1 MiB" in response.text
    assert response.headers["connection"] == "close"


@pytest.mark.parametrize("path", ["/uploads/not-a-number", "/?upload=x"])
def test_a_value_the_address_does_not_take_is_a_page_naming_it(client: TestClient,
                                                               path: str) -> None:
    response = client.get(path)
    assert response.status_code == 422
    _is_app_page(response.text, 422)
    assert "<code>BAD_OPTION</code>" in response.text
    assert re.search(r"(batch|upload) in the address", response.text)


@pytest.mark.parametrize(("raised", "internals"), [
    (RuntimeError("a bug"), "a bug"),
    # no Exception: the app's handler of failures never sees it, the server's outermost
    # layer gives the page
    (pl.exceptions.PanicException("assertion failed: i < self.len()"), "self.len()"),
])
def test_a_bug_is_a_page_that_says_nothing_was_half_saved(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, raised: BaseException,
        internals: str) -> None:
    def broken() -> list[str]:
        raise raised

    monkeypatch.setattr("validator.web.routes.event.format_names", broken)
    response = client.get("/")
    assert response.status_code == 500
    _is_app_page(response.text, 500)
    assert type(raised).__name__ in response.text
    assert internals not in response.text  # no internals shown
    assert response.headers["x-frame-options"] == "DENY"  # still the app's answer
    assert client.get("/no/such/page").status_code == 404  # the server goes on


def test_a_form_field_at_fault_is_named_in_plain_words(client: TestClient) -> None:
    client.post("/upload/registrations", data={"csrf": csrf_token(client)},
                files=[("files", ("lists.csv", LISTS))])
    refused = client.post("/players/P1/decide", data={
        "csrf": csrf_token(client), "where": "C2", "card": "Raigeki", "qty": "lots",
        "decided_by": "HJ", "reason": "typo"})
    assert refused.status_code == 400
    _is_app_page(refused.text, 400)
    assert '<span class="where">the quantity</span>: <code>BAD_QUANTITY</code>' in refused.text


def test_every_form_that_changes_the_event_answers_with_a_redirect(client: TestClient) -> None:
    token = csrf_token(client)
    posts = [
        ("/event", {"name": "E", "date": "2026-12-05", "format": "advanced-tcg",
                    "regulation": "th", "lang": "en"}, None),
        ("/upload/registrations", {}, ("lists.csv", LISTS)),
        ("/upload/registrations", {}, ("garbage.csv", b"x,y\n")),
        ("/upload/decks", {"links": "P1 ydke://!!!"}, None),
        ("/upload/decks", {}, ("tool.exe", b"MZ")),
        ("/uploads/2/remove", {}, None),
        ("/uploads/2/restore", {}, None),
    ]
    for path, fields, upload in posts:
        response = client.post(path, data={"csrf": token, **fields},
                               files=[("files", upload)] if upload else None,
                               follow_redirects=False)
        assert response.status_code == 303, path
        shown = client.get(response.headers["location"])
        assert shown.status_code == 200, path
