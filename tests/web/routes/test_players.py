"""A player's page: the verdict, the list beside the deck, the head judge's decisions and the
printable record (``validator/web/routes/players.py``)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from bench.sample_event import player_id
from tests.web.helpers import FORBIDDEN_PLAYER, LEGAL_PLAYER, csrf_token, event_of, refusal

ASH = player_id(23)  # "Ash Blosom" on the list
THREE = player_id(48)  # quantity "three" in cell A17


def _where(page: str) -> str:
    """The place of the first entry the page asks the head judge to settle."""
    where = re.search(r'name="where" value="([^"]+)"', page)
    assert where
    return where.group(1)


def test_a_forbidden_card_s_player_page_shows_the_verdict_and_penalty(
        sample: TestClient) -> None:
    player = sample.get(f"/players/{FORBIDDEN_PLAYER}").text
    assert 'data-status="illegal">Illegal</p>' in player
    assert "<code>FORBIDDEN_CARD</code>" in player
    assert "Pot of Greed is Forbidden" in player
    assert "Duel Forfeiture" in player
    assert "the head judge decides how the deck list and the deck" in player


def test_a_legal_player_s_page_has_no_violation_and_nothing_to_decide(
        sample: TestClient) -> None:
    page = sample.get(f"/players/{LEGAL_PLAYER}").text
    assert 'data-status="legal"' in page
    assert "<h2>Violations</h2>" not in page
    assert 'action="/players/' not in page  # no decision form
    assert "No decisions." in page


def test_an_unknown_player_is_refused(sample: TestClient) -> None:
    answer = sample.get("/players/NOBODY")
    assert answer.status_code == 404
    assert refusal(answer) == [("NOBODY", "UNKNOWN_PLAYER")]


def test_a_player_page_before_any_registration_leads_to_the_event_page(
        client: TestClient) -> None:
    answer = client.get("/players/P1", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/"


def test_card_name_script_is_shown_as_text(client: TestClient) -> None:
    token = csrf_token(client)
    csv_text = ("Player ID,Player Name,Section,Qty,Card Name\n"
                "P1,<script>alert(1)</script>,Main,3,<script>alert('x')</script>\n")
    client.post("/upload/registrations", data={"csrf": token},
                files=[("files", ("list.csv", csv_text.encode()))])
    page = client.get("/players/P1").text
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_fuzzily_read_entry_is_shown_as_such(sample: TestClient) -> None:
    fuzzy = player_id(55)  # "Infinite Impermenance" on the list
    page = sample.get(f"/players/{fuzzy}").text
    assert "Read fuzzily" in page
    assert "“Infinite Impermenance” → <strong>Infinite Impermanence</strong>" in page


def test_the_head_judge_settles_a_name_and_the_player_is_legal_again(
        sample: TestClient) -> None:
    client = sample  # the only test of this module that decides
    page = client.get(f"/players/{ASH}").text
    assert 'data-status="needs_decision"' in page
    assert "Ash Blosom" in page
    assert "No penalty" not in page
    token = csrf_token(client, f"/players/{ASH}")
    settled = client.post(f"/players/{ASH}/decide", data={
        "csrf": token, "where": _where(page), "section": "main",
        "card": "Ash Blossom & Joyous Spring", "decided_by": "Head judge Mai",
        "reason": "obvious typo"})
    assert settled.status_code == 200
    after = client.get(f"/players/{ASH}").text
    assert 'data-status="legal"' in after
    assert "Head judge Mai" in after  # in the player's decisions
    report = client.get("/report.json").json()
    assert [d["player_id"] for d in report["decisions"]] == [ASH]
    assert "Ash Blosom" in client.get(f"/players/{ASH}/log").text or \
        "Ash Blossom" in client.get(f"/players/{ASH}/log").text


def test_a_decision_on_an_unreadable_quantity_is_recorded_and_applied(
        sample_alone: TestClient) -> None:
    client = sample_alone
    page = client.get(f"/players/{THREE}").text
    assert 'data-status="needs_decision"' in page
    where = _where(page)
    assert where.endswith("!A17")
    decided = client.post(f"/players/{THREE}/decide", data={
        "csrf": csrf_token(client), "where": where, "section": "main",
        "typed_card": "10045474", "qty": "3", "decided_by": "Head judge Mai",
        "reason": "three written out"}, follow_redirects=False)
    assert decided.status_code == 303
    assert decided.headers["location"] == f"/players/{THREE}#decisions"
    [stored] = event_of(client).db.decisions(THREE)
    assert (stored["where"], stored["card"], stored["qty"], stored["section"]) == (
        where, "10045474", 3, "main")
    assert 'data-status="legal"' in client.get(f"/players/{THREE}").text
    assert f"{where}: 10045474 ×3 — Head judge Mai: three written out" in client.get(
        f"/players/{THREE}/log").text


@pytest.mark.parametrize(("fields", "refused"), [
    ({"card": "Ash Blossom & Joyous Spring", "decided_by": "Mai"},  # no reason
     [("decision", "BAD_DECISION")]),
    ({"decided_by": "Mai", "reason": "typo"}, [("decision", "BAD_DECISION")]),  # no card
    ({"card": "Ash Blossom & Joyous Spring", "reason": "typo"},  # nobody decided
     [("decision", "BAD_DECISION")]),
    ({"card": "Ash Blossom & Joyous Spring", "decided_by": "Mai", "reason": "typo",
      "qty": "0"}, [("qty", "BAD_QUANTITY")]),
    ({"card": "Ash Blossom & Joyous Spring", "decided_by": "Mai", "reason": "typo",
      "qty": "three"}, [("qty", "BAD_QUANTITY")]),
])
def test_an_incomplete_decision_is_refused_and_not_kept(
        sample: TestClient, fields: dict[str, str], refused: list[tuple[str, str]]) -> None:
    answer = sample.post(f"/players/{FORBIDDEN_PLAYER}/decide", data={
        "csrf": csrf_token(sample), "where": "A1", "section": "main", **fields})
    assert answer.status_code == 400
    assert refusal(answer) == refused
    assert event_of(sample).db.decisions(FORBIDDEN_PLAYER) == []


def test_a_decision_records_once_and_is_corrected_or_voided_with_its_history(
        sample_alone: TestClient) -> None:
    client = sample_alone
    client.post("/judges/me", data={"csrf": csrf_token(client), "name": "HJ Mai",
                                    "head": "1"})
    page = client.get(f"/players/{ASH}").text
    key = re.search(r'name="form_key" value="([^"]+)"', page)
    assert key
    form = {"csrf": csrf_token(client), "where": _where(page), "section": "main",
            "card": "Ash Blossom & Joyous Spring", "reason": "obvious typo",
            "form_key": key.group(1)}
    for _ in range(2):  # a double click
        sent = client.post(f"/players/{ASH}/decide", data=form, follow_redirects=False)
        assert sent.status_code == 303
    [made] = event_of(client).db.decisions(ASH)
    assert (made["decided_by"], made["head_judge"]) == ("HJ Mai", True)
    corrected = client.post(f"/players/{ASH}/decide", data={
        "csrf": csrf_token(client), "replaces": str(made["id"]), "typed_card": "Raigeki",
        "reason": "the player wrote Raigeki", "form_key": "correction-1"},
        follow_redirects=False)
    assert corrected.status_code == 303
    [now] = event_of(client).db.decisions(ASH)
    assert (now["card"], now["where"]) == ("Raigeki", made["where"])
    every = {d["id"]: d for d in event_of(client).db.decisions(ASH, every=True)}
    assert every[made["id"]]["change"].action == "correct"
    assert every[made["id"]]["change"].replacement == now["id"]
    voided = client.post(f"/players/{ASH}/decisions/{now['id']}/void", data={
        "csrf": csrf_token(client), "reason": "asked the player again"},
        follow_redirects=False)
    assert voided.status_code == 303
    assert event_of(client).db.decisions(ASH) == []
    assert len(event_of(client).db.decisions(ASH, every=True)) == 2  # both kept
    after = client.get(f"/players/{ASH}").text
    assert 'data-status="needs_decision"' in after  # the entry is open again
    assert "asked the player again" in after
    assert "asked the player again" in client.get(f"/players/{ASH}/log").text
