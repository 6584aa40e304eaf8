"""The organizer's event page: settings, uploads, results and the report downloads.

Every upload is kept as a submission (its file, time and content hash): an upload of a
file already in effect is recognised and not counted twice, "replace all" is asked for and
then confirmed, one upload can be removed (and put back), and an upload refused or from
which nothing could be read is shown at the top of the page with the reason. Every form
that changes the event answers with a redirect: a reload never uploads anything again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import tomllib
from typing import Any
from urllib.parse import quote

import polars as pl
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from validator.cards import store
from validator.cards.formats import format_names
from validator.errors import MORE, InputError
from validator.event.store import EventSettings, valid_timezone
from validator.event.versions import Part, Submission, Versions, in_effect, set_aside_by
from validator.files.safety import check_archive
from validator.inputs.decks.sources import DECK_SUFFIXES
from validator.inputs.registrations.read import SUFFIXES
from validator.judging.penalties import policy_from_toml
from validator.report.json import report_bytes
from validator.report.model import Report, list_line_in
from validator.report.xlsx import event_xlsx
from validator.text.i18n import say, say_n
from validator.vocab import LANGS, REGULATIONS, STATUSES, Lang
from validator.web.pages import (
    ORGANIZER,
    files,
    form,
    judged,
    latest,
    page,
    page_lang,
    state_of,
    words_of,
)
from validator.web.state import CUSTOM_POLICY, safe_name

router = APIRouter()

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
REGISTRATION_TYPES = SUFFIXES
DECK_TYPES = (*DECK_SUFFIXES, ".zip")


PART_WORDS = {"list": ("list", "lists"), "deck": ("deck", "decks")}
#: an upload's problems shown one by one on the event page (its overflow counts follow)
SHOWN_PER_UPLOAD = 10


def upload_rows(submissions: list[Submission], versions: Versions,
                lang: Lang = "en") -> list[dict[str, Any]]:
    """Every upload, newest first, with what became of it, in words of the language."""
    aside = set_aside_by(submissions)
    rows = []
    for sub in reversed(submissions):
        lists = sub.part == "list"
        outcome = versions.outcomes.get(sub.id)
        problems: list[Any] = []
        if sub.state == "refused":
            status, problems = say(lang, "refused"), sub.reason
        elif sub.state == "pending":
            status = say(lang, "waiting for you to confirm “replace all”")
        elif sub.state == "removed":
            status = say(lang, "removed (undone)")
        elif sub.id in aside:
            status = say(lang, "set aside by upload #{batch} (replace all)", batch=aside[sub.id])
        elif outcome is None:
            status = say(lang, "received") if lists else say(
                lang, "received (checked once lists are uploaded)")
        elif outcome.failed:
            status = say(lang, "failed: no list could be read" if lists
                         else "failed: no deck could be read")
            problems = outcome.problems
        else:
            status = say_n(lang, "{n} list read; checked for {players} player(s)" if lists
                           else "{n} deck read; checked for {players} player(s)",
                           outcome.read, players=outcome.current)
            if outcome.current < outcome.read:
                status += say(lang, ", {n} replaced by a newer upload or an earlier version "
                              "restored", n=outcome.read - outcome.current)
        shown = problems[:SHOWN_PER_UPLOAD] + [
            p for p in problems[SHOWN_PER_UPLOAD:] if p.code == MORE]
        rows.append({"sub": sub, "status": status, "problems": shown,
                     "hidden": len(problems) - len(shown),
                     "failed": sub.state == "refused" or (outcome is not None and outcome.failed
                                                          and sub.state == "active"),
                     "kind": say(lang, {"registrations": "lists", "decks": "decks",
                                        "links": "pasted links"}[sub.kind])})
    return rows


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, status: str = "", code: str = "", q: str = "",
                msg: str = "", warn: str = "", upload: int = 0) -> HTMLResponse:
    state = state_of(request)
    snapshot = state.snapshot()
    report = await judged(request, snapshot)
    players: list[dict[str, Any]] = []
    if report is not None:
        frame = report.items
        if status in STATUSES:
            frame = frame.filter(pl.col("status") == status)
        if code:
            with_code = report.violations.filter(pl.col("code") == code)["player_id"]
            frame = frame.filter(pl.col("player_id").is_in(with_code.implode()))
        if q:
            needle = q.lower()
            frame = frame.filter(
                pl.col("player_id").str.to_lowercase().str.contains(needle, literal=True)
                | pl.col("player_name").str.to_lowercase().str.contains(needle, literal=True))
        players = frame.with_columns(pl.col("status").cast(pl.Utf8)).to_dicts()
    rows = upload_rows(state.db.submissions(), snapshot.versions, page_lang(request))
    try:
        chosen = state.setup().banlist
        in_force = list_line_in(chosen.name, chosen.effective, chosen.reason,
                                page_lang(request))
    except InputError as exc:
        in_force = "; ".join(p.message for p in exc.problems)
    return page(request, "index.html", report=report, players=players, in_force=in_force,
                errors=snapshot.errors, checking=snapshot.checking, finished=snapshot.finished,
                status=status, code=code, q=q, msg=msg, warn=warn, uploads=rows,
                received=[r for r in rows if upload and r["sub"].batch == upload],
                formats=format_names(), lists=store.stored_lists(state.data_dir),
                custom=state.db.meta("policy_name"))


@router.get("/status.json")
async def check_status(request: Request) -> Response:
    snapshot = state_of(request).snapshot()
    return Response(json.dumps({"checking": snapshot.checking,
                                "ready": snapshot.result is not None,
                                "finished": snapshot.finished}),
                    media_type="application/json", headers={"Cache-Control": "no-store"})


@router.post("/event", dependencies=[ORGANIZER])
async def save_event(request: Request) -> Response:
    data = await form(request)
    state = state_of(request)
    values = {k: str(data.get(k, "")).strip() for k in
              ("name", "date", "format", "regulation", "lang", "banlist", "timezone")}
    regulations = (*REGULATIONS, *([CUSTOM_POLICY] if state.db.meta("policy") else []))
    if values["format"] not in format_names() or values["regulation"] not in regulations \
            or values["lang"] not in LANGS or not values["name"]:
        raise InputError.of("event", "name, format, regulation and language are required",
                            code="BAD_OPTION")
    if values["banlist"] and values["banlist"] not in {
            s.name for s in store.stored_lists(state.data_dir)}:
        raise InputError.of("banlist", "not a list of the data store", code="NO_LIST")
    zone = values["timezone"] or "UTC"
    if not valid_timezone(zone):
        raise InputError.of("timezone", "{typed} is not a time zone (expected a name such as "
                            "Asia/Bangkok, Europe/Paris or UTC)", code="BAD_OPTION",
                            typed=repr(zone[:64]))
    lang = next(code for code in LANGS if code == values["lang"])
    state.db.save_settings(EventSettings(values["name"], values["date"], values["format"],
                                         values["regulation"], lang, values["banlist"], zone))
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse("/?msg=" + quote(words_of(request, "Event saved.")), status_code=303)


@router.post("/policy", dependencies=[ORGANIZER])
async def upload_policy(request: Request) -> Response:
    """An organizer's own penalty policy (TOML, the schema of the shipped ones)."""
    data = await form(request)
    uploaded = await files(data, "file", (".toml",))
    if not uploaded:
        raise InputError.of("policy", "choose a policy .toml file", code="BAD_OPTION")
    name, content = uploaded[0]
    try:
        parsed = tomllib.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError.at(name, f"not valid TOML: {exc}", code="BAD_TOML") from exc
    policy = policy_from_toml(parsed, name)
    state = state_of(request)
    state.db.set_meta("policy", content.decode("utf-8"))
    state.db.set_meta("policy_name", f"{policy.title} ({name})")
    return RedirectResponse("/?msg=" + quote(words_of(
        request, "Policy {title} received; choose 'custom' as the event's regulation.",
        title=policy.title)),
                            status_code=303)


def _see(batch: int) -> RedirectResponse:
    return RedirectResponse(f"/?upload={batch}#received", status_code=303)


async def _receive(request: Request, kind: str, allowed: tuple[str, ...],
                   nothing: str) -> Response:
    """Keep one form's files (and pasted links) as one batch of uploads, or its refusal."""
    data = await form(request)
    state = state_of(request)
    names = [safe for item in data.getlist("files")
             if (safe := getattr(item, "filename", None))]
    try:
        uploaded = await files(data, "files", allowed)
        links = str(data.get("links", "")).strip() if kind == "decks" else ""
        if not uploaded and not links:
            return RedirectResponse("/?warn=" + quote(words_of(request, nothing)),
                                    status_code=303)
        for name, content in uploaded:
            if name.lower().endswith((".xlsx", ".zip")):
                check_archive(content, name)
    except InputError as exc:  # refused: only the reason is kept
        label = ", ".join(safe_name(n) for n in names)[:200] or exc.file
        return _see(state.db.add_batch([(kind, label, b"")], state="refused",
                                       reason=exc.problems))
    items = [(kind, name, content) for name, content in uploaded]
    if links:
        items.append(("links", "pasted links", links.encode()))
    replace = data.get("replace") == "on"
    part: Part = "list" if kind == "registrations" else "deck"
    earlier = [s for s in in_effect(state.db.submissions()) if s.part == part]
    again: list[str] = []
    if not replace:  # a file already in effect is not counted twice
        held = {s.sha256: f"upload #{s.id}, " + s.received_at.replace("T", " ")
                .removesuffix("+00:00") + " UTC" for s in earlier}
        fresh = []
        for item in items:
            digest = hashlib.sha256(item[2]).hexdigest()
            if digest in held:
                again.append(f"{item[1]} ({held[digest]})")
            else:
                fresh.append(item)
                held[digest] = f"also {item[1]} in this upload"
        if again and not fresh:
            return RedirectResponse("/?warn=" + quote(words_of(
                request, "Already received, not counted twice: {files}. Nothing changed.",
                files="; ".join(again))), status_code=303)
        items = fresh
    skipped = "" if not again else "&warn=" + quote(words_of(
        request, "Already received, not counted twice: {files}.", files="; ".join(again)))
    if replace and earlier:  # asked for, then confirmed
        batch = state.db.add_batch(items, replace=True, state="pending")
        return RedirectResponse(f"/uploads/{batch}", status_code=303)
    batch = state.db.add_batch(items, replace=replace)
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse(f"/?upload={batch}{skipped}#received", status_code=303)


@router.post("/upload/registrations", dependencies=[ORGANIZER])
async def upload_registrations(request: Request) -> Response:
    return await _receive(request, "registrations", REGISTRATION_TYPES,
                          "Choose one or more registration files (.xlsx, .csv, .pdf, or a .zip "
                          "of them); nothing was uploaded.")


@router.post("/upload/decks", dependencies=[ORGANIZER])
async def upload_decks(request: Request) -> Response:
    return await _receive(request, "decks", DECK_TYPES,
                          "Choose deck files or a zip, or paste ydke links or deck codes; "
                          "nothing was uploaded.")


def _batch(request: Request, batch: int) -> list[Submission]:
    found = [s for s in state_of(request).db.submissions() if s.batch == batch]
    if not found:
        raise InputError.of(f"upload #{batch}", "no such upload", code="BAD_OPTION")
    return found


@router.get("/uploads/{batch}", response_class=HTMLResponse)
async def confirm_page(request: Request, batch: int) -> Response:
    """Asks before a "replace all" upload sets aside every earlier upload of its part."""
    uploads = _batch(request, batch)
    if uploads[0].state != "pending":
        return _see(batch)
    part = uploads[0].part
    state = state_of(request)
    earlier = [s for s in in_effect(state.db.submissions()) if s.part == part]
    versions = state.snapshot().versions
    players = {p for p, held in versions.history.items()
               if any(v.current and v.part == part for v in held)}
    return page(request, "confirm.html", uploads=uploads, earlier=earlier, batch=batch,
                words=PART_WORDS[part], players=len(players))


@router.post("/uploads/{batch}/confirm", dependencies=[ORGANIZER])
async def confirm(request: Request, batch: int) -> Response:
    data = await form(request)
    _batch(request, batch)
    choice = str(data.get("choice", ""))
    state = state_of(request)
    if choice not in ("replace", "add", "cancel"):
        raise InputError.of("choice", "choose replace all, add, or cancel", code="BAD_OPTION")
    if choice == "cancel":
        state.db.set_upload_state(batch, "removed", only="pending")
        return RedirectResponse("/?msg=" + quote(words_of(
            request, "Upload #{batch} cancelled; nothing changed.", batch=batch)),
                                status_code=303)
    state.db.set_upload_state(batch, "active", only="pending", replace_all=choice == "replace")
    await asyncio.wrap_future(state.refresh())
    return _see(batch)


@router.post("/uploads/{batch}/remove", dependencies=[ORGANIZER])
async def remove_upload(request: Request, batch: int) -> Response:
    """Undo one upload: the event is checked again without it."""
    await form(request)
    _batch(request, batch)
    state = state_of(request)
    changed = state.db.set_upload_state(batch, "removed", only="active")
    await asyncio.wrap_future(state.refresh())
    text = words_of(request, "Upload #{batch} removed; the event was checked again without "
                    "it (put it back from the list of uploads)." if changed else
                    "Upload #{batch} was not in effect; nothing changed.", batch=batch)
    return RedirectResponse("/?msg=" + quote(text) + "#uploads", status_code=303)


@router.post("/uploads/{batch}/restore", dependencies=[ORGANIZER])
async def put_back(request: Request, batch: int) -> Response:
    await form(request)
    _batch(request, batch)
    state = state_of(request)
    state.db.set_upload_state(batch, "active", only="removed")
    await asyncio.wrap_future(state.refresh())
    return _see(batch)


async def _ready(request: Request) -> Report:
    report = await judged(request, await latest(request))
    if report is None:
        raise InputError.of("report", "upload registrations first", code="NOT_READY")
    return report


@router.get("/report.xlsx")
async def report_xlsx(request: Request) -> Response:
    content = await run_in_threadpool(event_xlsx, await _ready(request))
    return Response(content, media_type=XLSX,
                    headers={"Content-Disposition": 'attachment; filename="report.xlsx"'})


@router.get("/report.json")
async def report_json(request: Request) -> Response:
    payload = report_bytes(await _ready(request))
    return Response(payload,
                    media_type="application/json",
                    headers={"Content-Disposition": 'attachment; filename="report.json"'})
