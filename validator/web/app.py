"""``deckcheck serve``: the organizer's and judges' web app over the library.

Server-rendered pages (FastAPI + Jinja2 with autoescaping), one event per SQLite file.
Security: loopback by default, an optional shared organizer password, a CSRF token on every
form, upload size limits, zip-bomb guards and only expected file types; uploaded bytes go to
the database, never to a path a user chose; exports are safe from formula injection.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import hmac
import io
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import store
from ..banlist import Banlist
from ..cards import CardDB
from ..checking import read_deck_uploads
from ..errors import InputError, Problem
from ..event import EventResult, check_event
from ..eventdb import EventDB, EventSettings
from ..formats import Format, format_names, load_format
from ..infractions import catalogue, infraction
from ..judging import decision, found_deck, judge_check, registered_lines
from ..penalties import LANGS, REGULATIONS, Stage, load_policy, penalty_types
from ..readers.registrations import read_registration_files
from ..report_event import event_json, event_xlsx
from ..rules import CODES
from ..setup import load_banlist
from ..xlsx import autosize, put, write_header

__all__ = ["MAX_UPLOAD", "create_app"]

HERE = Path(__file__).resolve().parent
MAX_UPLOAD = 25 << 20
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
REGISTRATION_TYPES = (".xlsx", ".csv")
DECK_TYPES = (".ydk", ".ydke", ".txt", ".zip")
SESSION = "dc_session"
AUTH = "dc_auth"


class UploadLimit:
    """Refuse request bodies over the limit before reading them (or as they stream in)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await _too_large(send, self.limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _too_large(send, self.limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = (f"<!doctype html><title>Upload too large</title><p>The upload is larger than "
            f"{limit >> 20} MiB, the most this server accepts. Split it into several "
            f"uploads, or zip the deck files.</p>").encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@dataclass
class State:
    db: EventDB
    cards: CardDB
    password: str | None
    secret: bytes
    data_dir: Path | None = None
    cache: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def settings(self) -> EventSettings:
        return self.db.settings() or EventSettings("New event", dt.date.today().isoformat(),
                                                   "advanced-tcg", "th", "en")

    def setup(self) -> tuple[EventSettings, Format, Banlist]:
        settings = self.settings()
        fmt = load_format(settings.format)
        return settings, fmt, load_banlist(settings.banlist or None, None, fmt, self.cards,
                                           self.data_dir)

    def result(self) -> tuple[EventResult | None, list[Problem]]:
        """The event checked from exactly what was uploaded (cached until it changes).

        Callers run it off the event loop; the lock makes concurrent requests wait for one
        check instead of running several."""
        with self.lock:
            return self._result()

    def _result(self) -> tuple[EventResult | None, list[Problem]]:
        version = self.db.version()
        if self.cache.get("version") == version:
            return self.cache["result"], self.cache["errors"]
        registrations = self.db.uploads("registrations")
        result: EventResult | None = None
        errors: list[Problem] = []
        if registrations:
            _, fmt, banlist = self.setup()
            # given the bytes, the readers use a path only as the file's label
            reg = read_registration_files([Path(_safe_name(n)) for n, _ in registrations],
                                          [d for _, d in registrations])
            decks = self.db.uploads("decks")
            links = "\n".join(d.decode("utf-8", "replace") for _, d in self.db.uploads("links"))
            submitted = read_deck_uploads(decks, links) if decks or links else None
            try:
                result = check_event(reg, submitted, cards=self.cards, fmt=fmt,
                                     banlist=banlist, decks_label="submitted decks")
            except InputError as exc:
                errors = exc.problems
        self.cache.update(version=version, result=result, errors=errors)
        return result, errors


def _safe_name(name: str) -> str:
    """An upload's file name reduced to its last part, for display and type checks only."""
    base = PurePosixPath(name.replace("\\", "/")).name
    return base[:120] or "upload"


def _sign(secret: bytes, value: str) -> str:
    return hmac.new(secret, value.encode(), hashlib.sha256).hexdigest()[:40]


def create_app(db_path: Path, *, password: str | None = None, cards_spec: str | None = None,
               data_dir: Path | None = None, max_upload: int = MAX_UPLOAD) -> FastAPI:
    db = EventDB(db_path)
    state = State(db, store.load_cards(cards_spec, data_dir), password, db.secret(), data_dir)
    app = FastAPI(title="deckcheck", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(LANGS=LANGS, REGULATIONS=REGULATIONS, SEVERITY=penalty_types(),
                                 CODES=CODES, quote=quote)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.middleware("http")
    async def sessions(request: Request, call_next: Any) -> Response:
        session = request.cookies.get(SESSION) or secrets.token_urlsafe(24)
        request.state.session = session
        request.state.csrf = _sign(state.secret, "csrf:" + session)
        open_paths = ("/login", "/static/")
        authed = state.password is None or hmac.compare_digest(
            request.cookies.get(AUTH, ""), _sign(state.secret, "auth:" + session))
        if not authed and not request.url.path.startswith(open_paths):
            response: Response = RedirectResponse("/login", status_code=303)
        else:
            response = await call_next(request)
        if request.cookies.get(SESSION) != session:
            response.set_cookie(SESSION, session, httponly=True, samesite="strict")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "script-src 'self'; form-action 'self'; frame-ancestors 'none'")
        return response

    async def form(request: Request) -> FormData:
        data = await request.form(max_files=2000, max_fields=5000)
        token = data.get("csrf")
        if not isinstance(token, str) or not hmac.compare_digest(token, request.state.csrf):
            raise _Forbidden
        return data

    def page(request: Request, name: str, http_status: int = 200,
             **context: Any) -> HTMLResponse:
        settings = state.settings()
        return templates.TemplateResponse(
            request, name, {"csrf": request.state.csrf, "settings": settings,
                            "has_settings": state.db.settings() is not None,
                            "auth": state.password is not None, **context},
            status_code=http_status)

    @app.exception_handler(_Forbidden)
    async def forbidden(request: Request, exc: _Forbidden) -> HTMLResponse:
        return page(request, "message.html", http_status=403, title="Form refused",
                    message="This form came without a valid security token (CSRF). Reload "
                            "the page and send it again.")

    @app.exception_handler(InputError)
    async def bad_input(request: Request, exc: InputError) -> HTMLResponse:
        return page(request, "message.html", http_status=400, title="Cannot use this input",
                    problems=[str(p) for p in exc.problems])

    @app.get("/login", response_class=HTMLResponse)
    async def login_page(request: Request) -> HTMLResponse:
        return page(request, "login.html")

    @app.post("/login")
    async def login(request: Request) -> Response:
        data = await form(request)
        given = str(data.get("password", ""))
        if state.password is None or not hmac.compare_digest(given, state.password):
            time.sleep(0.5)
            return page(request, "login.html", http_status=401, error="Wrong password.")
        response = RedirectResponse("/", status_code=303)
        response.set_cookie(AUTH, _sign(state.secret, "auth:" + request.state.session),
                            httponly=True, samesite="strict")
        return response

    @app.get("/", response_class=HTMLResponse)
    async def index(request: Request, status: str = "", code: str = "", q: str = "",
                    msg: str = "") -> HTMLResponse:
        result, errors = await run_in_threadpool(state.result)
        players: list[dict[str, Any]] = []
        counts: dict[str, int] = {}
        if result is not None:
            frame = result.players
            if status in ("legal", "illegal"):
                frame = frame.filter(pl.col("legal") == (status == "legal"))
            if code:
                with_code = result.violations.filter(pl.col("code") == code)["player_id"]
                frame = frame.filter(pl.col("player_id").is_in(with_code.implode()))
            if q:
                needle = q.lower()
                frame = frame.filter(
                    pl.col("player_id").str.to_lowercase().str.contains(needle, literal=True)
                    | pl.col("player_name").str.to_lowercase().str.contains(needle,
                                                                            literal=True))
            players = frame.to_dicts()
            counts = result.counts()
        return page(request, "index.html", result=result, players=players, counts=counts,
                    errors=errors, status=status, code=code, q=q, msg=msg,
                    uploads=state.db.upload_summary(), formats=format_names(),
                    lists=store.stored_lists(state.data_dir))

    @app.post("/event")
    async def save_event(request: Request) -> Response:
        data = await form(request)
        values = {k: str(data.get(k, "")).strip() for k in
                  ("name", "date", "format", "regulation", "lang", "banlist")}
        if values["format"] not in format_names() or values["regulation"] not in REGULATIONS \
                or values["lang"] not in LANGS or not values["name"]:
            raise InputError.at("event", "name, format, regulation and language are required")
        if values["banlist"] and values["banlist"] not in {
                s.name for s in store.stored_lists(state.data_dir)}:
            raise InputError.at("banlist", "not a list of the data store")
        state.db.save_settings(EventSettings(**values))
        return RedirectResponse("/?msg=" + quote("Event saved."), status_code=303)

    async def _files(data: FormData, field_name: str, allowed: tuple[str, ...]) -> list[
            tuple[str, bytes]]:
        out = []
        for item in data.getlist(field_name):
            if not isinstance(item, UploadFile) or not item.filename:
                continue
            name = _safe_name(item.filename)
            if PurePosixPath(name).suffix.lower() not in allowed:
                await data.close()
                raise InputError.at(name, f"not an accepted file type (expected "
                                          f"{', '.join(allowed)})")
            try:
                out.append((name, await item.read()))
            finally:
                await item.close()
        return out

    @app.post("/upload/registrations")
    async def upload_registrations(request: Request) -> Response:
        data = await form(request)
        files = await _files(data, "files", REGISTRATION_TYPES)
        if not files:
            raise InputError.at("upload", "choose one or more .xlsx or .csv files")
        for name, content in files:
            if name.lower().endswith(".xlsx"):
                from ..safety import check_archive

                check_archive(content, name)
        state.db.add_uploads("registrations", files, replace=data.get("replace") == "on")
        return RedirectResponse("/?msg=" + quote(f"{len(files)} registration file(s) "
                                                  "received."), status_code=303)

    @app.post("/upload/decks")
    async def upload_decks(request: Request) -> Response:
        data = await form(request)
        files = await _files(data, "files", DECK_TYPES)
        links = str(data.get("links", "")).strip()
        if not files and not links:
            raise InputError.at("upload", "choose deck files or a zip, or paste ydke links")
        for name, content in files:
            if name.lower().endswith(".zip"):
                from ..safety import check_archive

                check_archive(content, name)
        replace = data.get("replace") == "on"
        with_links = [("links.txt", links.encode())] if links else []
        if replace:
            state.db.add_uploads("links", [], replace=True)
        state.db.add_uploads("decks", files, replace=replace)
        if with_links:
            state.db.add_uploads("links", with_links)
        return RedirectResponse("/?msg=" + quote(f"{len(files)} deck file(s) received."),
                                status_code=303)

    def _player(result: EventResult, player_id: str) -> dict[str, Any]:
        found = result.players.filter(pl.col("player_id") == player_id)
        if found.is_empty():
            raise InputError.at(player_id, "no such player")
        return found.row(0, named=True)

    @app.get("/players/{player_id}", response_class=HTMLResponse)
    async def player(request: Request, player_id: str) -> HTMLResponse:
        result, _ = await run_in_threadpool(state.result)
        if result is None:
            return RedirectResponse("/", status_code=303)  # type: ignore[return-value]
        row = _player(result, player_id)
        settings, fmt, _ = state.setup()
        policy = load_policy(settings.regulation)
        violations = result.violations.filter(pl.col("player_id") == player_id).to_dicts()
        penalty = result.penalties(policy, "pre-event", settings.lang).filter(
            pl.col("deck") == row["deck"]).to_dicts()
        return page(request, "player.html", player=row, violations=violations,
                    penalty=penalty[0] if penalty else None,
                    diff=_diff(result, player_id, fmt), history=state.db.log(player_id))

    def _diff(result: EventResult, player_id: str, fmt: Format) -> list[dict[str, Any]]:
        listed = registered_lines(result.registrations.entries.filter(
            pl.col("deck_id") == player_id), state.cards, fmt)
        deck: dict[tuple[str, int], int] = {}
        if result.submitted is not None:
            mine = result.submitted.filter(pl.col("deck_id") == player_id)
            for line in registered_lines(mine, state.cards, fmt):
                if line.key is not None:
                    deck[line.section, line.key] = deck.get((line.section, line.key), 0) + (
                        line.qty or 0)
        rows = []
        for line in listed:
            found = deck.pop((line.section, line.key), 0) if line.key is not None else None
            rows.append({"group": line.group, "name": line.name, "listed": line.qty,
                         "deck": found, "where": line.where})
        names = dict(state.cards.by_card.select("card_id", "name_en").iter_rows())
        for (section, key), qty in deck.items():
            rows.append({"group": section, "name": names.get(key, str(key)), "listed": 0,
                         "deck": qty, "where": ""})
        return rows

    async def _checked() -> tuple[EventResult, EventSettings]:
        result, _ = await run_in_threadpool(state.result)
        if result is None:
            raise InputError.at("report", "upload registrations first")
        return result, state.settings()

    @app.get("/report.xlsx")
    async def report_xlsx(request: Request) -> Response:
        result, settings = await _checked()
        content = await run_in_threadpool(event_xlsx, result, load_policy(settings.regulation),
                                          "pre-event", settings.lang)
        return Response(content, media_type=XLSX,
                        headers={"Content-Disposition": 'attachment; filename="report.xlsx"'})

    @app.get("/report.json")
    async def report_json(request: Request) -> Response:
        result, settings = await _checked()
        payload = event_json(result, load_policy(settings.regulation), "pre-event",
                             settings.lang)
        return Response(json.dumps(payload, ensure_ascii=False, indent=2),
                        media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="report.json"'})

    @app.get("/judge", response_class=HTMLResponse)
    async def judge_search(request: Request, q: str = "") -> HTMLResponse:
        result, _ = await run_in_threadpool(state.result)
        found: list[dict[str, Any]] = []
        if result is not None and q.strip():
            needle = q.strip().lower()
            found = result.players.filter(
                pl.col("player_id").str.to_lowercase().str.contains(needle, literal=True)
                | pl.col("player_name").str.to_lowercase().str.contains(needle, literal=True)
            ).head(50).to_dicts()
        return page(request, "judge_search.html", q=q, found=found, ready=result is not None)

    @app.get("/judge/{player_id}", response_class=HTMLResponse)
    async def judge_player(request: Request, player_id: str) -> HTMLResponse:
        result, _ = await run_in_threadpool(state.result)
        if result is None:
            raise InputError.at("judge", "upload registrations first")
        row = _player(result, player_id)
        _, fmt, _ = state.setup()
        lines = registered_lines(result.registrations.entries.filter(
            pl.col("deck_id") == player_id), state.cards, fmt)
        return page(request, "judge.html", player=row, lines=lines,
                    history=state.db.log(player_id))

    def _judge_inputs(data: FormData) -> tuple[dict[tuple[str, int], int],
                                               list[tuple[str, str, int]], str]:
        counts: dict[tuple[str, int], int] = {}
        extra: list[tuple[str, str, int]] = []
        for key, value in data.multi_items():
            if key.startswith("n:") and isinstance(value, str):
                _, section, card = key.split(":", 2)
                if card.lstrip("-").isdigit():
                    counts[section, int(card)] = _number(value)
        for i in range(5):
            name = str(data.get(f"add_name_{i}", "")).strip()
            if name:
                extra.append((str(data.get(f"add_section_{i}", "main")), name,
                              _number(str(data.get(f"add_qty_{i}", "1")))))
        return counts, extra, str(data.get("deck_text", ""))

    def _run_judge(player_id: str, data: FormData) -> tuple[Any, dict[str, Any]]:
        result, _ = state.result()  # runs in the thread pool (see the callers)
        if result is None:
            raise InputError.at("judge", "upload registrations first")
        row = _player(result, player_id)
        settings, fmt, banlist = state.setup()
        counts, extra, pasted = _judge_inputs(data)
        stage: Stage = "between-duels" if data.get("stage") == "between-duels" else "in-duel"
        deck = found_deck(player_id, counts, extra, pasted)
        registered = result.registrations.entries.filter(pl.col("deck_id") == player_id)
        checked = judge_check(player_id, deck, registered, cards=state.cards, fmt=fmt,
                              banlist=banlist, policy=load_policy(settings.regulation),
                              stage=stage, lang=settings.lang)
        return checked, row

    @app.post("/judge/{player_id}/check", response_class=HTMLResponse)
    async def judge_run(request: Request, player_id: str) -> HTMLResponse:
        data = await form(request)
        checked, row = await run_in_threadpool(_run_judge, player_id, data)
        history = state.db.log(player_id)
        earlier = {code for entry in history for code in entry.codes}
        repeats = [c for c in checked.codes if c in earlier]
        hidden = [(k, v) for k, v in data.multi_items() if isinstance(v, str) and k != "csrf"]
        return page(request, "judge_result.html", player=row, checked=checked,
                    violations=checked.result.violations.to_dicts(), history=history,
                    repeats=repeats, hidden=hidden, judge=str(data.get("judge", "")),
                    round=str(data.get("round", "")), duel=str(data.get("duel", "")))

    @app.post("/judge/{player_id}/record")
    async def judge_record(request: Request, player_id: str) -> Response:
        data = await form(request)
        checked, row = await run_in_threadpool(_run_judge, player_id, data)
        if checked.penalty is None:
            raise InputError.at("judge", "the deck matches the list: nothing to record")
        chosen, made, reason = _decide(data, checked.penalty)
        judge = str(data.get("judge", "")).strip()
        if not judge:
            raise InputError.at("judge", "enter the judge's name")
        state.db.record(
            player_id=player_id, player_name=row["player_name"], judge=judge,
            round=_optional(str(data.get("round", ""))), duel=_optional(str(data.get("duel", ""))),
            kind="deck", codes=checked.codes, default_penalty=checked.penalty, penalty=chosen,
            decision=made, reason=reason,
            details={"applies_to": checked.applies_to, "remedies": checked.remedies,
                     "violations": checked.result.violations["message"].to_list()})
        return RedirectResponse(f"/players/{quote(player_id)}#history", status_code=303)

    @app.get("/log", response_class=HTMLResponse)
    async def log_page(request: Request, player: str = "") -> HTMLResponse:
        settings = state.settings()
        result, _ = await run_in_threadpool(state.result)
        names = [] if result is None else result.players.select(
            "player_id", "player_name").rows()
        return page(request, "log.html", entries=state.db.log(player or None), player=player,
                    catalogue=catalogue(settings.regulation), players=names)

    @app.post("/log")
    async def log_record(request: Request) -> Response:
        data = await form(request)
        settings = state.settings()
        item = infraction(settings.regulation, str(data.get("code", "")))
        player_id = str(data.get("player_id", "")).strip()
        judge = str(data.get("judge", "")).strip()
        if not player_id or not judge:
            raise InputError.at("log", "enter the player id and the judge's name")
        chosen, made, reason = _decide(data, item.penalty)
        result, _ = await run_in_threadpool(state.result)
        name = ""
        if result is not None:
            match = result.players.filter(pl.col("player_id") == player_id)
            name = match["player_name"][0] if match.height else ""
        state.db.record(player_id=player_id, player_name=name, judge=judge,
                        round=_optional(str(data.get("round", ""))),
                        duel=_optional(str(data.get("duel", ""))), kind="infraction",
                        codes=[item.code], default_penalty=item.penalty, penalty=chosen,
                        decision=made, reason=reason,
                        details={"infraction": item.text.get(settings.lang, item.text["en"]),
                                 "section": item.section})
        return RedirectResponse("/log?player=" + quote(player_id), status_code=303)

    def _log_rows() -> list[list[Any]]:
        return [[e.id, e.recorded_at, e.player_id, e.player_name, e.judge, e.round, e.duel,
                 e.kind, ", ".join(e.codes), e.default_penalty, e.penalty, e.decision,
                 e.reason] for e in state.db.log()]

    log_header = ["#", "Recorded (UTC)", "Player ID", "Player", "Judge", "Round", "Duel",
                  "Kind", "Codes", "Default penalty", "Penalty", "Decision", "Reason"]

    @app.get("/log.csv")
    async def log_csv(request: Request) -> Response:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(log_header)
        for row in _log_rows():
            writer.writerow([_csv_safe(v) for v in row])
        return Response(buffer.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="penalty-log.csv"'})

    @app.get("/log.xlsx")
    async def log_xlsx(request: Request) -> Response:
        from openpyxl import Workbook

        workbook = Workbook()
        sheet = workbook.active
        assert sheet is not None
        sheet.title = "Penalty log"
        write_header(sheet, 1, log_header)
        for r, row in enumerate(_log_rows(), start=2):
            for c, value in enumerate(row, start=1):
                put(sheet, r, c, value)
        sheet.freeze_panes = "A2"
        autosize(sheet)
        buffer = io.BytesIO()
        workbook.save(buffer)
        return Response(buffer.getvalue(), media_type=XLSX,
                        headers={"Content-Disposition":
                                 'attachment; filename="penalty-log.xlsx"'})

    @app.get("/players/{player_id}/log", response_class=HTMLResponse)
    async def player_log(request: Request, player_id: str) -> HTMLResponse:
        return page(request, "player_log.html", player_id=player_id,
                    entries=state.db.log(player_id))

    wrapped: Any = UploadLimit(app, max_upload)
    wrapped.state = state
    wrapped.fastapi = app
    return wrapped  # type: ignore[no-any-return]


class _Forbidden(Exception):
    pass


def _decide(data: FormData, default: str) -> tuple[str, str, str]:
    """The judge's penalty, whether it confirms, downgrades or upgrades the default, and the
    reason (required unless it confirms)."""
    chosen = str(data.get("penalty") or default)
    if chosen not in penalty_types():
        raise InputError.at("penalty", "not a penalty of the regulations")
    made = decision(default, chosen, load_policy("th"))
    reason = str(data.get("reason", "")).strip()
    if made != "confirmed" and not reason:
        raise InputError.at("reason", "a downgrade or upgrade needs a reason")
    return chosen, made, reason


def _number(text: str) -> int:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) < 4 else 0


def _optional(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) < 5 else None


def _csv_safe(value: Any) -> Any:
    """Spreadsheet programs run cells starting with = + - @ as formulas; quote them."""
    if isinstance(value, str) and value.startswith(("=", "+", "-", "@", "\t", "\r")):
        return "'" + value
    return value
