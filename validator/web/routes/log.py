"""The event's penalty log: record infractions of the regulation's catalogue, export it."""

from __future__ import annotations

from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from validator.errors import InputError
from validator.judging.infractions import catalogue, infraction
from validator.judging.judge import decision
from validator.report.penalty_log import log_csv, repeats
from validator.report.xlsx import log_xlsx
from validator.web.pages import form, latest, optional_number, page, state_of

router = APIRouter()
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@router.get("/log", response_class=HTMLResponse)
async def log_page(request: Request, player: str = "") -> Response:
    state = state_of(request)
    result = (await latest(request)).result
    names = [] if result is None else result.players.select("player_id", "player_name").rows()
    everything = state.db.log()
    return page(request, "log.html", entries=state.db.log(player) if player else everything,
                player=player, catalogue=catalogue(state.infractions()), players=names,
                penalties=state.policy().by_severity(), repeated=repeats(everything))


@router.post("/log")
async def log_record(request: Request) -> Response:
    data = await form(request)
    state = state_of(request)
    item = infraction(state.infractions(), str(data.get("code", "")))
    player_id = str(data.get("player_id", "")).strip()
    judge = str(data.get("judge", "")).strip()
    if not player_id or not judge:
        raise InputError.at("log", "enter the player id and the judge's name", code="BAD_OPTION")
    policy = state.policy()
    chosen = str(data.get("penalty") or item.penalty)
    if chosen not in policy.penalties:
        raise InputError.at("penalty", "not a penalty of the event's regulation", code="BAD_OPTION")
    made = decision(item.penalty, chosen, policy)
    reason = str(data.get("reason", "")).strip()
    if made != "confirmed" and not reason:
        raise InputError.at("reason", "a downgrade or upgrade needs a reason", code="BAD_OPTION")
    result = (await latest(request)).result
    name = ""
    if result is not None:
        match = result.players.filter(pl.col("player_id") == player_id)
        name = match["player_name"][0] if match.height else ""
    state.db.record(player_id=player_id, player_name=name, judge=judge,
                    round=optional_number(str(data.get("round", ""))),
                    duel=optional_number(str(data.get("duel", ""))), kind="infraction",
                    codes=[item.code], default_penalty=item.penalty, penalty=chosen,
                    decision=made, reason=reason,
                    details={"infraction": item.text.get(state.settings().lang, item.text["en"]),
                             "section": item.section})
    return RedirectResponse("/log?player=" + quote(player_id), status_code=303)


@router.get("/log.csv")
async def export_csv(request: Request) -> Response:
    return Response(log_csv(state_of(request).db.log()), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="penalty-log.csv"'})


@router.get("/log.xlsx")
async def export_xlsx(request: Request) -> Response:
    return Response(log_xlsx(state_of(request).db.log()), media_type=XLSX,
                    headers={"Content-Disposition": 'attachment; filename="penalty-log.xlsx"'})
