"""Problem codes: every code of the registry is produced by a real input, problems sort by
(file, line, column, code), the overflow is counted by code, and an unknown code is a bug."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from openpyxl import Workbook, load_workbook
from pypdf import PdfWriter

from tests.archives import pdf_bomb, zip_bytes
from tests.uploads import hostile_read
from validator.cards import store
from validator.cards.banlist import parse_lflist, read_banlist, read_table_list
from validator.cards.db import CardDB
from validator.cards.formats import banlists_dir, load_format
from validator.cards.importers import cardcsv, import_source
from validator.cards.load import load, load_banlist
from validator.cards.update import update
from validator.cli import main
from validator.engine.check import check
from validator.engine.lookup import card_facts
from validator.errors import (
    MORE,
    PROBLEM_CODES,
    ImplementationError,
    InputError,
    Problem,
    ProblemCollector,
    capped,
)
from validator.event import submissions
from validator.event.bounded import Limits
from validator.event.rounds import place_seats
from validator.event.run import run_event
from validator.event.store import EventDB
from validator.inputs.decks.batch import read_deck_paths, read_deck_uploads
from validator.inputs.entries import entries_frame
from validator.inputs.pairings import read_pasted_pairings
from validator.inputs.registrations.read import (
    Registrations,
    read_registration_files,
    read_registrations,
)
from validator.judging.decisions import apply_decisions, read_decisions
from validator.judging.infractions import infraction
from validator.judging.penalties import load_policy
from validator.report.json import report_dict
from validator.report.model import judged_event
from validator.sheets.convert import convert
from validator.sheets.workbook import KonamiSheet, write_konami_workbook
from validator.text.i18n import LOCAL_LANGS, PLACEHOLDER, catalog, problem_text
from validator.web.app import create_app
from validator.web.limits import PlayerLimits
from validator.web.state import EventState

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_decklists" / "regional-tcg.xlsx"
HEADER = "Player ID,Player Name,Section,Qty,Card Name\n"

#: a sample makes its problems from a real input written to the folder it is given
Sample = Callable[[Path, pytest.MonkeyPatch], list[str]]


def _check_plain_strings() -> None:
    """The engine given entries whose section is a plain string (not the section Enum)."""
    setup = load("advanced-tcg", "demo")
    check(pl.DataFrame({"deck_id": ["d"], "section": ["main"], "qty": [3],
                        "name": ["Raigeki"]}, schema_overrides={"qty": pl.Int32}),
          cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist)


def _codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def _raised(call: Callable[[], object]) -> list[str]:
    """The codes of the problems ``call`` raises (none when it raises nothing)."""
    try:
        call()
    except InputError as exc:
        return exc.codes
    return []


def _write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def _registrations(tmp: Path, text: str, name: str = "lists.csv") -> Registrations:
    return read_registrations(_write(tmp / name, text))


def _reg_codes(tmp: Path, text: str) -> list[str]:
    reg = _registrations(tmp, text)
    return _codes(reg.problems + reg.notes)


def _deck_codes(tmp: Path, files: dict[str, str | bytes]) -> list[str]:
    for name, data in files.items():
        _write(tmp / "decks" / name, data)
    return _codes(read_deck_paths([tmp / "decks"]).problems)


def _cli_codes(args: list[str]) -> list[str]:
    """The codes the command line prints in its ``error: PLACE: CODE what`` lines."""
    output = CliRunner().invoke(main, args).output
    return re.findall(r"^error: .*?: ([A-Z][A-Z0-9_]+) ", output, re.M)


def _register_codes(tmp: Path, case: str) -> list[str]:
    """The codes the registration page answers a second submission with: after the deadline
    (``locked``), from another device without the receipt code (``other``), past the limit
    of one submission (``limit``)."""
    app = create_app(tmp / "event.sqlite", cards_spec="demo", hosts=frozenset({"testserver"}),
                     player_limits=PlayerLimits(submissions=1))
    with TestClient(app) as client:
        db = app.state.event.db
        submissions.set_event_code(db, "ABC234")

        def sent(copies: int) -> str:
            page = client.get("/r/ABC234").text
            token = re.search(r'name="csrf" value="([^"]+)"', page)
            assert token
            return client.post("/r/ABC234/submit", data={
                "csrf": token.group(1), "player_id": "0401234567", "player_name": "Ana",
                "main_name_0": "Raigeki", "main_qty_0": str(copies)}).text

        sent(3)
        if case == "locked":
            submissions.set_deadline(db, dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
        if case == "other":
            client.cookies.clear()
        return re.findall(r'data-code="([A-Z_]+)"', sent(2))  # another list


def _list_conflict(tmp: Path) -> list[str]:
    db = EventDB(tmp / "event.sqlite")
    submissions.add(db, player_id="0401234567", player_name="Ana", source="typed", lang="en",
                    rows=[("main", 12580477, 3)], limit=10, window=600)
    page = submissions.page_registrations(db)
    both = submissions.merged(page, submissions.page_registrations(db), {})
    return _codes(both.problems) if both is not None else []


def _web_codes(tmp: Path, path: str, lists: str | None = None) -> list[str]:
    """The codes of the problems a web page answers with (after an upload of ``lists``)."""
    app = create_app(tmp / "event.sqlite", cards_spec="demo",
                     hosts=frozenset({"testserver"}))
    with TestClient(app) as client:
        if lists is not None:
            token = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
            assert token
            sent = client.post("/upload/registrations", data={"csrf": token.group(1)},
                               files=[("files", ("lists.csv", lists.encode()))])
            assert sent.status_code == 200
        text = client.get(path).text
    return re.findall(r"<li[^>]*>(?:(?!</li>).)*?<code>([A-Z][A-Z0-9_]+)</code>", text)


def _judge_typo(tmp: Path) -> list[str]:
    """The codes of a judge's count form with a card name that names no card."""
    app = create_app(tmp / "event.sqlite", cards_spec="demo",
                     hosts=frozenset({"testserver"}))
    with TestClient(app) as client:
        token = re.search(r'name="csrf" value="([^"]+)"', client.get("/").text)
        assert token
        client.post("/upload/registrations", data={"csrf": token.group(1)},
                    files=[("files", ("lists.csv", (HEADER + "P1,Ana,Main,3,Raigeki\n")
                                      .encode()))])
        text = client.post("/judge/P1/check", data={
            "csrf": token.group(1), "judge": "J", "duel": "1", "add_name_0": "Ash Blosom"}).text
    return re.findall(r'data-code="([A-Z][A-Z0-9_]+)"', text)


def _konami(tmp: Path, *sheets: KonamiSheet) -> Path:
    path = tmp / "konami.xlsx"
    write_konami_workbook(path, list(sheets))
    return path


def _hidden_sheet(tmp: Path) -> list[str]:
    path = _konami(tmp, KonamiSheet("A", "1", blocks={"monster": [(3, "Raigeki")]}),
                   KonamiSheet("B", "2", blocks={"monster": [(3, "Raigeki")]}))
    workbook = load_workbook(path)
    workbook["2"].sheet_state = "hidden"
    workbook.save(path)
    return _codes(read_registrations(path).problems)


def _total_mismatch(tmp: Path) -> list[str]:
    path = _konami(tmp, KonamiSheet("A", "1", blocks={"monster": [(3, "Raigeki")]}))
    workbook = load_workbook(path)
    workbook["1"]["B28"] = 4  # the Monster total, under 3 Raigeki
    workbook.save(path)
    return _codes(read_registrations(path).problems)


def _pdf(encrypted: bool) -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    if encrypted:
        writer.encrypt(user_password="secret", owner_password="owner")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def _pdf_codes(tmp: Path, data: bytes) -> list[str]:
    return _codes(read_registrations(_write(tmp / "sheet.pdf", data)).problems)


def _unreadable_file(tmp: Path) -> list[str]:
    (tmp / "sheet.pdf").mkdir()  # a folder where a file was named: the system cannot read it
    return _codes(read_registration_files([tmp / "sheet.pdf"]).problems)


def _workbook_without_sheets(tmp: Path) -> list[str]:
    data = zip_bytes({"notes.txt": b"a zip, but no workbook inside"})
    return _codes(read_registration_files([tmp / "lists.xlsx"], [data]).problems)


def _card_csv(tmp: Path, text: str) -> list[str]:
    return _raised(lambda: cardcsv.read(_write(tmp / "cards.csv", text)))


def _own_cards(tmp: Path) -> CardDB:
    """Card data of the folder's own card list (not the demo pool): two different cards
    printing one name."""
    return cardcsv.read(_write(tmp / "cards.csv", "passcode,name,kind\n"
                                                   "11111111,Twin Name,monster\n"
                                                   "22222222,Twin Name,spell\n"
                                                   "33333333,Raigeki,spell\n"))


def _check_warnings(cards: CardDB, rows: list[dict[str, object]]) -> list[str]:
    """The warnings of a TCG check of one deck against an empty list."""
    result = check(entries_frame([{"deck_id": "d", "section": "main", "qty": 1, **r}
                                  for r in rows]),
                   cards=cards, fmt=load_format("advanced-tcg"),
                   banlist=parse_lflist("!2026.05 TCG\n", "x.conf")[0])
    return _codes(result.warnings)


def _before_every_list(tmp: Path) -> list[str]:
    store.import_into_store([_write(tmp / "x.lflist.conf", "!2026.05 TCG\n")], tmp)
    return _raised(lambda: load_banlist(None, None, load_format("advanced-tcg"),
                                        _own_cards(tmp), tmp, "2026-04-30"))


def _list_warnings(tmp: Path, text: str) -> list[str]:
    banlist = read_table_list(_write(tmp / "list.csv", text))
    return _codes(banlist.bind(_own_cards(tmp)).warnings)


def _treated_as_unknown(tmp: Path) -> list[str]:
    card = ('[{"cardType": "spell", "passwords": ["12345678"], "text": {"en": {"name": '
            '"Copycat", "effect": "This card\'s name is always treated as \\"No Such '
            'Card\\"."}}}]')
    return _codes(import_source(_write(tmp / "cards.json", card)).warnings)


@cache
def _sample_event_codes() -> list[str]:
    result = run_event(SAMPLE, load("advanced-tcg", "demo"), decks=ROOT / "decks" / "tcg")
    return _codes(result.problems)


def _unmatched_decision(tmp: Path) -> list[str]:
    reg = _registrations(tmp, HEADER + "P1,Ana,Main,three,Raigeki\n")
    decisions = read_decisions(_write(tmp / "decisions.csv",
                                      "player_id,where,card,qty,decided_by,reason\n"
                                      "P1,Z99,Raigeki,3,Head judge,typo\n"))
    return _codes(apply_decisions(reg.entries, reg.problems, decisions).unmatched)


def _check_failed(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    state = EventState(EventDB(tmp / "event.sqlite"), store.demo_cards())
    state.db.add_uploads("registrations", [("lists.csv", (HEADER + "P1,Ana,Main,3,Raigeki\n")
                                            .encode())])

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug in the check")

    monkeypatch.setattr("validator.web.state.check_event", broken)
    _, problems = state.check_now()
    return _codes(problems)


def _nothing_read(tmp: Path) -> list[str]:
    """An uploaded CSV with nothing in it: the upload fails, and says why."""
    state = EventState(EventDB(tmp / "event.sqlite"), store.demo_cards())
    batch = state.db.add_uploads("registrations", [("empty.csv", b"")])
    return _codes(state.check_all()[2].outcomes[batch].problems)


def _hostile_upload(tmp: Path, data: bytes) -> list[str]:
    """An uploaded deck built to hit a reading limit: the upload fails with that limit."""
    state = EventState(EventDB(tmp / "event.sqlite"), store.demo_cards(),
                       limits=Limits(seconds=1.0, memory=256 << 20), read_one=hostile_read)
    try:
        batch = state.db.add_uploads("decks", [("hostile.ydk", data)])
        return _codes(state.check_all()[2].outcomes[batch].problems)
    finally:
        state.close()


def _many_without_player(tmp: Path) -> list[str]:
    return _reg_codes(tmp, HEADER + ",,Main,3,Raigeki\n" * 150)


#: the registered players the pairings samples are matched against
_PAIRED = [("0400000001", "Ana Silva"), ("0400000002", "Ana Silva"), ("0400000003", "Bo Kim")]


def _pairing_codes(text: str) -> list[str]:
    read = read_pasted_pairings(text, 3)
    return _codes(read.problems + place_seats(read.seats, _PAIRED)[1])


#: code → a sample input that produces a problem with that code
SAMPLES: dict[str, Sample] = {
    "FILE_MISSING": lambda tmp, _: _raised(lambda: read_registrations(tmp / "none.csv")),
    "FILE_UNREADABLE": lambda tmp, _: _unreadable_file(tmp),
    "FILE_TOO_LARGE": lambda tmp, _: _deck_codes(tmp, {"big.ydk": b"#" * ((1 << 20) + 1)}),
    "WRONG_FILE_TYPE": lambda tmp, _: _codes(read_registration_files(
        [tmp / "lists.xlsx"], [b"not a zip"]).problems),
    "BAD_DECK_CODE": lambda tmp, _: _deck_codes(tmp, {"d.omega": "A" * 60}),
    "CANNOT_WRITE": lambda tmp, _: _codes(convert(
        entries_frame([{"deck_id": "p1", "section": "main", "passcode": 300000001, "qty": 1}]),
        ["p1"], {}, "mycard", store.demo_cards(), load_format("advanced-tcg"))[1]),
    "NOT_TEXT": lambda tmp, _: _deck_codes(tmp, {"d.txt": "3 Raigeki\x01\n"}),
    "NOT_UTF8": lambda tmp, _: _deck_codes(tmp, {"d.ydk": b"#main\n\xff\n"}),
    "ZIP_DAMAGED": lambda tmp, _: _deck_codes(tmp, {"decks.zip": b"PK\x03\x04 not a zip"}),
    "ZIP_UNSAFE": lambda tmp, _: _deck_codes(tmp, {"decks.zip": zip_bytes(
        {"d.ydk": b"0" * (2 << 20)})}),
    "SHEET_TOO_LARGE": lambda tmp, _: _reg_codes(tmp, ",".join(["x"] * 1001) + "\n"),
    "BAD_CSV": lambda tmp, _: _reg_codes(tmp, HEADER + 'P1,Ana,Main,3,"' + "x" * (2 << 20)
                                         + '"\n'),
    "BAD_WORKBOOK": lambda tmp, _: _workbook_without_sheets(tmp),
    "HIDDEN_SHEET": lambda tmp, _: _hidden_sheet(tmp),
    "BAD_PDF": lambda tmp, _: _pdf_codes(tmp, b"a text file named .pdf"),
    "PDF_UNSAFE": lambda tmp, _: _pdf_codes(tmp, pdf_bomb()),
    "PDF_ENCRYPTED": lambda tmp, _: _pdf_codes(tmp, _pdf(encrypted=True)),
    "NOT_A_FORM": lambda tmp, _: _pdf_codes(tmp, _pdf(encrypted=False)),
    "NO_REGISTRATIONS": lambda tmp, _: _raised(lambda: read_registrations(tmp)),
    "NO_PLAYERS": lambda tmp, _: _raised(lambda: run_event(_write(tmp / "empty.csv", ""),
                                                           load("advanced-tcg", "demo"))),
    "NO_HEADER": lambda tmp, _: _reg_codes(tmp, "hello,world\n1,2\n"),
    "NO_PLAYER_COLUMN": lambda tmp, _: _reg_codes(tmp, "Deck owner,Qty,Card Name\n"
                                                       "x,3,Raigeki\n"),
    "NO_PLAYER_NAMES": lambda tmp, _: _reg_codes(tmp, "Player ID,Qty,Card Name\n"
                                                      "P1,3,Raigeki\n"),
    "NO_PLAYER": lambda tmp, _: _reg_codes(tmp, HEADER + ",,Main,3,Raigeki\n"),
    "PLAYER_ID": lambda tmp, _: _reg_codes(tmp, HEADER + "4.01235E+09,Ana,Main,3,Raigeki\n"),
    "BLANK_LIST": lambda tmp, _: _codes(read_registrations(_konami(
        tmp, KonamiSheet(sheet_name="Player 1"))).problems),
    "REGISTERED_TWICE": lambda tmp, _: _codes(read_registration_files([
        _write(tmp / "a.csv", HEADER + "P1,Ana,Main,3,Raigeki\n"),
        _write(tmp / "b.csv", HEADER + "P1,Ana,Main,2,Raigeki\n")]).problems),
    "SUPERSEDED": lambda tmp, _: _reg_codes(
        tmp, "Timestamp,KONAMI ID,Full name,Main Deck\n"
             "11/29/2026 20:01:00,0400000001,Jordan Lee,3 Raigeki\n"
             "11/30/2026 08:15:30,0400000001,Jordan Lee,2 Raigeki\n"),
    "BAD_QUANTITY": lambda tmp, _: _codes(read_registrations(SAMPLE).problems),
    "NO_CARD": lambda tmp, _: _reg_codes(tmp, HEADER + "P1,Ana,Main,3,\n"),
    "BAD_SECTION": lambda tmp, _: _reg_codes(tmp, HEADER + "P1,Ana,Sideboard??,1,Raigeki\n"),
    "BAD_PASSCODE": lambda tmp, _: _deck_codes(tmp, {"d.ydk": "#main\nnope\n"}),
    "NAME_TOO_LONG": lambda tmp, _: _deck_codes(tmp, {"d.txt": "3 " + "Raigeki " * 30 + "\n"}),
    "LINE_TOO_LONG": lambda tmp, _: _deck_codes(tmp, {"d.txt": "3 Raigeki" + " " * 5000 + "x\n"}),
    "TOTAL_MISMATCH": lambda tmp, _: _total_mismatch(tmp),
    "NO_DECK_FILES": lambda tmp, _: _raised(lambda: run_event(
        _write(tmp / "lists.csv", HEADER + "P1,Ana,Main,3,Raigeki\n"),
        load("advanced-tcg", "demo"), decks=_write(tmp / "decks" / "notes.md", "").parent)),
    "BAD_DECK_ID": lambda tmp, _: _deck_codes(tmp, {"x" * 101 + ".ydk": "#main\n4031928\n"}),
    "DECK_TWICE": lambda tmp, _: _deck_codes(tmp, {"a.ydk": "#main\n4031928\n",
                                                   "a.txt": "1 Raigeki\n"}),
    "BAD_YDKE": lambda tmp, _: _codes(read_deck_uploads([], "P1 ydke://not!base64!").problems),
    "UNMATCHED_DECK": lambda tmp, _: _sample_event_codes(),
    "NO_DECK": lambda tmp, _: _sample_event_codes(),
    "EMPTY_FILE": lambda tmp, _: _raised(lambda: import_source(_write(tmp / "cards.cdb", b""))),
    "MISSING_COLUMN": lambda tmp, _: _card_csv(tmp, "code,title\n1,x\n"),
    "BAD_VALUE": lambda tmp, _: _card_csv(tmp, "passcode,name,kind\n1,X,wizard\n"),
    "PASSCODE_TWICE": lambda tmp, _: _card_csv(tmp, "passcode,name\n1,X\n1,Y\n"),
    "BAD_CARD_DATA": lambda tmp, _: _raised(lambda: import_source(_write(
        tmp / "cards.json", '[{"cardType": "monster",'))),
    "NO_CARDS": lambda tmp, _: _raised(lambda: import_source(tmp)),
    "UNKNOWN_TREATED_AS": lambda tmp, _: _treated_as_unknown(tmp),
    "BAD_LFLIST_LINE": lambda tmp, _: _raised(lambda: read_banlist(_write(
        tmp / "x.lflist.conf", "!2026.05 TCG\nnot an entry\n"))),
    "UNKNOWN_LIST_ENTRY": lambda tmp, _: _list_warnings(tmp, "name,status\n"
                                                             "No Such Card,Limited\n"),
    "LIST_ENTRY_BY_NAME": lambda tmp, _: _codes(parse_lflist(
        "!L\n99999999 1 --Raigeki\n", "l.conf")[0].bind(_own_cards(tmp)).warnings),
    "AMBIGUOUS_NAME": lambda tmp, _: _list_warnings(tmp, "name,status\nTwin Name,Limited\n"),
    "NO_LIST": lambda tmp, _: _raised(lambda: read_banlist(_write(
        tmp / "x.lflist.conf", "!2026.05 TCG\n"), "2027.01 TCG")),
    "NO_LIST_IN_FORCE": lambda tmp, _: _before_every_list(tmp),
    "DEMO_POOL": lambda tmp, _: _check_warnings(store.demo_cards(), [{"name": "Raigeki"}]),
    "CARD_DATA_MISSING": lambda tmp, _: _check_warnings(
        _own_cards(tmp), [{"passcode": code} for code in (90000001, 90000002, 90000003)]),
    "NO_SUCH_CARD": lambda tmp, _: _raised(lambda: card_facts("No Such Card", load(
        "advanced-tcg", "demo"))),
    "NO_RELEASE_INFO": lambda tmp, _: _check_warnings(_own_cards(tmp),
                                                      [{"passcode": 33333333}]),
    "DEMO_LIST": lambda tmp, _: _raised(lambda: load_banlist(
        str(banlists_dir() / "lists" / "demo-tcg.lflist.conf"), None,
        load_format("advanced-tcg"), _own_cards(tmp))),
    "NO_STORE": lambda tmp, _: _raised(lambda: store.load_cards("store", tmp)),
    "NOT_IN_STORE": lambda tmp, _: _raised(lambda: store.remove_from_store("nothing", tmp)),
    "STORE_DAMAGED": lambda tmp, _: _raised(lambda: store.load_store(
        _write(tmp / store.MANIFEST, "{not json").parent)),
    "STORE_VERSION": lambda tmp, _: _raised(lambda: store.load_store(
        _write(tmp / "cards.parquet", b"an older store").parent)),
    "UNKNOWN_SOURCE": lambda tmp, _: _raised(lambda: update(tmp, only=["nowhere"])),
    "DOWNLOAD_FAILED": lambda tmp, _: _raised(lambda: update(
        tmp, "http://127.0.0.1:9", only=["tcg"], timeout=2)),
    "BAD_ENTRIES": lambda tmp, _: _raised(lambda: _check_plain_strings()),
    "UNKNOWN_FORMAT": lambda tmp, _: _raised(lambda: load_format("no-such-format")),
    "BAD_TOML": lambda tmp, _: _raised(lambda: load_format(str(_write(
        tmp / "mine.toml", "name = = 3\n")))),
    "BAD_SETTING": lambda tmp, _: _raised(lambda: load_format(str(_write(
        tmp / "mine.toml", "name = 3\n")))),
    "UNKNOWN_REGULATION": lambda tmp, _: _raised(lambda: load_policy("no-such-regulation")),
    "UNKNOWN_INFRACTION": lambda tmp, _: _raised(lambda: infraction("th", "NO_SUCH_CODE")),
    "BAD_DECISION": lambda tmp, _: _raised(lambda: read_decisions(_write(
        tmp / "decisions.csv", "player_id,where,card,decided_by,reason\nP1,C3,Raigeki,,\n"))),
    "UNMATCHED_DECISION": lambda tmp, _: _unmatched_decision(tmp),
    "BAD_OPTION": lambda tmp, _: _cli_codes(["template", str(tmp / "t.xlsx"), "--players",
                                             "0"]),
    "NOT_READY": lambda tmp, _: _web_codes(tmp, "/report.json"),
    "BAD_PAIRING": lambda *_: _pairing_codes("twelve, Bo Kim, 0400000001\n"),
    "UNKNOWN_PAIRED_PLAYER": lambda *_: _pairing_codes("12, Bo Kimm, 0400000001\n"),
    "AMBIGUOUS_PLAYER": lambda *_: _pairing_codes("12, Ana Silva, Bo Kim\n"),
    "PAIRING_CONFLICT": lambda *_: _pairing_codes("12, 0400000001, Bo Kim\n"
                                                  "13, 0400000002, Bo Kim\n"),
    "UNKNOWN_PLAYER": lambda tmp, _: _web_codes(tmp, "/players/NOBODY",
                                                 HEADER + "P1,Ana,Main,3,Raigeki\n"),
    "UNKNOWN_CARD_NAME": lambda tmp, _: _judge_typo(tmp),
    "CHECK_FAILED": _check_failed,
    "NOTHING_READ": lambda tmp, _: _nothing_read(tmp),
    "UPLOAD_TOO_SLOW": lambda tmp, _: _hostile_upload(tmp, b"SLOW"),
    "UPLOAD_TOO_BIG_IN_MEMORY": lambda tmp, _: _hostile_upload(tmp, b"HUGE"),
    "LIST_CONFLICT": lambda tmp, _: _list_conflict(tmp),
    "LISTS_LOCKED": lambda tmp, _: _register_codes(tmp, "locked"),
    "TOO_MANY_SUBMISSIONS": lambda tmp, _: _register_codes(tmp, "limit"),
    "WRONG_PLAYER_CODE": lambda tmp, _: _register_codes(tmp, "other"),
    MORE: lambda tmp, _: _many_without_player(tmp),
}


@pytest.mark.parametrize("code", PROBLEM_CODES)
def test_every_code_has_a_sample_input_that_produces_it(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sample = SAMPLES.get(code)
    if sample is None:
        pytest.fail(f"no sample input produces {code}: add one to SAMPLES")
    assert code in sample(tmp_path, monkeypatch)


def test_samples_are_only_for_codes_of_the_registry() -> None:
    assert set(SAMPLES) == set(PROBLEM_CODES)


def test_codes_are_stable_upper_snake_names_with_a_one_line_meaning() -> None:
    for code, meaning in PROBLEM_CODES.items():
        assert re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)*", code), code
        assert meaning.strip(), code
        assert "\n" not in meaning, code
    assert "BAD_INPUT" not in PROBLEM_CODES  # no catch-all


def test_an_unknown_code_is_a_bug_of_the_code() -> None:
    with pytest.raises(ImplementationError):
        Problem("lists.csv", 3, "C3", "quantity 'three' is not a number 1-99", code="BAD_QTY")
    with pytest.raises(ImplementationError):
        InputError.at("lists.csv", "no rows", code="NO_ROWS")
    collector = ProblemCollector("lists.csv", limit=0)  # counted, not kept: checked all the same
    with pytest.raises(ImplementationError):
        collector.add("no rows", code="NO_ROWS")


def test_problems_sort_by_file_line_column_and_code(tmp_path: Path) -> None:
    reg = _registrations(tmp_path, HEADER + "P1,Ana,Main,3,\n"
                                            "4.01235E+09,Lost,Main,3,Raigeki\n"
                                            ",,Main,3,Raigeki\n"
                                            "P1,Ana,Main,three,Raigeki\n")
    file = str(tmp_path / "lists.csv")
    assert [(p.file, p.line, p.column, p.code) for p in sorted(reg.problems)] == [
        (file, None, None, "PLAYER_ID"),  # no line: first
        (file, 2, "E2", "NO_CARD"), (file, 4, "B4", "NO_PLAYER"),
        (file, 5, "D5", "BAD_QUANTITY")]
    # the wording takes no part: the same problems worded otherwise sort the same
    reworded = [dataclasses.replace(p, message=p.message[::-1]) for p in reg.problems]
    assert [(p.line, p.code) for p in sorted(reworded)] == [
        (p.line, p.code) for p in sorted(reg.problems)]


def test_problems_at_one_place_sort_by_code(tmp_path: Path) -> None:
    problems = read_deck_uploads([("a.ydk", b"#main\n4031928\n"), ("a.txt", b"1 Raigeki\n"),
                                  ("b.exe", b"MZ")], "\n\nnot a link\n").problems
    assert [(p.file, p.line, p.code) for p in sorted(problems)] == [
        ("a.txt", None, "DECK_TWICE"), ("b.exe", None, "WRONG_FILE_TYPE"),
        ("pasted links", 3, "BAD_YDKE")]


def test_the_event_reports_list_problems_in_order() -> None:
    result = run_event(SAMPLE, load("advanced-tcg", "demo"), decks=ROOT / "decks" / "tcg")
    assert [(p.file, p.code) for p in sorted(result.problems)] == [
        (str(ROOT / "decks" / "tcg"), "NO_DECK"),
        (str(ROOT / "decks" / "tcg" / "0499999999.ydk"), "UNMATCHED_DECK"),
        (str(SAMPLE), "BAD_QUANTITY")]


def test_the_event_json_gives_each_problem_its_code_in_order() -> None:
    result = run_event(SAMPLE, load("advanced-tcg", "demo"), decks=ROOT / "decks" / "tcg")
    report = report_dict(judged_event(result, load_policy("th"), "pre-event", "en"))
    assert [(p["file"], p["code"]) for p in report["problems"]] == [
        (str(ROOT / "decks" / "tcg"), "NO_DECK"),
        (str(ROOT / "decks" / "tcg" / "0499999999.ydk"), "UNMATCHED_DECK"),
        (str(SAMPLE), "BAD_QUANTITY")]
    assert set(report["problems"][0]) == {"file", "line", "where", "code", "message",
                                          "localized_message"}


def test_a_file_of_many_problems_counts_the_rest_by_code(tmp_path: Path) -> None:
    """130 distinct player ids in scientific notation and 40 rows without a player: the
    first 100 problems one by one, the other 70 counted by code, most first."""
    ids = [f"4.{n:05d}E+09" for n in range(130)]
    rows = "".join(f"{i},Lost,Main,3,Raigeki\n" for i in ids) + ",,Main,3,Raigeki\n" * 40
    reg = _registrations(tmp_path, HEADER + rows)
    assert _codes(reg.problems) == ["PLAYER_ID"] * 100 + [MORE]
    summary = reg.problems[-1]
    assert (summary.file, summary.line) == (str(tmp_path / "lists.csv"), None)
    assert summary.message.endswith("70 more problems: 40 × NO_PLAYER, 30 × PLAYER_ID")
    assert capped(reg.problems) == reg.problems  # a count is kept as it is


def test_a_collected_file_counts_the_rest_by_code(tmp_path: Path) -> None:
    """A Forbidden/Limited list of 100 rows naming no card, then 50 bad passcodes and 20
    bad statuses."""
    rows = ",,Limited\n" * 100 + "12x,,Limited\n" * 50 + ",Raigeki,Sometimes\n" * 20
    with pytest.raises(InputError) as info:
        read_table_list(_write(tmp_path / "list.csv", "passcode,name,status\n" + rows))
    assert info.value.codes == ["NO_CARD"] * 100 + [MORE]
    assert info.value.problems[-1].message.endswith(
        "70 more problems: 50 × BAD_PASSCODE, 20 × BAD_VALUE")


def test_the_terminal_and_the_report_show_each_problem_with_its_code(tmp_path: Path) -> None:
    ran = CliRunner().invoke(main, ["event", str(SAMPLE), "--decks", str(ROOT / "decks" / "tcg"),
                                    "--cards", "demo", "--report", str(tmp_path / "r.xlsx")])
    shown = re.findall(r"^problem: (.*?): ([A-Z_]+) ", ran.output, re.M)
    assert [code for _, code in shown] == ["NO_DECK", "UNMATCHED_DECK", "BAD_QUANTITY"]
    sheet = load_workbook(tmp_path / "r.xlsx")["Problems"]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=2)]
    assert [row[3] for row in rows] == ["NO_DECK", "UNMATCHED_DECK", "BAD_QUANTITY"]


def test_a_workbook_sheet_name_is_the_place_of_a_sheet_problem(tmp_path: Path) -> None:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Odd"
    sheet.append(["hello", "world"])
    workbook.save(tmp_path / "odd.xlsx")
    reg = read_registrations(tmp_path / "odd.xlsx")
    assert [(p.column, p.code) for p in reg.problems] == [("Odd", "NO_HEADER")]


# -- problems in the reader's language

#: the codes whose sample problems name their catalog entry (the readers of deck files,
#: registration sheets, PDF forms, archives and text); the other codes' problems are English
LOCALIZED = {
    "FILE_MISSING", "FILE_TOO_LARGE", "WRONG_FILE_TYPE", "NOT_TEXT", "NOT_UTF8", "ZIP_DAMAGED",
    "ZIP_UNSAFE", "SHEET_TOO_LARGE", "BAD_CSV", "HIDDEN_SHEET", "BAD_PDF", "PDF_UNSAFE",
    "PDF_ENCRYPTED", "NOT_A_FORM", "NO_REGISTRATIONS", "NO_HEADER", "NO_PLAYER_COLUMN",
    "NO_PLAYER_NAMES", "NO_PLAYER", "PLAYER_ID", "BLANK_LIST", "REGISTERED_TWICE", "SUPERSEDED",
    "BAD_QUANTITY", "NO_CARD", "BAD_SECTION", "BAD_PASSCODE", "NAME_TOO_LONG", "LINE_TOO_LONG",
    "TOTAL_MISMATCH", "BAD_DECK_ID", "DECK_TWICE", "NO_DECK_FILES", "NO_PLAYERS", "NO_DECK",
    "NOTHING_READ", "UPLOAD_TOO_SLOW", "UPLOAD_TOO_BIG_IN_MEMORY", "LIST_CONFLICT",
    "BAD_PAIRING", "EMPTY_FILE", "MISSING_COLUMN", "BAD_VALUE", "PASSCODE_TWICE", "NO_CARDS",
    "BAD_CARD_DATA", "BAD_YDKE", "BAD_DECK_CODE", MORE,
}


def _made(code: str, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> list[Problem]:
    """Every problem of ``code`` the code's sample input makes (in this process)."""
    made: list[Problem] = []
    checked = Problem.__post_init__

    def record(problem: Problem) -> None:
        checked(problem)
        made.append(problem)

    _sample_event_codes.cache_clear()  # made anew, so its problems are seen being made
    with monkeypatch.context() as patch:
        patch.setattr(Problem, "__post_init__", record)
        assert code in SAMPLES[code](tmp, monkeypatch)
    return [p for p in made if p.code == code]


@pytest.mark.parametrize("code", sorted(LOCALIZED))
def test_a_readers_problem_is_written_in_each_language(
        code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _made(code, tmp_path, monkeypatch)
    assert made
    for problem in made:
        assert problem.msgid is not None, problem
        assert problem_text(problem, "en") == problem.message
        placeholders = sorted(set(PLACEHOLDER.findall(problem.msgid)))
        assert placeholders == sorted(name for name, _ in problem.values
                                      if name in placeholders)
        for lang in LOCAL_LANGS:
            text = catalog(lang).get(problem.msgid)
            assert text != problem.msgid
            assert sorted(set(PLACEHOLDER.findall(text))) == placeholders
            assert problem_text(problem, lang) != problem.message


def test_the_terminal_writes_deck_file_problems_in_the_chosen_language(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    _write(decks / "p1.ydk", "#main\nnope\n4031928\n")
    _write(decks / "p2.txt", "0 Raigeki\n3 Raigeki\n")
    _write(decks / "p3.ydk", "#main\n4031928\n")
    ran = CliRunner().invoke(main, ["check", str(decks), "--cards", "demo", "--lang", "ja"])
    lines = [line for line in ran.output.splitlines() if line.startswith("error:")]
    assert [line.split()[2] for line in lines] == ["BAD_PASSCODE", "BAD_QUANTITY"]
    for line in lines:
        sentence = line.split(maxsplit=3)[3]
        assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", re.sub(r"'[^']*'", "", sentence)), line
        assert re.search(r"[\u3040-\u30ff]", sentence), line
