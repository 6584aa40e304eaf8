"""The judge's deck check and the head judge's decisions through the web app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bench.sample_event import player_id
from tests.web.helpers import client_for, csrf_token, upload_sample


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "event.sqlite") as c:
        upload_sample(c)
        yield c


def test_the_head_judge_settles_a_name_and_the_player_is_legal_again(
        client: TestClient) -> None:
    ash = player_id(23)
    page = client.get(f"/players/{ash}").text
    assert "Needs the head judge&#39;s decision" in page
    assert "Ash Blosom" in page
    assert "No penalty" not in page
    where = re.search(r'name="where" value="([^"]+)"', page)
    assert where
    token = csrf_token(client, f"/players/{ash}")
    settled = client.post(f"/players/{ash}/decide", data={
        "csrf": token, "where": where.group(1), "section": "main",
        "card": "Ash Blossom & Joyous Spring", "decided_by": "Head judge Mai",
        "reason": "obvious typo"})
    assert settled.status_code == 200
    after = client.get(f"/players/{ash}").text
    assert '<p class="legal verdict">Legal</p>' in after
    assert "Head judge Mai" in after  # in the player's decisions
    report = client.get("/report.json").json()
    assert [d["player_id"] for d in report["decisions"]] == [ash]
    assert "Ash Blosom" in client.get(f"/players/{ash}/log").text or \
        "Ash Blossom" in client.get(f"/players/{ash}/log").text


def test_an_organizers_own_policy_is_uploaded_and_used(client: TestClient) -> None:
    from validator.engine.rules import CODES

    codes = "".join(f'\n[codes.{c}]\nremedy = "make_legal"\n' for c in CODES
                    if c != "LIST_MISMATCH")
    policy = ('regulation = "store"\ntitle = "Store policy (example)"\n'
              '[penalties.GAME_LOSS]\nseverity = 2\nen = "Game Loss"\n'
              '[types.GAME_LOSS]\nin-duel = "this_duel"\nbetween-duels = "next_duel"\n'
              'between-matches = "next_duel"\npre-event = "first_duel"\n'
              '[codes.LIST_MISMATCH]\npenalty = "GAME_LOSS"\nremedy = "match_list"\n'
              'clause = { section = "4", heading = "Deck lists" }\n' + codes)
    token = csrf_token(client)
    uploaded = client.post("/policy", data={"csrf": token},
                           files=[("file", ("store.toml", policy.encode()))])
    assert uploaded.status_code == 200
    assert "Store policy (example)" in uploaded.text
    chosen = client.post("/event", data={"csrf": token, "name": "Store", "date": "2026-12-05",
                                         "format": "advanced-tcg", "regulation": "custom",
                                         "lang": "en"})
    assert chosen.status_code == 200
    report = client.get("/report.json").json()
    assert report["regulation"] == "store"
    types = {p["penalty"]["type"] for p in report["players"] if p["penalty"]}
    assert types == {"GAME_LOSS"}
    broken = client.post("/policy", data={"csrf": token},
                         files=[("file", ("bad.toml", b'regulation = "x"\ntitle = 3\n'))])
    assert broken.status_code == 400
    assert "bad.toml (title): BAD_SETTING" in broken.text


def test_a_fuzzily_read_entry_is_shown_as_such(client: TestClient) -> None:
    fuzzy = player_id(55)  # "Infinite Impermenance" on the list
    page = client.get(f"/players/{fuzzy}").text
    assert "Read fuzzily" in page
    assert "“Infinite Impermenance” → <strong>Infinite Impermanence</strong>" in page
