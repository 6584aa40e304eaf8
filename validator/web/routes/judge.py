"""A judge's deck check: find the player, count the deck against the registered list (or
paste it), get the violations, penalty, remedies and timing, and record it."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from validator.engine.status import unreadable_rows
from validator.errors import InputError
from validator.event.run import EventResult
from validator.judging.judge import decision, found_deck, judge_check, registered_lines
from validator.report.model import Report, judged_check
from validator.report.penalty_log import repeats
from validator.text.lexicon import MAX_QUANTITY, whole_number
from validator.vocab import SECTIONS, STAGES, Stage
from validator.web.pages import form, latest, optional_number, page, state_of
from validator.web.routes.players import player_row

router = APIRouter()

#: rows for cards not on the list shown without JavaScript (the page's script adds more)
EXTRA_ROWS = 6
MAX_EXTRA_ROWS = 200
#: a judge checks a deck during the event: every stage but before it
_STAGES: dict[str, Stage] = {stage: stage for stage in STAGES if stage != "pre-event"}


#: the card of a count field: a card id (a passcode, or a negative id for a card without one)
_CARD_KEY = re.compile(r"-?[0-9]{1,12}")


def _number(text: str, what: str, most: int = MAX_QUANTITY) -> int:
    text = text.strip()
    if not text:
        return 0
    number = whole_number(text, most)
    if number is None:
        raise InputError.at(what, f"expected a number 0-{most}, got {text[:20]!r}",
                            code="BAD_OPTION")
    return number


def judge_inputs(data: FormData) -> tuple[dict[tuple[str, int], int],
                                          list[tuple[str, str, int]], str]:
    """Counts per registered card (``n:SECTION:CARD``), cards not on the list
    (``add_name_i``/``add_qty_i``/``add_section_i``; a row of no copies adds none) and a
    pasted deck; a malformed field is a clear error, never a crash."""
    counts: dict[tuple[str, int], int] = {}
    extra: list[tuple[str, str, int]] = []
    for key, value in data.multi_items():
        if not key.startswith("n:") or not isinstance(value, str):
            continue
        parts = key.split(":")
        if len(parts) != 3 or parts[1] not in SECTIONS or not _CARD_KEY.fullmatch(parts[2]):
            raise InputError.at(key[:40], "not a count field of this form (reload the page)",
                                code="BAD_OPTION")
        counts[parts[1], int(parts[2])] = _number(value, key[:40])
    for i in range(MAX_EXTRA_ROWS):
        name = str(data.get(f"add_name_{i}", "")).strip()
        if name:
            section = str(data.get(f"add_section_{i}", "main"))
            if section not in SECTIONS:
                raise InputError.at(f"add_section_{i}", "expected main, extra or side",
                                    code="BAD_SECTION")
            # the number typed, as the page's totals count it (no field: the form's 1)
            copies = _number(str(data.get(f"add_qty_{i}", "1")), f"add_qty_{i}")
            if copies:
                extra.append((section, name, copies))
    return counts, extra, str(data.get("deck_text", ""))


async def _run(request: Request, player_id: str, data: FormData) -> tuple[Report, dict[
        str, Any]]:
    """The judge's check, judged, in the thread pool beside any event check (it reads the
    latest finished one), and the player's row of that event check."""
    result = (await latest(request)).result
    if result is None:
        raise InputError.at("judge", "upload registrations first", code="NOT_READY")
    row = player_row(result.players, player_id)
    return await run_in_threadpool(_check, request, result, player_id, data), row


def _check(request: Request, result: EventResult, player_id: str, data: FormData) -> Report:
    state = state_of(request)
    setup, policy, settings = state.setup(), state.policy(), state.settings()
    counts, extra, pasted = judge_inputs(data)
    stage = _STAGES.get(str(data.get("stage", "")), "in-duel")
    deck = found_deck(player_id, counts, extra, pasted)
    registered = result.entries.filter(pl.col("deck_id") == player_id)
    unreadable = unreadable_rows([p for p in result.problems if p.deck_id == player_id], True)
    checked = judge_check(player_id, deck, registered, cards=setup.cards, fmt=setup.fmt,
                          banlist=setup.banlist, stage=stage,
                          duel=optional_number(str(data.get("duel", ""))),
                          unreadable=unreadable, attributes=state.card_table(setup))
    return judged_check(checked, policy, stage, settings.lang)


def _deck(checked: Report) -> int:
    """The number of the one deck a judge's check holds."""
    return int(checked.items["deck"].item())


@router.get("/judge", response_class=HTMLResponse)
async def judge_search(request: Request, q: str = "") -> Response:
    result = (await latest(request)).result
    found: list[dict[str, Any]] = []
    if result is not None and q.strip():
        needle = q.strip().lower()
        found = result.players.filter(
            pl.col("player_id").str.to_lowercase().str.contains(needle, literal=True)
            | pl.col("player_name").str.to_lowercase().str.contains(needle, literal=True)
        ).head(50).to_dicts()
    return page(request, "judge_search.html", q=q, found=found, ready=result is not None)


@router.get("/judge/{player_id}", response_class=HTMLResponse)
async def judge_player(request: Request, player_id: str) -> Response:
    state = state_of(request)
    result = (await latest(request)).result
    if result is None:
        raise InputError.at("judge", "upload registrations first", code="NOT_READY")
    row = player_row(result.players, player_id)
    setup = state.setup()
    lines = registered_lines(result.entries.filter(pl.col("deck_id") == player_id),
                             setup.cards, setup.fmt,
                             [p for p in result.problems if p.deck_id == player_id])
    return page(request, "judge.html", player=row, lines=lines, extra_rows=EXTRA_ROWS,
                unreadable=[line for line in lines if line.key is None],
                history=state.db.log(player_id), sections=SECTIONS)


@router.post("/judge/{player_id}/check", response_class=HTMLResponse)
async def judge_run(request: Request, player_id: str) -> Response:
    data = await form(request)
    checked, row = await _run(request, player_id, data)
    deck = _deck(checked)
    state = state_of(request)
    history = state.db.log(player_id)
    earlier = {code for entry in history for code in entry.codes}
    hidden = [(k, v) for k, v in data.multi_items() if isinstance(v, str) and k != "csrf"]
    return page(request, "judge_result.html", player=row, header=checked.header,
                status=checked.status(deck), verdict=checked.verdict(deck),
                violations=checked.violations.to_dicts(), history=history,
                repeats=[c for c in checked.codes(deck) if c in earlier], hidden=hidden,
                penalties=state.policy().by_severity(), judge=str(data.get("judge", "")),
                round=str(data.get("round", "")), duel=str(data.get("duel", "")),
                repeated=repeats(history))


@router.post("/judge/{player_id}/record")
async def judge_record(request: Request, player_id: str) -> Response:
    data = await form(request)
    checked, row = await _run(request, player_id, data)
    deck = _deck(checked)
    if checked.status(deck) == "legal":
        raise InputError.at("judge", "the deck matches the list: nothing to record",
                            code="BAD_OPTION")
    judge = str(data.get("judge", "")).strip()
    if not judge:
        raise InputError.at("judge", "enter the judge's name", code="BAD_OPTION")
    verdict, policy, header = checked.verdict(deck), state_of(request).policy(), checked.header
    prescribed = verdict.penalty if verdict is not None else None
    chosen = str(data.get("penalty") or prescribed or "")
    if chosen not in policy.penalties:
        raise InputError.at("penalty", "choose a penalty of the event's regulation (the "
                                       "regulation prescribes none here)", code="BAD_OPTION")
    made = decision(prescribed, chosen, policy)
    reason = str(data.get("reason", "")).strip()
    if made != "confirmed" and not reason:
        raise InputError.at("reason", "a downgrade, an upgrade or a penalty the regulation "
                                      "does not prescribe needs a reason", code="BAD_OPTION")
    state_of(request).db.record(
        player_id=player_id, player_name=row["player_name"], judge=judge,
        round=optional_number(str(data.get("round", ""))),
        duel=optional_number(str(data.get("duel", ""))),
        kind="deck", codes=checked.codes(deck), default_penalty=prescribed or "",
        penalty=chosen, decision=made, reason=reason,
        details={"applies_to": policy.applies_to(chosen, header.stage, header.lang),
                 "remedies": verdict.remedies if verdict is not None else [],
                 "siding": header.siding,
                 "violations": checked.violations["message"].to_list()})
    return RedirectResponse(f"/players/{quote(player_id)}#history", status_code=303)
