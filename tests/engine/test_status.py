"""Deck statuses, the rows that could not be read, and violations located at their rows."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from tests.conftest import Run, shared_path
from tests.deckbuild import build, legal_filler
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.check import check
from validator.engine.rules import VIOLATION_SCHEMA
from validator.engine.status import (
    UNREADABLE_SCHEMA,
    locate,
    open_decisions,
    statuses,
    unreadable_by_deck,
    unreadable_rows,
)
from validator.errors import Problem
from validator.inputs.decks.batch import read_deck_paths
from validator.vocab import STATUS_ENUM


def _found(*rows: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame([{c: row.get(c) for c in VIOLATION_SCHEMA} for row in rows],
                        schema=VIOLATION_SCHEMA)


def _decks(n: int) -> pl.DataFrame:
    return pl.DataFrame({"deck": pl.Series(range(n), dtype=pl.UInt32)})


def _numbers(*decks: int) -> pl.Series:
    return pl.Series(decks, dtype=pl.UInt32)


# -- statuses -------------------------------------------------------------------------------


def test_a_fact_makes_a_deck_illegal_and_a_decision_makes_it_wait() -> None:
    found = _found({"deck": 0, "code": "FORBIDDEN_CARD"},
                   {"deck": 1, "code": "UNRESOLVED_NAME"},
                   {"deck": 2, "code": "FORBIDDEN_CARD"}, {"deck": 2, "code": "UNREADABLE_ROW"})
    found, decks = statuses(found, _decks(4), _numbers(1), _numbers())
    assert decks.schema["status"] == STATUS_ENUM
    assert decks.select("status", "legal").rows() == [
        ("illegal", False), ("needs_decision", False), ("illegal", False), ("legal", True)]
    assert found.select("held", "decision").rows() == [
        (False, False), (False, True), (False, False), (False, True)]


def test_a_counting_verdict_waits_for_a_decision_on_its_own_side() -> None:
    found = _found({"deck": 0, "code": "MAIN_TOO_SMALL"},  # deck side, deck open
                   {"deck": 1, "code": "MAIN_TOO_SMALL", "on_list": True},  # list side, deck open
                   {"deck": 2, "code": "LIMIT_EXCEEDED", "on_list": True},  # list side, list open
                   {"deck": 3, "code": "FORBIDDEN_CARD"})  # not a counting verdict: never waits
    found, decks = statuses(found, _decks(4), _numbers(0, 1, 3), _numbers(2))
    assert found["held"].to_list() == [True, False, True, False]
    assert decks["status"].to_list() == ["needs_decision", "illegal", "needs_decision",
                                         "illegal"]


@pytest.mark.parametrize(("open_decks", "open_lists", "held"), [
    ((0,), (), True), ((), (0,), True), ((), (), False), ((1,), (1,), False)])
def test_the_list_comparison_waits_for_a_decision_on_either_side(
        open_decks: tuple[int, ...], open_lists: tuple[int, ...], held: bool) -> None:
    found, decks = statuses(_found({"deck": 0, "code": "LIST_MISMATCH"}), _decks(2),
                            _numbers(*open_decks), _numbers(*open_lists))
    assert found["held"].to_list() == [held]
    assert decks["status"][0] == ("needs_decision" if held else "illegal")


def test_open_decisions_are_unresolved_names_and_unreadable_rows_of_one_side() -> None:
    rows = pl.DataFrame({"deck": _numbers(0, 0, 2),
                         "status": ["ok", "unresolved", "ok"]})
    unread = pl.DataFrame({"deck": _numbers(1, 3), "on_list": [False, True]})
    assert sorted(open_decisions(rows, unread, on_list=False).to_list()) == [0, 1]
    assert open_decisions(None, unread, on_list=True).to_list() == [3]
    assert open_decisions(rows, unread, on_list=True).to_list() == [0, 3]


# -- rows that could not be read ------------------------------------------------------------


def test_unreadable_rows_are_the_problems_of_a_player() -> None:
    problems = [Problem("lists.xlsx", 4, "C4", "cannot read the quantity", code="BAD_QUANTITY",
                        deck_id="p1", section="side"),
                Problem("lists.xlsx", 5, "C5", "no section", code="BAD_SECTION", deck_id="p2"),
                Problem("lists.xlsx", 1, None, "a header is missing",
                        code="NO_HEADER")]  # no player's
    rows = unreadable_rows(problems, on_list=True)
    assert rows.schema == pl.Schema(UNREADABLE_SCHEMA)
    assert rows.select("deck_id", "section", "line", "cell", "on_list").rows() == [
        ("p1", "side", 4, "C4", True), ("p2", "main", 5, "C5", True)]


def test_unreadable_rows_by_deck_keep_only_the_decks_checked() -> None:
    index = pl.DataFrame({"deck_id": ["b", "a"]}).with_row_index("deck")
    given = pl.DataFrame({"deck_id": ["a", "x", "b"], "message": ["m1", "m2", "m3"]})
    rows = unreadable_by_deck(given, index)
    assert "deck_id" not in rows.columns
    assert sorted(rows.select("deck", "message").rows()) == [(0, "m3"), (1, "m1")]
    assert rows["on_list"].null_count() == rows.height  # a column the frame lacked
    assert unreadable_by_deck(None, index).height == 0


# -- locating violations --------------------------------------------------------------------


def _entry_rows(file: str) -> pl.DataFrame:
    return pl.DataFrame({"passcode": [11, 22], "file": [file, file], "line": pl.Series(
        [3, 7], dtype=pl.Int32), "cell": [None, "B7"], "read_from": [None, "Pot of Greeed"]})


def test_violations_are_located_at_the_row_they_point_at() -> None:
    found = _found({"deck": 0, "code": "FORBIDDEN_CARD", "row": 1},
                   {"deck": 0, "code": "MAIN_TOO_SMALL"},  # points at no row
                   {"deck": 0, "code": "UNKNOWN_CARD", "row": 0, "passcode": 99})
    located = locate(found, _entry_rows("deck.ydk"))
    assert located.select("passcode", "file", "line", "cell", "read_from").rows() == [
        (22, "deck.ydk", 7, "B7", "Pot of Greeed"), (None, None, None, None, None),
        (99, "deck.ydk", 3, None, None)]  # what the rule filled in is kept


def test_violations_on_the_list_are_located_in_the_list() -> None:
    found = _found({"deck": 0, "code": "LIST_MISMATCH", "row": 0, "on_list": True},
                   {"deck": 0, "code": "FORBIDDEN_CARD", "row": 0})
    located = locate(found, _entry_rows("deck.ydk"), _entry_rows("lists.xlsx"))
    assert sorted(located.select("code", "file").rows()) == [
        ("FORBIDDEN_CARD", "deck.ydk"), ("LIST_MISMATCH", "lists.xlsx")]


def test_violation_points_at_the_sections_first_row(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Pot of Greed", 1), *legal_filler(demo_db, 39)],
                 side=[("Pot of Greed", 1)])
    side_line = deck.filter(pl.col("section") == "side")["line"][0]
    assert side_line > 1
    found = run(deck).violations.filter(pl.col("code") == "FORBIDDEN_CARD")
    assert found.select("section", "line").rows() == [("main", 1), ("side", side_line)]


def test_real_violations_point_at_the_line_of_their_card(ygojson_db: CardDB,
                                                         tcg_list: Banlist) -> None:
    """Every violation of a card in the WindBot decks names the file and line holding it."""
    files = read_deck_paths([shared_path("decks", "windbot")])
    result = check(files.entries, cards=ygojson_db, fmt=load_format("advanced-tcg"),
                   banlist=tcg_list)
    assert (result.decks["status"] == "illegal").sum() >= 10
    carded = result.violations.filter(pl.col("passcode").is_not_null())
    assert carded.height >= 10
    for file, line, passcode in carded.select("file", "line", "passcode").rows():
        text = shared_path("decks", "windbot", file.rsplit("/", 1)[-1]).read_text()
        assert int(text.splitlines()[line - 1].strip().lstrip("0")) == passcode
