"""A player's page: verdict, list beside deck, the head judge's decisions, history."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from validator.errors import InputError
from validator.event.run import EventResult
from validator.judging.judge import side_by_side
from validator.report.json import fuzzy_by_deck, verdicts_by_deck
from validator.text.lexicon import MAX_QUANTITY, quantity_in_range, whole_number
from validator.vocab import SECTIONS
from validator.web.pages import form, latest, page, state_of

router = APIRouter()


def player_row(result: EventResult, player_id: str) -> dict[str, Any]:
    found = result.players.filter(pl.col("player_id") == player_id)
    if found.is_empty():
        raise InputError.at(player_id, "no such player", code="UNKNOWN_PLAYER")
    row: dict[str, Any] = found.with_columns(pl.col("status").cast(pl.Utf8)).row(0, named=True)
    return row


def open_items(result: EventResult, player_id: str) -> list[dict[str, Any]]:
    """The entries of the player's list the head judge must settle, with suggestions."""
    items: list[dict[str, Any]] = []
    unresolved = result.list_check.resolved.filter(
        (pl.col("deck_id") == player_id) & (pl.col("status") == "unresolved"))
    for row in unresolved.iter_rows(named=True):
        items.append({"where": row["cell"] or str(row["line"] or ""), "typed": row["name"],
                      "qty": row["qty"], "section": str(row["section"]),
                      "suggestions": row["suggestions"] or [], "kind": "name"})
    for problem in result.problems:
        if problem.deck_id == player_id:
            items.append({"where": problem.column or str(problem.line or ""),
                          "typed": problem.message, "qty": None,
                          "section": problem.section or "main", "suggestions": [],
                          "kind": "row"})
    return items


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player(request: Request, player_id: str) -> Response:
    state = state_of(request)
    snapshot = await latest(request)
    result = snapshot.result
    if result is None:
        return RedirectResponse("/", status_code=303)
    row = player_row(result, player_id)
    settings, policy, setup = state.settings(), state.policy(), state.setup()
    mine = result.violations.filter(pl.col("player_id") == player_id)
    verdict = verdicts_by_deck(mine, policy, "pre-event", settings.lang,
                               result.deck_check is not None).get(row["deck"])
    deck = None if result.submitted is None else result.submitted.filter(
        pl.col("deck_id") == player_id)
    if deck is not None and deck.is_empty() and player_id in result.players_without_deck:
        deck = None
    rows = side_by_side(result.entries.filter(pl.col("deck_id") == player_id), deck,
                        mine.filter(pl.col("on") == "deck"), setup.cards, setup.fmt,
                        [p for p in result.problems if p.deck_id == player_id])
    fuzzy = fuzzy_by_deck(result.list_check, result.deck_check, deck_id=player_id).get(
        player_id, [])
    return page(request, "player.html", player=row, violations=mine.to_dicts(), fuzzy=fuzzy,
                verdict=verdict, policy=policy, lang=settings.lang, diff=rows,
                items=open_items(result, player_id), checking=snapshot.checking,
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
