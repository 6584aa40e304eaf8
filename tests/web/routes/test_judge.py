"""A judge's deck check through the web app: find the player, count the deck against the
list, get the verdict, record it (``validator/web/routes/judge.py``)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import polars as pl
import pytest
from fastapi.testclient import TestClient
from starlette.datastructures import FormData

from bench.sample_event import player_id
from tests.web.helpers import LEGAL_PLAYER, client_for, csrf_token, event_of, refusal, upload_sample
from validator.engine.tables import card_attributes
from validator.errors import InputError
from validator.web.routes.judge import MAX_EXTRA_ROWS, judge_inputs


def _counts(client: TestClient, player: str) -> dict[str, str]:
    page = client.get(f"/judge/{player}").text
    return dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))


def _one_missing(client: TestClient) -> dict[str, str]:
    """The legal player's counts with one copy of the first card missing from the deck."""
    counts = _counts(client, LEGAL_PLAYER)
    first = next(iter(counts))
    counts[first] = str(int(counts[first]) - 1)
    return counts


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


# --- the form's fields

def test_the_form_s_counts_added_cards_and_pasted_deck_are_read() -> None:
    form = judge_inputs(FormData([
        ("csrf", "x"), ("n:main:14558127", "3"), ("n:side:-7", " 2 "), ("n:extra:1", ""),
        ("add_name_0", "Raigeki"), ("add_section_0", "side"), ("add_qty_0", "2"),
        ("add_name_1", "  "), ("add_qty_1", "9"),  # a blank row: ignored
        ("add_name_2", "Pot of Greed"),  # one copy, in the main deck, unless told
        ("deck_text", "#main\n14558127\n")]))
    assert form.counts == {("main", 14558127): 3, ("side", -7): 2, ("extra", 1): 0}
    assert form.extra == [("side", "Raigeki", 2), ("main", "Pot of Greed", 1)]
    assert form.pasted == "#main\n14558127\n"


@pytest.mark.parametrize("qty", ["0", "", " "])
def test_an_added_card_of_no_copies_is_not_in_the_deck(qty: str) -> None:
    """The page's running totals count the number typed in a row (none when it is 0 or
    cleared); the check counts the same, not one copy."""
    form = judge_inputs(FormData([("add_name_0", "Raigeki"), ("add_qty_0", qty),
                                  ("add_name_1", "Pot of Greed"), ("add_qty_1", "2")]))
    assert form.extra == [("main", "Pot of Greed", 2)]


def test_added_rows_past_the_last_one_the_form_offers_are_not_read() -> None:
    form = judge_inputs(FormData([(f"add_name_{MAX_EXTRA_ROWS}", "Raigeki")]))
    assert form.extra == []


@pytest.mark.parametrize(("field", "value", "place", "code"), [
    ("n:main", "3", "n:main", "BAD_OPTION"),  # no card
    ("n:deck:14558127", "3", "n:deck:14558127", "BAD_OPTION"),  # no such section
    ("n:main:Raigeki", "3", "n:main:Raigeki", "BAD_OPTION"),  # a name, not a card id
    ("n:main:14558127", "three", "n:main:14558127", "BAD_OPTION"),
    ("n:main:14558127", "-1", "n:main:14558127", "BAD_OPTION"),
    ("add_qty_0", "lots", "add_qty_0", "BAD_OPTION"),
    ("add_section_0", "graveyard", "add_section_0", "BAD_SECTION"),
])
def test_a_malformed_field_is_one_clear_problem(field: str, value: str, place: str,
                                                code: str) -> None:
    with pytest.raises(InputError) as refused:
        judge_inputs(FormData([("add_name_0", "Raigeki"), (field, value)]))
    assert [(p.file, p.code) for p in refused.value.problems] == [(place, code)]


@pytest.mark.parametrize("fields", [
    {"n:main:14558127": "0"},  # every count zero: an empty deck
    {"n:main": "3"},  # a malformed count field
    {"deck_text": "ydke://!!!"},
    {"n:main:14558127": "three"},
    {"n:main:14558127": "²"}, {"n:main:14558127": "9" * 5000}, {"duel": "²"}, {"round": "٣"},
    {"add_name_0": "Raigeki", "add_qty_0": "²"},
])
def test_the_judge_form_never_answers_500(sample: TestClient, fields: dict[str, str]) -> None:
    token = csrf_token(sample, f"/judge/{LEGAL_PLAYER}")
    response = sample.post(f"/judge/{LEGAL_PLAYER}/check",
                           data={"csrf": token, "judge": "J", **fields})
    assert response.status_code in (200, 400)
    assert "Internal Server Error" not in response.text


@pytest.mark.parametrize(("text", "code"), [
    ("a" + " " * 1_000_000 + "b", "LINE_TOO_LONG"),  # a line of spaces just under the form's
    ("3 Pot of Greed\n" + "1" * 1_000_000, "LINE_TOO_LONG"),
    ("#main\n" + " " * 1_000_000 + "x", "BAD_PASSCODE"),  # a YDK: a passcode line, shown cut
    ("a" + " " * (1 << 20) + "b", None),  # over the form's 1 MiB a field: refused unread
])
def test_a_pasted_deck_with_a_huge_line_is_refused_fast_and_named(
        sample: TestClient, text: str, code: str | None) -> None:
    token = csrf_token(sample, f"/judge/{LEGAL_PLAYER}")
    started = time.perf_counter()
    response = sample.post(f"/judge/{LEGAL_PLAYER}/check",
                           data={"csrf": token, "judge": "J", "deck_text": text})
    assert time.perf_counter() - started < 2.0
    assert response.status_code == 400
    assert re.findall(r'data-field="([^"]+)" data-code="([A-Z_]+)"', response.text) == (
        [("deck_text", code)] if code else [])
    assert 'name="csrf"' in response.text  # a page of the app either way


# --- finding the player

def test_the_judge_finds_a_player_by_name_or_id(sample: TestClient) -> None:
    result = event_of(sample).snapshot().result
    assert result is not None
    name = result.players.filter(pl.col("player_id") == LEGAL_PLAYER)["player_name"][0]

    def found(q: str) -> list[str]:
        page = sample.get("/judge", params={"q": q}).text
        return re.findall(r'<li><a href="/judge/([^"]+)">', page)

    assert found(LEGAL_PLAYER) == [LEGAL_PLAYER]
    assert LEGAL_PLAYER in found(name.lower())
    assert found("no such player") == []
    assert "No player matches." in sample.get("/judge", params={"q": "no such player"}).text
    assert found("") == []  # no search, no list


def test_the_judge_pages_before_any_registration_say_so(client: TestClient) -> None:
    assert "No registered lists yet" in client.get("/judge").text
    answer = client.get("/judge/P1")
    assert answer.status_code == 400
    assert refusal(answer) == [("judge", "NOT_READY")]


def test_an_unknown_player_has_no_deck_check(sample: TestClient) -> None:
    answer = sample.get("/judge/NOBODY")
    assert answer.status_code == 404
    assert refusal(answer) == [("NOBODY", "UNKNOWN_PLAYER")]


def test_unreadable_rows_are_not_prefilled_and_are_flagged(sample: TestClient) -> None:
    three = player_id(48)  # quantity "three" in cell A17
    page = sample.get(f"/judge/{three}").text
    assert "could not read" in page
    assert "A17" in page
    assert "&#39;three&#39;" in page or "'three'" in page
    # the unreadable line has no count input pre-filled with a guess
    assert not re.search(r'name="n:main:10045474"', page)


# --- the check

def test_a_side_deck_swap_is_legal_in_duel_two_and_a_mismatch_in_duel_one(
        sample: TestClient) -> None:
    fields = _swap_one(sample)
    token = csrf_token(sample, f"/judge/{LEGAL_PLAYER}")
    base = {"csrf": token, "judge": "J", "round": "3", "stage": "between-duels", **fields}
    duel_two = sample.post(f"/judge/{LEGAL_PLAYER}/check", data={**base, "duel": "2"}).text
    assert "The deck matches the registered list and is legal." in duel_two
    assert "side deck exchanges allowed" in duel_two
    duel_one = sample.post(f"/judge/{LEGAL_PLAYER}/check", data={**base, "duel": "1"}).text
    assert duel_one.count("LIST_MISMATCH") == 4  # each moved card, in each section
    assert "Duel Forfeiture" in duel_one
    assert "the next duel" in duel_one


def test_duel_two_with_a_card_not_on_the_list_names_the_cause(sample: TestClient) -> None:
    token = csrf_token(sample, f"/judge/{LEGAL_PLAYER}")
    counts = _counts(sample, LEGAL_PLAYER)
    side = next(k for k in counts if k.startswith("n:side:"))
    counts[side] = str(int(counts[side]) - 1)
    page = sample.post(f"/judge/{LEGAL_PLAYER}/check", data={
        "csrf": token, "judge": "J", "duel": "2", "stage": "in-duel", **counts,
        "add_name_0": "Raigeki", "add_section_0": "side", "add_qty_0": "1"}).text
    assert "1 Raigeki in the deck (main 0, extra 0, side 1), not on the registered list" in page
    assert "Duel Forfeiture" in page


def test_the_record_form_carries_the_judge_s_fields(sample: TestClient) -> None:
    counts = _one_missing(sample)
    page = sample.post(f"/judge/{LEGAL_PLAYER}/check", data={
        "csrf": csrf_token(sample), "judge": "Mai", "round": "3", "duel": "1",
        "stage": "in-duel", **counts}).text
    record = page[page.index(f'action="/judge/{LEGAL_PLAYER}/record"'):]
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', record))
    assert {k: hidden[k] for k in ("judge", "round", "duel", "stage")} == {
        "judge": "Mai", "round": "3", "duel": "1", "stage": "in-duel"}
    assert {k: v for k, v in hidden.items() if k.startswith("n:")} == counts
    assert re.search(r'<option value="DUEL_FORFEITURE" selected>', record)


# --- recording

def test_judge_finds_missing_card_records_and_history_survives_restart(tmp_path: Path) -> None:
    db = tmp_path / "event.sqlite"
    with client_for(db) as client:
        upload_sample(client)
        page = client.get(f"/judge/{LEGAL_PLAYER}").text
        fields = dict(re.findall(r'name="(n:[^"]+)" value="(\d+)"', page))
        assert len(fields) > 10
        missing = next(iter(fields))
        fields[missing] = str(int(fields[missing]) - 1)  # one copy is not in the deck
        token = csrf_token(client, f"/judge/{LEGAL_PLAYER}")
        form = {"csrf": token, "judge": "Head Judge", "round": "3", "duel": "2",
                "stage": "in-duel", **fields}
        checked = client.post(f"/judge/{LEGAL_PLAYER}/check", data=form).text
        assert "LIST_MISMATCH" in checked
        assert "Duel Forfeiture" in checked
        assert "the duel in progress" in checked
        recorded = client.post(f"/judge/{LEGAL_PLAYER}/record",
                               data={**form, "penalty": "DUEL_FORFEITURE"})
        assert recorded.status_code == 200
        assert "LIST_MISMATCH" in recorded.text
        [entry] = event_of(client).db.log(LEGAL_PLAYER)
        assert (entry.judge, entry.round, entry.duel, entry.kind, sorted(entry.codes),
                entry.penalty, entry.default_penalty, entry.decision) == (
            "Head Judge", 3, 2, "deck", ["LIST_MISMATCH", "MAIN_TOO_SMALL"],
            "DUEL_FORFEITURE", "DUEL_FORFEITURE", "confirmed")
    with client_for(db) as restarted:
        history = restarted.get(f"/players/{LEGAL_PLAYER}").text
        assert "Head Judge" in history
        assert "DUEL_FORFEITURE" in history
        again = restarted.post(f"/judge/{LEGAL_PLAYER}/check",
                               data={**form, "csrf": csrf_token(restarted)}).text
        assert "Repeat" in again


def test_recording_follows_the_chosen_penalty_and_repeats_are_flagged(
        sample: TestClient) -> None:
    client = sample  # the only test of this module that records in the sample event
    counts = _one_missing(client)
    token = csrf_token(client, f"/judge/{LEGAL_PLAYER}")
    form = {"csrf": token, "judge": "J", "round": "1", "duel": "1",
            "stage": "between-matches", **counts}
    for again in ("", "1"):  # the second, a later incident, confirmed as such
        done = client.post(f"/judge/{LEGAL_PLAYER}/record",
                           data={**form, "penalty": "MATCH_FORFEITURE", "reason": "repeat",
                                 "confirm": again})
        assert done.status_code == 200
    assert len(event_of(client).db.log(LEGAL_PLAYER)) == 2
    log = client.get("/log").text
    assert re.search(r"repeat: [^<]*LIST_MISMATCH", log)
    details = event_of(client).db.log(LEGAL_PLAYER)[0].details
    # under th, a Match Forfeiture between matches has no timing clause: the head judge
    assert details["applies_to"].startswith("when the head judge decides")


def test_downgrade_needs_a_reason(sample: TestClient) -> None:
    token = csrf_token(sample)
    form = {"csrf": token, "judge": "J", "deck_text": "#main\n14558127\n"}
    refused = sample.post(f"/judge/{LEGAL_PLAYER}/record", data={**form, "penalty": "WARNING"})
    assert refused.status_code == 400
    assert refusal(refused) == [("reason", "BAD_OPTION")]


@pytest.mark.parametrize(("fields", "refused"), [
    ({"judge": "J", "legal": "yes"}, [("judge", "BAD_OPTION")]),  # nothing to record
    ({"judge": "J", "penalty": "BANISHMENT"}, [("penalty", "BAD_OPTION")]),
])
def test_a_record_that_cannot_be_logged_is_refused_and_not_kept(
        sample: TestClient, fields: dict[str, str], refused: list[tuple[str, str]]) -> None:
    player = player_id(2)
    counts = _counts(sample, player)
    if "legal" not in fields:
        first = next(iter(counts))
        counts[first] = str(int(counts[first]) - 1)
    answer = sample.post(f"/judge/{player}/record", data={
        "csrf": csrf_token(sample), "stage": "in-duel", **counts,
        **{k: v for k, v in fields.items() if k != "legal"}})
    assert answer.status_code == 400
    assert refusal(answer) == refused
    assert event_of(sample).db.log(player) == []


def test_a_card_name_that_reads_as_no_card_goes_back_to_the_judge(sample: TestClient) -> None:
    player = player_id(15)
    counts = _counts(sample, player)
    answer = sample.post(f"/judge/{player}/check", data={
        "csrf": csrf_token(sample), "judge": "J", "duel": "1", "stage": "in-duel", **counts,
        "add_name_0": "Raigeki", "add_section_0": "side", "add_qty_0": "1",
        "add_name_1": "Ash Blosom", "add_section_1": "side", "add_qty_1": "1"})
    assert answer.status_code == 400
    codes = re.findall(r'<li data-field="([^"]+)" data-code="([A-Z_]+)">', answer.text)
    assert codes == [("add_name_1", "UNKNOWN_CARD_NAME")]  # Raigeki is a card
    assert "Ash Blossom &amp; Joyous Spring" in re.findall(r'data-suggest="([^"]+)"',
                                                          answer.text)
    assert 'value="Ash Blosom"' in answer.text  # the form again, as sent
    assert "needs the head judge" not in answer.text.lower()
    fixed = sample.post(f"/judge/{player}/check", data={
        "csrf": csrf_token(sample), "judge": "J", "duel": "1", "stage": "in-duel", **counts,
        "add_name_0": "Ash Blossom & Joyous Spring", "add_section_0": "side",
        "add_qty_0": "1"})
    assert fixed.status_code == 200
    assert "Needs the head judge" not in fixed.text


def test_card_names_are_offered_as_the_judge_types(sample: TestClient) -> None:
    found = sample.get("/judge-cards.json", params={"q": "ash blo"}).json()["names"]
    assert found[0] == "Ash Blossom & Joyous Spring"
    assert sample.get("/judge-cards.json", params={"q": ""}).json() == {"names": []}
    assert 'list="card-names"' in sample.get(f"/judge/{LEGAL_PLAYER}").text


def test_a_judge_s_record_sent_again_records_once(sample: TestClient) -> None:
    player = player_id(16)
    counts = _counts(sample, player)
    first = next(iter(counts))
    counts[first] = str(int(counts[first]) - 1)
    page = sample.get(f"/judge/{player}").text
    key = re.search(r'name="form_key" value="([^"]+)"', page)
    assert key
    form = {"csrf": csrf_token(sample), "judge": "J", "round": "3", "table": "12",
            "duel": "1", "stage": "in-duel", "form_key": key.group(1), **counts}
    result = sample.post(f"/judge/{player}/check", data=form).text
    assert f'name="form_key" value="{key.group(1)}"' in result  # the record form keeps it
    done = sample.post(f"/judge/{player}/record", data={**form, "penalty": "DUEL_FORFEITURE"},
                       follow_redirects=False)
    assert done.status_code == 303
    [entry] = event_of(sample).db.log(player)
    assert (entry.round, entry.table, entry.details["basis"] != []) == (3, 12, True)
    again = sample.post(f"/judge/{player}/record", data={**form, "penalty": "DUEL_FORFEITURE"},
                        follow_redirects=False)
    assert again.headers["location"] == f"/log/{entry.id}?again=1"
    other = sample.post(f"/judge/{player}/record", data={
        **form, "form_key": "another-form", "penalty": "DUEL_FORFEITURE"})
    assert f'data-entry="{entry.id}"' in other.text  # the same incident: asked first
    assert [e.id for e in event_of(sample).db.log(player)] == [entry.id]


@pytest.mark.parametrize("fields", [
    {"n:main:14558127": "three"}, {"add_name_0": "Raigekki Storrm", "add_qty_0": "1"},
], ids=["count", "name"])
def test_the_judge_form_s_errors_speak_the_page_language(sample: TestClient,
                                                          fields: dict[str, str]) -> None:
    token = csrf_token(sample, f"/judge/{LEGAL_PLAYER}")
    sample.post("/language", data={"csrf": token, "lang": "ja", "back": "/"})
    try:
        answer = sample.post(f"/judge/{LEGAL_PLAYER}/check",
                             data={"csrf": token, "judge": "J", **fields})
    finally:
        sample.post("/language", data={"csrf": token, "lang": "en", "back": "/"})
    assert answer.status_code == 400
    shown = re.findall(r'<li data-field="[^"]*" data-code="[^"]+"><strong>([^<]*)</strong>: '
                       r'([^<]*)', answer.text)
    assert shown
    for _label, message in shown:
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", message), message


def test_a_check_against_the_lists_made_before_gives_the_same_page(sample: TestClient) -> None:
    """Every player's check, counted as listed and one card off, is the same page whether
    the players' lists were made before (as the server makes them after an event's check)
    or are read for the check."""
    state = event_of(sample)
    result = state.snapshot().result
    assert result is not None
    players = result.players["player_id"].to_list()
    token = csrf_token(sample, f"/judge/{players[0]}")
    forms = []
    for player in players:
        counts = _counts(sample, player)
        base = {"csrf": token, "judge": "J", "round": "1", "duel": "1", "stage": "in-duel",
                "form_key": "k"}
        forms.append((player, {**base, **counts}))
        if counts:
            first = next(iter(counts))
            forms.append((player, {**base, **counts, first: str(int(counts[first]) + 1)}))
    rows, table = state.rows(result), state.card_table(state.setup())
    assert rows.made_list(players[0], table) is None
    read = [sample.post(f"/judge/{player}/check", data=data).text for player, data in forms]
    rows.listed_decks(table)
    assert all(rows.made_list(player, table) is not None for player in players)
    setup = state.setup()  # another card table: the lists are not of it
    assert rows.made_list(players[0], card_attributes(setup.cards, setup.banlist,
                                                      setup.fmt)) is None
    made = [sample.post(f"/judge/{player}/check", data=data).text for player, data in forms]
    assert made == read
    assert sum("LIST_MISMATCH" in page for page in made) >= len(players) - 1
