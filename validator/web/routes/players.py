"""A player's page: verdict, list beside deck, the head judge's decisions, the versions of
their list and deck (each viewable, an earlier one restorable), penalty history."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from validator.errors import InputError, Problem
from validator.event import rounds
from validator.event.versions import Part, PlayerVersion
from validator.judging.judge import beside, read_as
from validator.report.model import Report
from validator.report.penalty_log import clause, infraction_text, status
from validator.text.lexicon import MAX_QUANTITY, quantity_in_range, whole_number
from validator.vocab import SECTIONS
from validator.web.pages import (
    HEAD,
    ORGANIZER,
    form,
    judge_of,
    judged,
    latest,
    new_key,
    page,
    player_rows,
    recorder,
    signed_in_judge,
    state_of,
)
from validator.web.routes.log import log_context

router = APIRouter()
PARTS: tuple[Part, ...] = ("list", "deck")


def player_row(players: pl.DataFrame, player_id: str) -> dict[str, Any]:
    """The player's row of an event's player table (``EventResult.players``)."""
    found = players if players.height == 1 else players.filter(
        pl.col("player_id") == player_id)  # one row: the player's already (found by index)
    if found.is_empty() or found["player_id"][0] != player_id:
        raise InputError.of(player_id, "no such player", code="UNKNOWN_PLAYER")
    row: dict[str, Any] = found.row(0, named=True)
    row["status"] = None if row["status"] is None else str(row["status"])
    return row


def open_items(report: Report, player_id: str, named: dict[str, str] | None = None,
               problems: list[Problem] | None = None,
               unresolved: pl.DataFrame | None = None) -> list[dict[str, Any]]:
    """The entries of the player's list the head judge must settle, with suggestions: the
    nearest cards of a name that names none, the card an unreadable row's name names
    (``named``: text → card; ``problems`` and ``unresolved``: the player's, when they were
    found already)."""
    named = named or {}
    items: list[dict[str, Any]] = []
    if unresolved is None:
        unresolved = report.unresolved.filter(pl.col("deck_id") == player_id)
    for row in unresolved.iter_rows(named=True):
        items.append({"where": row["cell"] or str(row["line"] or ""), "typed": row["name"],
                      "qty": row["qty"], "section": str(row["section"]),
                      "suggestions": row["suggestions"] or [], "kind": "name"})
    for problem in report.problems if problems is None else problems:
        if problem.deck_id == player_id:
            card = named.get(problem.text or "")
            items.append({"where": problem.column or str(problem.line or ""),
                          "typed": problem.message, "text": problem.text or "",
                          "read_as": card or "", "qty": None,
                          "section": problem.section or "main",
                          "suggestions": [card] if card else [], "kind": "row"})
    return items


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player(request: Request, player_id: str, restored: int = 0) -> Response:
    state = state_of(request)
    snapshot = await latest(request)
    result, report = snapshot.result, await judged(request, snapshot)
    if result is None or report is None:
        return RedirectResponse("/", status_code=303)
    by_player = await player_rows(request, result)
    row = player_row(by_player.item_of(report, player_id), player_id)
    setup = state.setup()
    mine = by_player.violations_of(report, player_id)
    current = rounds.current_round(state.db)
    problems = by_player.problems_of(player_id)
    rows = beside(by_player.listed_lines(player_id, setup),
                  by_player.deck_lines(player_id, setup),
                  by_player.deck_violations_of(report, player_id), setup.cards)
    return page(request, "player.html", player=row, violations=mine.to_dicts(),
                fuzzy=report.fuzzy.get(player_id, []), verdict=report.verdict(row["deck"]),
                header=report.header, diff=rows,
                items=open_items(report, player_id, read_as(
                    [p.text for p in problems if p.text], setup.cards, setup.fmt), problems,
                    by_player.unresolved_of(report, player_id)),
                checking=snapshot.checking, restored=restored, versions={
                    part: snapshot.versions.of(player_id, part) for part in PARTS},
                history=state.db.log(player_id), form_key=new_key(),
                decisions=state.db.decisions(player_id, every=True),
                current=current, table=rounds.table_of(state.db, player_id, current))


@router.post("/players/{player_id}/decide", dependencies=[HEAD])
async def decide(request: Request, player_id: str) -> Response:
    """The head judge settles an entry: which card it is (and its quantity), who, why. A
    form sent again records once; ``replaces``: the decision this one corrects (kept,
    marked corrected)."""
    data = await form(request)
    state = state_of(request)
    values = {k: str(data.get(k, "")).strip() for k in
              ("where", "card", "typed_card", "qty", "section", "decided_by", "reason",
               "replaces", "form_key")}
    replaces = whole_number(values["replaces"], 10**9) if values["replaces"] else None
    if replaces is not None:
        original = next((d for d in state.db.decisions(player_id)
                         if d["id"] == replaces), None)
        if original is None:
            raise InputError.of("decision", "that decision is not in effect (voided or "
                                "corrected already)", code="BAD_DECISION")
        values["where"] = str(original["where"])
        values["section"] = values["section"] or str(original["section"] or "")
    card = values["typed_card"] or values["card"]
    named = signed_in_judge(request)
    if named is not None:  # the person signed in, whatever the form says
        data_judge, head = named.name, named.head
    elif values["decided_by"]:
        data_judge = values["decided_by"]
        me = judge_of(request)
        head = me is not None and me.head and me.name == data_judge
    else:
        me = judge_of(request)
        data_judge, head = (me.name, me.head) if me else ("", False)
    if not card or not data_judge or not values["reason"]:
        raise InputError.of("decision", "choose or type the card, and give who decided and why",
                            code="BAD_DECISION")
    qty = values["qty"]
    if qty and not quantity_in_range(whole_number(qty)):
        raise InputError.of("qty", "a quantity is a number 1-{most}", code="BAD_QUANTITY",
                            most=MAX_QUANTITY)
    section = values["section"] if values["section"] in SECTIONS else None
    _, new = state.db.add_decision(player_id=player_id, place=values["where"], card=card,
                                   qty=int(qty) if qty else None, section=section,
                                   decided_by=data_judge, reason=values["reason"],
                                   form_key=values["form_key"] or None, head_judge=head,
                                   replaces=replaces)
    if new:
        await asyncio.wrap_future(state.refresh())
    return RedirectResponse(f"/players/{quote(player_id)}#decisions", status_code=303)


@router.post("/players/{player_id}/decisions/{decision}/void", dependencies=[ORGANIZER])
async def void_decision(request: Request, player_id: str, decision: int) -> Response:
    """Void a decision: kept, marked voided with who, when and why; its entry is open
    again for the head judge."""
    data = await form(request)
    state = state_of(request)
    reason = str(data.get("reason", "")).strip()
    if not reason:
        raise InputError.of("reason", "say why the decision is voided", code="BAD_DECISION")
    if not any(d["id"] == decision for d in state.db.decisions(player_id, every=True)):
        raise InputError.at("decision", f"no decision #{decision} for this player",
                            code="BAD_DECISION")
    judge = recorder(request, data)
    if state.db.change("decision", decision, "void", made_by=judge.name, reason=reason,
                       form_key=str(data.get("form_key", "")) or None):
        await asyncio.wrap_future(state.refresh())
    return RedirectResponse(f"/players/{quote(player_id)}#decisions", status_code=303)


@router.get("/players/{player_id}/log", response_class=HTMLResponse)
async def player_log(request: Request, player_id: str) -> Response:
    state = state_of(request)
    return page(request, "player_log.html", player_id=player_id,
                player_name=_name(request, player_id), entries=state.db.log(player_id),
                decisions=state.db.decisions(player_id, every=True),
                context=log_context(state), text=infraction_text, clause=clause,
                status=status)


def _version(request: Request, player_id: str, part: str, upload: int) -> PlayerVersion:
    """One of the player's versions of the latest check, or a clear error."""
    versions = state_of(request).snapshot().versions
    found = next((v for v in versions.history.get(player_id, [])
                  if v.part == part and v.upload == upload), None)
    if found is None:
        raise InputError.at(f"{part} of upload #{upload}", f"not a version of player "
                            f"{player_id}'s {part}", code="BAD_OPTION")
    return found


@router.get("/players/{player_id}/versions/{part}/{upload}", response_class=HTMLResponse)
async def version_page(request: Request, player_id: str, part: str, upload: int) -> Response:
    """An earlier (or the current) version of a player's list or deck, as it was read."""
    version = _version(request, player_id, part, upload)
    state = state_of(request)
    submission = next(s for s in state.db.submissions() if s.id == upload)
    read = await run_in_threadpool(state.read_upload, submission)
    rows = (read.entries.filter(pl.col("deck_id") == player_id)
            .with_columns(pl.col("section").cast(pl.Utf8)).to_dicts())
    return page(request, "version.html", player_id=player_id, version=version, rows=rows,
                player_name=_name(request, player_id))


def _name(request: Request, player_id: str) -> str:
    result = state_of(request).snapshot().result
    if result is None:
        return player_id
    found = result.players.filter(pl.col("player_id") == player_id)
    return str(found["player_name"][0]) if found.height else player_id


@router.post("/players/{player_id}/restore", dependencies=[ORGANIZER])
async def restore(request: Request, player_id: str) -> Response:
    """Check an earlier version of the player's list or deck again (until a newer upload)."""
    data = await form(request)
    part = str(data.get("part", ""))
    upload = whole_number(str(data.get("upload", "")), 10**9)
    if part not in PARTS or upload is None:
        raise InputError.of("version", "choose a version to restore", code="BAD_OPTION")
    version = _version(request, player_id, part, upload)
    state = state_of(request)
    state.db.choose(player_id, version.part, version.upload)
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse(f"/players/{quote(player_id)}?restored={version.upload}#versions",
                            status_code=303)
