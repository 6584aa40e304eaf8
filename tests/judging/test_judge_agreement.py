"""The judge's check waits as the player's does; which counts say anything but the list."""

from __future__ import annotations

import polars as pl

from validator.cards.db import CardDB
from validator.cards.load import load
from validator.engine.status import unreadable_rows
from validator.errors import Problem
from validator.inputs.entries import entries_frame
from validator.judging.judge import (
    ListLine,
    counts_changed,
    found_deck,
    judge_check,
    registered_lines,
)

LIST = entries_frame([{"deck_id": "P1", "section": "main", "passcode": 14558127, "qty": 3,
                       "file": "l.csv", "line": 2, "cell": "D2"}] * 12
                     + [{"deck_id": "P1", "section": "main", "name": "Ash Blosom", "qty": 1,
                         "file": "l.csv", "line": 3, "cell": "D3"}])
ROW = Problem("l.csv", 4, "A4", "quantity 'three' is not a number 1-99", code="BAD_QUANTITY",
              deck_id="P1", section="main", text="Pot of Greed")


def _status(demo_db: CardDB, *, counted: bool) -> tuple[str, list[bool]]:
    setup = load("advanced-tcg", demo_db)
    deck = found_deck("P1", {("main", 14558127): 3}, [])
    checked = judge_check("P1", deck, LIST, cards=setup.cards, fmt=setup.fmt,
                          banlist=setup.banlist, stage="in-duel", duel=1,
                          unreadable=unreadable_rows([ROW], True), counted=counted)
    result = checked.result
    small = result.violations.filter(pl.col("code") == "MAIN_TOO_SMALL")
    return str(result.decks["status"].item()), small["held"].to_list()


def test_a_counted_deck_waits_with_its_lists_open_lines(demo_db: CardDB) -> None:
    assert _status(demo_db, counted=True) == ("needs_decision", [True])


def test_a_pasted_deck_is_judged_as_it_is(demo_db: CardDB) -> None:
    assert _status(demo_db, counted=False) == ("illegal", [False])


def test_each_open_line_is_listed_at_its_address_with_its_card(demo_db: CardDB) -> None:
    setup = load("advanced-tcg", demo_db)
    twice = pl.concat([LIST, LIST.tail(1).with_columns(pl.lit("D5").alias("cell"))])
    lines = [line for line in registered_lines(twice, setup.cards, setup.fmt, [ROW])
             if line.key is None]
    assert [(line.where, line.name, line.read_as) for line in lines] == [
        ("D3", "Ash Blosom", ""), ("D5", "Ash Blosom", ""),
        ("A4", "Pot of Greed", "Pot of Greed")]
    assert "Ash Blossom & Joyous Spring" in lines[0].candidates


LINES = [ListLine("monster", "main", 1, "A", 3, "D2"), ListLine("side", "side", 2, "B", 2, "D3"),
         ListLine("unreadable", "main", None, "C", None, "D4")]


def test_counts_as_listed_change_nothing() -> None:
    assert not counts_changed(LINES, {("main", 1): 3, ("side", 2): 2}, [])
    assert not counts_changed(LINES, {}, [])  # a count not sent is the list's


def test_a_count_changed_or_a_card_added_is_a_change() -> None:
    assert counts_changed(LINES, {("main", 1): 2, ("side", 2): 2}, [])
    assert counts_changed(LINES, {("main", 1): 3}, [("main", "Raigeki", 1)])
    assert counts_changed(LINES, {("extra", 9): 1}, [])
    assert not counts_changed(LINES, {("extra", 9): 0}, [])
