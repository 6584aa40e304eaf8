"""Rounds on the floor: pairings imported per round, the current round, deck-check draws
per round, the deck checks recorded, and each round's printable deck-check sheet."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from validator.errors import InputError, Problem
from validator.event import rounds
from validator.inputs.pairings import (
    MAX_TABLE,
    PAIRING_SUFFIXES,
    Pairings,
    read_pairing_file,
    read_pasted_pairings,
)
from validator.report.deck_checks import deck_check_xlsx
from validator.text.lexicon import whole_number
from validator.web.pages import (
    ORGANIZER,
    files,
    form,
    latest,
    page,
    recorder,
    signed_in_judge,
    state_of,
)
from validator.web.state import EventState

router = APIRouter()

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: the tables a draw picks unless told
DRAW_SIZE = 5
#: the longest deck-check time extension a form takes, in minutes
MAX_EXTENSION = 120


def _players(players: Any) -> list[tuple[str, str]]:
    return [(str(pid), str(name)) for pid, name in
            players.select("player_id", "player_name").rows()]


async def _names(request: Request) -> dict[str, str]:
    """Each registered player's name, by id (empty before the lists are uploaded)."""
    result = (await latest(request)).result
    return {} if result is None else dict(_players(result.players))


def _round_field(text: str, what: str = "round") -> int:
    number = whole_number(text, MAX_TABLE)
    if number is None or number < 1:
        raise InputError.of(what, "expected a round number from 1, got {typed}"
                            if text.strip() else "enter the round number", code="BAD_OPTION",
                            typed=repr(text[:20]))
    return number


@router.get("/rounds", response_class=HTMLResponse)
async def rounds_page(request: Request) -> Response:
    state = state_of(request)
    return page(request, "rounds.html", rounds=rounds.rounds(state.db),
                current=rounds.current_round(state.db), suffixes=PAIRING_SUFFIXES,
                ready=(await latest(request)).result is not None)


@router.post("/rounds/current", dependencies=[ORGANIZER])
async def set_current(request: Request) -> Response:
    data = await form(request)
    state = state_of(request)
    number = _round_field(str(data.get("round", "")))
    rounds.set_current_round(state.db, number)
    return RedirectResponse("/rounds#current", status_code=303)


@router.post("/rounds/import", dependencies=[ORGANIZER])
async def import_pairings(request: Request) -> Response:
    """A pairings export or a pasted list, for the round given (a file's round column
    wins); every seat is matched to a registered player or reported."""
    data = await form(request)
    state = state_of(request)
    result = (await latest(request)).result
    if result is None:
        raise InputError.of("pairings", "upload the registered lists first: pairings name "
                            "the event's players", code="NOT_READY")
    text = str(data.get("round", "")).strip()
    round_ = _round_field(text) if text else None
    uploaded = await files(data, "file", PAIRING_SUFFIXES)
    pasted = str(data.get("pasted", ""))
    if not uploaded and not pasted.strip():
        raise InputError.of("pairings", "choose a pairings file or paste the pairings",
                            code="BAD_OPTION")
    read: list[Pairings] = []
    sources: list[str] = []
    for name, content in uploaded:
        read.append(await run_in_threadpool(read_pairing_file, name, content, round_))
        sources.append(name)
    if pasted.strip():
        if round_ is None:
            raise InputError.of("round", "enter the round of the pasted pairings",
                                code="BAD_OPTION")
        read.append(read_pasted_pairings(pasted, round_))
        sources.append("pasted pairings")
    seats = [seat for one in read for seat in one.seats]
    placed, unmatched = rounds.place_seats(seats, _players(result.players))
    problems: list[Problem] = sorted([p for one in read for p in one.problems] + unmatched)
    number = rounds.import_pairings(state.db, placed, ", ".join(sources), problems,
                                    given=[round_] if round_ is not None else None)
    shown = sorted({p.round for p in placed} or ({round_} if round_ else set()))
    target = f"/rounds/{shown[-1]}" if shown else "/rounds"
    return RedirectResponse(f"{target}?imported={number}", status_code=303)


def _round_context(state: EventState, round_: int, names: dict[str, str]) -> dict[str, Any]:
    tables = rounds.round_tables(state.db, round_)
    checks = rounds.deck_checks(state.db, round_)
    checked = {c.table for c in checks if c.table is not None}
    return {"round": round_, "tables": [
        {"table": table, "players": [(pid, names.get(pid, "")) for pid in players],
         "checked": table in checked} for table, players in tables.items()],
        "draws": rounds.draws(state.db, round_), "checks": checks, "names": names,
        "current": rounds.current_round(state.db)}


@router.get("/rounds/{round_}", response_class=HTMLResponse)
async def round_page(request: Request, round_: int, imported: int = 0,
                     drawn: int = 0) -> Response:
    state = state_of(request)
    context = _round_context(state, round_, await _names(request))
    report = rounds.last_import(state.db, imported) if imported else None
    return page(request, "round.html", imported=report, drawn=drawn, size=DRAW_SIZE,
                **context)


@router.post("/rounds/{round_}/draw")
async def draw_tables(request: Request, round_: int) -> Response:
    data = await form(request)
    state = state_of(request)
    size = whole_number(str(data.get("size", "")).strip() or str(DRAW_SIZE), rounds.MAX_DRAW)
    if size is None or size < 1:
        raise InputError.of("size", "draw 1-{most} tables", code="BAD_OPTION",
                            most=rounds.MAX_DRAW)
    seed_text = str(data.get("seed", "")).strip()
    seed = whole_number(seed_text, 10**9) if seed_text else None
    if seed_text and seed is None:
        raise InputError.of("seed", "a seed is a whole number (or empty: a new one)",
                            code="BAD_OPTION")
    made = rounds.draw(state.db, round_, size, seed=seed,
                       include_checked=data.get("include_checked") == "on",
                       drawn_by=_drawn_by(request, data))
    return RedirectResponse(f"/rounds/{round_}?drawn={made.id}#draws", status_code=303)


def _drawn_by(request: Request, data: FormData) -> str:
    """Who drew the tables: the person signed in when their sign-in names them, else the
    name typed (may be empty)."""
    named = signed_in_judge(request)
    return named.name if named is not None else str(data.get("judge", "")).strip()[:80]


@router.get("/rounds/{round_}/sheet", response_class=HTMLResponse)
async def sheet(request: Request, round_: int) -> Response:
    """The round's deck-check sheet, to print: the tables of its latest draw (and any
    table checked), each with its players and what the checks recorded."""
    state = state_of(request)
    names = await _names(request)
    drawn, rows = rounds.deck_check_sheet(state.db, round_)
    return page(request, "round_sheet.html", round=round_, draw=drawn, names=names, rows=[
        {"table": r.table, "players": [(p, names.get(p, "")) for p in r.players],
         "checks": r.checks} for r in rows])


@router.get("/rounds/{round_}/sheet.xlsx")
async def sheet_xlsx(request: Request, round_: int) -> Response:
    state = state_of(request)
    names = await _names(request)
    drawn, rows = rounds.deck_check_sheet(state.db, round_)
    content = await run_in_threadpool(deck_check_xlsx, state.settings().name, round_, drawn,
                                      rows, names)
    return Response(content, media_type=XLSX, headers={
        "Content-Disposition": f'attachment; filename="deck-checks-round-{round_}.xlsx"'})


def _minutes(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    number = whole_number(text, MAX_EXTENSION)
    if number is None:
        raise InputError.of("extension", "the time extension is 0-{most} minutes, not {typed}",
                            code="BAD_OPTION", most=MAX_EXTENSION, typed=repr(text[:20]))
    return number


def deck_check_fields(data: Any) -> dict[str, Any]:
    """The round, table, start and time extension a judge's form carries (each optional:
    the round and table default to the current round and the player's table in it)."""
    round_text = str(data.get("round", "")).strip()
    table_text = str(data.get("table", "")).strip()
    table = whole_number(table_text, MAX_TABLE) if table_text else None
    if table_text and table is None:
        raise InputError.of("table", "a table is a number 1-{most}, not {typed}",
                            code="BAD_OPTION", most=MAX_TABLE, typed=repr(table_text[:20]))
    return {"round": _round_field(round_text) if round_text else None, "table": table,
            "started_at": str(data.get("started_at", "")).strip()[:40],
            "extension": _minutes(str(data.get("extension", "")))}


@router.post("/rounds/checks")
async def record_check(request: Request) -> Response:
    """A deck check that found the deck legal (a penalty is recorded with its log entry)."""
    data = await form(request)
    state = state_of(request)
    player_id = str(data.get("player_id", "")).strip()
    names = await _names(request)
    if player_id not in names:
        raise InputError.of(player_id or "player", "no such player", code="UNKNOWN_PLAYER")
    judge = recorder(request, data)
    fields = deck_check_fields(data)
    started = fields.pop("started_at") or rounds.now()
    rounds.record_deck_check(state.db, player_id=player_id, judge=judge.name,
                             started_at=started, result="legal", **fields)
    return RedirectResponse(f"/judge?checked={quote(player_id)}", status_code=303)
