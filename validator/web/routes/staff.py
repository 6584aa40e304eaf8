"""The staff page (organizer only): the people who may sign in, each with a code of their
own (shown once, kept as a salted hash, revocable), and the log of staff actions."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from validator.errors import InputError
from validator.event.store import STAFF_ROLES
from validator.web.pages import (
    MAX_JUDGE_NAME,
    ORGANIZER,
    ROLE_NAMES,
    form,
    page,
    signed_in_as,
    state_of,
)
from validator.web.security import Sessions

__all__ = ["router"]

router = APIRouter()


def _actor(request: Request) -> str:
    """Who does a staff action: the person signed in, else the organizer."""
    who = signed_in_as(request)
    return (who.person if who is not None else "") or "organizer"


def _staff_page(request: Request, http_status: int = 200, **context: object) -> HTMLResponse:
    db = state_of(request).db
    return page(request, "staff.html", http_status=http_status, codes=db.staff(),
                staff_log=db.staff_log(), roles=STAFF_ROLES, role_names=ROLE_NAMES,
                auth=request.app.state.password is not None, **context)


#: codes just issued, by (session, code number): shown by the next page of that session only
_FRESH: dict[tuple[str, int], dict[str, str]] = {}


@router.get("/staff", response_class=HTMLResponse, dependencies=[ORGANIZER])
async def staff_page(request: Request, revoked: int = 0, issued: int = 0) -> Response:
    """The staff page; after issuing, the new code once (a reload or Back shows it no more,
    and never issues another)."""
    fresh = _FRESH.pop((str(request.state.session), issued), None) if issued else None
    return _staff_page(request, revoked=revoked, issued=fresh, issued_gone=issued and not fresh)


@router.post("/staff/issue", response_class=HTMLResponse, dependencies=[ORGANIZER])
async def issue_code(request: Request) -> Response:
    """A new code for one person: shown on this page once, never again."""
    data = await form(request)
    name = " ".join(str(data.get("name", "")).split())[:MAX_JUDGE_NAME]
    role = next((r for r in STAFF_ROLES if r == data.get("role")), None)
    if not name:
        raise InputError.at("judge", "enter the person's name", code="BAD_OPTION")
    if role is None:
        raise InputError.at("choice", f"a role is one of {', '.join(STAFF_ROLES)}",
                            code="BAD_OPTION")
    if request.app.state.password is None:
        raise InputError.at("choice", "this server has no password: nobody signs in, so "
                            "codes would open nothing (start it with --password-file)",
                            code="NOT_READY")
    sessions: Sessions = request.app.state.sessions
    code = sessions.issue_code(name, role, _actor(request))
    number = int(code.split("-", 1)[0])
    _FRESH[(str(request.state.session), number)] = {"name": name, "role": role, "code": code}
    return RedirectResponse(f"/staff?issued={number}", status_code=303)


@router.post("/staff/{code}/revoke", dependencies=[ORGANIZER])
async def revoke_code(request: Request, code: int) -> Response:
    """Revoke a code: whoever signed in with it is signed out at once."""
    await form(request)
    done = state_of(request).db.revoke_staff(code, _actor(request))
    return RedirectResponse(f"/staff?revoked={code if done else 0}", status_code=303)
