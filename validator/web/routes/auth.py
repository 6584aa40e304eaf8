"""Staff sign-in and sign-out (only when the server has a password): the organizer
password, a shared judge password, or a person's staff code; and the language a device
reads pages in."""

from __future__ import annotations

from dataclasses import replace

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from validator.text.i18n import say
from validator.vocab import LANGS
from validator.web.pages import MAX_JUDGE_NAME, form, page, page_lang, state_of
from validator.web.security import Sessions, Throttle

router = APIRouter()


def set_session_cookie(request: Request, response: Response, cookie: str) -> None:
    """The session cookie: script cannot read it, other sites do not send it, and it is sent
    over HTTPS only when the request came over HTTPS (directly or through a named proxy)."""
    response.set_cookie("dc_session", cookie, httponly=True, samesite="strict",
                        secure=request.scope.get("scheme") == "https")


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _login_page(request: Request, http_status: int = 200, **context: object) -> Response:
    """The sign-in page: one field for a password or a staff code, and a name field when
    the server has a shared judge password."""
    sessions: Sessions = request.app.state.sessions
    if isinstance(context.get("error"), str):
        context["error"] = say(page_lang(request), str(context["error"]))
    return page(request, "login.html", http_status=http_status,
                shared_judge=sessions.judge_password is not None, **context)


@router.get("/login")
async def login_page(request: Request) -> Response:
    return _login_page(request)


@router.post("/login")
async def login(request: Request) -> Response:
    """Sign in with the organizer password, the shared judge password (with a name, asked
    once per device) or a staff code; each sign-in goes to the staff log."""
    data = await form(request)
    sessions: Sessions = request.app.state.sessions
    throttle: Throttle = request.app.state.throttle
    client = _client(request)
    async with throttle.attempt(client) as heard:
        if not heard:
            return _login_page(request, 429,
                        error="Several sign-ins from this network are being checked; try "
                              "again in a few seconds.")
        who = await run_in_threadpool(sessions.credential, str(data.get("password", ""))[:200])
        if who is None:
            await throttle.failed(client)
            return _login_page(request, 401,
                        error="Wrong password or code.")
    throttle.succeeded(client)
    name = " ".join(str(data.get("name", "")).split())[:MAX_JUDGE_NAME]
    if who.role == "judge" and who.staff is None:
        if not name:
            return _login_page(request, 400, ask_name=True,
                        error="Enter your name: your records carry it.")
        who = replace(who, person=name)
    db = state_of(request).db
    chosen = db.page_lang(request.state.session)
    sid, cookie = sessions.sign_in(request.state.session, who)
    if chosen is not None:  # the language picked before signing in stays
        db.set_page_lang(sid, chosen)
    if who.person and who.staff is None:  # the shared judge password: the name given
        db.set_judge(sid, who.person, False)
    how = "staff code" if who.staff is not None else f"{who.role} password"
    db.log_staff(who.person or who.role, "signed in", f"{how}, from {client}")
    response = RedirectResponse("/", status_code=303)
    set_session_cookie(request, response, cookie)
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    await form(request)
    sessions: Sessions = request.app.state.sessions
    sessions.sign_out(request.state.session)
    _, cookie = sessions.issue()
    response = RedirectResponse("/login", status_code=303)
    set_session_cookie(request, response, cookie)
    return response


@router.post("/language")
async def set_language(request: Request) -> Response:
    """The language this device reads pages in, kept in its session; back to the page it
    was chosen on. Records and exports stay in the event's language."""
    data = await form(request)
    lang = next((code for code in LANGS if code == data.get("lang")), None)
    if lang is not None:
        state_of(request).db.set_page_lang(request.state.session, lang)
    back = str(data.get("back", ""))
    own = back.startswith("/") and not back.startswith("//") and "\\" not in back
    return RedirectResponse(back if own else "/", status_code=303)
