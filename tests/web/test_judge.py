"""The judge's deck check and the head judge's decisions through the web app."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import client_for, csrf_token, upload_sample


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "event.sqlite") as c:
        upload_sample(c)
        yield c


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
