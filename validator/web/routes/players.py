"""A player's page: verdict, list beside deck, the head judge's decisions, history."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from validator.errors import InputError
from validator.judging.judge import read_as, side_by_side
from validator.report.model import Report
from validator.text.lexicon import MAX_QUANTITY, quantity_in_range, whole_number
from validator.vocab import SECTIONS
from validator.web.pages import form, judged, latest, page, state_of

router = APIRouter()


def player_row(players: pl.DataFrame, player_id: str) -> dict[str, Any]:
    """The player's row of an event's player table (``EventResult.players``)."""
    found = players.filter(pl.col("player_id") == player_id)
    if found.is_empty():
        raise InputError.at(player_id, "no such player", code="UNKNOWN_PLAYER")
    row: dict[str, Any] = found.with_columns(pl.col("status").cast(pl.Utf8)).row(0, named=True)
    return row


def open_items(report: Report, player_id: str,
               named: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The entries of the player's list the head judge must settle, with suggestions: the
    nearest cards of a name that names none, the card an unreadable row's name names
    (``named``: text → card)."""
    named = named or {}
    items: list[dict[str, Any]] = []
    unresolved = report.unresolved.filter(pl.col("deck_id") == player_id)
    for row in unresolved.iter_rows(named=True):
        items.append({"where": row["cell"] or str(row["line"] or ""), "typed": row["name"],
                      "qty": row["qty"], "section": str(row["section"]),
                      "suggestions": row["suggestions"] or [], "kind": "name"})
    for problem in report.problems:
        if problem.deck_id == player_id:
            card = named.get(problem.text or "")
            items.append({"where": problem.column or str(problem.line or ""),
                          "typed": problem.message, "text": problem.text or "",
                          "read_as": card or "", "qty": None,
                          "section": problem.section or "main",
                          "suggestions": [card] if card else [], "kind": "row"})
    return items


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player(request: Request, player_id: str) -> Response:
    state = state_of(request)
    snapshot = await latest(request)
    result, report = snapshot.result, await judged(request, snapshot)
    if result is None or report is None:
        return RedirectResponse("/", status_code=303)
    row = player_row(report.items, player_id)
    setup = state.setup()
    mine = report.violations.filter(pl.col("player_id") == player_id)
    deck = None if result.submitted is None else result.submitted.filter(
        pl.col("deck_id") == player_id)
    if deck is not None and deck.is_empty() and player_id in result.players_without_deck:
        deck = None
    rows = side_by_side(result.entries.filter(pl.col("deck_id") == player_id), deck,
                        mine.filter(pl.col("on") == "deck"), setup.cards, setup.fmt,
                        [p for p in report.problems if p.deck_id == player_id])
    return page(request, "player.html", player=row, violations=mine.to_dicts(),
                fuzzy=report.fuzzy.get(player_id, []), verdict=report.verdict(row["deck"]),
                header=report.header, diff=rows,
                items=open_items(report, player_id, read_as(
                    [p.text for p in report.problems if p.deck_id == player_id and p.text],
                    setup.cards, setup.fmt)),
                checking=snapshot.checking,
                history=state.db.log(player_id), decisions=state.db.decisions(player_id))


@router.post("/players/{player_id}/decide")
async def decide(request: Request, player_id: str) -> Response:
    """The head judge settles an entry: which card it is (and its quantity), who, why."""
    data = await form(request)
    state = state_of(request)
    values = {k: str(data.get(k, "")).strip() for k in
              ("where", "card", "typed_card", "qty", "section", "decided_by", "reason")}
    card = values["typed_card"] or values["card"]
    if not card or not values["decided_by"] or not values["reason"]:
        raise InputError.at("decision", "choose or type the card, and give who decided and why",
                            code="BAD_DECISION")
    qty = values["qty"]
    if qty and not quantity_in_range(whole_number(qty)):
        raise InputError.at("qty", f"a quantity is a number 1-{MAX_QUANTITY}",
                            code="BAD_QUANTITY")
    section = values["section"] if values["section"] in SECTIONS else None
    state.db.add_decision(player_id=player_id, place=values["where"], card=card,
                          qty=int(qty) if qty else None, section=section,
                          decided_by=values["decided_by"], reason=values["reason"])
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse(f"/players/{quote(player_id)}#decisions", status_code=303)


@router.get("/players/{player_id}/log", response_class=HTMLResponse)
async def player_log(request: Request, player_id: str) -> Response:
    state = state_of(request)
    return page(request, "player_log.html", player_id=player_id,
                entries=state.db.log(player_id), decisions=state.db.decisions(player_id))
