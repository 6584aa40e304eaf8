"""``deckcheck serve``: the organizer's and judges' web app over the library.

The factory wires the pieces: the event's state (``state.py``), the routers (``routes/``),
the security layers (``security.py``) and the error pages. Server-rendered pages (FastAPI +
Jinja2 with autoescaping), one event per SQLite file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from validator.cards import store
from validator.errors import SHOWN, InputError
from validator.event.store import EventDB
from validator.files.safety import MAX_UPLOAD
from validator.report.text import problem_line
from validator.web.pages import HERE, Forbidden, page
from validator.web.routes import ROUTERS
from validator.web.security import LOOPBACK, BodyLimit, HostGuard, Sessions, Throttle, same_origin
from validator.web.state import EventState

__all__ = ["create_app"]

SESSION = "dc_session"
#: paths open without signing in
OPEN = ("/login", "/static/")


def create_app(db_path: Path, *, password: str | None = None, cards_spec: str | None = None,
               data_dir: Path | None = None, max_upload: int = MAX_UPLOAD,
               hosts: frozenset[str] = frozenset(LOOPBACK),
               checks: Literal["process", "thread"] = "thread") -> Any:
    """The ASGI app for one event's database file. ``hosts`` are the host names it answers
    to (see :func:`validator.web.security.allowed_hosts`); ``checks`` says where event
    checks run (see :mod:`validator.web.state`)."""
    db = EventDB(db_path)
    event = EventState(db, store.load_cards(cards_spec, data_dir), data_dir, checks)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        event.close()  # the checking process ends with the server

    app = FastAPI(title="deckcheck", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.event = event
    app.state.password = password
    app.state.sessions = Sessions(db.secret(), db, password)
    app.state.throttle = Throttle()
    app.state.hosts = hosts
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for router in ROUTERS:
        app.include_router(router)

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Response:
        sessions: Sessions = app.state.sessions
        sid = sessions.verify(request.cookies.get(SESSION))
        cookie = None
        if sid is None:  # an id the server never issued is replaced
            sid, cookie = sessions.issue()
        request.state.session = sid
        request.state.csrf = sessions.csrf(sid)
        path = request.url.path
        if request.method == "POST" and not same_origin(
                request.headers.get("origin"), request.headers.get("referer"), hosts):
            response: Response = page(request, "message.html", http_status=403,
                                      title="Form refused",
                                      message="This form was sent from another site.")
        elif not path.startswith(OPEN) and not sessions.signed_in(sid):
            response = RedirectResponse("/login", status_code=303)
        else:
            response = await call_next(request)
        own = any(h.startswith(f"{SESSION}=") for h in response.headers.getlist("set-cookie"))
        if cookie is not None and not own:
            response.set_cookie(SESSION, cookie, httponly=True, samesite="strict")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; img-src 'self' data:; style-src 'self'; "
            "script-src 'self'; form-action 'self'; frame-ancestors 'none'")
        return response

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> HTMLResponse:
        return page(request, "message.html", http_status=403, title="Form refused",
                    message="This form came without a valid security token (CSRF). Reload "
                            "the page and send it again.")

    @app.exception_handler(InputError)
    async def bad_input(request: Request, exc: InputError) -> HTMLResponse:
        return page(request, "message.html", http_status=400, title="Cannot use this input",
                    problems=[problem_line(p) for p in exc.problems[:SHOWN]],
                    more=max(len(exc.problems) - SHOWN, 0))

    wrapped = HostGuard(BodyLimit(app, max_upload), hosts)
    wrapped.state = app.state  # type: ignore[attr-defined]
    wrapped.fastapi = app  # type: ignore[attr-defined]
    return wrapped
