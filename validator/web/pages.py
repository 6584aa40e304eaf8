"""Rendering pages and reading forms, shared by the routers."""

from __future__ import annotations

import asyncio
import re
import secrets
import zoneinfo
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import polars as pl
from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from validator.engine.rules import CODES
from validator.errors import InputError, Problem
from validator.event.run import EventResult
from validator.event.store import Judge, SignIn
from validator.report.model import Report
from validator.report.penalty_log import local_time
from validator.text.i18n import (
    jinja_callables,
    problem_line,
    problem_text,
    say,
    term,
    terms,
)
from validator.text.lexicon import whole_number
from validator.text.when import day, moment
from validator.vocab import LANGS, REGULATIONS, STATUS_LABELS, STATUSES, Lang
from validator.web.state import EventState, PlayerRows, Snapshot, safe_name

__all__ = ["HEAD", "ORGANIZER", "ROLE_NAMES", "Forbidden", "Needs", "RoleRefused", "accepted_lang",
           "compile_templates", "error_page", "files", "form", "judge_of", "judged", "latest",
           "new_key", "optional_number", "page", "page_lang", "player_rows", "recorder",
           "signed_in_as", "signed_in_judge", "state_of", "templates", "where", "words_of"]

HERE = Path(__file__).resolve().parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
# the catalogs in templates: `{{ _("card data: {cards}", cards=...) }}` and
# `{{ pgettext("section", "side") }}` read the event's language (passed per page by ``page``)
templates.env.add_extension("jinja2.ext.i18n")
templates.env.install_gettext_callables(  # type: ignore[attr-defined]
    **jinja_callables("en"), newstyle=False)
#: each language by its own name, for the page-language picker
LANG_NAMES: dict[Lang, str] = {"en": "English", "ja": "日本語", "ko": "한국어", "th": "ไทย"}
templates.env.globals.update(LANG_NAMES=LANG_NAMES, LANGS=LANGS, REGULATIONS=REGULATIONS,
                             problem_line=problem_line, problem_text=problem_text,
                             CODES=CODES, quote=quote, STATUSES=STATUSES,
                             STATUS_LABELS=STATUS_LABELS)


@cache
def _group_words(lang: Lang) -> dict[str, str]:
    return terms(lang, "list group")


def group_word(group: str, lang: Lang) -> str:
    """A group of a list (monster, spell, trap, extra, side) as the page's language says it;
    another word as it is, capitalized."""
    return _group_words(lang).get(group, group.capitalize())


templates.env.filters["group_word"] = group_word
#: a stored time (ISO 8601, UTC) as a page shows it: ``2026-12-05 09:30:00``
templates.env.filters["when"] = lambda stamp: str(stamp).replace("T", " ").removesuffix(
    "+00:00")


def local(stamp: str, zone: str, lang: Lang = "en") -> str:
    """A stored time in the event's time zone, as the language writes a date and time
    (English keeps ``2026-12-05 16:30:00``):
    ``{{ entry.recorded_at|local(settings.timezone, lang) }}``."""
    return local_time(stamp, zone) if lang == "en" else moment(stamp, zone, lang)


templates.env.filters["local"] = local
templates.env.globals["TIMEZONES"] = sorted(zoneinfo.available_timezones())


def compile_templates() -> None:
    """Every page's template compiled ahead of its first page (a server starting does it
    in the background: the first player page would wait a tenth of a second for its own)."""
    for name in templates.env.list_templates(extensions=["html"]):
        templates.get_template(name)


#: the longest judge name kept
MAX_JUDGE_NAME = 80


def new_key() -> str:
    """A one-time key for a record form: the form records once, however often it is sent."""
    return secrets.token_urlsafe(18)


#: each staff role as pages name it
ROLE_NAMES = {"organizer": "organizer", "head": "head judge", "judge": "judge"}


def signed_in_as(request: Request) -> SignIn | None:
    """The staff sign-in of this request (set by the app's guard), None when there is none."""
    who: SignIn | None = getattr(request.state, "who", None)
    return who


def _named(who: SignIn | None) -> bool:
    """Whether the sign-in names its person: a staff code, or the shared judge password
    (whose name is asked at sign-in)."""
    return who is not None and (who.staff is not None or who.role == "judge")


def signed_in_judge(request: Request) -> Judge | None:
    """The judge the sign-in names (a staff code, or the shared judge password and the name
    given with it), None when it names nobody."""
    return judge_of(request) if _named(signed_in_as(request)) else None


def recorder(request: Request, data: FormData) -> Judge:
    """Who records a form: the person signed in, when their sign-in names them (a typed
    name is then ignored); else the name typed on it (kept for this device when it has
    none yet), else the judge of this device; none at all is refused."""
    named = signed_in_judge(request)
    if named is not None:
        return named
    me = judge_of(request)
    typed = str(data.get("judge", "")).strip()[:MAX_JUDGE_NAME]
    if typed:
        if me is None and getattr(request.state, "session", None):
            state_of(request).db.set_judge(request.state.session, typed, False)
        return Judge(typed, me is not None and me.head and me.name == typed)
    if me is None:
        raise InputError.of("judge", "enter your judge name (once on this device: "
                            "Your judge name, at the top of the page)", code="BAD_OPTION")
    return me


def judge_of(request: Request) -> Judge | None:
    """The judge using this device: the person of a staff code (head judge when the code
    is a head judge's or the organizer's), else the name given once on this device (never
    marked head judge when signed in with the shared judge password)."""
    who = signed_in_as(request)
    if who is not None and who.staff is not None:
        return Judge(who.person, who.role in ("head", "organizer"))
    sid = getattr(request.state, "session", None)
    found = state_of(request).db.judge(sid) if sid else None
    if found is not None and who is not None and who.role == "judge":
        return Judge(found.name, False)
    return found


class RoleRefused(Exception):
    """A page or form of a role the one signed in does not have."""

    def __init__(self, roles: tuple[str, ...]) -> None:
        super().__init__(roles)
        self.roles = roles


class Needs:
    """A route's dependency: only these staff roles may use it (others get 403). Routes
    carry it in ``dependencies`` so a test can list every route's roles."""

    def __init__(self, *roles: str) -> None:
        self.roles = roles

    def __call__(self, request: Request) -> None:
        who = signed_in_as(request)
        if who is None or who.role not in self.roles:
            raise RoleRefused(self.roles)


#: routes of the organizer only: uploads, settings, voids and corrections, staff
ORGANIZER = Depends(Needs("organizer"))
#: routes of the head judge and the organizer: head-judge decisions
HEAD = Depends(Needs("head", "organizer"))


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
    state = state_of(request)
    made = state.made_report(snapshot.result)
    return made if made is not None else await run_in_threadpool(state.report,
                                                                 snapshot.result)


async def player_rows(request: Request, result: EventResult) -> PlayerRows:
    """The check's tables by player and every list's and deck's lines, made in the thread
    pool the first time they are asked for."""
    state = state_of(request)
    made = state.made_rows(result)
    return made if made is not None else await run_in_threadpool(state.page_rows, result)


#: a language range of an ``Accept-Language`` header and its weight: ``ja-JP;q=0.9``
_RANGE = re.compile(r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*"
                    r"(?:;\s*q\s*=\s*([01](?:\.[0-9]{0,3})?))?\s*")


def accepted_lang(header: str) -> Lang | None:
    """The first of our languages an ``Accept-Language`` header asks for (by weight, then
    order), None when it asks for none of them."""
    ranked: list[tuple[float, int, Lang]] = []
    for order, part in enumerate(header[:1000].split(",")[:50]):
        found = _RANGE.fullmatch(part)
        if found is None:
            continue
        weight = float(found.group(2)) if found.group(2) else 1.0
        code = next((lang for lang in LANGS if lang == found.group(1).lower()), None)
        if code is not None and weight > 0:
            ranked.append((-weight, order, code))
    return min(ranked)[2] if ranked else None


def page_lang(request: Request) -> Lang:
    """The language this device reads pages in: the one chosen in its session, else the
    first the browser asks for, else the event's. Records and exports stay in the event's
    language whatever this is."""
    state = state_of(request)
    sid = getattr(request.state, "session", None)
    chosen = state.db.page_lang(sid) if sid else None
    if chosen is not None:
        return chosen
    asked = accepted_lang(request.headers.get("accept-language", ""))
    if asked is not None:
        return asked
    settings = state.db.settings()
    return settings.lang if settings is not None else "en"


def words_of(request: Request, msgid: str, /, **values: object) -> str:
    """One sentence a route puts on a page, in the page's language."""
    return say(page_lang(request), msgid, **values)


def page(request: Request, name: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    state = state_of(request)
    public = name == "login.html" or not getattr(request.state, "signed_in", False)
    settings = state.db.settings()
    lang = page_lang(request)
    words = jinja_callables(lang)
    return templates.TemplateResponse(
        request, name, {"csrf": getattr(request.state, "csrf", ""), "settings": None if public
                        else state.settings(), "has_settings": settings is not None,
                        "auth": request.app.state.password is not None, "lang": lang,
                        "here": request.url.path,
                        "me": None if public else judge_of(request),
                        "role": None if public else getattr(signed_in_as(request), "role",
                                                            None),
                        "named": _named(signed_in_as(request)),
                        "fixed": getattr(signed_in_as(request), "staff", None) is not None,
                        "_": words["gettext"], **words,
                        **record_words(state, settings.lang if settings else "en", lang),
                        **context},
        status_code=http_status)


def record_words(state: EventState, record: Lang, lang: Lang) -> dict[str, Any]:
    """What a page writes of the record, in the event's language (``record``): a penalty's
    name, a deck check's result, a sentence or word of the record; and the event's date in
    the page's language."""

    def penalty_word(code: str) -> str:
        try:
            return state.policy().penalty_name(code, record)
        except KeyError:
            return code

    def check_result(result: str) -> str:
        return term(record, "status word", result) if result == "legal" else \
            penalty_word(result)

    return {"record_lang": record, "penalty_word": penalty_word, "check_result": check_result,
            "record_say": lambda msgid, **values: say(record, msgid, **values),
            "record_term": lambda context, word: term(record, context, word),
            "event_date": lambda text: day(text, lang)}


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
            raise InputError.of(name, "not an accepted file type (expected {kinds})",
                                code="WRONG_FILE_TYPE", kinds=", ".join(allowed))
        try:
            out.append((name, await item.read()))
        finally:
            await item.close()
    return out


def optional_number(text: str, field: str = "number") -> int | None:
    """An optional whole-number field of a form (a round, a duel): the number in ASCII
    digits from 0 to 9999, or None when it is empty; anything else is a problem of the form
    (``field`` names it)."""
    if not text.strip():
        return None
    number = whole_number(text, 9999)
    if number is None:
        raise InputError.of(field, "{typed} is not a whole number 0-9999", code="BAD_OPTION",
                            typed=repr(text[:20]))
    return number


#: form fields and other places a problem can name, in the words of the page that has them
FIELD_WORDS = {
    "event": "the event form", "banlist": "the Forbidden/Limited list of the event form",
    "policy": "the policy file", "regulation": "the event's regulation",
    "upload": "the upload form", "decision": "the decision form", "qty": "the quantity",
    "reason": "the reason", "judge": "the judge's name", "penalty": "the penalty",
    "log": "the penalty log form", "choice": "the choice of the form",
    "version": "the version to restore", "report": "the report", "round": "the round",
    "duel": "the duel", "table": "the table", "stage": "the stage",
    "number": "a number of the form",
}
_COUNT = re.compile(r"n:(main|extra|side):(-?[0-9]{1,12})")
_ADDED = re.compile(r"add_(name|qty|section)_([0-9]{1,3})")


def where(request: Request, problem: Problem) -> str:
    """The field or file a problem names, in plain words: a count field of the judge's
    form is the card it counts, a form field its label; a file keeps its name."""
    place = problem.file
    if count := _COUNT.fullmatch(place):
        cards = state_of(request).cards.by_card
        found = cards.filter(pl.col("card_id") == int(count.group(2)))["name_en"]
        card = str(found[0]) if found.len() else f"card {count.group(2)}"
        return f"the count of {card} ({count.group(1)} deck)"
    if added := _ADDED.fullmatch(place):
        what = {"name": "card", "qty": "quantity", "section": "section"}[added.group(1)]
        return f"the {what} of added card row {int(added.group(2)) + 1}"
    words = FIELD_WORDS.get(place)
    if words is not None:
        return words
    return problem.place


def error_page(request: Request, http_status: int, title: str, message: str,
               problems: list[Problem] | None = None, back: str | None = None,
               more: int = 0) -> HTMLResponse:
    """An error as a page of the app: what happened, the field or file at fault, and a way
    back (the page it came from, when that is one of this server's own)."""
    if back is None:
        referer = request.headers.get("referer") or ""
        own = urlsplit(referer)
        back = referer if own.netloc == request.headers.get("host") and \
            own.path != request.scope["path"] else None
    lang = page_lang(request)
    shown = [{"where": where(request, p), "place": p.place, "code": p.code,
              "message": problem_text(p, lang)}
             for p in problems or []]
    return page(request, "error.html", http_status=http_status, title=title,
                message=message, problems=shown, more=more, back=back, status=http_status)
