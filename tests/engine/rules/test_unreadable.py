from __future__ import annotations

import polars as pl

from tests.deckbuild import build, legal_filler
from validator.cards.db import CardDB
from validator.cards.load import load
from validator.engine.check import check


def _unreadable(deck_id: str) -> pl.DataFrame:
    return pl.DataFrame({"deck_id": [deck_id], "section": ["main"], "file": ["lists.xlsx"],
                         "line": [17], "cell": ["A17"],
                         "message": ["quantity 'three' is not a number 1-99"],
                         "on_list": [False]})


def _check(db: CardDB, deck: pl.DataFrame, unreadable: pl.DataFrame | None) -> pl.DataFrame:
    setup = load("advanced-tcg", db)
    result = check(deck, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                   unreadable=unreadable)
    return result.decks.join(result.violations, on="deck", how="left")


def test_pass_every_row_readable(demo_db: CardDB) -> None:
    rows = _check(demo_db, build(demo_db, "p", legal_filler(demo_db, 40)), None)
    assert rows["status"].cast(pl.Utf8).to_list() == ["legal"]


def test_fail_unreadable_row_needs_a_decision(demo_db: CardDB) -> None:
    # 37 readable cards: the small main deck waits for the decision on row 17
    deck = build(demo_db, "p", legal_filler(demo_db, 37))
    rows = _check(demo_db, deck, _unreadable("p"))
    assert rows["status"].cast(pl.Utf8).unique().to_list() == ["needs_decision"]
    by_code = {r["code"]: r for r in rows.iter_rows(named=True)}
    assert by_code["UNREADABLE_ROW"]["decision"] is True
    assert by_code["UNREADABLE_ROW"]["cell"] == "A17"
    assert by_code["MAIN_TOO_SMALL"]["held"] is True


def test_fail_a_fact_stands_beside_an_open_decision(demo_db: CardDB) -> None:
    deck = build(demo_db, "p", [("Pot of Greed", 1), *legal_filler(demo_db, 36)])
    rows = _check(demo_db, deck, _unreadable("p"))
    assert rows["status"].cast(pl.Utf8).unique().to_list() == ["illegal"]
    assert sorted(codes_of(rows)) == ["FORBIDDEN_CARD", "MAIN_TOO_SMALL", "UNREADABLE_ROW"]


def codes_of(rows: pl.DataFrame) -> list[str]:
    return rows["code"].drop_nulls().to_list()
