"""The event's penalty log: record infractions of the regulation's catalogue, void or
correct an entry (the original is kept), export it.

Every record form carries a one-time key: sent again (Back, a reload, a double click, the
same form in a second tab) it records nothing new and shows the entry it made. A second
form for the same player, round and infraction asks the judge to confirm first.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from validator.errors import InputError, Problem
from validator.event.rounds import record_defaults
from validator.event.store import PLAYER_KINDS, LogEntry
from validator.inputs.ids import find_player
from validator.judging.infractions import catalogue, infraction
from validator.judging.judge import decision
from validator.report.penalty_log import (
    LogContext,
    clause,
    infraction_text,
    log_csv,
    repeats,
    status,
)
from validator.report.xlsx import log_xlsx
from validator.vocab import STAGES, Stage
from validator.web.pages import (
    MAX_JUDGE_NAME,
    ORGANIZER,
    form,
    latest,
    new_key,
    optional_number,
    page,
    recorder,
    state_of,
)
from validator.web.state import EventState

router = APIRouter()
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#: when an infraction is recorded: every stage but before the event
_STAGES: dict[str, Stage] = {stage: stage for stage in STAGES if stage != "pre-event"}


def log_context(state: EventState) -> LogContext:
    """The regulation, language and time zone the event's log is written in."""
    settings = state.settings()
    return LogContext(state.infractions(), settings.lang, settings.timezone)


def similar(entries: list[LogEntry], player_id: str, round_: int | None,
            codes: list[str]) -> list[LogEntry]:
    """Entries in effect for the same player, round and infraction: a second form for
    the same incident, which the judge confirms before it is recorded."""
    return [e for e in entries if e.in_effect and e.player_id == player_id
            and e.round == round_ and set(e.codes) & set(codes)]


def confirm_page(request: Request, action: str, data: FormData,
                 earlier: list[LogEntry]) -> Response:
    """Ask before recording what looks like an entry made already from another form."""
    state = state_of(request)
    hidden = [(k, v) for k, v in data.multi_items()
              if isinstance(v, str) and k not in ("csrf", "confirm")]
    return page(request, "log_confirm.html", action=action, hidden=hidden, earlier=earlier,
                context=log_context(state), text=infraction_text)


def already(entry_id: int) -> Response:
    """The page of the entry a form made when it was sent before."""
    return RedirectResponse(f"/log/{entry_id}?again=1", status_code=303)


def one_time_key(request: Request, data: FormData) -> tuple[str | None, Response | None]:
    """The form's one-time key, and the page of the entry it made when it was sent before
    (None: a new form)."""
    key = str(data.get("form_key", "")) or None
    made = state_of(request).db.keyed(key) if key is not None else None
    return key, None if made is None else already(made)


def _who(request: Request, data: FormData, players: pl.DataFrame | None) -> tuple[
        str, str, str]:
    """The entry's player (id, name, kind): a player of the event, or a walk-in or a
    spectator the judge chose as such. An unknown id is refused with the closest players."""
    kind = str(data.get("who", "player"))
    if kind not in PLAYER_KINDS:
        raise InputError.of("who", "choose a player, a walk-in or a spectator",
                            code="BAD_OPTION")
    typed = str(data.get("pick") or data.get("player_id", "")).strip()[:MAX_JUDGE_NAME]
    if kind != "player":
        name = str(data.get("player_name", "")).strip()[:MAX_JUDGE_NAME]
        if not name and not typed:
            raise InputError.at("log", f"enter the {kind}'s name", code="BAD_OPTION")
        return typed or kind, name or typed, kind
    if not typed:
        raise InputError.of("log", "enter the player id and the judge's name",
                            code="BAD_OPTION")
    if players is None:
        raise InputError.of("log", "the event has no players yet (upload registrations), "
                            "or record a walk-in or a spectator", code="NOT_READY")
    if typed in player_names(players):  # as the event has it
        return typed, player_names(players)[typed], kind
    found, closest = find_player(typed, players)
    if found is None:
        raise UnknownPlayer(typed, closest)
    return found, player_names(players).get(found, ""), kind


_NAMES: list[tuple[pl.DataFrame, dict[str, str]]] = []


def player_names(players: pl.DataFrame) -> dict[str, str]:
    """The event's players, id → name, made once per finished event check."""
    if not _NAMES or _NAMES[0][0] is not players:
        _NAMES[:] = [(players, {str(pid): str(name or "") for pid, name in
                                players.select("player_id", "player_name").iter_rows()})]
    return _NAMES[0][1]


class UnknownPlayer(InputError):
    """A player id that is no player of the event, with the closest players."""

    def __init__(self, typed: str, closest: list[tuple[str, str]]) -> None:
        listed = ", ".join(f"{name} ({pid})" for pid, name in closest)
        super().__init__([Problem("player_id", None, "player_id",
                                  f"no player of the event has the id {typed[:40]!r}"
                                  + (f"; the closest: {listed}" if listed else ""),
                                  code="UNKNOWN_PLAYER")])
        self.closest = closest


def _log_page(request: Request, player: str = "", *, values: dict[str, str] | None = None,
              error: InputError | None = None) -> Response:
    state = state_of(request)
    result = state.snapshot().result
    names = [] if result is None else result.players.select("player_id", "player_name").rows()
    everything = state.db.log()
    defaults = record_defaults(state.db, player)
    return page(request, "log.html", http_status=400 if error else 200,
                entries=[e for e in everything if e.player_id == player] if player
                else everything, player=player, catalogue=catalogue(state.infractions()),
                players=names, penalties=state.policy().by_severity(),
                repeated=repeats(everything), form_key=new_key(), kinds=PLAYER_KINDS,
                values=values or {"round": "" if defaults.round is None else
                                  str(defaults.round),
                                  "table": "" if defaults.table is None else
                                  str(defaults.table)},
                errors=error.problems if error else [],
                closest=error.closest if isinstance(error, UnknownPlayer) else [],
                context=log_context(state), text=infraction_text, status=status)


@router.get("/log", response_class=HTMLResponse)
async def log_page(request: Request, player: str = "") -> Response:
    await latest(request)
    return _log_page(request, player)


@router.post("/log")
async def log_record(request: Request) -> Response:
    data = await form(request)
    state = state_of(request)
    key, sent = one_time_key(request, data)
    if sent is not None:
        return sent
    item = infraction(state.infractions(), str(data.get("code", "")))
    result = (await latest(request)).result
    try:
        player_id, name, kind = _who(request, data, None if result is None
                                     else result.players)
    except UnknownPlayer as exc:
        values = {k: v for k, v in data.multi_items() if isinstance(v, str)}
        return _log_page(request, values=values, error=exc)
    judge = recorder(request, data)
    policy = state.policy()
    chosen = str(data.get("penalty") or item.penalty)
    if chosen not in policy.penalties:
        raise InputError.of("penalty", "not a penalty of the event's regulation", code="BAD_OPTION")
    made_as = decision(item.penalty, chosen, policy)
    reason = str(data.get("reason", "")).strip()
    if made_as != "confirmed" and not reason:
        raise InputError.of("reason", "a downgrade or upgrade needs a reason", code="BAD_OPTION")
    round_ = optional_number(str(data.get("round", "")), "round")
    same_round = state.db.log(player_id, round=round_, in_round=True)
    if not data.get("confirm") and (earlier := similar(same_round, player_id, round_,
                                                       [item.code])):
        return confirm_page(request, "/log", data, earlier)
    lang = state.settings().lang
    stage = _STAGES.get(str(data.get("stage", "")), "in-duel")
    entry, new = await run_in_threadpool(  # the commit waits for the disk
        state.db.record_once,
        player_id=player_id, player_name=name, judge=judge.name, round=round_,
        duel=optional_number(str(data.get("duel", "")), "duel"), kind="infraction",
        codes=[item.code], default_penalty=item.penalty, penalty=chosen, decision=made_as,
        reason=reason, table=optional_number(str(data.get("table", "")), "table"), form_key=key,
        player_kind=kind, head_judge=judge.head,
        details={"infraction": item.text.get(lang, item.text["en"]), "section": item.section,
                 "applies_to": policy.applies_to(chosen, stage, lang), "stage": stage})
    if not new:
        return already(entry)
    return RedirectResponse("/log?player=" + quote(player_id), status_code=303)


def _entry(request: Request, entry_id: int) -> LogEntry:
    found = state_of(request).db.entry(entry_id)
    if found is None:
        raise InputError.at("log", f"no entry #{entry_id} in the penalty log",
                            code="BAD_OPTION")
    return found


@router.get("/log/{entry_id}", response_class=HTMLResponse)
async def entry_page(request: Request, entry_id: int, again: int = 0) -> Response:
    """One entry: what was recorded, its void or correction, and the forms to make one."""
    state = state_of(request)
    entry = _entry(request, entry_id)
    context = log_context(state)
    return page(request, "log_entry.html", entry=entry, again=bool(again), context=context,
                text=infraction_text(entry, context), clause=clause(entry, context),
                status=status(entry, context.lang), catalogue=catalogue(state.infractions()),
                penalties=state.policy().by_severity(), form_key=new_key(),
                replaced=state.db.entry(entry.replaces) if entry.replaces else None)


@router.post("/log/{entry_id}/void", dependencies=[ORGANIZER])
async def void_entry(request: Request, entry_id: int) -> Response:
    """Void an entry: it stays in the log, marked voided, with who, when and why."""
    data = await form(request)
    entry = _entry(request, entry_id)
    reason = str(data.get("reason", "")).strip()
    if not reason:
        raise InputError.of("reason", "say why the entry is voided", code="BAD_OPTION")
    judge = recorder(request, data)
    done = state_of(request).db.change("log", entry.id, "void", made_by=judge.name,
                                       reason=reason, form_key=str(data.get("form_key", ""))
                                       or None)
    return RedirectResponse(f"/log/{entry.id}" + ("" if done else "?again=1"),
                            status_code=303)


@router.post("/log/{entry_id}/correct", dependencies=[ORGANIZER])
async def correct_entry(request: Request, entry_id: int) -> Response:
    """Correct an entry: a new entry replaces it; the original stays, marked corrected."""
    data = await form(request)
    state = state_of(request)
    key, sent = one_time_key(request, data)
    if sent is not None:
        return sent
    entry = _entry(request, entry_id)
    reason = str(data.get("reason", "")).strip()
    if not reason:
        raise InputError.of("reason", "say why the entry is corrected", code="BAD_OPTION")
    judge = recorder(request, data)
    policy = state.policy()
    penalty = str(data.get("penalty") or entry.penalty)
    if penalty not in policy.penalties:
        raise InputError.of("penalty", "not a penalty of the event's regulation",
                            code="BAD_OPTION")
    codes, default, details = entry.codes, entry.default_penalty, dict(entry.details)
    if entry.kind == "infraction" and data.get("code"):
        item = infraction(state.infractions(), str(data.get("code")))
        lang = state.settings().lang
        codes, default = [item.code], item.penalty
        details.update(infraction=item.text.get(lang, item.text["en"]), section=item.section)
    stage = _STAGES.get(str(details.get("stage", "")), "in-duel")
    details["applies_to"] = policy.applies_to(penalty, stage, state.settings().lang)
    field: dict[str, Any] = {}
    for name in ("round", "table", "duel"):
        text = str(data.get(name, "")).strip()
        field[name] = optional_number(text, name) if text else getattr(entry, name)
    made, _ = await run_in_threadpool(
        state.db.record_once,
        player_id=entry.player_id, player_name=entry.player_name, judge=judge.name,
        round=field["round"], duel=field["duel"], kind=entry.kind, codes=codes,
        default_penalty=default, penalty=penalty,
        decision=decision(default or None, penalty, policy), reason=reason,
        details=details, table=field["table"], form_key=key, player_kind=entry.player_kind,
        head_judge=judge.head, replaces=entry.id)
    return RedirectResponse(f"/log/{made}", status_code=303)


@router.get("/log.csv")
async def export_csv(request: Request) -> Response:
    state = state_of(request)
    return Response(log_csv(state.db.log(), log_context(state)),
                    media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": 'attachment; filename="penalty-log.csv"'})


@router.get("/log.xlsx")
async def export_xlsx(request: Request) -> Response:
    state = state_of(request)
    return Response(log_xlsx(state.db.log(), log_context(state)), media_type=XLSX,
                    headers={"Content-Disposition": 'attachment; filename="penalty-log.xlsx"'})
