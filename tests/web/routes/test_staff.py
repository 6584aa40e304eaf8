"""Staff roles and per-person codes (``validator/web/routes/staff.py``): the organizer
issues codes on /staff, each person signs in with theirs, records carry the person signed
in, a judge is refused the organizer's routes, a revoked code signs out at once."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.web.helpers import LEGAL_PLAYER, client_for, csrf_token, event_of, upload_sample
from validator.event import rounds
from validator.event.store import SignIn
from validator.web.pages import Needs
from validator.web.routes import ROUTERS
from validator.web.security import Sessions, Throttle

PASSWORD = "organizer-password"
JUDGE_PASSWORD = "judges-shared-pw"
#: the POST routes every staff role may use; any other POST route must name its roles
FOR_EVERY_ROLE = {"/login", "/logout", "/language", "/judges/me", "/judge/{player_id}/check",
                  "/judge/{player_id}/record", "/log", "/rounds/{round_}/draw",
                  "/rounds/checks"}
#: a value for each parameter of a route's path
PATH_VALUES = {"player_id": LEGAL_PLAYER, "batch": "1", "entry_id": "1", "decision": "1",
               "round_": "1", "code": "1", "part": "list", "upload": "1"}


def _roles(route: APIRoute) -> tuple[str, ...] | None:
    """The roles a route is kept to, None when every staff role may use it."""
    found = [d.dependency.roles for d in route.dependencies
             if isinstance(d.dependency, Needs)]
    return found[0] if found else None


#: the staff's routes (the players' pages under /r/ are no staff pages: they decide their
#: own access, see tests/web/routes/test_register.py)
ROUTES = [r for router in ROUTERS for r in router.routes if isinstance(r, APIRoute)
          and not r.path.startswith("/r/")]
KEPT = sorted({(method, r.path, _roles(r)) for r in ROUTES for method in r.methods or ()
               if _roles(r) is not None}, key=str)


@pytest.fixture(scope="module")
def organizer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_for(tmp_path_factory.mktemp("event") / "event.sqlite", password=PASSWORD,
                    judge_password=JUDGE_PASSWORD) as client:
        client.app.state.throttle = Throttle(step=0, most=0)  # type: ignore[attr-defined]
        _sign_in(client, PASSWORD)
        upload_sample(client)
        event_of(client).refresh().result(timeout=60)
        yield client


def _sign_in(client: TestClient, password: str, name: str = "") -> Any:
    return client.post("/login", data={"csrf": csrf_token(client, "/login"),
                                       "password": password, "name": name},
                       follow_redirects=False)


def _issue(organizer: TestClient, name: str, role: str) -> str:
    shown = organizer.post("/staff/issue", data={"csrf": csrf_token(organizer, "/staff"),
                                                 "name": name, "role": role})
    assert shown.status_code == 200
    found = re.search(r'<strong class="code">([^<]+)</strong>', shown.text)
    assert found
    return found.group(1)


def _person(organizer: TestClient, name: str, role: str) -> TestClient:
    """A new device signed in with a new code for ``name`` in ``role``."""
    client = TestClient(organizer.app)
    assert _sign_in(client, _issue(organizer, name, role)).status_code == 303
    return client


@pytest.fixture(scope="module")
def judge(organizer: TestClient) -> TestClient:
    return _person(organizer, "Ana Judge", "judge")


def test_every_post_route_names_its_roles_or_is_for_every_staff_role() -> None:
    posts = {r.path for r in ROUTES if "POST" in (r.methods or ())}
    unmarked = {r.path for r in ROUTES if "POST" in (r.methods or ()) and _roles(r) is None}
    assert unmarked == FOR_EVERY_ROLE  # a new POST route must be kept to roles, or listed here
    assert {"/event", "/upload/decks", "/staff/issue", "/log/{entry_id}/void"} <= posts - unmarked
    assert ("GET", "/staff", ("organizer",)) in KEPT


@pytest.mark.parametrize(("method", "path", "roles"), KEPT, ids=[f"{m} {p}" for m, p, _ in KEPT])
def test_a_judge_is_refused_every_route_kept_to_other_roles(
        organizer: TestClient, judge: TestClient, method: str, path: str,
        roles: tuple[str, ...]) -> None:
    assert "judge" not in roles
    db = event_of(organizer).db
    before = (db.version(), len(db.log()), len(db.staff()), db.settings())
    url = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES[m.group(1)], path)
    answer = judge.request(method, url, data={"csrf": csrf_token(judge), "name": "Evil",
                                              "role": "organizer", "reason": "x"},
                           follow_redirects=False)
    assert answer.status_code == 403
    assert 'name="csrf"' in answer.text  # a page of the app, not a bare refusal
    assert (db.version(), len(db.log()), len(db.staff()), db.settings()) == before


def test_a_judge_cannot_change_uploads_or_settings(organizer: TestClient,
                                                   judge: TestClient) -> None:
    db = event_of(organizer).db
    settings, uploads = db.settings(), db.submissions()
    token = csrf_token(judge)
    renamed = judge.post("/event", data={"csrf": token, "name": "Renamed", "date": "2026-12-06",
                                         "format": "advanced-tcg", "regulation": "th",
                                         "lang": "en"})
    sent = judge.post("/upload/decks", data={"csrf": token},
                      files=[("files", ("a.ydk", b"#main\n55144522\n"))])
    assert (renamed.status_code, sent.status_code) == (403, 403)
    assert (db.settings(), db.submissions()) == (settings, uploads)
    page = judge.get("/").text
    assert 'action="/event"' not in page
    assert 'action="/upload/decks"' not in page
    assert 'action="/event"' in organizer.get("/").text


def test_a_code_is_shown_once_and_kept_only_as_a_salted_hash(organizer: TestClient) -> None:
    code = _issue(organizer, "Kim Hashed", "judge")
    assert re.fullmatch(r"[0-9]+-[A-Z2-9]{4}(-[A-Z2-9]{4}){3}", code)
    kept = next(c for c in event_of(organizer).db.staff() if c.name == "Kim Hashed")
    secret = code.split("-", 1)[1]
    assert secret not in kept.hash
    assert secret not in kept.salt
    assert len(kept.hash) == 64
    assert code not in organizer.get("/staff").text  # not shown again
    path = event_of(organizer).db.path
    assert secret.encode() not in path.read_bytes()


def test_records_name_the_person_of_the_code_not_a_typed_name(organizer: TestClient,
                                                             judge: TestClient) -> None:
    made = judge.post("/log", data={"csrf": csrf_token(judge, "/log"), "player_id": LEGAL_PLAYER,
                                    "judge": "Someone Else", "code": "LATE_5", "round": "1"},
                      follow_redirects=False)
    assert made.status_code == 303
    entry = event_of(organizer).db.log(LEGAL_PLAYER)[-1]
    assert (entry.judge, entry.head_judge) == ("Ana Judge", False)
    assert 'name="judge"' not in judge.get("/log").text  # no typed judge field
    void = f'action="/log/{entry.id}/void"'
    assert void not in judge.get(f"/log/{entry.id}").text  # hidden from the judge
    assert void in organizer.get(f"/log/{entry.id}").text
    renamed = judge.post("/judges/me", data={"csrf": csrf_token(judge), "name": "Other"})
    assert renamed.status_code == 400


def test_a_deck_check_names_the_person_of_the_code(organizer: TestClient,
                                                  judge: TestClient) -> None:
    made = judge.post("/rounds/checks", data={"csrf": csrf_token(judge, "/judge"),
                                              "player_id": LEGAL_PLAYER, "judge": "Typed",
                                              "round": "1", "table": "4"},
                      follow_redirects=False)
    assert made.status_code == 303
    [check] = rounds.deck_checks(event_of(organizer).db, player_id=LEGAL_PLAYER)
    assert (check.judge, check.round, check.table) == ("Ana Judge", 1, 4)


def test_head_judge_decisions_only_by_head_judges_and_organizers(organizer: TestClient,
                                                                 judge: TestClient) -> None:
    head = _person(organizer, "Hugo Head", "head")
    fields = {"where": "x", "typed_card": "Raigeki", "reason": "legible", "decided_by": "Ana"}
    refused = judge.post(f"/players/{LEGAL_PLAYER}/decide",
                         data={"csrf": csrf_token(judge), **fields}, follow_redirects=False)
    assert refused.status_code == 403
    made = head.post(f"/players/{LEGAL_PLAYER}/decide",
                     data={"csrf": csrf_token(head), **fields}, follow_redirects=False)
    assert made.status_code == 303
    decided = event_of(organizer).db.decisions(LEGAL_PLAYER)[-1]
    assert (decided["decided_by"], decided["head_judge"]) == ("Hugo Head", True)


def test_a_revoked_code_s_sessions_end_at_once(organizer: TestClient) -> None:
    person = _person(organizer, "Lee Revoked", "judge")
    assert person.get("/", follow_redirects=False).status_code == 200
    code = next(c for c in event_of(organizer).db.staff() if c.name == "Lee Revoked")
    done = organizer.post(f"/staff/{code.id}/revoke", data={"csrf": csrf_token(organizer)},
                          follow_redirects=False)
    assert done.status_code == 303
    assert person.get("/", follow_redirects=False).status_code == 303  # to the sign-in page
    log = event_of(organizer).db.staff_log()
    assert [line["action"] for line in log[:2]] == ["revoked", "signed in"]
    page = organizer.get("/staff").text
    assert "Lee Revoked" in page
    assert "revoked" in page


def test_the_shared_judge_password_asks_a_name_and_signs_in_a_judge(
        organizer: TestClient) -> None:
    device = TestClient(organizer.app)
    unnamed = _sign_in(device, JUDGE_PASSWORD)
    assert unnamed.status_code == 400
    assert 'name="name"' in unnamed.text
    assert 'required' in unnamed.text
    assert _sign_in(device, JUDGE_PASSWORD, "Mia Shared").status_code == 303
    assert device.get("/staff").status_code == 403
    device.post("/judges/me", data={"csrf": csrf_token(device), "name": "Mia Shared",
                                    "head": "1"})
    assert device.get("/judges/me").text.count("head judge") == 0
    made = device.post("/log", data={"csrf": csrf_token(device, "/log"), "player_id": LEGAL_PLAYER,
                                     "judge": "Typed", "code": "LATE_5", "round": "2"},
                       follow_redirects=False)
    assert made.status_code == 303
    entry = event_of(organizer).db.log(LEGAL_PLAYER)[-1]
    assert (entry.judge, entry.head_judge) == ("Mia Shared", False)


def test_a_session_of_no_staff_role_opens_no_staff_page(organizer: TestClient) -> None:
    sessions: Sessions = organizer.app.state.sessions  # type: ignore[attr-defined]
    sid, cookie = sessions.issue()
    player = SignIn("", 0.0, "player", "A Player")
    event_of(organizer).db.open_session(sid, sessions._key(player), time.time() + 3600,
                                        role="player", person="A Player")
    device = TestClient(organizer.app, cookies={"dc_session": cookie})
    for path in ("/", "/judge", "/log", "/staff", "/report.json", f"/players/{LEGAL_PLAYER}"):
        assert device.get(path, follow_redirects=False).status_code == 303, path
    posted = device.post("/event", data={"csrf": sessions.csrf(sid), "name": "X"},
                         follow_redirects=False)
    assert posted.status_code == 303
    assert device.get("/r/anything", follow_redirects=False).status_code == 404  # theirs


def test_the_staff_log_names_each_sign_in_and_code(organizer: TestClient) -> None:
    _person(organizer, "Noa Logged", "judge")
    log = event_of(organizer).db.staff_log()
    assert {"who": "Noa Logged", "action": "signed in"}.items() <= log[0].items()
    assert log[1]["action"] == "issued"
    assert "Noa Logged (judge)" in log[1]["detail"]
    assert any(line["who"] == "organizer" and line["action"] == "signed in" for line in log)


def test_a_code_is_shown_once_and_a_reload_issues_none(organizer: TestClient) -> None:
    shown = organizer.post("/staff/issue", data={"csrf": csrf_token(organizer, "/staff"),
                                                 "name": "Mai Tanaka", "role": "judge"},
                           follow_redirects=False)
    assert shown.status_code == 303
    first = organizer.get(shown.headers["location"])
    again = organizer.get(shown.headers["location"])  # reload, or Back to it
    assert re.search(r'<strong class="code">\d+-', first.text)
    assert '<strong class="code">' not in again.text
    assert [c.name for c in event_of(organizer).db.staff()].count("Mai Tanaka") == 1
