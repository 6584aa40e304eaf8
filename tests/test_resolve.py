from __future__ import annotations

import polars as pl

from validator.cards import CardDB
from validator.entries import entries_frame
from validator.resolve import resolve


def _names(*names: str) -> pl.DataFrame:
    return entries_frame([{"deck_id": "d", "section": "main", "name": n, "qty": 1,
                           "line": i + 1} for i, n in enumerate(names)])


def _resolved(cards: CardDB, *names: str) -> dict[str, dict[str, object]]:
    out = resolve(_names(*names), cards, rush=False)
    return {row["name"]: row for row in out.iter_rows(named=True)}


def test_typo_gets_a_suggestion_but_is_not_accepted(demo_db: CardDB) -> None:
    row = _resolved(demo_db, "Ash Blosom")["Ash Blosom"]
    assert row["status"] == "unresolved"
    assert row["card_id"] is None
    assert row["suggestions"][0] == "Ash Blossom & Joyous Spring"  # type: ignore[index]


def test_dark_magician_never_becomes_dark_magician_girl(demo_db: CardDB) -> None:
    rows = _resolved(demo_db, "Dark Magician", "dark magician", "Dark Magician Gir")
    dark_magician = demo_db.cards.filter(pl.col("passcode") == 46986414)["card_id"][0]
    girl = demo_db.cards.filter(pl.col("name_en") == "Dark Magician Girl")["card_id"][0]
    assert rows["Dark Magician"]["card_id"] == dark_magician
    assert rows["dark magician"]["card_id"] == dark_magician
    assert rows["Dark Magician Gir"]["card_id"] in (None, girl)
    assert rows["Dark Magician Gir"]["card_id"] != dark_magician


def test_japanese_and_korean_names_resolve_to_the_english_card(ygojson_db: CardDB) -> None:
    rows = _resolved(ygojson_db, "Ash Blossom & Joyous Spring", "灰流うらら", "하루 우라라",
                     "ブラック・マジシャン", "블랙 매지션", "Dark Magician")
    assert rows["灰流うらら"]["card_id"] == rows["Ash Blossom & Joyous Spring"]["card_id"]
    assert rows["하루 우라라"]["card_id"] == rows["Ash Blossom & Joyous Spring"]["card_id"]
    assert rows["ブラック・マジシャン"]["card_id"] == rows["Dark Magician"]["card_id"]
    assert rows["블랙 매지션"]["card_id"] == rows["Dark Magician"]["card_id"]
    assert all(r["status"] == "ok" for r in rows.values())


def test_near_identical_typo_is_accepted_and_marked_fuzzy(demo_db: CardDB) -> None:
    row = _resolved(demo_db, "Infinite Impermenance")["Infinite Impermenance"]
    assert (row["status"], row["how"], row["card_id"]) == ("ok", "fuzzy", 10045474)


def test_passcodes_known_and_unknown(demo_db: CardDB) -> None:
    entries = entries_frame([
        {"deck_id": "d", "section": "main", "passcode": 46986421, "qty": 1},
        {"deck_id": "d", "section": "main", "passcode": 12, "qty": 1}])
    out = resolve(entries, demo_db)
    assert out.select("card_id", "status").rows() == [(36996508, "ok"), (None, "unknown")]


def test_no_row_is_lost(demo_db: CardDB) -> None:
    names = ["Ash Blossom & Joyous Spring", "Ash Blosom", "Pot of Greed", "zzzz", "灰流うらら",
             "Nope Nope Nope"]
    out = resolve(_names(*names), demo_db)
    assert out.height == len(names)
    resolved = out.filter(pl.col("status") == "ok").height
    reported = out.filter(pl.col("status") != "ok").height
    assert resolved + reported == len(names)
    assert resolved == 3
