"""Rendering pages and reading forms (``validator/web/pages.py``), on a small app of their
own: no routers, no security layers."""

from __future__ import annotations

import asyncio
import html
import io
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, Response
from fastapi.testclient import TestClient
from starlette.datastructures import FormData, UploadFile

from tests.web.helpers import client_for, csrf_token, event_of
from validator.cards.store import demo_cards
from validator.errors import InputError
from validator.event.store import EventDB, EventSettings
from validator.text.i18n import jinja_callables, say
from validator.web.pages import (
    Forbidden,
    accepted_lang,
    files,
    form,
    latest,
    optional_number,
    page,
    state_of,
    templates,
)
from validator.web.security import LOCAL
from validator.web.state import EventState

TOKEN = "the-sessions-token"
SETTINGS = EventSettings("Spring <Regional>", "2026-04-01", "advanced-tcg", "th", "en")


def _app(db: Path, password: str | None = None) -> FastAPI:
    app = FastAPI()
    app.state.event = EventState(EventDB(db), demo_cards())
    app.state.password = password

    @app.middleware("http")
    async def session(request: Request,
                      call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        request.state.csrf = TOKEN  # what the app's guard sets from the session
        request.state.signed_in = True
        request.state.who = LOCAL  # the organizer, as on a server without a password
        return await call_next(request)

    @app.get("/shown/{name}")
    async def shown(request: Request, name: str, text: str = "") -> Response:
        return page(request, name, http_status=299, title=text, message=text, error=text)

    @app.post("/posted")
    async def posted(request: Request) -> Response:
        try:
            data = await form(request)
        except Forbidden:
            return PlainTextResponse("forbidden", status_code=403)
        return PlainTextResponse(str(data.get("field")))

    @app.get("/same-state")
    async def same_state(request: Request) -> Response:
        return PlainTextResponse(str(state_of(request) is request.app.state.event))

    return app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    app = _app(tmp_path_factory.mktemp("event") / "event.sqlite", password="pw")
    app.state.event.db.save_settings(SETTINGS)
    return app


@pytest.fixture(scope="module")
def pages(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def test_a_page_shows_nothing_of_the_event_unless_signed_in(tmp_path: Path) -> None:
    bare = FastAPI()
    bare.state.event = EventState(EventDB(tmp_path / "e.sqlite"), demo_cards())
    bare.state.event.db.save_settings(SETTINGS)
    bare.state.password = "pw"

    @bare.get("/shown")
    async def shown(request: Request) -> Response:  # no guard set the session's state
        return page(request, "message.html", title="t", message="m")

    with TestClient(bare) as client:
        assert "Spring" not in client.get("/shown").text


# --- optional_number

@pytest.mark.parametrize(("text", "number"), [
    ("3", 3), (" 12 ", 12), ("0", 0), ("9999", 9999), ("", None), ("  ", None),
])
def test_an_optional_number_is_a_whole_number_0_to_9999_or_none(text: str,
                                                                number: int | None) -> None:
    assert optional_number(text) == number


@pytest.mark.parametrize("text", [
    "10000", "-1", "2.5", "three", "３", "²", "٣", "9" * 5000,  # "²".isdigit(), int("²") fails
])
def test_an_optional_number_of_anything_else_is_a_form_error(text: str) -> None:
    with pytest.raises(InputError) as raised:
        optional_number(text, "round")
    assert [(p.file, p.code) for p in raised.value.problems] == [("round", "BAD_OPTION")]


# --- files

def _upload(name: str, content: bytes = b"data") -> UploadFile:
    return UploadFile(io.BytesIO(content), filename=name)


def test_the_files_of_a_field_come_by_their_display_names() -> None:
    data = FormData([("files", _upload("../../etc/lists.CSV", b"a,b")),
                     ("files", _upload("C:\\Users\\x\\decks.zip", b"PK")),
                     ("files", "not a file"), ("files", _upload("")),  # skipped
                     ("other", _upload("other.csv"))])
    got = asyncio.run(files(data, "files", (".csv", ".zip")))
    assert got == [("lists.CSV", b"a,b"), ("decks.zip", b"PK")]


def test_a_file_of_another_type_is_refused_by_its_name() -> None:
    data = FormData([("files", _upload("lists.csv")), ("files", _upload("dir/tool.exe"))])
    with pytest.raises(InputError) as refused:
        asyncio.run(files(data, "files", (".csv",)))
    assert [(p.file, p.code) for p in refused.value.problems] == [("tool.exe",
                                                                    "WRONG_FILE_TYPE")]


def test_a_field_without_files_is_no_files() -> None:
    assert asyncio.run(files(FormData([("csrf", "x")]), "files", (".csv",))) == []


# --- form

def test_a_form_is_read_once_its_token_is_checked(pages: TestClient) -> None:
    assert pages.post("/posted", data={"csrf": TOKEN, "field": "value"}).text == "value"


@pytest.mark.parametrize("sent", [{}, {"csrf": "forged"}, {"csrf": TOKEN[:-1]}])
def test_a_form_without_the_session_s_token_is_forbidden(pages: TestClient,
                                                         sent: dict[str, str]) -> None:
    answer = pages.post("/posted", data={**sent, "field": "value"})
    assert answer.status_code == 403
    assert answer.text == "forbidden"


# --- page

def test_a_page_escapes_what_it_is_given(pages: TestClient) -> None:
    shown = pages.get("/shown/message.html", params={"text": "<script>alert(1)</script>"})
    assert shown.status_code == 299
    assert "<script>alert(1)</script>" not in shown.text
    assert "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>" in shown.text
    assert "Spring &lt;Regional&gt;" in shown.text  # the event's name too
    assert "Spring <Regional>" not in shown.text


def test_a_page_carries_the_form_token_and_the_sign_out_when_there_is_a_password(
        pages: TestClient, tmp_path: Path) -> None:
    signed = pages.get("/shown/message.html").text
    assert f'name="csrf" value="{TOKEN}"' in signed
    assert 'action="/logout"' in signed
    with TestClient(_app(tmp_path / "open.sqlite")) as open_app:
        assert 'action="/logout"' not in open_app.get("/shown/message.html").text


def test_the_sign_in_page_shows_nothing_of_the_event(pages: TestClient) -> None:
    login = pages.get("/shown/login.html", params={"text": "Wrong password."}).text
    assert "Wrong password." in login
    assert f'name="csrf" value="{TOKEN}"' in login
    assert "Spring" not in login
    assert "advanced-tcg" not in login


def test_a_new_event_s_form_says_create_a_saved_one_s_says_save(pages: TestClient,
                                                                 tmp_path: Path) -> None:
    # index.html's button follows has_settings: the event's own settings, not the defaults
    assert "Save</button>" in pages.get("/shown/index.html").text
    with TestClient(_app(tmp_path / "new.sqlite")) as new:
        assert "Create event</button>" in new.get("/shown/index.html").text


def test_the_state_of_a_request_is_its_app_s_event(pages: TestClient) -> None:
    assert pages.get("/same-state").text == "True"


# --- latest

def _request(state: EventState) -> Request:
    return cast(Request, SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(event=state))))


def test_the_latest_check_is_none_before_any_upload(tmp_path: Path) -> None:
    state = EventState(EventDB(tmp_path / "event.sqlite"), demo_cards())
    snapshot = asyncio.run(latest(_request(state)))
    assert snapshot.result is None
    assert not snapshot.checking


def test_the_first_check_is_waited_for(tmp_path: Path) -> None:
    state = EventState(EventDB(tmp_path / "event.sqlite"), demo_cards())
    state.db.add_uploads("registrations", [(
        "lists.csv", b"Player ID,Player Name,Section,Qty,Card Name\nP1,Ana,Main,3,Raigeki\n")])
    snapshot = asyncio.run(latest(_request(state)))
    assert snapshot.result is not None
    assert snapshot.result.players["player_id"].to_list() == ["P1"]



@pytest.mark.parametrize(("lang", "first_family"), [("ja", "var(--latin), var(--ja)"),
                                                     ("ko", "var(--latin), var(--ko)"),
                                                     ("th", "var(--th), var(--latin)")])
def test_pages_declare_the_event_s_language_and_fonts_that_cover_it(
        tmp_path: Path, lang: str, first_family: str) -> None:
    with client_for(tmp_path / "event.sqlite") as client:
        saved = client.post("/event", data={"csrf": csrf_token(client), "name": "地区大会",
                                            "date": "2026-12-05", "format": "advanced-tcg",
                                            "regulation": "th", "lang": lang})
        assert saved.status_code == 200
        html = client.get("/").text
        css = client.get("/static/style.css").text  # the page's policy refuses inline styles
    assert f'<html lang="{lang}">' in html
    assert '<link rel="stylesheet" href="/static/style.css">' in html
    for family in ('"Noto Sans CJK JP"', '"Malgun Gothic"', '"Noto Sans Thai"', "Loma",
                   "NanumGothic", "IPAGothic"):
        assert family in css
    assert f"html:lang({lang})" in css or lang == "ja"
    assert first_family in css


def test_templates_say_what_the_catalogs_say() -> None:
    template = templates.env.from_string('{{ _("no deck file") }} · {{ pgettext("section", '
                                         '"main") }} · {% trans %}no deck file{% endtrans %}')
    assert template.render(**jinja_callables("th"), _=jinja_callables("th")["gettext"]) == (
        "ไม่มีไฟล์เด็ค · เมนเด็ค · ไม่มีไฟล์เด็ค")
    assert template.render() == "no deck file · main · no deck file"


@pytest.mark.parametrize(("header", "lang"), [
    ("ja-JP,ja;q=0.9,en;q=0.8", "ja"), ("en-US,en;q=0.9", "en"), ("th", "th"),
    ("fr-FR, ko;q=0.5, ja;q=0.4", "ko"), ("en;q=0.2, th;q=0.7", "th"),
    ("ko;q=0, ja;q=0.1", "ja"), ("fr, de", None), ("", None), ("*", None),
    ("ja;q=banana", None), ("x" * 5000, None)])
def test_the_browser_s_languages_are_read_by_weight(header: str, lang: str | None) -> None:
    assert accepted_lang(header) == lang


def test_a_page_is_in_the_chosen_language_then_the_browser_s_then_the_event_s(
        tmp_path: Path) -> None:
    with client_for(tmp_path / "event.sqlite") as client:
        saved = client.post("/event", data={"csrf": csrf_token(client), "name": "地区大会",
                                            "date": "2026-12-05", "format": "advanced-tcg",
                                            "regulation": "th", "lang": "th"})
        assert saved.status_code == 200
        assert '<html lang="th">' in client.get("/").text
        assert '<html lang="ko">' in client.get(
            "/log", headers={"accept-language": "ko-KR,ko;q=0.9"}).text
        chosen = client.post("/language", data={"csrf": csrf_token(client), "lang": "ja",
                                                "back": "/log"}, follow_redirects=False)
        assert (chosen.status_code, chosen.headers["location"]) == (303, "/log")
        page = client.get("/log", headers={"accept-language": "ko"}).text
        assert '<html lang="ja">' in page
        assert '<option value="ja" lang="ja" selected>' in page
        assert event_of(client).db.settings().lang == "th"  # type: ignore[union-attr]


def test_a_language_choice_is_checked_and_goes_back_only_to_this_server(
        tmp_path: Path) -> None:
    with client_for(tmp_path / "event.sqlite") as client:
        token = csrf_token(client)
        for back in ("//evil.example/", "https://evil.example/", "/\\evil"):
            answer = client.post("/language", data={"csrf": token, "lang": "ko",
                                                    "back": back}, follow_redirects=False)
            assert answer.headers["location"] == "/"
        unknown = client.post("/language", data={"csrf": token, "lang": "fr"})
        assert unknown.status_code == 200
        assert '<html lang="ko">' in client.get("/").text
        refused = client.post("/language", data={"csrf": "forged", "lang": "th"})
        assert refused.status_code == 403
        assert '<html lang="ko">' in client.get("/").text


def test_upload_problems_are_in_the_events_language_form_errors_in_the_pages(
        tmp_path: Path) -> None:
    japanese = {"accept-language": "ja"}
    event = {"name": "Regional", "date": "2026-12-05", "format": "advanced-tcg",
             "regulation": "th", "lang": "ko"}
    with client_for(tmp_path / "event.sqlite") as client:
        token = csrf_token(client)
        assert client.post("/event", data={"csrf": token, **event}).status_code == 200
        page = client.post("/upload/registrations", headers=japanese,
                           data={"csrf": token, "replace": "on"},
                           files=[("files", ("lists.csv", b"hello,world\n1,2\n"))]).text
        assert 'data-place="lists.csv"' in page
        no_header = ("no deck list found: expected a header with player, quantity and card "
                     "columns, Main/Extra/Side columns, or Monster/Spell/Trap/Extra/Side blocks")
        assert say("ko", no_header) in html.unescape(page)
        assert no_header not in page
        refused = client.post("/event", headers=japanese,
                              data={"csrf": token, **event, "timezone": "Mars/Olympus"})
        assert refused.status_code == 400
        zone = ("{typed} is not a time zone (expected a name such as Asia/Bangkok, "
                "Europe/Paris or UTC)")
        assert say("ja", zone, typed="'Mars/Olympus'") in html.unescape(refused.text)
        assert "is not a time zone" not in refused.text
