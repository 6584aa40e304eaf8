"""``deckcheck serve``: the organizer's and judges' web app over the library.

The factory wires the pieces: the event's state (``state.py``), the routers (``routes/``),
the security layers (``security.py``) and the error pages. Server-rendered pages (FastAPI +
Jinja2 with autoescaping), one event per SQLite file.

Every error is a page of the app (its layout, a way back, the field or file at fault): an
unknown address (404), a form's address opened (405), an upload over the size limit (413),
a value of the address the route does not take (422), bad input (400), a bug (500).
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from validator.cards import store
from validator.errors import SHOWN, InputError, Problem, is_failure
from validator.event.bounded import Limits
from validator.event.store import EventDB
from validator.files.safety import MAX_UPLOAD
from validator.text.i18n import say, term
from validator.text.lexicon import whole_number
from validator.web.limits import PlayerLimits, Window
from validator.web.pages import (
    HERE,
    ROLE_NAMES,
    Forbidden,
    RoleRefused,
    compile_templates,
    error_page,
    page,
    page_lang,
    words_of,
)
from validator.web.routes import ROUTERS
from validator.web.routes.auth import set_session_cookie
from validator.web.routes.register import PlayerRefused, player_refused
from validator.web.security import (
    LOOPBACK,
    REFUSED_BODY,
    BodyLimit,
    BodyTooLarge,
    HostGuard,
    Sessions,
    Throttle,
    same_origin,
)
from validator.web.state import EventState

__all__ = ["create_app"]

SESSION = "dc_session"
#: paths open without signing in
OPEN = ("/login", "/static/")
#: the player pages: no staff pages, they decide who may open them
PLAYER_PATHS = "/r/"
#: the largest sign-in form read before signing in
LOGIN_BODY = 4096


def create_app(db_path: Path, *, password: str | None = None,
               judge_password: str | None = None, cards_spec: str | None = None,
               data_dir: Path | None = None, max_upload: int = MAX_UPLOAD,
               hosts: frozenset[str] = frozenset(LOOPBACK),
               checks: Literal["process", "thread"] = "thread",
               limits: Limits | None = None,
               player_limits: PlayerLimits | None = None) -> Any:
    """The ASGI app for one event's database file. ``hosts`` are the host names it answers
    to (see :func:`validator.web.security.allowed_hosts`); ``checks`` says where event
    checks run (see :mod:`validator.web.state`); ``limits`` what reading one upload may
    take (see :mod:`validator.event.bounded`). ``judge_password``: a shared password that
    signs in judges (who give their name once), beside the organizer's ``password``;
    ``player_limits`` what the registration page takes (see :mod:`validator.web.limits`)."""
    db = EventDB(db_path)
    event = EventState(db, store.load_cards(cards_spec, data_dir), data_dir, checks,
                       limits or Limits())

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # the pages' templates compiled beside the first requests, not in them
        threading.Thread(target=compile_templates, name="templates", daemon=True).start()
        yield
        event.close()  # the checking process ends with the server

    app = FastAPI(title="deckcheck", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.event = event
    app.state.password = password
    app.state.sessions = Sessions(db.secret(), db, password,
                                  judge_password if password is not None else None)
    app.state.throttle = Throttle()
    app.state.hosts = hosts
    app.state.player_limits = player_limits or PlayerLimits()
    app.state.addresses = Window(app.state.player_limits.requests,
                                 app.state.player_limits.address_seconds)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for router in ROUTERS:
        app.include_router(router)

    app.add_middleware(Guard, state=app.state, hosts=hosts)

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> HTMLResponse:
        return page(request, "message.html", http_status=403,
                    title=words_of(request, "Form refused"),
                    message=words_of(request, "This form came without a valid security token "
                                     "(CSRF). Reload the page and send it again."))

    app.exception_handler(PlayerRefused)(player_refused)

    @app.exception_handler(RoleRefused)
    async def refused_role(request: Request, exc: RoleRefused) -> HTMLResponse:
        lang = page_lang(request)
        needed = " / ".join(term(lang, "staff role", ROLE_NAMES[role]) for role in exc.roles)
        response = page(request, "message.html", http_status=403,
                        title=say(lang, "Needs another role"),
                        message=say(lang, "Only the {roles} can use this page or form; ask "
                                          "the organizer.", roles=needed))
        if request.method not in ("GET", "HEAD"):
            response.headers["Connection"] = "close"  # the body is never read
        return response

    @app.exception_handler(InputError)
    async def bad_input(request: Request, exc: InputError) -> HTMLResponse:
        unknown = exc.codes == ["UNKNOWN_PLAYER"]
        return error_page(request, 404 if unknown else 400,
                          words_of(request, "No such player" if unknown
                                   else "Cannot use this input"),
                          words_of(request, "Nothing was changed. What is wrong, and where:"),
                          exc.problems[:SHOWN], more=max(len(exc.problems) - SHOWN, 0))

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge) -> HTMLResponse:
        response = error_page(request, 413, words_of(request, "Upload too large"), str(exc),
                              back="/" if request.scope["path"].startswith("/upload") else None)
        response.headers["Connection"] = "close"
        return response

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> HTMLResponse:
        path = request.scope["path"]
        if exc.status_code == 405:
            return error_page(request, 405, words_of(request, "This address takes a form"),
                              words_of(request, "{path} only receives the form of its page; "
                                       "opening or reloading it uploads and records nothing.",
                                       path=path),
                              back=_form_page(path))
        if exc.status_code == 404:
            return error_page(request, 404, words_of(request, "Page not found"),
                              words_of(request, "There is no page at {path}.", path=path))
        return error_page(request, exc.status_code,
                          words_of(request, "Cannot answer this request"),
                          str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> HTMLResponse:
        problems = [Problem(_field(error.get("loc", ())), None, None,
                            str(error.get("msg", "not a value it takes")), code="BAD_OPTION")
                    for error in exc.errors()]
        return error_page(request, 422, words_of(request, "Cannot use this address"),
                          words_of(request, "A part of the address holds a value it does not "
                                   "take:"), problems)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> HTMLResponse:
        return server_failed(request, exc)

    wrapped = HostGuard(BodyLimit(app, max_upload, inside=True), hosts)
    wrapped.state = app.state  # type: ignore[attr-defined]
    wrapped.fastapi = app  # type: ignore[attr-defined]
    return wrapped


def server_failed(request: Request, exc: BaseException, *, log: bool = True) -> HTMLResponse:
    """The page of a request the server failed to answer (a fault of the code), its
    traceback on the server's error output unless the server logs it itself."""
    if log:
        traceback.print_exception(exc)
    return error_page(request, 500, words_of(request, "Something went wrong on the server"),
                      words_of(request, "The server failed to answer ({error}). Nothing "
                               "was half-saved: every change is saved whole or not at all. "
                               "Try again; the uploads and the penalty log are kept.",
                               error=type(exc).__name__))


#: headers of every answer
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
     b"script-src 'self'; form-action 'self'; frame-ancestors 'none'"),
)
_SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


class Guard:
    """Every request's session (a signed id, issued when missing or forged), its CSRF token
    and staff sign-in, kept on ``request.state``; requests that may not reach the app are
    answered here: a refused body (too large, server busy), a form from another site, and
    anything but the sign-in page and static files before signing in. Every answer gets the
    security headers, and the session cookie when the id is new. A plain ASGI middleware:
    a response passes through as it is sent, without a task or a stream of its own."""

    def __init__(self, app: ASGIApp, state: Any, hosts: frozenset[str]) -> None:
        self.app = app
        self.state = state
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        sessions: Sessions = self.state.sessions
        sid = sessions.verify(request.cookies.get(SESSION))
        cookie = None
        if sid is None:  # an id the server never issued is replaced
            sid, cookie = sessions.issue()
        request.state.session = sid
        request.state.csrf = sessions.csrf(sid)
        request.state.who = sessions.who(sid)  # a staff sign-in only: role and person
        request.state.signed_in = request.state.who is not None
        extra = list(SECURITY_HEADERS)
        if cookie is not None:
            extra.append(_session_header(request, cookie))
        answer = self._refusal(request)
        sending = _adding(send, extra)
        if answer is not None:
            await answer(scope, receive, sending)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await sending(message)

        try:
            await self.app(scope, receive, watched)
        except BaseException as exc:
            # the page of a failure sent from here, with the headers of every answer (the
            # app's outermost layer would send it without them), a panic of polars too (no
            # Exception: that layer never sees it)
            if started or not is_failure(exc):
                raise
            logged = isinstance(exc, Exception)  # by the server, raised again below
            await server_failed(request, exc, log=not logged)(scope, receive, sending)
            if logged:
                raise  # its page is sent

    def _refusal(self, request: Request) -> Response | None:
        """The answer to a request that may not reach the app; None when it may."""
        path = request.scope["path"]  # as sent, never rebuilt from the Host header
        refused = request.scope.get(REFUSED_BODY)
        response: Response
        if refused is not None and (request.state.signed_in or path.startswith(PLAYER_PATHS)):
            title = "Upload too large" if refused[0] == 413 else "Server busy"
            response = error_page(request, refused[0], words_of(request, title), refused[1],
                                  back="/" if path.startswith("/upload") else None)
            response.headers["Connection"] = "close"
        elif request.method == "POST" and not same_origin(
                request.headers.get("origin"), request.headers.get("referer"), self.hosts):
            response = page(request, "message.html", http_status=403,
                            title=words_of(request, "Form refused"),
                            message=words_of(request, "This form was sent from another site."))
        elif refused is not None or not _open(request, path):
            response = RedirectResponse("/login", status_code=303)
            if request.method not in ("GET", "HEAD"):
                response.headers["Connection"] = "close"  # the body is never read
        else:
            return None
        return response


def _session_header(request: Request, cookie: str) -> tuple[bytes, bytes]:
    """The ``set-cookie`` header of a new session id."""
    made = Response()
    set_session_cookie(request, made, cookie)
    return next((k, v) for k, v in made.raw_headers if k == b"set-cookie")


def _adding(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    """``send`` with ``extra`` headers on the response: the security headers replace any of
    the same name, and a new session cookie is left out when the app set its own."""
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            own = any(k == b"set-cookie" and v.startswith(f"{SESSION}=".encode())
                      for k, v in headers)
            headers = [(k, v) for k, v in headers if k not in _SECURITY_NAMES]
            headers += [(k, v) for k, v in extra if not (own and k == b"set-cookie")]
            message = {**message, "headers": headers}
        await send(message)
    return sending


def _open(request: Request, path: str) -> bool:
    """Whether a request may reach the app: signed in as staff, or the sign-in page and the
    static files, the sign-in and language forms only when small (its body is read before
    signing in). The player pages (under ``/r/``) are no staff pages: they decide their own
    access."""
    if request.state.signed_in or path.startswith(PLAYER_PATHS):
        return True
    if request.method == "POST":
        declared = whole_number(request.headers.get("content-length", ""), LOGIN_BODY)
        return path in ("/login", "/language") and declared is not None
    return path == "/login" or path.startswith("/static/")


def _field(loc: object) -> str:
    """A request part's location (``("path", "batch")``) in words."""
    parts = [str(p) for p in loc] if isinstance(loc, (list, tuple)) else [str(loc)]
    where = {"path": "the address", "query": "the address's query", "body": "the form"}
    return f"{parts[-1]} in {where.get(parts[0], parts[0])}" if parts else "the request"


def _form_page(path: str) -> str:
    """The page whose form posts to ``path``."""
    parts = path.strip("/").split("/")
    if len(parts) >= 2 and parts[0] in ("players", "judge"):
        return f"/{parts[0]}/{parts[1]}"
    return "/log" if parts[0] == "log" else "/"
