"""Organizer sign-in and sign-out (only when the server has a password), and the language
a device reads pages in."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from validator.vocab import LANGS
from validator.web.pages import form, page, state_of, words_of
from validator.web.security import Sessions, Throttle

router = APIRouter()


def set_session_cookie(request: Request, response: Response, cookie: str) -> None:
    """The session cookie: script cannot read it, other sites do not send it, and it is sent
    over HTTPS only when the request came over HTTPS (directly or through a named proxy)."""
    response.set_cookie("dc_session", cookie, httponly=True, samesite="strict",
                        secure=request.scope.get("scheme") == "https")


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.get("/login")
async def login_page(request: Request) -> Response:
    return page(request, "login.html")


@router.post("/login")
async def login(request: Request) -> Response:
    data = await form(request)
    sessions: Sessions = request.app.state.sessions
    throttle: Throttle = request.app.state.throttle
    client = _client(request)
    async with throttle.attempt(client) as heard:
        if not heard:
            return page(request, "login.html", http_status=429,
                        error=words_of(request, "Several sign-ins from this network are "
                                       "being checked; try again in a few seconds."))
        if not sessions.password_matches(str(data.get("password", ""))):
            await throttle.failed(client)
            return page(request, "login.html", http_status=401,
                        error=words_of(request, "Wrong password."))
    throttle.succeeded(client)
    db = state_of(request).db
    chosen = db.page_lang(request.state.session)
    sid, cookie = sessions.sign_in(request.state.session)
    if chosen is not None:  # the language picked before signing in stays
        db.set_page_lang(sid, chosen)
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
