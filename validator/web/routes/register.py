"""The players' registration page (``/r/{code}``) and the organizer's view of it
(``/registrations``: every staff role may view it; the event code, the deadline, PINs,
unlocks, choices and exports are the organizer's).

A player gives their KONAMI ID and name and their deck (typed card names with autocomplete,
a pasted ydke link, deck code or text list, an uploaded YDK file or filled Konami PDF
sheet); the list is checked as they type (``check.json``, the same engine and messages as
every other check, in the page's language) or when they press Check (without JavaScript).
They may submit an illegal list: they are told why, and the organizer sees it flagged.
Each submission gets a receipt (number, time, SHA-256 of the canonical list, the filled PDF
sheet). The player's own session is a separate signed cookie (``dc_player``: event code and
KONAMI ID), never a staff session; it opens only that player's receipt and history.
Viewing or replacing a list from another device needs the player's PIN (when the organizer
gave PINs) or the receipt code of their first submission.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
import json
import zipfile
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

import polars as pl
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException

from validator.cards.db import NAME_LANGS
from validator.engine.check import check
from validator.errors import InputError, Problem
from validator.event import rounds
from validator.event import submissions as subs
from validator.event.submissions import Row, Stored
from validator.inputs.entries import entries_frame
from validator.judging.judge import card_names, unknown_names
from validator.report.model import localized
from validator.report.style import export_text
from validator.text.i18n import problem_text
from validator.text.lexicon import MAX_QUANTITY, whole_number
from validator.vocab import SECTIONS, Lang
from validator.web.limits import PlayerLimits, Window
from validator.web.pages import (
    ORGANIZER,
    files,
    form,
    latest,
    page,
    page_lang,
    recorder,
    state_of,
)
from validator.web.state import EventState

__all__ = ["PLAYER_COOKIE", "router", "staff_router"]


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def _address_limit(request: Request) -> None:
    """At most so many requests per client address on the player pages."""
    window: Window = request.app.state.addresses
    if not window.allow(_client(request)):
        raise PlayerRefused(429, "TOO_MANY_SUBMISSIONS", "Too many requests from this "
                            "network; wait a minute and try again.")


router = APIRouter(prefix="/r", dependencies=[Depends(_address_limit)])
staff_router = APIRouter()

PLAYER_COOKIE = "dc_player"
PLAYER_HOURS = 24 * 14
#: rows of each section the page shows beyond the filled ones (the script adds more)
BLANK_ROWS = {"main": 6, "extra": 3, "side": 3}
LEAST_ROWS = {"main": 20, "extra": 8, "side": 8}
MAX_ROWS = 100
MAX_NAME = 80
MAX_PASTE = 64 << 10
DECK_FILES = (".ydk", ".ydke", ".txt", ".pdf")


class PlayerRefused(Exception):
    """A player page's request refused: its status, code and what to do."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


async def player_refused(request: Request, exc: PlayerRefused) -> HTMLResponse:
    return page(request, "register_message.html", http_status=exc.status,
                code=exc.code, message=exc.message, event_code=None)


# the player's session ---------------------------------------------------------------

def _sign(request: Request, value: str) -> str:
    secret: bytes = state_of(request).db.secret()
    return hmac.new(secret, ("player:" + value).encode(), hashlib.sha256).hexdigest()[:32]


def player_cookie(request: Request, code: str, player_id: str) -> str:
    """A signed player session: the event code, the KONAMI ID and when it ends."""
    ends = int(dt.datetime.now(dt.UTC).timestamp()) + PLAYER_HOURS * 3600
    value = f"{code}:{player_id}:{ends}"
    return f"{value}.{_sign(request, value)}"


def session_player(request: Request, code: str) -> str | None:
    """The KONAMI ID of this device's player session for the event code, else None."""
    cookie = request.cookies.get(PLAYER_COOKIE) or ""
    value, _, signature = cookie.rpartition(".")
    if not value or not hmac.compare_digest(signature.encode(), _sign(request, value).encode()):
        return None
    parts = value.split(":")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    held, player_id, ends = parts
    if not hmac.compare_digest(held.encode(), code.encode()) or \
            int(ends) < dt.datetime.now(dt.UTC).timestamp():
        return None
    return player_id


def _set_player(request: Request, response: Response, code: str, player_id: str) -> None:
    response.set_cookie(PLAYER_COOKIE, player_cookie(request, code, player_id), httponly=True,
                        samesite="strict", path="/r/", max_age=PLAYER_HOURS * 3600,
                        secure=request.scope.get("scheme") == "https")


def _event_code(request: Request, code: str) -> str:
    """The event's code when ``code`` is it; else the page does not exist (404)."""
    held = subs.event_code(state_of(request).db)
    if held is None or not hmac.compare_digest(held.encode(), code.upper().encode()):
        raise HTTPException(404)
    return held


def _may_open(request: Request, code: str, player_id: str, given: str) -> bool:
    """Whether this device may see or replace the player's list: their own session, or
    their PIN, or the receipt code of their first submission; anyone for a player who has
    neither PIN nor submission yet."""
    if session_player(request, code) == player_id:
        return True
    db = state_of(request).db
    held = [c for c in (subs.pin(db, player_id), subs.receipt(db, player_id)) if c]
    if not held:
        return True
    typed = given.strip().upper().encode()
    return any(hmac.compare_digest(typed, c.upper().encode()) for c in held)


# reading the player's form -------------------------------------------------------------

@dataclass
class Typed:
    """The player's form as read: who (and their receipt code or PIN), the rows typed with
    their form fields, the deck pasted or uploaded, and the source the rows came from."""

    player_id: str
    player_name: str
    access: str
    rows: dict[str, list[dict[str, Any]]]
    pasted: str
    uploads: list[tuple[str, bytes]]
    source: str


def _quantity(text: str, field: str) -> int:
    text = text.strip()
    if not text:
        return 1
    number = whole_number(text, MAX_QUANTITY)
    if number is None:
        raise InputError.of(field, "a quantity is a number 0-{most}, not {typed}",
                            code="BAD_OPTION", most=MAX_QUANTITY, typed=repr(text[:10]))
    return number


async def _typed_form(request: Request, code: str) -> tuple[str, Typed] | Response:
    """The event's code and the player's form, or the form page again saying what is wrong
    with it."""
    held = _event_code(request, code)
    try:
        return held, await _typed(await form(request))
    except InputError as exc:
        return _form_page(request, held, http_status=400,
                          errors=_errors(exc.problems, page_lang(request)))


async def _typed(data: FormData) -> Typed:
    """The player's form; a suggestion taken without script (``fix``: field|name) replaces
    its row's name; a file of another type or a paste over the bound is refused."""
    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in SECTIONS}
    fix = str(data.get("fix", ""))
    fixed_field, _, fixed_name = fix.partition("|")
    for section in SECTIONS:
        for i in range(MAX_ROWS):
            key = f"{section}_name_{i}"
            name = str(data.get(key, ""))[:MAX_NAME].strip()
            if key == fixed_field and fixed_name:
                name = fixed_name[:MAX_NAME]
            qty = str(data.get(f"{section}_qty_{i}", ""))[:10]
            if name:
                rows[section].append({"field": key, "name": name, "qty": qty.strip() or "1"})
    uploads = await files(data, "deck_file", DECK_FILES)
    source = str(data.get("source", "typed"))
    pasted = str(data.get("deck_text", ""))
    if len(pasted) > MAX_PASTE:
        raise InputError.of("deck_text", "a pasted deck is at most {kib} KiB; paste the deck "
                            "list alone", code="FILE_TOO_LARGE", kib=MAX_PASTE >> 10)
    return Typed(str(data.get("player_id", ""))[:40].strip(),
                 " ".join(str(data.get("player_name", "")).split())[:MAX_NAME],
                 str(data.get("access", ""))[:40], rows,
                 pasted, uploads,
                 source if source in subs.SOURCES else "typed")


def _entries(typed: Typed, player_id: str) -> pl.DataFrame:
    return entries_frame([{"deck_id": player_id, "section": section, "name": row["name"],
                           "qty": _quantity(row["qty"], row["field"]), "file": "typed",
                           "cell": row["field"]}
                          for section in SECTIONS for row in typed.rows[section]])


def _names(state: EventState, rows: list[Row], lang: Lang) -> list[dict[str, Any]]:
    """Stored rows with each card's name in the page's language (English where it has
    none)."""
    by_card = state.setup().cards.by_card
    column = f"name_{lang}" if lang != "en" and lang in NAME_LANGS and \
        f"name_{lang}" in by_card.columns else "name_en"
    wanted = pl.Series([p for _, p, _ in rows], dtype=pl.Int64).implode()
    names = {int(c): (str(n) if n else str(e)) for c, n, e in by_card.filter(
        pl.col("card_id").is_in(wanted)).select(
        "card_id", pl.col(column).alias("local"), "name_en").iter_rows()}
    return [{"section": s, "passcode": p, "qty": n, "name": names.get(p, str(p))}
            for s, p, n in rows]


def _rows_from(state: EventState, rows: list[Row], lang: Lang) -> dict[str, list[dict[str,
                                                                                     Any]]]:
    out: dict[str, list[dict[str, Any]]] = {s: [] for s in SECTIONS}
    for row in _names(state, rows, lang):
        found = out[row["section"]]
        found.append({"field": f"{row['section']}_name_{len(found)}", "name": row["name"],
                      "qty": str(row["qty"])})
    return out


@dataclass
class Checked:
    """A list checked as the player sees it."""

    counts: dict[str, int]
    status: str
    violations: list[dict[str, Any]]
    unknown: dict[str, list[str]]  # form field → the nearest names
    problems: list[dict[str, Any]]
    rows: list[Row]
    read_as: dict[str, str] = field(default_factory=dict)  # a near typo → the card read


def _check_list(state: EventState, entries: pl.DataFrame, player_id: str, lang: Lang,
                problems: list[Problem], fields: dict[str, str]) -> Checked:
    """The engine's check of one list, as the event check runs it, in the page's language;
    ``fields``: the form field of each typed name (its suggestions go there)."""
    setup = state.setup()
    counts: dict[str, int] = {
        s: int(entries.filter(pl.col("section") == s)["qty"].sum() or 0) for s in SECTIONS}
    rows, _ = subs.passcode_rows(entries, setup.cards, setup.fmt)
    unknown = unknown_names(entries["name"].drop_nulls().to_list(), setup.cards, setup.fmt)
    result = check(entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                   deck_ids=[player_id], attributes=state.card_table(setup))
    shown = localized(result.violations, lang)
    violations = [{"code": v["code"], "message": v["localized_message"],
                   "section": v["section"], "field": v["cell"] or ""}
                  for v in shown.iter_rows(named=True)]
    fuzzy = result.resolved.filter((pl.col("how") == "fuzzy") & pl.col("cell").is_not_null())
    read_as: dict[str, str] = {}
    if fuzzy.height:  # a near typo read as the one card it is near: the player sees which
        english = dict(setup.cards.by_card.filter(pl.col("card_id").is_in(
            fuzzy["card_id"].implode())).select("card_id", "name_en").iter_rows())
        for cell, card in fuzzy.select("cell", "card_id").iter_rows():
            read_as[str(cell)] = _local(state, [str(english.get(card, card))], lang)[0]
    status = str(result.decks["status"][0]) if result.decks.height else "legal"
    if problems:
        status = "needs_decision"
    return Checked(counts, status, violations,
                   {field: _local(state, unknown[name], lang) for name, field in fields.items()
                    if name in unknown},
                   [{"where": p.place, "code": p.code, "message": problem_text(p, lang)}
                    for p in problems], rows, read_as)


def _local(state: EventState, names: list[str], lang: Lang) -> list[str]:
    """Suggested card names (English) in the page's language, where the card has one."""
    column = f"name_{lang}"
    by_card = state.setup().cards.by_card
    if lang == "en" or not names or column not in by_card.columns:
        return names
    found = dict(by_card.filter(pl.col("name_en").is_in(pl.Series(names).implode()))
                 .select("name_en", column).drop_nulls().unique("name_en").iter_rows())
    return list(dict.fromkeys(str(found.get(name, name)) for name in names))


async def _read(request: Request, typed: Typed, lang: Lang) -> tuple[
        Checked, dict[str, list[dict[str, Any]]], str]:
    """The player's list checked, the rows to show, and its source: the deck uploaded or
    pasted (shown as rows to go on from), else the rows typed."""
    state = state_of(request)
    player_id = typed.player_id or "player"
    if typed.uploads or typed.pasted.strip():
        entries, source, problems = await run_in_threadpool(
            subs.read_deck, typed.pasted, typed.uploads, player_id)
        checked = await run_in_threadpool(_check_list, state, entries, player_id, lang,
                                          problems, {})
        shown = _rows_from(state, checked.rows, lang)
        return checked, shown, source
    entries = _entries(typed, player_id)
    fields = {row["name"]: row["field"] for s in SECTIONS for row in typed.rows[s]}
    checked = await run_in_threadpool(_check_list, state, entries, player_id, lang, [], fields)
    return checked, typed.rows, typed.source


def _with_blanks(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for section in SECTIONS:
        filled = [{**row, "field": f"{section}_name_{i}", "index": i}
                  for i, row in enumerate(rows.get(section, []))]
        total = min(max(len(filled) + BLANK_ROWS[section], LEAST_ROWS[section]), MAX_ROWS)
        out[section] = filled + [{"field": f"{section}_name_{i}", "index": i, "name": "",
                                  "qty": ""} for i in range(len(filled), total)]
    return out


def _renumbered(checked: Checked, rows: dict[str, list[dict[str, Any]]]) -> Checked:
    """The check's fields as the rows are shown (blank rows typed between are closed up)."""
    moved = {row["field"]: f"{s}_name_{i}" for s in SECTIONS
             for i, row in enumerate(rows.get(s, []))}
    checked.unknown = {moved.get(k, k): v for k, v in checked.unknown.items()}
    checked.read_as = {moved.get(k, k): v for k, v in checked.read_as.items()}
    for violation in checked.violations:
        violation["field"] = moved.get(violation["field"], violation["field"])
    return checked


# the player's pages ---------------------------------------------------------------------

def _lock_state(request: Request, player_id: str | None) -> dict[str, Any]:
    db = state_of(request).db
    past, unlocked = subs.locked_for(db, player_id)
    when = subs.deadline(db)
    zone = state_of(request).settings().timezone
    return {"locked": past and unlocked is None, "unlocked": unlocked is not None,
            "deadline": when.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")
            + f" ({zone})" if when else None}


def _form_page(request: Request, code: str, *, typed: Typed | None = None,
               rows: dict[str, list[dict[str, Any]]] | None = None,
               checked: Checked | None = None, source: str = "typed",
               errors: list[dict[str, Any]] | None = None, http_status: int = 200,
               player_id: str | None = None, player_name: str = "",
               pasted: str | None = None) -> HTMLResponse:
    state = state_of(request)
    me = session_player(request, code)
    shown = _with_blanks(rows or {})
    if checked is not None and rows is not None:
        checked = _renumbered(checked, rows)
    return page(request, "register.html", http_status=http_status, event_code=code,
                event=state.settings(), sections=SECTIONS, rows=shown, checked=checked,
                source=source, errors=errors or [], me=None, player=me,
                player_id=(typed.player_id if typed else None) or player_id or me or "",
                player_name=(typed.player_name if typed else "") or player_name,
                pasted=(typed.pasted if typed else "") if pasted is None else pasted,
                **_lock_state(request, me))


@router.get("/{code}", response_class=HTMLResponse)
async def register_page(request: Request, code: str) -> Response:
    """The registration page: the player's current list when this device has their
    session, else an empty form."""
    held = _event_code(request, code)
    me = session_player(request, held)
    db = state_of(request).db
    mine = subs.history(db, me)[:1] if me else []
    if mine:
        rows = _rows_from(state_of(request), mine[0].rows, page_lang(request))
        return _form_page(request, held, rows=rows, source=mine[0].source, player_id=me,
                          player_name=mine[0].player_name)
    return _form_page(request, held)


@router.post("/{code}/check", response_class=HTMLResponse)
async def register_check(request: Request, code: str) -> Response:
    """The list checked, without JavaScript: the page again, with the check."""
    got = await _typed_form(request, code)
    if isinstance(got, Response):
        return got
    held, typed = got
    try:
        checked, rows, source = await _read(request, typed, page_lang(request))
    except InputError as exc:
        return _form_page(request, held, typed=typed, rows=typed.rows, http_status=400,
                          errors=_errors(exc.problems, page_lang(request)))
    # a deck pasted or uploaded is shown as rows to go on from: the rows are the list now
    return _form_page(request, held, typed=typed, rows=rows, checked=checked, source=source,
                      pasted="")


@router.post("/{code}/check.json")
async def register_check_json(request: Request, code: str) -> Response:
    """The list checked while the player types: counts per section, the status, the
    violations and the typed names that name no card, with the nearest names."""
    _event_code(request, code)
    data = await form(request)
    try:
        typed = await _typed(data)
        checked, _, source = await _read(request, typed, page_lang(request))
    except InputError as exc:
        return _json({"errors": _errors(exc.problems, page_lang(request))}, 400)
    return _json({"counts": checked.counts, "status": checked.status, "source": source,
                  "violations": checked.violations, "unknown": checked.unknown,
                  "read_as": checked.read_as,
                  "problems": checked.problems})


@router.get("/{code}/cards.json")
async def register_cards(request: Request, code: str, q: str = "") -> Response:
    """Card names of the event's card pool for autocomplete, in the page's language and
    English: ``{"names": [...]}``, at most 20."""
    _event_code(request, code)
    state = state_of(request)
    langs = tuple(dict.fromkeys((page_lang(request), "en")))
    names = await run_in_threadpool(card_names, state.setup().cards, q[:60], langs)
    return _json({"names": names})


def _json(value: object, status: int = 200) -> Response:
    return Response(json.dumps(value, ensure_ascii=False), status_code=status,
                    media_type="application/json")


def _errors(problems: list[Problem], lang: Lang) -> list[dict[str, Any]]:
    """Form errors for the page, in its language."""
    return [{"where": p.place, "field": p.file, "code": p.code,
             "message": problem_text(p, lang)} for p in problems]


@router.post("/{code}/submit", response_class=HTMLResponse)
async def register_submit(request: Request, code: str) -> Response:
    """Store the player's list (an illegal one too: the receipt says why) and show the
    receipt; a list with names that name no card is sent back to fix."""
    got = await _typed_form(request, code)
    if isinstance(got, Response):
        return got
    held, typed = got
    state, lang = state_of(request), page_lang(request)
    limits: PlayerLimits = request.app.state.player_limits
    try:
        player_id = subs.check_id(typed.player_id)
        if not typed.player_name:
            raise InputError.of("player_name", "enter your name", code="BAD_OPTION")
        if not _may_open(request, held, player_id, typed.access):
            raise InputError.of("access", "this KONAMI ID has a list already: enter your "
                                "receipt code or PIN to replace it", code="WRONG_PLAYER_CODE")
        past, unlocked = subs.locked_for(state.db, player_id)
        if past and unlocked is None:
            raise InputError.of("deadline", "the lists are locked: the deadline has passed",
                                code="LISTS_LOCKED")
        typed.player_id = player_id
        checked, rows, source = await _read(request, typed, lang)
    except InputError as exc:
        return _form_page(request, held, typed=typed, rows=typed.rows, http_status=400,
                          errors=_errors(exc.problems, page_lang(request)))
    if checked.unknown or checked.problems or not checked.rows:
        return _form_page(request, held, typed=typed, rows=rows, checked=checked,
                          source=source, http_status=400, errors=[{
                              "where": "deck", "field": "deck", "code": "UNKNOWN_CARD_NAME",
                              "message": "fix the names that name no card (or the lines that "
                                         "could not be read), then submit again"}])
    stored = await run_in_threadpool(
        lambda: subs.add(state.db, player_id=player_id, player_name=typed.player_name,
                         source=source, lang=lang, rows=checked.rows,
                         limit=limits.submissions, window=limits.id_seconds, late=past,
                         unlock_id=unlocked))
    if stored is None:
        raise PlayerRefused(429, "TOO_MANY_SUBMISSIONS",
                            "Too many lists submitted for this KONAMI ID in a short time; "
                            "wait a few minutes and submit again.")
    subs.receipt(state.db, player_id, make=True)
    state.refresh()  # the event check sees the new list
    response = RedirectResponse(f"/r/{held}/receipt", status_code=303)
    _set_player(request, response, held, player_id)
    return response


@router.post("/{code}/open")
async def register_open(request: Request, code: str) -> Response:
    """Open the player's list on this device with their receipt code or PIN."""
    held = _event_code(request, code)
    data = await form(request)
    try:
        player_id = subs.check_id(str(data.get("player_id", "")))
    except InputError as exc:
        return _form_page(request, held, http_status=400,
                          errors=_errors(exc.problems, page_lang(request)))
    db = state_of(request).db
    given = str(data.get("access", ""))[:40]
    if not given.strip() or (not subs.history(db, player_id) and subs.pin(db, player_id) is None) \
            or not _may_open(request, held, player_id, given):
        return _form_page(request, held, http_status=403, errors=[{
            "where": "access", "field": "access", "code": "WRONG_PLAYER_CODE",
            "message": "this receipt code or PIN is not the one of that KONAMI ID"}])
    response = RedirectResponse(f"/r/{held}/receipt" if subs.history(db, player_id)
                                else f"/r/{held}", status_code=303)
    _set_player(request, response, held, player_id)
    return response


@router.post("/{code}/leave")
async def register_leave(request: Request, code: str) -> Response:
    """Forget the player on this device."""
    held = _event_code(request, code)
    await form(request)
    response = RedirectResponse(f"/r/{held}", status_code=303)
    response.delete_cookie(PLAYER_COOKIE, path="/r/")
    return response


def _mine(request: Request, code: str, number: int | None = None) -> tuple[str, Stored,
                                                                           list[Stored]]:
    """The session's player, the submission asked for (the current one by default) and
    their history; any other player's is not found."""
    me = session_player(request, code)
    if me is None:
        raise PlayerRefused(403, "WRONG_PLAYER_CODE", "Open your list first: your KONAMI ID "
                            "and your receipt code or PIN.")
    mine = subs.history(state_of(request).db, me)
    chosen = mine[0] if mine and number is None else next(
        (s for s in mine if s.number == number), None)
    if chosen is None:
        raise HTTPException(404)
    return me, chosen, mine


@router.get("/{code}/receipt", response_class=HTMLResponse)
async def register_receipt(request: Request, code: str, number: int | None = None) -> Response:
    """The receipt of the player's current list (or of an earlier one of theirs)."""
    held = _event_code(request, code)
    me, shown, mine = _mine(request, held, number)
    state, lang = state_of(request), page_lang(request)
    entries = entries_frame([{"deck_id": me, "section": s, "passcode": p, "qty": n,
                              "file": "receipt"} for s, p, n in shown.rows])
    checked = await run_in_threadpool(_check_list, state, entries, me, lang, [], {})
    return page(request, "register_receipt.html", event_code=held, event=state.settings(),
                shown=shown, current=shown.number == mine[0].number, history=mine,
                lines=_names(state, shown.rows, lang), checked=checked,
                receipt=subs.receipt(state.db, me), me=None, player=me,
                counts=checked.counts, **_lock_state(request, me))


@router.get("/{code}/receipt.pdf")
async def register_receipt_pdf(request: Request, code: str,
                               number: int | None = None) -> Response:
    """The player's list on the filled Konami PDF sheet."""
    held = _event_code(request, code)
    _, shown, _ = _mine(request, held, number)
    data = await run_in_threadpool(_sheet_pdf, state_of(request), shown)
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": f'attachment; filename="decklist-{shown.player_id}.pdf"'})


def _sheet(state: EventState, stored: Stored) -> Any:
    from validator.sheets.pdf import sheet_from_deck

    setup, settings = state.setup(), state.settings()
    entries = entries_frame([{"deck_id": stored.player_id, "section": s, "passcode": p,
                              "qty": n, "file": "registration page"} for s, p, n in stored.rows])
    lang = stored.lang if stored.lang in NAME_LANGS else "en"
    sheet, _ = sheet_from_deck(entries, setup.cards, setup.fmt, player_id=stored.player_id,
                               player_name=export_text(stored.player_name),
                               event=export_text(settings.name), date=settings.date,
                               lang=lang)
    return sheet


def _sheet_pdf(state: EventState, stored: Stored) -> bytes:
    from validator.sheets.pdf import write_form

    return write_form(_sheet(state, stored))


# the organizer's view --------------------------------------------------------------------

def _statuses(players: pl.DataFrame | None) -> dict[str, str]:
    if players is None:
        return {}
    return {str(p): str(s) for p, s in players.select("player_id", "status").iter_rows()}


@staff_router.get("/registrations", response_class=HTMLResponse)
async def registrations_page(request: Request, saved: str = "") -> Response:
    """Who submitted, when, their status, late and missing players, the deadline, the event
    code and the exports."""
    state = state_of(request)
    db = state.db
    snapshot = await latest(request)
    result = snapshot.result
    statuses = _statuses(result.players if result is not None else None)
    current = subs.current(db)
    counted = {p: int(n) for p, n in db.select(
        "SELECT player_id, count(*) FROM register_submissions GROUP BY player_id")}
    submitted = {s.player_id for s in current}
    elsewhere: dict[str, str] = {}
    if result is not None:
        for pid, name, file in result.players.join(
                result.registrations.players.select("player_id", "file"), on="player_id",
                how="left").select("player_id", "player_name", "file").iter_rows():
            if file != subs.PAGE_FILE and pid not in submitted:
                elsewhere[str(pid)] = str(name or "")
    paired = {p for number, *_ in rounds.rounds(db)
              for seated in rounds.round_tables(db, number).values() for p in seated}
    for pid in sorted(paired - submitted):
        elsewhere.setdefault(pid, "")
    uploaded_ids = set()
    if result is not None:
        uploaded_ids = {str(p) for p, f in result.registrations.players.select(
            "player_id", "file").iter_rows() if f != subs.PAGE_FILE}
    chosen = subs.choices(db)
    conflicts = [p for p in sorted(submitted) if p in uploaded_ids or p in chosen]
    when = subs.deadline(db)
    zone = state.settings().timezone
    local = when.astimezone(zoneinfo.ZoneInfo(zone)).strftime("%Y-%m-%dT%H:%M") if when else ""
    code = subs.event_code(db)
    return page(request, "registrations.html", current=current, statuses=statuses,
                counted=counted, missing=sorted(elsewhere.items()), code=code,
                link=f"{request.base_url}r/{code}" if code else "",
                deadline=local, zone=zone, unlocks=subs.unlocks(db), conflicts=conflicts,
                chosen=chosen, saved=saved, checking=snapshot.checking,
                pins=sum(1 for _ in db.select("SELECT 1 FROM register_access WHERE pin IS "
                                              "NOT NULL")))


@staff_router.get("/registrations/{player_id}", response_class=HTMLResponse)
async def registrations_player(request: Request, player_id: str) -> Response:
    """Every list one player submitted, newest first, with its time, source and hash."""
    state = state_of(request)
    mine = subs.history(state.db, player_id)
    rows = mine[0].rows if mine else []
    return page(request, "registrations_player.html", player_id=player_id, history=mine,
                lines=_names(state, rows, page_lang(request)), counts={
                    s: sum(n for sec, _, n in rows if sec == s) for s in SECTIONS})


@staff_router.post("/registrations/settings", dependencies=[ORGANIZER])
async def registrations_settings(request: Request) -> Response:
    """The event code (a new one, or closing the page), the deadline and players' PINs."""
    data = await form(request)
    state = state_of(request)
    db = state.db
    what = str(data.get("what", ""))
    if what == "new-code":
        subs.set_event_code(db, subs.new_code())
    elif what == "close":
        subs.set_event_code(db, None)
    elif what == "deadline":
        text = str(data.get("deadline", "")).strip()
        if not text:
            subs.set_deadline(db, None)
        else:
            try:
                local = dt.datetime.fromisoformat(text[:19])
            except ValueError as exc:
                raise InputError.at("deadline", f"not a date and time: {text[:30]!r}",
                                    code="BAD_OPTION") from exc
            zone = zoneinfo.ZoneInfo(state.settings().timezone)
            subs.set_deadline(db, local.replace(tzinfo=zone))
    elif what == "pins":
        pins: dict[str, str] = {}
        for number, line in enumerate(str(data.get("pins", "")).splitlines()[:20000], 1):
            parts = line.replace(",", " ").replace(";", " ").replace("\t", " ").split()
            if not parts:
                continue
            if len(parts) != 2 or not parts[1].isalnum() or len(parts[1]) > 20:
                raise InputError([Problem("pins", number, None, "expected a KONAMI ID and a "
                                          "PIN on each line", code="BAD_OPTION")])
            pins[subs.check_id(parts[0])] = parts[1]
        subs.set_pins(db, pins)
    elif what == "pins-from-lists":
        found, problems = subs.pins_from(db.uploads("registrations"))
        if problems:
            raise InputError(problems)
        subs.set_pins(db, found)
    else:
        raise InputError.at("choice", "not a setting of this form", code="BAD_OPTION")
    return RedirectResponse(f"/registrations?saved={what}", status_code=303)


@staff_router.post("/registrations/{player_id}/unlock", dependencies=[ORGANIZER])
async def registrations_unlock(request: Request, player_id: str) -> Response:
    """Let one player submit once more after the deadline, with a reason (logged)."""
    data = await form(request)
    reason = str(data.get("reason", "")).strip()[:300]
    if not reason:
        raise InputError.at("reason", "an unlock needs a reason", code="BAD_OPTION")
    judge = recorder(request, data)
    subs.unlock(state_of(request).db, subs.check_id(player_id), reason, judge.name)
    return RedirectResponse("/registrations?saved=unlock", status_code=303)


@staff_router.post("/registrations/{player_id}/choose", dependencies=[ORGANIZER])
async def registrations_choose(request: Request, player_id: str) -> Response:
    """Which list counts for a player with one on the page and one uploaded."""
    data = await form(request)
    choice = str(data.get("choice", ""))
    if choice not in ("page", "upload"):
        raise InputError.at("choice", "choose the page's list or the uploaded one",
                            code="BAD_OPTION")
    judge = recorder(request, data)
    state = state_of(request)
    subs.choose(state.db, subs.check_id(player_id), choice, judge.name)
    state.refresh()
    return RedirectResponse("/registrations?saved=choice", status_code=303)


def export_rows(state: EventState) -> dict[str, Any]:
    """Every current submission as the JSON export holds it: rows and hash, so anyone can
    recompute the hash from the rows (see :mod:`validator.event.submissions`)."""
    settings = state.settings()
    return {"event": export_text(settings.name), "date": settings.date,
            "canonical_form": "section<TAB>passcode<TAB>count<LF> per row, sections main, "
                              "extra, side, passcodes in numeric order, UTF-8; sha256 of it",
            "submissions": [{"number": s.number, "player_id": s.player_id,
                             "player_name": export_text(s.player_name), "source": s.source,
                             "lang": s.lang, "submitted_at": s.submitted_at, "late": s.late,
                             "rows": [{"section": sec, "passcode": p, "count": n}
                                      for sec, p, n in s.rows], "sha256": s.sha256}
                            for s in subs.current(state.db)]}


@staff_router.get("/registrations.json", dependencies=[ORGANIZER])
async def registrations_json(request: Request) -> Response:
    return Response(json.dumps(export_rows(state_of(request)), ensure_ascii=False, indent=1),
                    media_type="application/json", headers={
                        "Content-Disposition": 'attachment; filename="registrations.json"'})


def _workbook(state: EventState) -> bytes:
    """One Konami-layout worksheet per player; a list with more distinct cards than a
    block of the sheet holds goes on one long-layout worksheet (a row per card, with its
    passcode) instead, which ``deckcheck event`` reads the same way."""
    import tempfile
    from pathlib import Path

    from openpyxl import load_workbook

    from validator.report.style import put, write_header
    from validator.sheets.workbook import BLOCKS, write_konami_workbook

    current = subs.current(state.db)
    sheets = [(stored, _sheet(state, stored)) for stored in current]
    fits = [sheet for _, sheet in sheets
            if all(len(sheet.blocks.get(k, [])) <= rows for k, (_, _, _, rows) in BLOCKS.items())]
    longer = [stored for stored, sheet in sheets if sheet not in fits]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "registrations.xlsx"
        write_konami_workbook(path, fits)
        if longer:
            book = load_workbook(path)
            if not fits:
                book.remove(book.worksheets[0])  # the blank sheet of an empty workbook
            ws = book.create_sheet("Long lists")
            write_header(ws, 1, ["Player ID", "Player Name", "Section", "Qty", "Passcode"])
            row = 2
            for stored in longer:
                for section, passcode, count in stored.rows:
                    for col, value in enumerate((stored.player_id, stored.player_name,
                                                 section, count, passcode), 1):
                        put(ws, row, col, value)
                    ws.cell(row=row, column=1).number_format = "@"
                    row += 1
            book.save(path)
        return path.read_bytes()


@staff_router.get("/registrations.xlsx", dependencies=[ORGANIZER])
async def registrations_xlsx(request: Request) -> Response:
    """Every current list in the Konami sheet layout, one worksheet per player."""
    data = await run_in_threadpool(_workbook, state_of(request))
    return Response(data, media_type="application/vnd.openxmlformats-officedocument."
                    "spreadsheetml.sheet", headers={
                        "Content-Disposition": 'attachment; filename="registrations.xlsx"'})


def _pdfs(state: EventState) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for stored in subs.current(state.db):
            archive.writestr(f"{stored.player_id}.pdf", _sheet_pdf(state, stored))
    return buffer.getvalue()


@staff_router.get("/registrations.zip", dependencies=[ORGANIZER])
async def registrations_zip(request: Request) -> Response:
    """Every current list on a filled Konami PDF sheet, one per player, in a zip."""
    data = await run_in_threadpool(_pdfs, state_of(request))
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": 'attachment; filename="registrations-pdf.zip"'})
