from __future__ import annotations

import datetime as dt
import hashlib
from pathlib import Path

import polars as pl
import pytest

from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.errors import InputError
from validator.event import submissions as subs
from validator.event.store import EventDB
from validator.inputs.decks.ydk import to_ydke
from validator.inputs.entries import entries_frame
from validator.inputs.registrations.read import PLAYER_SCHEMA, Registrations

RAIGEKI, POT = 12580477, 55144522


def _db(tmp_path: Path) -> EventDB:
    return EventDB(tmp_path / "event.sqlite")


def test_the_canonical_form_is_sorted_tab_separated_lines() -> None:
    rows = [("side", 9, 1), ("main", 100, 2), ("extra", 5, 1), ("main", 20, 3), ("main", 100, 1)]
    assert subs.canonical(rows) == b"main\t20\t3\nmain\t100\t3\nextra\t5\t1\nside\t9\t1\n"
    assert subs.list_hash(rows) == hashlib.sha256(subs.canonical(rows)).hexdigest()
    assert subs.rows_of(subs.canonical(rows))[1] == ("main", 100, 3)
    # passcodes sort as numbers, not as text; a row of no copies is no line
    assert subs.canonical([("main", 9, 1), ("main", 10, 1), ("side", 3, 0)]) == (
        b"main\t9\t1\nmain\t10\t1\n")


def test_every_submission_is_kept_and_the_newest_is_current(tmp_path: Path) -> None:
    db = _db(tmp_path)
    first = subs.add(db, player_id="0401234567", player_name="Ana", source="typed",
                     lang="ja", rows=[("main", RAIGEKI, 3)], limit=10, window=600)
    second = subs.add(db, player_id="0401234567", player_name="Ana", source="ydke",
                      lang="en", rows=[("main", RAIGEKI, 2)], limit=10, window=600)
    other = subs.add(db, player_id="0409999999", player_name="Bo", source="pdf", lang="en",
                     rows=[("side", POT, 1)], limit=10, window=600)
    assert first
    assert second
    assert other
    assert [s.number for s in subs.current(db)] == [second.number, other.number]
    assert [s.number for s in subs.history(db, "0401234567")] == [second.number, first.number]
    assert subs.history(db, "0401234567")[1].rows == [("main", RAIGEKI, 3)]
    assert second.sha256 == subs.list_hash([("main", RAIGEKI, 2)])


def test_submissions_past_the_limit_are_refused_and_not_stored(tmp_path: Path) -> None:
    db = _db(tmp_path)
    made = [subs.add(db, player_id="0401234567", player_name="Ana", source="typed", lang="en",
                     rows=[("main", RAIGEKI, 1 + n)], limit=4, window=600) for n in range(9)]
    assert [m is not None for m in made] == [True] * 4 + [False] * 5
    assert len(subs.history(db, "0401234567")) == 4
    assert subs.count_since(db, "0401234567", 600) == 4
    # another player has a limit of their own
    assert subs.add(db, player_id="0409999999", player_name="Bo", source="typed", lang="en",
                    rows=[("main", RAIGEKI, 1)], limit=4, window=600) is not None


def test_a_konami_id_is_ten_digits_as_typed() -> None:
    assert subs.check_id("0401 234 567") == "0401234567"
    assert subs.check_id("０４０１２３４５６７") == "0401234567"
    for wrong in ("12345", "04012345678", "Ana Lee", "4.01E+09"):
        with pytest.raises(InputError) as raised:
            subs.check_id(wrong)
        assert raised.value.codes == ["BAD_OPTION"]


def test_the_deadline_locks_all_but_an_unlocked_player_once(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert subs.locked_for(db, "0401234567") == (False, None)
    subs.set_deadline(db, dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1))
    assert subs.locked_for(db, "0401234567") == (True, None)
    unlock = subs.unlock(db, "0401234567", "the bus was late", "Kim")
    assert subs.locked_for(db, "0401234567") == (True, unlock)
    assert subs.locked_for(db, "0409999999") == (True, None)
    late = subs.add(db, player_id="0401234567", player_name="Ana", source="typed", lang="en",
                    rows=[("main", RAIGEKI, 1)], limit=10, window=600, late=True,
                    unlock_id=unlock)
    assert late is not None
    assert late.late
    assert subs.locked_for(db, "0401234567") == (True, None)  # used up
    [logged] = subs.unlocks(db)
    assert (logged.player_id, logged.made_by, logged.reason, logged.used_by) == (
        "0401234567", "Kim", "the bus was late", late.number)


def test_receipt_codes_and_pins(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert subs.receipt(db, "0401234567") is None
    made = subs.receipt(db, "0401234567", make=True)
    assert made
    assert len(made) == 8
    assert subs.receipt(db, "0401234567", make=True) == made  # made once
    subs.set_pins(db, {"0401234567": "4821", "0409999999": "1111"})
    assert subs.pin(db, "0401234567") == "4821"
    assert subs.receipt(db, "0401234567") == made  # a PIN keeps the receipt code
    subs.set_pins(db, {"0409999999": ""})
    assert subs.pin(db, "0409999999") is None


def test_the_current_lists_are_registrations_by_passcode(tmp_path: Path) -> None:
    db = _db(tmp_path)
    subs.add(db, player_id="0401234567", player_name="Ana", source="typed", lang="en",
             rows=[("main", RAIGEKI, 3), ("side", POT, 1)], limit=10, window=600)
    page = subs.page_registrations(db, "Regional", "2026-12-05")
    assert page.players.select("player_id", "player_name", "file").row(0) == (
        "0401234567", "Ana", subs.PAGE_FILE)
    assert sorted(page.entries.select("section", "passcode", "qty").iter_rows()) == [
        ("main", RAIGEKI, 3), ("side", POT, 1)]


def _uploaded(player_ids: list[str]) -> Registrations:
    entries = entries_frame([{"deck_id": p, "section": "main", "name": "Raigeki", "qty": 1,
                              "file": "lists.xlsx"} for p in player_ids])
    players = pl.DataFrame({"player_id": player_ids, "player_name": ["x"] * len(player_ids),
                            "event": [""] * len(player_ids), "date": [""] * len(player_ids),
                            "file": ["lists.xlsx"] * len(player_ids),
                            "sheet": [""] * len(player_ids)}, schema=PLAYER_SCHEMA)
    return Registrations(entries, players)


def test_a_player_on_both_is_a_conflict_until_the_organizer_chooses(tmp_path: Path) -> None:
    db = _db(tmp_path)
    for pid in ("0401234567", "0409999999"):
        subs.add(db, player_id=pid, player_name="P", source="typed", lang="en",
                 rows=[("main", POT, 2)], limit=10, window=600)
    page = subs.page_registrations(db)
    uploaded = _uploaded(["0401234567", "0400000001"])
    assert subs.conflict_ids(uploaded, page) == ["0401234567"]
    both = subs.merged(uploaded, page, {})
    assert both is not None
    assert sorted(both.players["player_id"].to_list()) == ["0400000001", "0401234567",
                                                           "0409999999"]
    [conflict] = both.problems
    assert (conflict.code, conflict.deck_id) == ("LIST_CONFLICT", "0401234567")
    mine = both.entries.filter(pl.col("deck_id") == "0401234567")
    assert mine["file"].to_list() == ["lists.xlsx"]  # the upload, until a choice
    chosen = subs.merged(uploaded, page, {"0401234567": "page"})
    assert chosen is not None
    assert chosen.problems == []
    assert chosen.entries.filter(pl.col("deck_id") == "0401234567")["passcode"].to_list() == [
        POT]
    assert chosen.players.filter(pl.col("player_id") == "0401234567").height == 1
    kept = subs.merged(uploaded, page, {"0401234567": "upload"})
    assert kept is not None
    assert kept.problems == []
    assert kept.entries.filter(pl.col("deck_id") == "0401234567")["file"].to_list() == [
        "lists.xlsx"]
    assert subs.merged(None, page, {}) is page
    assert subs.merged(uploaded, subs.page_registrations(_db(tmp_path / "..")), {}) is uploaded


def test_a_pasted_or_uploaded_deck_is_read_with_its_source(demo_db: CardDB) -> None:
    fmt = load_format("advanced-tcg")
    link = to_ydke(entries_frame([{"deck_id": "p", "section": "main", "passcode": RAIGEKI,
                                   "qty": 2}]))
    entries, source, problems = subs.read_deck(link, [], "0401234567")
    assert (source, problems) == ("ydke", [])
    assert subs.passcode_rows(entries, demo_db, fmt) == ([("main", RAIGEKI, 2)], {})
    typed, source, _ = subs.read_deck("3 Raigeki\n1 Pot of Greeeeeeeeed", [], "0401234567")
    assert source == "typed"
    rows, unknown = subs.passcode_rows(typed, demo_db, fmt)
    assert rows == [("main", RAIGEKI, 3)]
    assert list(unknown) == ["Pot of Greeeeeeeeed"]
    ydk = b"#main\n12580477\n12580477\n#extra\n!side\n55144522\n"
    entries, source, _ = subs.read_deck("", [("deck.ydk", ydk)], "0401234567")
    assert source == "ydk"
    assert subs.passcode_rows(entries, demo_db, fmt)[0] == [("main", RAIGEKI, 2),
                                                           ("side", POT, 1)]


def test_pins_are_read_from_a_registration_list_s_pin_column() -> None:
    csv = ("Player ID,Player Name,PIN,Section,Qty,Card Name\n"
           "0401234567,Ana,4821,Main,3,Raigeki\n"
           "0401234567,Ana,4821,Main,1,Pot of Greed\n"
           "409876543,Bo,77 77,Main,3,Raigeki\n"
           "0400000001,Cy,,Main,3,Raigeki\n")
    pins, problems = subs.pins_from([("lists.csv", csv.encode()), ("sheet.pdf", b"%PDF")])
    assert pins == {"0401234567": "4821"}
    assert [(p.line, p.code) for p in problems] == [(4, "BAD_OPTION"), (5, "BAD_OPTION")]
    assert subs.pins_from([("lists.csv", b"Player ID,Name\n0401234567,Ana\n")]) == ({}, [])


def test_names_typed_in_each_language_are_stored_as_the_real_cards_passcodes(
        ygojson_db: CardDB) -> None:
    fmt = load_format("advanced-tcg")
    typed = "\n".join(["3 灰流うらら", "3 Ash Blossom & Joyous Spring", "2 하루 우라라",
                       "1 Pot of Greed", "Extra", "1 Accesscode Talker"])
    entries, source, problems = subs.read_deck(typed, [], "0401234567")
    assert (source, problems) == ("typed", [])
    rows, unknown = subs.passcode_rows(entries, ygojson_db, fmt)
    assert unknown == {}
    assert rows == [("main", 14558127, 8), ("main", 55144522, 1), ("extra", 86066372, 1)]
    assert subs.list_hash(rows) == hashlib.sha256(
        b"main\t14558127\t8\nmain\t55144522\t1\nextra\t86066372\t1\n").hexdigest()


def test_the_newest_list_sent_again_is_not_a_new_submission(tmp_path: Path) -> None:
    db = _db(tmp_path)
    made = [subs.add(db, player_id="0401234567", player_name="Ana", source="typed", lang="en",
                     rows=[("main", RAIGEKI, qty)], limit=10, window=600) for qty in (1, 1, 2, 1)]
    assert [m.number for m in made if m is not None] == [1, 1, 2, 3]
    assert len(subs.history(db, "0401234567")) == 3
