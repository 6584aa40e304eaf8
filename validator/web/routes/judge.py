"""A judge's deck check: find the player, count the deck against the registered list (or
paste it), get the violations, penalty, remedies and timing, and record it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from validator.engine.status import unreadable_rows
from validator.errors import ImplementationError, InputError, Problem, ProblemCollector
from validator.event import rounds
from validator.event.rounds import RecordDefaults, record_defaults
from validator.event.run import EventResult
from validator.judging.judge import (
    ListLine,
    card_names,
    counts_changed,
    decision,
    found_deck,
    judge_check,
    unknown_names,
)
from validator.report.model import Report, judged_check
from validator.report.penalty_log import repeats
from validator.text.i18n import problem_text, say, term
from validator.text.lexicon import MAX_QUANTITY, whole_number
from validator.vocab import SECTIONS, STAGES, Lang, Stage
from validator.web.pages import (
    MAX_JUDGE_NAME,
    form,
    latest,
    new_key,
    page,
    page_lang,
    player_rows,
    recorder,
    signed_in_as,
    state_of,
)
from validator.web.routes.log import already, confirm_page, one_time_key, similar
from validator.web.routes.players import player_row
from validator.web.routes.rounds import deck_check_fields
from validator.web.state import EventState

router = APIRouter()

#: rows for cards not on the list shown without JavaScript (the page's script adds more)
EXTRA_ROWS = 6
MAX_EXTRA_ROWS = 200
#: the name fields of those rows, in their order
_ADD_NAMES = tuple(f"add_name_{i}" for i in range(MAX_EXTRA_ROWS))
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
        raise InputError.of(what, "expected a number 0-{most}, got {typed}", code="BAD_OPTION",
                            most=most, typed=repr(text[:20]))
    return number


@dataclass(frozen=True)
class JudgeForm:
    """The judge's check form, validated: what was found (counts per registered card, cards
    not on the list, or a pasted deck) and when (duel, round, stage)."""

    counts: dict[tuple[str, int], int]
    extra: list[tuple[str, str, int]]
    pasted: str
    duel: int | None  # None: not given (compared as duel 1 is)
    round: int | None
    stage: Stage
    use: str  # "counts" or "pasted": which of the two the judge chose when both were given

    @property
    def uses_paste(self) -> bool:
        return bool(self.pasted.strip()) and self.use != "counts"


def _whole(data: FormData, key: str, problems: ProblemCollector, *,
           required: bool) -> int | None:
    """A whole number from 1; a field the form did not send at all is not given (as a
    command line without ``--duel``), an empty one is when ``required``."""
    text = str(data.get(key, "")).strip()
    if not text and (not required or key not in data):
        return None
    number = whole_number(text, 9999)
    if number is None or number < 1:
        problems.add(f"the {key} is a whole number from 1 (1, 2, 3), not {text[:20]!r}"
                     if text else f"enter the {key} (1, 2, 3)", column=key, code="BAD_OPTION")
        return None
    return number


def judge_inputs(data: FormData) -> JudgeForm:
    """Counts per registered card (``n:SECTION:CARD``), cards not on the list
    (``add_name_i``/``add_qty_i``/``add_section_i``; a row of no copies adds none), a pasted
    deck, the duel (a whole number from 1, as ``--duel`` takes), the round and the stage;
    every malformed field is a problem of the form, never a guess."""
    problems = ProblemCollector("judge")
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
    for i, key in enumerate(_ADD_NAMES):
        name = str(data[key]).strip() if key in data else ""
        if name:
            section = str(data.get(f"add_section_{i}", "main"))
            if section not in SECTIONS:
                raise InputError.of(f"add_section_{i}", "expected main, extra or side",
                                    code="BAD_SECTION")
            # the number typed, as the page's totals count it (no field: the form's 1)
            copies = _number(str(data.get(f"add_qty_{i}", "1")), f"add_qty_{i}")
            if copies:
                extra.append((section, name, copies))
    duel = _whole(data, "duel", problems, required=True)
    round_ = _whole(data, "round", problems, required=False)
    stage = _STAGES.get(str(data.get("stage", "in-duel")))
    if stage is None:
        problems.add("choose when the deck is checked: during a duel, between duels or "
                     "between matches", column="stage", code="BAD_OPTION")
    problems.raise_if_any()
    if stage is None:  # reported above
        raise ImplementationError("a form problem was not raised")
    use = str(data.get("use", ""))
    return JudgeForm(counts, extra, str(data.get("deck_text", "")), duel, round_, stage,
                     use if use in ("counts", "pasted") else "")


def _lines(state: EventState, result: EventResult, player_id: str) -> list[ListLine]:
    return state.rows(result).listed_lines(player_id, state.setup())


async def _run(request: Request, player_id: str, data: FormData) -> tuple[Report, dict[
        str, Any], JudgeForm]:
    """The judge's check, judged, in the thread pool beside any event check (it reads the
    latest finished one), the player's row of that event check, and the form as read."""
    result = (await latest(request)).result
    if result is None:
        raise InputError.at("judge", "upload registrations first", code="NOT_READY")
    row = player_row((await player_rows(request, result)).player_of(player_id), player_id)
    try:
        fields = judge_inputs(data)
        if not fields.uses_paste:
            _known_names(state_of(request), data)
        if fields.pasted.strip() and not fields.use and counts_changed(
                _lines(state_of(request), result, player_id), fields.counts, fields.extra):
            raise InputError.of("judge", "the counts were changed and a deck was pasted: "
                                "choose which of the two to check", column="use",
                                code="BAD_OPTION")
        checked = await run_in_threadpool(_check, request, result, player_id, fields)
    except InputError as exc:
        raise FormError(row, data, exc) from exc
    return checked, row, fields


class UnknownCards(InputError):
    """Card names the judge typed that read as no card: sent back to fix, with the nearest
    names (``suggestions``, by form field)."""

    def __init__(self, problems: list[Problem], suggestions: dict[str, list[str]]) -> None:
        super().__init__(problems)
        self.suggestions = suggestions


def _known_names(state: EventState, data: FormData) -> None:
    """Refuse the judge's form when a card name typed in "cards not on the list" reads
    as no card (the judge fixes the typo; it never becomes a head judge's decision)."""
    typed = {key: str(data[key]).strip() for key in _ADD_NAMES if key in data}
    typed = {k: v for k, v in typed.items() if v}
    if not typed:
        return
    setup = state.setup()
    unknown = unknown_names(list(typed.values()), setup.cards, setup.fmt)
    problems = [Problem.of(field, None, field, "no card is named {name}; did you mean {names}?",
                           code="UNKNOWN_CARD_NAME", name=repr(name[:60]),
                           names=", ".join(unknown[name][:3])) if unknown[name] else
                Problem.of(field, None, field, "no card is named {name}",
                           code="UNKNOWN_CARD_NAME", name=repr(name[:60]))
                for field, name in typed.items() if name in unknown]
    if problems:
        raise UnknownCards(problems, {p.file: unknown[typed[p.file]] for p in problems})


def _check(request: Request, result: EventResult, player_id: str, fields: JudgeForm) -> Report:
    state = state_of(request)
    setup, policy, settings = state.setup(), state.policy(), state.settings()
    pasted = fields.pasted if fields.uses_paste else ""
    deck = found_deck(player_id, fields.counts, fields.extra, pasted)
    rows = state.rows(result)
    registered = rows.entries.of(player_id)
    unreadable = unreadable_rows(rows.problems_of(player_id), True)
    table = state.card_table(setup)
    checked = judge_check(player_id, deck, registered, cards=setup.cards, fmt=setup.fmt,
                          banlist=setup.banlist, stage=fields.stage, duel=fields.duel,
                          unreadable=unreadable, attributes=table, counted=not pasted,
                          listed=rows.made_list(player_id, table))
    return judged_check(checked, policy, fields.stage, settings.lang)


class FormError(Exception):
    """A judge's form that cannot be checked as sent: shown again with what is wrong."""

    def __init__(self, player: dict[str, Any], data: FormData, error: InputError) -> None:
        super().__init__(str(error))
        self.player, self.data, self.error = player, data, error


def _deck(checked: Report) -> int:
    """The number of the one deck a judge's check holds."""
    return int(checked.items["deck"].item())


#: a search of up to this many digits is a table number of the current round first
TABLE_DIGITS = 4


@router.get("/judges/me", response_class=HTMLResponse)
async def judge_me(request: Request, saved: int = 0, back: str = "") -> Response:
    """The judge using this device: their name, entered once, changeable."""
    return page(request, "judge_me.html", saved=bool(saved), back=_own_path(back))


@router.post("/judges/me")
async def set_judge_me(request: Request) -> Response:
    data = await form(request)
    name = " ".join(str(data.get("name", "")).split())[:MAX_JUDGE_NAME]
    who = signed_in_as(request)
    if who is not None and who.staff is not None:
        raise InputError.at("judge", "your name and role come from your staff code; the "
                            "organizer issues a new code to change them", code="BAD_OPTION")
    if not name:
        raise InputError.of("judge", "enter your name", code="BAD_OPTION")
    head = bool(data.get("head")) and who is not None and who.role in ("head", "organizer")
    state_of(request).db.set_judge(request.state.session, name, head)
    back = _own_path(str(data.get("back", "")))
    return RedirectResponse(back or "/judges/me?saved=1", status_code=303)


def _own_path(path: str) -> str:
    """A path of this server to go back to (never another site's address)."""
    return path if path.startswith("/") and not path.startswith("//") and "\\" not in path \
        else ""


@router.get("/judge", response_class=HTMLResponse)
async def judge_search(request: Request, q: str = "", checked: str = "") -> Response:
    """Find a player by name, id, or table number (of the current round)."""
    result = (await latest(request)).result
    db = state_of(request).db
    current = rounds.current_round(db)
    found: list[dict[str, Any]] = []
    at_table: list[dict[str, Any]] = []
    needle = q.strip()
    if result is not None and needle:
        digits = needle.removeprefix("#").removeprefix("t").removeprefix("T").strip()
        table = whole_number(digits, 10**TABLE_DIGITS - 1) if len(digits) <= TABLE_DIGITS \
            else None
        if table is not None and current is not None:
            seated = rounds.players_at(db, table, current)
            at_table = result.players.filter(pl.col("player_id").is_in(seated)).to_dicts()
        lowered = needle.lower()
        found = result.players.filter(
            pl.col("player_id").str.to_lowercase().str.contains(lowered, literal=True)
            | pl.col("player_name").str.to_lowercase().str.contains(lowered, literal=True)
        ).head(50).to_dicts()
        seated_ids = {p["player_id"] for p in at_table}
        found = [p for p in found if p["player_id"] not in seated_ids]
    for player in (*at_table, *found):
        player["table"] = rounds.table_of(db, str(player["player_id"]), current)
    return page(request, "judge_search.html", q=q, found=found, at_table=at_table,
                ready=result is not None, current=current, checked=checked,
                table=needle if at_table else "")


@router.get("/judge/{player_id}", response_class=HTMLResponse)
async def judge_player(request: Request, player_id: str) -> Response:
    state = state_of(request)
    result = (await latest(request)).result
    if result is None:
        raise InputError.at("judge", "upload registrations first", code="NOT_READY")
    row = player_row((await player_rows(request, result)).player_of(player_id), player_id)
    return _judge_page(request, state, result, row,
                       defaults=record_defaults(state.db, player_id))


def _judge_page(request: Request, state: EventState, result: EventResult,
                player: dict[str, Any], sent: FormData | None = None,
                error: InputError | None = None,
                defaults: RecordDefaults | None = None) -> Response:
    """The count form; after a form that could not be checked, with what was sent and
    what is wrong with it."""
    player_id = str(player["player_id"])
    lines = _lines(state, result, player_id)
    values = {k: v for k, v in sent.multi_items() if isinstance(v, str)} if sent else {}
    if defaults is not None:
        values.update({k: str(v) for k, v in (("round", defaults.round),
                                              ("table", defaults.table)) if v is not None})
    extra = max(EXTRA_ROWS, sum(1 for k in values if k.startswith("add_name_")))
    current = rounds.current_round(state.db)
    return page(request, "judge.html", http_status=400 if error else 200, player=player,
                current=current, table=rounds.table_of(state.db, player_id, current),
                started_at=values.get("started_at") or rounds.now(),
                lines=lines, extra_rows=min(extra, MAX_EXTRA_ROWS),
                unreadable=[line for line in lines if line.key is None],
                history=state.db.log(player_id), sections=SECTIONS, values=values,
                errors=[_form_error(p, page_lang(request)) for p in error.problems]
                if error else [],
                invalid={p.column for p in error.problems} if error else set(),
                ask_use=bool(error and "use" in [p.column for p in error.problems]),
                form_key=values.get("form_key") or new_key(),
                suggestions=error.suggestions if isinstance(error, UnknownCards) else {})


#: the judge's form fields, as the form labels them
_LABELS = {"duel": "Duel", "round": "Round", "stage": "When", "use": "Counts or pasted deck"}


def _form_error(problem: Problem, lang: Lang) -> dict[str, str]:
    """A problem of the judge's form, by the field it is in, in the form's words and the
    page's language."""
    field = problem.column or ""
    if field in ("duel", "round", "stage"):
        label = term(lang, "web", _LABELS[field])
    elif field in _LABELS:
        label = say(lang, _LABELS[field])
    elif field.startswith("add_name_") and field[9:].isdigit():
        label = say(lang, "Card not on the list, row {row}", row=int(field[9:]) + 1)
    elif problem.file == "judge" and problem.line is not None:
        label, field = say(lang, "Pasted deck, line {line}", line=problem.line), "deck_text"
    else:
        label = field or problem.place
    return {"field": field, "label": label, "message": problem_text(problem, lang),
            "code": problem.code}


async def judge_form_error(request: Request, exc: FormError) -> Response:
    """A judge's form that could not be checked: the form again, filled as sent."""
    result = (await latest(request)).result
    if result is None:
        raise exc.error
    return _judge_page(request, state_of(request), result, exc.player, exc.data, exc.error)


@router.post("/judge/{player_id}/check", response_class=HTMLResponse)
async def judge_run(request: Request, player_id: str) -> Response:
    data = await form(request)
    try:
        checked, row, fields = await _run(request, player_id, data)
    except FormError as exc:
        return await judge_form_error(request, exc)
    deck = _deck(checked)
    state = state_of(request)
    history = state.db.log(player_id)
    earlier = {code for entry in history for code in entry.codes}
    hidden = [(k, v) for k, v in data.multi_items()
              if isinstance(v, str) and k not in ("csrf", "extension", "form_key", "confirm")]
    started = str(data.get("started_at", ""))
    return page(request, "judge_result.html",
                extension=rounds.extension_minutes(started, rounds.now()) if started else 0,
                table=str(data.get("table", "")), player=row, header=checked.header,
                status=checked.status(deck), verdict=checked.verdict(deck),
                violations=checked.violations.to_dicts(), history=history,
                repeats=[c for c in checked.codes(deck) if c in earlier], hidden=hidden,
                penalties=state.policy().by_severity(), judge=str(data.get("judge", "")),
                round=str(data.get("round", "")), duel=fields.duel,
                checked_paste=fields.uses_paste, repeated=repeats(history),
                form_key=str(data.get("form_key", "")) or new_key())


@router.post("/judge/{player_id}/record")
async def judge_record(request: Request, player_id: str) -> Response:
    """Record a judge's check in the penalty log, once per form (see ``routes.log``)."""
    data = await form(request)
    state = state_of(request)
    key, sent = one_time_key(request, data)
    if sent is not None:
        return sent
    try:
        checked, row, fields = await _run(request, player_id, data)
    except FormError as exc:
        return await judge_form_error(request, exc)
    deck = _deck(checked)
    if checked.status(deck) == "legal":
        raise InputError.of("judge", "the deck matches the list: nothing to record",
                            code="BAD_OPTION")
    judge = recorder(request, data)
    verdict, policy, header = checked.verdict(deck), state.policy(), checked.header
    prescribed = verdict.penalty if verdict is not None else None
    chosen = str(data.get("penalty") or prescribed or "")
    if chosen not in policy.penalties:
        raise InputError.of("penalty", "choose a penalty of the event's regulation (the "
                                       "regulation prescribes none here)", code="BAD_OPTION")
    made_as = decision(prescribed, chosen, policy)
    reason = str(data.get("reason", "")).strip()
    if made_as != "confirmed" and not reason:
        raise InputError.of("reason", "a downgrade, an upgrade or a penalty the regulation "
                                      "does not prescribe needs a reason", code="BAD_OPTION")
    db = state.db
    check = deck_check_fields(data)
    round_ = fields.round if fields.round is not None else rounds.current_round(db)
    table = check["table"] if check["table"] is not None else rounds.table_of(
        db, player_id, round_)
    codes = checked.codes(deck)
    same_round = db.log(player_id, round=round_, in_round=True)
    if not data.get("confirm") and (earlier := similar(same_round, player_id, round_, codes)):
        return confirm_page(request, f"/judge/{quote(player_id)}/record", data, earlier)
    entry, new = await run_in_threadpool(  # the commit waits for the disk
        db.record_once,
        player_id=player_id, player_name=row["player_name"], judge=judge.name,
        round=round_, duel=fields.duel, kind="deck", codes=codes,
        default_penalty=prescribed or "", penalty=chosen, decision=made_as, reason=reason,
        table=table, form_key=key, head_judge=judge.head,
        details={"applies_to": policy.applies_to(chosen, header.stage, header.lang),
                 "remedies": verdict.remedies if verdict is not None else [],
                 "siding": header.siding, "stage": header.stage,
                 "basis": [b for b in verdict.basis if b] if verdict is not None else [],
                 "violations": checked.violations["message"].to_list()})
    if not new:
        return already(entry)
    if check["started_at"]:  # a deck check at the table (not a pasted list compared)
        rounds.record_deck_check(db, player_id=player_id, judge=judge.name,
                                 started_at=check["started_at"], result=chosen,
                                 extension=check["extension"], round=round_, table=table,
                                 log_entry=entry)
    return RedirectResponse(f"/players/{quote(player_id)}#history", status_code=303)


@router.get("/judge-cards.json")
async def card_name_options(request: Request, q: str = "") -> Response:
    """Card names of the event's card pool (English and the event's language) for a
    judge's autocomplete: ``{"names": [...]}``, at most 20."""
    state = state_of(request)
    langs = tuple(dict.fromkeys(("en", state.settings().lang)))
    names = await run_in_threadpool(card_names, state.setup().cards, q[:60], langs)
    return Response(json.dumps({"names": names}, ensure_ascii=False),
                    media_type="application/json")
