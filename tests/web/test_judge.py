"""The judge's deck check and the head judge's decisions through the web app."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bench.sample_event import player_id
from tests.web.test_app import LEGAL_PLAYER, _client, _token, _upload_sample


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path / "event.sqlite") as c:
        _upload_sample(c)
        yield c


def _counts(client: TestClient, player: str) -> dict[str, str]:
    page = client.get(f"/judge/{player}").text
    return dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))


def _names(client: TestClient, player: str) -> dict[str, str]:
    """count field → card name, from the judge page."""
    page = client.get(f"/judge/{player}").text
    rows = re.findall(r"<td>([^<]+)</td>\s*<td class=\"listed\">\d+</td>\s*<td><input "
                      r"type=\"number\"[^>]*name=\"(n:[^\"]+)\"", page)
    return {field: name for name, field in rows}


def _swap_one(client: TestClient) -> dict[str, str]:
    """The legal player's counts with one main deck card swapped with one side deck card."""
    counts = _counts(client, LEGAL_PLAYER)
    main = next(k for k in counts if k.startswith("n:main:"))
    side = next(k for k in counts if k.startswith("n:side:"))
    card_main, card_side = main.split(":")[2], side.split(":")[2]
    counts[main] = str(int(counts[main]) - 1)
    counts[side] = str(int(counts[side]) - 1)
    names = _names(client, LEGAL_PLAYER)
    return {**counts, "add_name_0": names[side], "add_section_0": "main", "add_qty_0": "1",
            "add_name_1": names[main], "add_section_1": "side", "add_qty_1": "1",
            "card_main": card_main, "card_side": card_side}


def test_a_side_deck_swap_is_legal_in_duel_two_and_a_mismatch_in_duel_one(
        client: TestClient) -> None:
    fields = _swap_one(client)
    token = _token(client, f"/judge/{LEGAL_PLAYER}")
    base = {"csrf": token, "judge": "J", "round": "3", "stage": "between-duels", **fields}
    duel_two = client.post(f"/judge/{LEGAL_PLAYER}/check", data={**base, "duel": "2"}).text
    assert "The deck matches the registered list and is legal." in duel_two
    assert "side deck exchanges allowed" in duel_two
    duel_one = client.post(f"/judge/{LEGAL_PLAYER}/check", data={**base, "duel": "1"}).text
    assert duel_one.count("LIST_MISMATCH") == 4  # each moved card, in each section
    assert "Duel Forfeiture" in duel_one
    assert "the next duel" in duel_one


def test_duel_two_with_a_card_not_on_the_list_names_the_cause(client: TestClient) -> None:
    token = _token(client, f"/judge/{LEGAL_PLAYER}")
    counts = _counts(client, LEGAL_PLAYER)
    side = next(k for k in counts if k.startswith("n:side:"))
    counts[side] = str(int(counts[side]) - 1)
    page = client.post(f"/judge/{LEGAL_PLAYER}/check", data={
        "csrf": token, "judge": "J", "duel": "2", "stage": "in-duel", **counts,
        "add_name_0": "Raigeki", "add_section_0": "side", "add_qty_0": "1"}).text
    assert "1 Raigeki in the deck (main 0, extra 0, side 1), not on the registered list" in page
    assert "Duel Forfeiture" in page


def test_unreadable_rows_are_not_prefilled_and_are_flagged(client: TestClient) -> None:
    three = player_id(48)  # quantity "three" in cell A17
    page = client.get(f"/judge/{three}").text
    assert "could not read" in page
    assert "A17" in page
    assert "&#39;three&#39;" in page or "'three'" in page
    # the unreadable line has no count input pre-filled with a guess
    assert not re.search(r'name="n:main:10045474"', page)


def test_the_head_judge_settles_a_name_and_the_player_is_legal_again(
        client: TestClient) -> None:
    ash = player_id(23)
    page = client.get(f"/players/{ash}").text
    assert "Needs the head judge&#39;s decision" in page
    assert "Ash Blosom" in page
    assert "No penalty" not in page
    where = re.search(r'name="where" value="([^"]+)"', page)
    assert where
    token = _token(client, f"/players/{ash}")
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


def test_recording_follows_the_chosen_penalty_and_repeats_are_flagged(
        client: TestClient) -> None:
    counts = _counts(client, LEGAL_PLAYER)
    first = next(iter(counts))
    counts[first] = str(int(counts[first]) - 1)
    token = _token(client, f"/judge/{LEGAL_PLAYER}")
    form = {"csrf": token, "judge": "J", "round": "1", "duel": "1",
            "stage": "between-matches", **counts}
    for _ in range(2):
        done = client.post(f"/judge/{LEGAL_PLAYER}/record",
                           data={**form, "penalty": "MATCH_FORFEITURE", "reason": "repeat"})
        assert done.status_code == 200
    log = client.get("/log").text
    assert re.search(r"repeat: [^<]*LIST_MISMATCH", log)
    db = client.app.state.event.db  # type: ignore[attr-defined]
    details = db.log(LEGAL_PLAYER)[0].details
    # under th, a Match Forfeiture between matches has no timing clause: the head judge
    assert details["applies_to"].startswith("when the head judge decides")


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
    token = _token(client)
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
    assert "bad.toml (title)</span>: <code>BAD_SETTING</code>" in broken.text


def test_a_fuzzily_read_entry_is_shown_as_such(client: TestClient) -> None:
    fuzzy = player_id(55)  # "Infinite Impermenance" on the list
    page = client.get(f"/players/{fuzzy}").text
    assert "Read fuzzily" in page
    assert "“Infinite Impermenance” → <strong>Infinite Impermanence</strong>" in page
