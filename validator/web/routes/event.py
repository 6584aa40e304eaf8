"""The organizer's event page: settings, uploads, results and the report downloads."""

from __future__ import annotations

import asyncio
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
from validator.errors import InputError
from validator.event.store import EventSettings
from validator.files.safety import check_archive
from validator.inputs.decks.sources import DECK_SUFFIXES
from validator.inputs.registrations.read import SUFFIXES
from validator.judging.penalties import policy_from_toml
from validator.report.json import report_bytes
from validator.report.model import Report
from validator.report.xlsx import event_xlsx
from validator.vocab import LANGS, REGULATIONS, STATUSES
from validator.web.pages import files, form, judged, latest, page, state_of
from validator.web.state import CUSTOM_POLICY

router = APIRouter()

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
REGISTRATION_TYPES = SUFFIXES
DECK_TYPES = (*DECK_SUFFIXES, ".zip")


@router.get("/", response_class=HTMLResponse)
async def index(request: Request, status: str = "", code: str = "", q: str = "",
                msg: str = "") -> HTMLResponse:
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
    return page(request, "index.html", report=report, players=players,
                errors=snapshot.errors, checking=snapshot.checking,
                status=status, code=code, q=q, msg=msg, uploads=state.db.upload_summary(),
                formats=format_names(), lists=store.stored_lists(state.data_dir),
                custom=state.db.meta("policy_name"))


@router.get("/status.json")
async def check_status(request: Request) -> Response:
    snapshot = state_of(request).snapshot()
    return Response(json.dumps({"checking": snapshot.checking,
                                "ready": snapshot.result is not None}),
                    media_type="application/json")


@router.post("/event")
async def save_event(request: Request) -> Response:
    data = await form(request)
    state = state_of(request)
    values = {k: str(data.get(k, "")).strip() for k in
              ("name", "date", "format", "regulation", "lang", "banlist")}
    regulations = (*REGULATIONS, *([CUSTOM_POLICY] if state.db.meta("policy") else []))
    if values["format"] not in format_names() or values["regulation"] not in regulations \
            or values["lang"] not in LANGS or not values["name"]:
        raise InputError.at("event", "name, format, regulation and language are required",
                            code="BAD_OPTION")
    if values["banlist"] and values["banlist"] not in {
            s.name for s in store.stored_lists(state.data_dir)}:
        raise InputError.at("banlist", "not a list of the data store", code="NO_LIST")
    lang = next(code for code in LANGS if code == values["lang"])
    state.db.save_settings(EventSettings(values["name"], values["date"], values["format"],
                                         values["regulation"], lang, values["banlist"]))
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse("/?msg=" + quote("Event saved."), status_code=303)


@router.post("/policy")
async def upload_policy(request: Request) -> Response:
    """An organizer's own penalty policy (TOML, the schema of the shipped ones)."""
    data = await form(request)
    uploaded = await files(data, "file", (".toml",))
    if not uploaded:
        raise InputError.at("policy", "choose a policy .toml file", code="BAD_OPTION")
    name, content = uploaded[0]
    try:
        parsed = tomllib.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError.at(name, f"not valid TOML: {exc}", code="BAD_TOML") from exc
    policy = policy_from_toml(parsed, name)
    state = state_of(request)
    state.db.set_meta("policy", content.decode("utf-8"))
    state.db.set_meta("policy_name", f"{policy.title} ({name})")
    return RedirectResponse("/?msg=" + quote(f"Policy {policy.title} received; choose "
                                             "'custom' as the event's regulation."),
                            status_code=303)


@router.post("/upload/registrations")
async def upload_registrations(request: Request) -> Response:
    data = await form(request)
    uploaded = await files(data, "files", REGISTRATION_TYPES)
    if not uploaded:
        raise InputError.at("upload", "choose one or more registration files (.xlsx, .csv, "
                                      ".pdf, or a .zip of them)", code="BAD_OPTION")
    for name, content in uploaded:
        if name.lower().endswith((".xlsx", ".zip")):
            check_archive(content, name)
    state = state_of(request)
    state.db.add_uploads("registrations", uploaded, replace=data.get("replace") == "on")
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse("/?msg=" + quote(f"{len(uploaded)} registration file(s) "
                                             "received."), status_code=303)


@router.post("/upload/decks")
async def upload_decks(request: Request) -> Response:
    data = await form(request)
    uploaded = await files(data, "files", DECK_TYPES)
    links = str(data.get("links", "")).strip()
    if not uploaded and not links:
        raise InputError.at("upload", "choose deck files or a zip, or paste ydke links or "
                                      "deck codes", code="BAD_OPTION")
    for name, content in uploaded:
        if name.lower().endswith(".zip"):
            check_archive(content, name)
    state = state_of(request)
    replace = data.get("replace") == "on"
    if replace:
        state.db.add_uploads("links", [], replace=True)
    state.db.add_uploads("decks", uploaded, replace=replace)
    if links:
        state.db.add_uploads("links", [("links.txt", links.encode())])
    await asyncio.wrap_future(state.refresh())
    return RedirectResponse("/?msg=" + quote(f"{len(uploaded)} deck file(s) received."),
                            status_code=303)


async def _ready(request: Request) -> Report:
    report = await judged(request, await latest(request))
    if report is None:
        raise InputError.at("report", "upload registrations first", code="NOT_READY")
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
