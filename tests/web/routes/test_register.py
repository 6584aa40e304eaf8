"""The registration page over HTTP: submissions, receipts and hashes, live checks, who may
see what, the deadline, the limits, the organizer's view and its exports."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import polars as pl
import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import HOSTS, csrf_token, event_of, upload_sample
from validator.cards import store
from validator.cards.formats import load_format
from validator.cards.load import load
from validator.event import submissions as subs
from validator.event.run import run_event
from validator.inputs.decks.ydk import to_ydke
from validator.inputs.entries import entries_frame
from validator.web.app import create_app
from validator.web.limits import PlayerLimits
from validator.web.routes.register import PLAYER_COOKIE
from validator.web.security import Throttle

CODE = "ABC234"
ANA, BO = "0401234567", "0409876543"
DATE = "2026-12-05"


def legal_list(lang: str = "en") -> dict[str, list[tuple[str, int]]]:
    """A legal 40/15/5 list of the demo card pool, by card names in ``lang`` (en, ja)."""
    cards = store.demo_cards()
    setup = load(load_format("advanced-tcg"), cards, None, date=DATE)
    listed = setup.banlist.entries.select("passcode", "limit")
    pool = (cards.by_card.join(listed, left_on="card_id", right_on="passcode", how="left")
            .filter(pl.col("limit").is_null() & pl.col("pools").list.contains("tcg")
                    & pl.col("name_ja").is_not_null() & (pl.col("card_id") > 0)
                    & ~pl.col("legend") & ~pl.col("rush"))
            .unique("name_en", keep="first").sort("card_id"))
    column = "name_ja" if lang == "ja" else "name_en"
    main = pool.filter(~pl.col("extra"))[column].to_list()
    extra = pool.filter(pl.col("extra"))[column].to_list()
    return {"main": [(n, 3) for n in main[:13]] + [(main[13], 1)],
            "extra": [(n, 1) for n in extra[:15]],
            "side": [(n, 1) for n in main[14:19]]}


def form_of(lists: dict[str, list[tuple[str, int]]], **fields: str) -> dict[str, str]:
    data = dict(fields)
    for section, rows in lists.items():
        for i, (name, qty) in enumerate(rows):
            data[f"{section}_name_{i}"] = name
            data[f"{section}_qty_{i}"] = str(qty)
    return data


def app_client(db: Path, **options: Any) -> TestClient:
    return TestClient(create_app(db, cards_spec="demo", hosts=HOSTS, **options))


def open_page(client: TestClient) -> None:
    """The event's settings and an event code."""
    token = csrf_token(client)
    client.post("/event", data={"csrf": token, "name": "Sample Regional", "date": DATE,
                                "format": "advanced-tcg", "regulation": "th", "lang": "en"})
    subs.set_event_code(event_of(client).db, CODE)


@pytest.fixture
def reg(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "event.sqlite") as client:
        open_page(client)
        yield client


def token(client: TestClient) -> str:
    return csrf_token(client, f"/r/{CODE}")


def submit(client: TestClient, player: str, lists: dict[str, list[tuple[str, int]]] | None
           = None, **fields: str) -> Any:
    data = form_of(lists if lists is not None else legal_list(),
                   csrf=token(client), player_id=player, player_name=f"Player {player[-2:]}",
                   **fields)
    return client.post(f"/r/{CODE}/submit", data=data, follow_redirects=False)


def receipt_hash(client: TestClient) -> str:
    found = re.search(r'id="hash">([0-9a-f]{64})<', client.get(f"/r/{CODE}/receipt").text)
    assert found
    return found.group(1)


def test_a_submission_gets_a_receipt_whose_hash_is_the_stored_list(reg: TestClient) -> None:
    sent = submit(reg, ANA)
    assert sent.status_code == 303
    assert sent.headers["location"] == f"/r/{CODE}/receipt"
    receipt = reg.get(f"/r/{CODE}/receipt")
    assert receipt.status_code == 200
    [stored] = subs.current(event_of(reg).db)
    assert (stored.player_id, stored.source, stored.lang) == (ANA, "typed", "en")
    assert receipt_hash(reg) == stored.sha256 == hashlib.sha256(
        subs.canonical(stored.rows)).hexdigest()
    assert sum(n for s, _, n in stored.rows if s == "main") == 40
    assert 'data-status="legal"' in receipt.text
    assert re.search(r'id="receipt-code">[A-Z0-9]{8}<', receipt.text)
    pdf = reg.get(f"/r/{CODE}/receipt.pdf")
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")


def test_the_json_export_recomputes_every_receipt_hash(reg: TestClient) -> None:
    submit(reg, ANA)
    lists = legal_list()
    lists["side"] = lists["side"][:3]
    reg.cookies.clear()
    submit(reg, BO, lists)
    export = reg.get("/registrations.json").json()
    assert [s["player_id"] for s in export["submissions"]] == [ANA, BO]
    for made in export["submissions"]:
        lines = "".join(f"{r['section']}\t{r['passcode']}\t{r['count']}\n" for r in made["rows"])
        assert hashlib.sha256(lines.encode()).hexdigest() == made["sha256"]


def test_resubmitting_replaces_the_list_and_keeps_the_history(reg: TestClient) -> None:
    submit(reg, ANA)
    first = receipt_hash(reg)
    lists = legal_list()
    lists["side"] = lists["side"][:4]
    assert submit(reg, ANA, lists).status_code == 303  # the same device: its session
    assert receipt_hash(reg) != first
    history = subs.history(event_of(reg).db, ANA)
    assert [s.sha256 for s in history][1] == first
    earlier = reg.get(f"/r/{CODE}/receipt", params={"number": history[1].number})
    assert earlier.status_code == 200
    assert first in earlier.text


def test_the_live_check_counts_flags_limits_and_suggests_names(reg: TestClient) -> None:
    lists = legal_list()
    lists["main"][0] = ("Called by the Grave", 2)  # Limited
    lists["main"][1] = ("Pot of Greed", 1)  # Forbidden
    lists["main"][2] = ("Raigekki Storrrm", 3)  # no card
    sent = reg.post(f"/r/{CODE}/check.json", data=form_of(lists, csrf=token(reg)))
    assert sent.status_code == 200
    found = sent.json()
    assert found["counts"] == {"main": 37, "extra": 15, "side": 5}
    assert found["status"] == "illegal"
    by_code = {v["code"]: v for v in found["violations"]}
    assert {"LIMIT_EXCEEDED", "FORBIDDEN_CARD", "MAIN_TOO_SMALL"} <= set(by_code)
    assert by_code["LIMIT_EXCEEDED"]["field"] == "main_name_0"
    assert by_code["FORBIDDEN_CARD"]["field"] == "main_name_1"
    assert list(found["unknown"]) == ["main_name_2"]


def test_the_live_check_speaks_the_page_language(reg: TestClient) -> None:
    lists = legal_list("ja")
    lists["main"][1] = ("強欲な壺", 1)
    reg.post("/language", data={"csrf": token(reg), "lang": "ja", "back": f"/r/{CODE}"})
    found = reg.post(f"/r/{CODE}/check.json", data=form_of(lists, csrf=token(reg))).json()
    assert found["counts"] == {"main": 38, "extra": 15, "side": 5}
    [forbidden] = [v for v in found["violations"] if v["code"] == "FORBIDDEN_CARD"]
    assert "禁止" in forbidden["message"]
    names = reg.get(f"/r/{CODE}/cards.json", params={"q": "強欲"}).json()["names"]
    assert "強欲な壺" in names
    assert "Pot of Greed" in reg.get(f"/r/{CODE}/cards.json", params={"q": "pot of"}).json()[
        "names"]


def test_without_script_check_shows_the_check_and_fixes_a_name(reg: TestClient) -> None:
    lists = legal_list()
    real = lists["main"][2][0]
    lists["main"][2] = (real[:-1] + "qq", 3)
    page = reg.post(f"/r/{CODE}/check", data=form_of(lists, csrf=token(reg)))
    assert page.status_code == 200
    assert 'data-unknown="1"' in page.text
    fixes = re.findall(r'name="fix" value="main_name_2\|([^"]+)"', page.text)
    assert fixes
    fixed = reg.post(f"/r/{CODE}/check", data={**form_of(lists, csrf=token(reg)),
                                                "fix": f"main_name_2|{real}"})
    assert 'data-unknown="1"' not in fixed.text
    assert 'data-status="legal"' in fixed.text


def test_a_list_with_a_name_of_no_card_is_sent_back_not_stored(reg: TestClient) -> None:
    lists = legal_list()
    lists["main"][2] = ("Raigekki Storrrm", 3)
    sent = submit(reg, ANA, lists)
    assert sent.status_code == 400
    assert 'data-code="UNKNOWN_CARD_NAME"' in sent.text
    assert subs.current(event_of(reg).db) == []


def test_an_illegal_list_is_stored_and_the_receipt_says_why(reg: TestClient) -> None:
    lists = legal_list()
    lists["main"][1] = ("Pot of Greed", 1)
    assert submit(reg, ANA, lists).status_code == 303
    receipt = reg.get(f"/r/{CODE}/receipt").text
    assert 'data-status="illegal"' in receipt
    assert 'data-code="FORBIDDEN_CARD"' in receipt


def test_a_pasted_ydke_link_is_a_source(reg: TestClient) -> None:
    link = to_ydke(entries_frame([{"deck_id": ANA, "section": "main", "passcode": 12580477,
                                   "qty": 3}]))
    data = {"csrf": token(reg), "player_id": ANA, "player_name": "Ana", "deck_text": link}
    page = reg.post(f"/r/{CODE}/check", data=data)
    assert page.status_code == 200
    assert 'name="source" value="ydke"' in page.text
    assert 'value="3"' in page.text  # the link's cards, as rows to go on from
    assert link not in page.text
    assert submit(reg, ANA, {}, deck_text=link).status_code == 303
    [stored] = subs.current(event_of(reg).db)
    assert stored.source == "ydke"
    assert stored.rows == [("main", 12580477, 3)]


def test_another_player_never_sees_or_replaces_a_list(reg: TestClient) -> None:
    submit(reg, ANA)
    ana = subs.current(event_of(reg).db)[0]
    receipt_code = subs.receipt(event_of(reg).db, ANA)
    reg.cookies.clear()
    other = legal_list()
    other["side"] = other["side"][:3]
    submit(reg, BO, other)
    # Bo's session: Ana's submission by number, by id in the address, the PDF: none opens
    for path in (f"/r/{CODE}/receipt?number={ana.number}",
                 f"/r/{CODE}/receipt.pdf?number={ana.number}", f"/r/{CODE}/receipt/{ANA}",
                 f"/r/{CODE}/{ANA}", f"/r/{CODE}/receipt?player_id={ANA}"):
        answer = reg.get(path)
        assert ana.sha256 not in answer.text, path
        assert "Player 67" not in answer.text, path
    # replacing Ana's list needs her receipt code
    refused = submit(reg, ANA)
    assert refused.status_code == 400
    assert 'data-code="WRONG_PLAYER_CODE"' in refused.text
    assert subs.current(event_of(reg).db)[0].number == ana.number
    wrong = reg.post(f"/r/{CODE}/open", data={"csrf": token(reg), "player_id": ANA,
                                              "access": "WRONG123"}, follow_redirects=False)
    assert wrong.status_code == 403
    reg.cookies.clear()
    opened = reg.post(f"/r/{CODE}/open", data={"csrf": token(reg), "player_id": ANA,
                                               "access": receipt_code or ""},
                      follow_redirects=False)
    assert opened.status_code == 303
    assert receipt_hash(reg) == ana.sha256


def test_a_forged_player_cookie_is_no_session(reg: TestClient) -> None:
    submit(reg, ANA)
    cookie = reg.cookies.get(PLAYER_COOKIE, path="/r/") or ""
    value, _, signature = cookie.rpartition(".")
    reg.cookies.clear()
    forged = value.replace(ANA, BO)
    reg.cookies.set(PLAYER_COOKIE, f"{forged}.{signature}", path="/r/")
    assert reg.get(f"/r/{CODE}/receipt").status_code == 403
    reg.cookies.set(PLAYER_COOKIE, f"{value}.short", path="/r/")
    assert reg.get(f"/r/{CODE}/receipt").status_code == 403


def test_a_pin_is_needed_for_the_first_submission_too(reg: TestClient) -> None:
    subs.set_pins(event_of(reg).db, {ANA: "4821"})
    assert submit(reg, ANA).status_code == 400
    assert submit(reg, ANA, access="4821").status_code == 303


def test_a_wrong_event_code_is_no_page(reg: TestClient) -> None:
    assert reg.get("/r/ZZZZZZ").status_code == 404
    assert reg.get(f"/r/{CODE.lower()}").status_code == 200
    subs.set_event_code(event_of(reg).db, None)
    assert reg.get(f"/r/{CODE}").status_code == 404


def test_a_player_form_without_its_csrf_token_is_refused(reg: TestClient) -> None:
    data = form_of(legal_list(), player_id=ANA, player_name="Ana", csrf="forged")
    assert reg.post(f"/r/{CODE}/submit", data=data).status_code == 403
    assert subs.current(event_of(reg).db) == []


def test_after_the_deadline_the_page_is_locked_but_for_an_unlocked_player(
        reg: TestClient) -> None:
    submit(reg, ANA)
    db = event_of(reg).db
    subs.set_deadline(db, dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    page = reg.get(f"/r/{CODE}")
    assert 'data-locked="1"' in page.text
    assert 'id="deck-form"' not in page.text
    refused = submit(reg, ANA)
    assert refused.status_code == 400
    assert 'data-code="LISTS_LOCKED"' in refused.text
    token_ = csrf_token(reg, "/registrations")
    reg.post(f"/registrations/{ANA}/unlock", data={"csrf": token_, "reason": "wrong side deck",
                                                   "judge": "Kim"})
    assert submit(reg, ANA).status_code == 303
    newest = subs.history(db, ANA)[0]
    assert newest.late
    assert submit(reg, ANA).status_code == 400  # one submission per unlock
    view = reg.get("/registrations").text
    assert 'data-late="1"' in view
    assert "wrong side deck" in view
    assert "Kim" in view


def test_the_organizer_sets_code_deadline_and_pins(reg: TestClient) -> None:
    db = event_of(reg).db
    token_ = csrf_token(reg, "/registrations")
    reg.post("/registrations/settings", data={"csrf": token_, "what": "new-code"})
    code = subs.event_code(db)
    assert code
    assert code != CODE
    assert len(code) == 6
    assert code in reg.get("/registrations").text
    reg.post("/registrations/settings", data={"csrf": token_, "what": "deadline",
                                              "deadline": "2026-12-05T09:30"})
    assert subs.deadline(db) == dt.datetime(2026, 12, 5, 9, 30, tzinfo=dt.UTC)
    reg.post("/registrations/settings", data={"csrf": token_, "what": "pins",
                                              "pins": f"{ANA} 4821\n{BO},7777\n"})
    assert (subs.pin(db, ANA), subs.pin(db, BO)) == ("4821", "7777")
    bad = reg.post("/registrations/settings", data={"csrf": token_, "what": "pins",
                                                    "pins": "0401234567"})
    assert bad.status_code == 400
    reg.post("/registrations/settings", data={"csrf": token_, "what": "close"})
    assert subs.event_code(db) is None


def _variant(n: int) -> dict[str, list[tuple[str, int]]]:
    """The n-th of 27 different lists (the copies of the first three main deck cards)."""
    lists = legal_list()
    for k in range(3):
        name, _ = lists["main"][k]
        lists["main"][k] = (name, 1 + (n // 3 ** k) % 3)
    return lists


def test_a_burst_of_submissions_past_the_limit_is_refused_and_not_stored(
        tmp_path: Path) -> None:
    limits = PlayerLimits(submissions=7, id_seconds=60.0)
    with app_client(tmp_path / "event.sqlite", player_limits=limits) as client:
        open_page(client)
        answers = [submit(client, ANA, _variant(n)).status_code for n in range(30)]
        assert answers == [303] * 7 + [429] * 23
        assert len(subs.history(event_of(client).db, ANA)) == 7


def test_requests_from_one_address_past_the_limit_are_refused(tmp_path: Path) -> None:
    limits = PlayerLimits(requests=5, address_seconds=60.0)
    with app_client(tmp_path / "event.sqlite", player_limits=limits) as client:
        open_page(client)
        answers = [client.get(f"/r/{CODE}").status_code for _ in range(8)]
        assert answers == [200] * 5 + [429] * 3
        assert client.get("/").status_code == 200  # staff pages are not counted


def test_a_player_session_opens_no_staff_page(tmp_path: Path) -> None:
    password = "a long staff password"
    with app_client(tmp_path / "event.sqlite", password=password) as client:
        subs.set_event_code(event_of(client).db, CODE)
        assert submit(client, ANA).status_code == 303
        assert client.get(f"/r/{CODE}/receipt").status_code == 200
        for path in ("/", "/players", f"/players/{ANA}", "/log", "/report.json",
                     f"/judge/{ANA}", "/judge", "/staff", "/registrations",
                     "/registrations.json", "/registrations.xlsx"):
            answer = client.get(path, follow_redirects=False)
            assert (answer.status_code, answer.headers.get("location")) == (303, "/login"), path
        sent = client.post(f"/registrations/{ANA}/unlock", data={"csrf": token(client),
                                                                 "reason": "x"},
                           follow_redirects=False)
        assert sent.status_code == 303
        assert sent.headers["location"] == "/login"
        assert subs.unlocks(event_of(client).db) == []


def test_an_upload_over_the_size_bound_is_refused_on_a_player_page(tmp_path: Path) -> None:
    with app_client(tmp_path / "event.sqlite", max_upload=1 << 16) as client:
        open_page(client)
        data = {"csrf": token(client), "player_id": ANA, "player_name": "Ana"}
        sent = client.post(f"/r/{CODE}/submit", data=data,
                           files=[("deck_file", ("deck.ydk", b"#main\n" + b"1" * (1 << 17)))])
        assert sent.status_code == 413
        assert subs.current(event_of(client).db) == []


def test_submitted_lists_are_the_event_s_registrations(reg: TestClient) -> None:
    submit(reg, ANA)
    lists = legal_list()
    lists["main"][1] = ("Pot of Greed", 1)
    reg.cookies.clear()
    submit(reg, BO, lists)
    event_of(reg).refresh().result()
    status = reg.get("/status.json")
    assert status.status_code == 200
    players = event_of(reg).snapshot().result
    assert players is not None
    found = dict(players.players.select("player_id", "status").iter_rows())
    assert found == {ANA: "legal", BO: "illegal"}
    judge = reg.get(f"/judge/{ANA}")
    assert judge.status_code == 200
    assert "Player 67" in judge.text
    view = reg.get("/registrations").text
    assert f'data-player="{ANA}" data-status="legal"' in view
    assert f'data-player="{BO}" data-status="illegal"' in view


def test_a_player_on_an_upload_and_the_page_waits_for_the_organizer(tmp_path: Path) -> None:
    with app_client(tmp_path / "event.sqlite") as client:
        upload_sample(client)
        subs.set_event_code(event_of(client).db, CODE)
        legal = "0400001301"
        lists = legal_list()
        lists["main"][1] = ("Pot of Greed", 1)
        assert submit(client, legal, lists).status_code == 303
        event_of(client).refresh().result()
        result = event_of(client).snapshot().result
        assert result is not None
        row = result.players.filter(pl.col("player_id") == legal).row(0, named=True)
        assert row["status"] == "needs_decision"
        assert any(p.code == "LIST_CONFLICT" for p in result.registrations.problems)
        view = client.get("/registrations").text
        assert f'<tr data-player="{legal}">' in view
        assert "choose one" in view
        client.post(f"/registrations/{legal}/choose", data={
            "csrf": csrf_token(client, "/registrations"), "choice": "page", "judge": "Kim"})
        event_of(client).refresh().result()
        result = event_of(client).snapshot().result
        assert result is not None
        row = result.players.filter(pl.col("player_id") == legal).row(0, named=True)
        assert row["status"] == "illegal"  # the page's list, with Pot of Greed
        missing = re.search(r'<table id="missing">(.*?)</table>', client.get(
            "/registrations").text, re.S)
        assert missing
        assert "0400064653" in missing.group(1)
        assert legal not in missing.group(1)


def test_nothing_a_player_types_is_a_formula_or_markup_in_an_export(reg: TestClient) -> None:
    data = form_of(legal_list(), csrf=token(reg), player_id=ANA,
                   player_name='=HYPERLINK("http://x","y")<b>')
    assert reg.post(f"/r/{CODE}/submit", data=data, follow_redirects=False).status_code == 303
    book = openpyxl.load_workbook(io.BytesIO(reg.get("/registrations.xlsx").content))
    cells = [c for ws in book.worksheets for row in ws.iter_rows() for c in row
             if isinstance(c.value, str) and "HYPERLINK" in c.value]
    assert cells
    assert all(c.data_type != "f" for c in cells)
    view = reg.get("/registrations").text
    assert "<b>" not in view.split("submitted-heading")[1]
    assert "&lt;b&gt;" in view
    exported = reg.get("/registrations.json").json()["submissions"][0]["player_name"]
    assert exported.startswith("=HYPERLINK")  # JSON is data: kept as typed
    archive = zipfile.ZipFile(io.BytesIO(reg.get("/registrations.zip").content))
    assert archive.namelist() == [f"{ANA}.pdf"]


def test_the_event_over_the_export_gives_the_web_event_s_verdicts(tmp_path: Path) -> None:
    """64 players submit through the page; ``deckcheck event`` over the exported workbook
    gives each the status the web event gives."""
    base = legal_list()
    spare = base["side"]
    with app_client(tmp_path / "event.sqlite") as client:
        open_page(client)
        for n in range(64):
            lists = {k: list(v) for k, v in base.items()}
            if n % 8 == 3:
                lists["main"][1] = ("Pot of Greed", 1)  # Forbidden
            if n % 8 == 5:
                lists["main"][0] = ("Called by the Grave", 3)  # Limited at 3
            if n % 8 == 6:
                lists["side"] = spare[:2]
            client.cookies.clear()
            assert submit(client, f"04000{n:05d}", lists).status_code == 303
        event_of(client).refresh().result()
        result = event_of(client).snapshot().result
        assert result is not None
        web = dict(result.players.select("player_id", "status").iter_rows())
        view = client.get("/registrations").text
        assert view.count('data-status="') == 64
        export = client.get("/registrations.xlsx").content
        saved = json.loads(client.get("/registrations.json").text)
    assert len(saved["submissions"]) == 64
    assert set(web.values()) >= {"legal", "illegal"}
    path = tmp_path / "registrations.xlsx"
    path.write_bytes(export)
    setup = load(load_format("advanced-tcg"), store.demo_cards(), None, date=DATE)
    again = run_event(path, setup)
    assert dict(again.players.select("player_id", "status").iter_rows()) == web


def test_the_organizer_takes_pins_from_an_uploaded_list(reg: TestClient) -> None:
    lists = ("Player ID,Player Name,PIN,Section,Qty,Card Name\n"
             f"{ANA},Ana,4821,Main,3,Raigeki\n")
    token_ = csrf_token(reg)
    reg.post("/upload/registrations", data={"csrf": token_},
             files=[("files", ("lists.csv", lists.encode()))])
    reg.post("/registrations/settings", data={"csrf": token_, "what": "pins-from-lists"})
    assert subs.pin(event_of(reg).db, ANA) == "4821"
    assert submit(reg, ANA).status_code == 400  # the PIN is needed now
    assert submit(reg, ANA, access="4821").status_code == 303


def test_a_paste_over_its_bound_is_refused_whole(reg: TestClient) -> None:
    data = {"csrf": token(reg), "player_id": ANA, "player_name": "Ana",
            "deck_text": "3 Raigeki\n" * 8000}
    sent = reg.post(f"/r/{CODE}/submit", data=data)
    assert sent.status_code == 400
    assert 'data-code="FILE_TOO_LARGE"' in sent.text
    assert subs.current(event_of(reg).db) == []


def test_a_near_typo_read_as_a_card_is_shown_as_read(reg: TestClient) -> None:
    lists = legal_list()
    lists["main"][1] = ("Pot of Gred", 1)
    found = reg.post(f"/r/{CODE}/check.json", data=form_of(lists, csrf=token(reg))).json()
    assert found["read_as"] == {"main_name_1": "Pot of Greed"}
    assert found["unknown"] == {}
    page = reg.post(f"/r/{CODE}/check", data=form_of(lists, csrf=token(reg))).text
    assert 'data-read-as="Pot of Greed"' in page


def test_a_list_longer_than_a_sheet_s_block_is_exported_in_the_long_layout(
        reg: TestClient, tmp_path: Path) -> None:
    cards = store.demo_cards()
    setup = load(load_format("advanced-tcg"), cards, None, date=DATE)
    listed = setup.banlist.entries["passcode"].implode()
    pool = (cards.by_card.filter(~pl.col("card_id").is_in(listed) & pl.col("pools").list
                                 .contains("tcg") & (pl.col("card_id") > 0) & ~pl.col("extra")
                                 & ~pl.col("legend") & ~pl.col("rush"))
            .unique("name_en", keep="first").sort("card_id"))
    monsters = pool.filter(pl.col("kind") == "monster")["name_en"].to_list()[:25]
    spells = pool.filter(pl.col("kind") == "spell")["name_en"].to_list()[:5]
    assert len(monsters) == 25
    long_list = {"main": [(n, 1) for n in monsters] + [(n, 3) for n in spells]}
    assert submit(reg, ANA, long_list).status_code == 303
    reg.cookies.clear()
    submit(reg, BO)
    event_of(reg).refresh().result()
    result = event_of(reg).snapshot().result
    assert result is not None
    web = dict(result.players.select("player_id", "status").iter_rows())
    path = tmp_path / "registrations.xlsx"
    path.write_bytes(reg.get("/registrations.xlsx").content)
    assert openpyxl.load_workbook(path).sheetnames == [BO, "Long lists"]
    again = run_event(path, setup)
    assert dict(again.players.select("player_id", "status").iter_rows()) == web
    assert again.registrations.entries.filter(pl.col("deck_id") == ANA)["qty"].sum() == 40


def test_an_uploaded_ydk_file_or_filled_pdf_sheet_is_a_source(reg: TestClient) -> None:
    from validator.sheets.pdf import sheet_from_deck, write_form

    submit(reg, BO)
    [typed] = subs.current(event_of(reg).db)
    entries = entries_frame([{"deck_id": BO, "section": s, "passcode": p, "qty": n}
                             for s, p, n in typed.rows])
    setup = load(load_format("advanced-tcg"), store.demo_cards(), None, date=DATE)
    sheet, _ = sheet_from_deck(entries, setup.cards, setup.fmt, player_id=BO,
                               player_name="Bo")
    data = {"csrf": token(reg), "player_id": ANA, "player_name": "Ana"}
    reg.cookies.clear()
    sent = reg.post(f"/r/{CODE}/submit", data={**data, "csrf": token(reg)},
                    files=[("deck_file", ("sheet.pdf", write_form(sheet)))],
                    follow_redirects=False)
    assert sent.status_code == 303
    pdf = subs.history(event_of(reg).db, ANA)[0]
    assert pdf.source == "pdf"
    assert pdf.sha256 == typed.sha256  # the same list, read back from its sheet
    ydk = "#main\n" + "\n".join(str(p) for s, p, n in typed.rows if s == "main"
                                for _ in range(n))
    sent = reg.post(f"/r/{CODE}/submit", data={**data, "csrf": token(reg)},
                    files=[("deck_file", ("deck.ydk", ydk.encode()))], follow_redirects=False)
    assert sent.status_code == 303
    newest = subs.history(event_of(reg).db, ANA)[0]
    assert newest.source == "ydk"
    assert newest.rows == [r for r in typed.rows if r[0] == "main"]
    refused = reg.post(f"/r/{CODE}/submit", data={**data, "csrf": token(reg)},
                       files=[("deck_file", ("deck.exe", b"MZ"))])
    assert refused.status_code == 400
    assert 'data-code="WRONG_FILE_TYPE"' in refused.text


def test_the_organizer_sees_every_list_a_player_submitted(reg: TestClient) -> None:
    submit(reg, ANA)
    lists = legal_list()
    lists["side"] = lists["side"][:2]
    submit(reg, ANA, lists)
    history = subs.history(event_of(reg).db, ANA)
    page = reg.get(f"/registrations/{ANA}")
    assert page.status_code == 200
    assert re.findall(r'data-number="(\d+)"', page.text) == [str(h.number) for h in history]
    assert all(h.sha256 in page.text for h in history)
    assert 'data-none="1"' in reg.get(f"/registrations/{BO}").text


def test_judges_view_the_registrations_and_only_the_organizer_changes_them(
        tmp_path: Path) -> None:
    password = "organizer-password"
    with app_client(tmp_path / "event.sqlite", password=password) as organizer:
        organizer.app.state.throttle = Throttle(step=0, most=0)  # type: ignore[attr-defined]
        organizer.post("/login", data={"csrf": csrf_token(organizer, "/login"),
                                       "password": password})
        subs.set_event_code(event_of(organizer).db, CODE)
        shown = organizer.post("/staff/issue", data={"csrf": csrf_token(organizer, "/staff"),
                                                     "name": "Kim", "role": "judge"})
        code = re.search(r'<strong class="code">([^<]+)</strong>', shown.text)
        assert code
        judge = TestClient(organizer.app)
        judge.post("/login", data={"csrf": csrf_token(judge, "/login"),
                                   "password": code.group(1)})
        assert submit(judge, ANA).status_code == 303  # a player page, for anyone
        view = judge.get("/registrations")
        assert view.status_code == 200
        assert f'data-player="{ANA}"' in view.text
        assert 'action="/registrations/settings"' not in view.text  # hidden from a judge
        for path in ("/registrations.json", "/registrations.xlsx", "/registrations.zip"):
            assert judge.get(path).status_code == 403, path
        token_ = csrf_token(judge, "/registrations")
        refused = [judge.post("/registrations/settings", data={"csrf": token_, "what": "close"}),
                   judge.post(f"/registrations/{ANA}/unlock", data={"csrf": token_,
                                                                    "reason": "x"}),
                   judge.post(f"/registrations/{ANA}/choose", data={"csrf": token_,
                                                                    "choice": "page"})]
        assert [r.status_code for r in refused] == [403, 403, 403]
        assert subs.event_code(event_of(judge).db) == CODE
        assert subs.unlocks(event_of(judge).db) == []
        assert 'action="/registrations/settings"' in organizer.get("/registrations").text
        assert organizer.get("/registrations.json").status_code == 200
        organizer.post(f"/registrations/{ANA}/unlock", data={
            "csrf": csrf_token(organizer, "/registrations"), "reason": "late bus",
            "judge": "Org"})
        [unlocked] = subs.unlocks(event_of(organizer).db)
        assert unlocked.reason == "late bus"


@pytest.mark.parametrize(("fields", "code"), [
    ({"main_qty_0": "three"}, "BAD_OPTION"),
    ({"deck_text": "ydke://not!base64!", "source": "pasted"}, "BAD_YDKE"),
], ids=["quantity", "ydke"])
def test_the_player_s_form_errors_speak_the_page_language(
        reg: TestClient, fields: dict[str, str], code: str) -> None:
    reg.post("/language", data={"csrf": token(reg), "lang": "ja", "back": f"/r/{CODE}"})
    try:
        found = reg.post(f"/r/{CODE}/check.json",
                         data={**form_of(legal_list("ja"), csrf=token(reg)), **fields})
    finally:
        reg.post("/language", data={"csrf": token(reg), "lang": "en", "back": f"/r/{CODE}"})
    shown = found.json().get("errors") or found.json().get("problems")
    assert shown
    errors = [e for e in shown if e["code"] == code]
    assert errors
    for error in errors:
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", error["message"]), error


def test_the_same_list_sent_again_is_the_same_submission(tmp_path: Path) -> None:
    with app_client(tmp_path / "event.sqlite") as client:
        open_page(client)
        first, again = submit(client, ANA), submit(client, ANA)  # Back, then Submit again
        assert (first.status_code, again.status_code) == (303, 303)
        db = event_of(client).db
        assert len(subs.history(db, ANA)) == 1
        changed = legal_list()
        changed["side"] = changed["side"][:-1]
        assert submit(client, ANA, changed).status_code == 303
        assert len(subs.history(db, ANA)) == 2
