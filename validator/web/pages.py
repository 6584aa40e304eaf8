"""Rendering pages and reading forms, shared by the routers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from validator.engine.rules import CODES
from validator.errors import InputError
from validator.report.model import Report
from validator.text.lexicon import whole_number
from validator.vocab import LANGS, REGULATIONS, STATUS_LABELS, STATUSES
from validator.web.state import EventState, Snapshot, safe_name

__all__ = ["Forbidden", "files", "form", "judged", "latest", "optional_number", "page",
           "state_of", "templates"]

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.globals.update(LANGS=LANGS, REGULATIONS=REGULATIONS, CODES=CODES, quote=quote,
                             STATUSES=STATUSES, STATUS_LABELS=STATUS_LABELS)


class Forbidden(Exception):
    """A form without a valid CSRF token, or posted from another site."""


def state_of(request: Request) -> EventState:
    state: EventState = request.app.state.event
    return state


async def latest(request: Request) -> Snapshot:
    """The latest finished event check, without blocking other requests: waits only when
    there is none yet (just after the server started) and one is running."""
    state = state_of(request)
    snapshot = state.snapshot()
    if snapshot.result is None and snapshot.checking:
        await asyncio.wrap_future(state.refresh())
        snapshot = state.snapshot()
    return snapshot


async def judged(request: Request, snapshot: Snapshot) -> Report | None:
    """The judgement of the snapshot's check (None before the first one), made in the
    thread pool the first time it is asked for."""
    if snapshot.result is None:
        return None
    return await run_in_threadpool(state_of(request).report, snapshot.result)


def page(request: Request, name: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    state = state_of(request)
    public = name == "login.html"  # reveals nothing of the event
    return templates.TemplateResponse(
        request, name, {"csrf": request.state.csrf, "settings": None if public
                        else state.settings(), "has_settings": state.db.settings() is not None,
                        "auth": request.app.state.password is not None, **context},
        status_code=http_status)


async def form(request: Request) -> FormData:
    """The posted form, once its CSRF token is checked."""
    import hmac

    data = await request.form(max_files=2000, max_fields=5000)
    token = data.get("csrf")
    if not isinstance(token, str) or not hmac.compare_digest(token, request.state.csrf):
        raise Forbidden
    return data


async def files(data: FormData, field_name: str, allowed: tuple[str, ...]) -> list[
        tuple[str, bytes]]:
    """The uploaded files of a field, by their display names; a file of another type is
    refused."""
    out = []
    for item in data.getlist(field_name):
        if not isinstance(item, UploadFile) or not item.filename:
            continue
        name = safe_name(item.filename)
        if Path(name).suffix.lower() not in allowed:
            await data.close()
            raise InputError.at(name, f"not an accepted file type (expected "
                                      f"{', '.join(allowed)})", code="WRONG_FILE_TYPE")
        try:
            out.append((name, await item.read()))
        finally:
            await item.close()
    return out


def optional_number(text: str) -> int | None:
    """An optional whole-number field of a form (a round, a duel): the number, or None when
    it is empty or not a number 0-9999."""
    return whole_number(text, 9999)
