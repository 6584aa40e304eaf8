from __future__ import annotations

import sqlite3
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler, real_filler
from validator.cards.banlist import Banlist, parse_lflist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.importers import cdb
from validator.engine.check import check


def test_pass_three_copies(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Ash Blossom & Joyous Spring", 3),
                                *legal_filler(demo_db, 37)])
    assert codes(run(deck)) == []


def test_fail_alternate_artworks_count_together(run: Run, demo_db: CardDB) -> None:
    # Dark Magician 46986414 and its alternate artwork 46986421 are one card name
    deck = build(demo_db, "d", [(46986414, 2), (46986421, 1), *legal_filler(demo_db, 37)],
                 side=[(36996508, 1)])
    result = run(deck)
    assert codes(result) == ["TOO_MANY_COPIES"]
    row = result.violations.row(0, named=True)
    assert (row["count"], row["limit"], row["card"]) == (4, 3, "Dark Magician")


def _named(db: CardDB, name: str) -> int:
    """The lowest passcode of the OCG/TCG card printed with this English name."""
    found = db.by_card.filter((pl.col("name_en") == name) & ~pl.col("rush")
                              & pl.col("kind").is_in(["monster", "spell", "trap"]))
    assert found.height == 1, name
    return int(found["passcode"][0])


TREATED_AS = [
    # (cards, the code the deck must get or None for a legal deck)
    ([("Harpie Lady", 3), ("Harpie Lady 1", 1)], "TOO_MANY_COPIES"),
    ([("Polymerization", 3), ("Fusion Substitute", 1)], "TOO_MANY_COPIES"),
    ([("Umi", 3), ("A Legendary Ocean", 1)], "TOO_MANY_COPIES"),
    ([("Harpie Lady 2", 2), ("Cyber Harpie Lady", 1)], None),  # three of one name: legal
    # Kuribee "is always treated as a "Kuriboh" card": an archetype, not the name
    ([("Kuriboh", 3), ("Kuribee", 3)], None),
]


@pytest.mark.parametrize(("cards", "expected"), TREATED_AS,
                         ids=[" + ".join(n for n, _ in c) for c, _ in TREATED_AS])
def test_cards_always_treated_as_a_name_count_with_it(
        ygojson_db: CardDB, tcg_list: Banlist, cards: list[tuple[str, int]],
        expected: str | None) -> None:
    named = [(_named(ygojson_db, name), qty) for name, qty in cards]
    size = sum(q for _, q in cards)
    deck = build(ygojson_db, "d", [*named, *real_filler(ygojson_db, tcg_list, 40 - size)])
    result = check(deck, cards=ygojson_db, fmt=load_format("advanced-tcg"), banlist=tcg_list)
    assert codes(result) == ([expected] if expected else [])
    if expected:
        row = result.violations.row(0, named=True)
        assert (row["count"], row["limit"], row["card"]) == (4, 3, cards[0][0])
        assert cards[1][0] in row["message"]


def test_a_cdb_alias_at_any_distance_is_one_name(tmp_path: Path) -> None:
    # EDOPro writes Harpie Lady 1 with alias 76812113 (Harpie Lady): one name, two cards
    path = tmp_path / "harpies.cdb"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE datas(id integer primary key, ot integer, alias integer,"
                     " type integer)")
        conn.execute("CREATE TABLE texts(id integer primary key, name text)")
        for code, alias, name in ((76812113, 0, "Harpie Lady"),
                                  (91932350, 76812113, "Harpie Lady 1")):
            conn.execute("INSERT INTO datas VALUES (?, 3, ?, 17)", (code, alias))
            conn.execute("INSERT INTO texts VALUES (?, ?)", (code, name))
    db = cdb.read(path)
    deck = build(db, "d", [(76812113, 3), (91932350, 1)])
    result = check(deck, cards=db, fmt=load_format("advanced-tcg"),
                   banlist=parse_lflist("!Empty TCG\n", "empty.conf")[0])
    assert "TOO_MANY_COPIES" in codes(result)
    ids = dict(db.printings.select("passcode", "card_id").iter_rows())
    assert ids[91932350] != ids[76812113]  # two cards: a list must name the one played
