from __future__ import annotations

import sqlite3
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.db import CardDB
from validator.cards.importers import cdb
from validator.errors import InputError


def test_rush_database_counts(rush_db: CardDB) -> None:
    assert rush_db.printings.height == 3478
    assert int(rush_db.printings["legend"].sum()) == 127
    assert rush_db.printings["rush"].all()


def test_rush_legend_and_extra_bits(rush_db: CardDB) -> None:
    blue_eyes = rush_db.printings.filter(pl.col("passcode") == 160001000).row(0, named=True)
    assert blue_eyes["name_en"] == "Blue-Eyes White Dragon (Rush)"
    assert (blue_eyes["legend"], blue_eyes["kind"], blue_eyes["extra"]) == (True, "monster",
                                                                           False)
    # type 97 = monster | effect | fusion: an Extra Deck monster
    fusion = rush_db.printings.filter(pl.col("passcode") == 160013035).row(0, named=True)
    assert fusion["extra"] is True


def test_reprint_alias_in_the_same_database_is_one_name(rush_db: CardDB) -> None:
    # 160013122 "Star Replacer" has alias 160013022, the same card under its first passcode
    pair = rush_db.printings.filter(pl.col("passcode").is_in([160013122, 160013022]))
    assert pair["card_id"].unique().to_list() == [160013022]


def test_alias_to_a_card_outside_the_database_is_not_folded(rush_db: CardDB) -> None:
    # Rush Blue-Eyes has alias 89631139 (the OCG card), which this database does not hold
    row = rush_db.printings.filter(pl.col("passcode") == 160001000).row(0, named=True)
    assert row["card_id"] == 160001000


def test_delta_alternate_artworks_within_ten_are_folded() -> None:
    delta = cdb.read(shared_path("cdb", "cards.delta.cdb"))
    firewall = delta.printings.filter(pl.col("passcode").is_in([5043010, 5043011, 5043012,
                                                            5043013]))
    assert firewall["card_id"].unique().to_list() == [5043010]
    # 295517 has alias 22702055: a "treated as" link, far off, not folded
    legendary = delta.printings.filter(pl.col("passcode") == 295517)
    assert legendary["card_id"].to_list() == [295517]


def _tiny_cdb(path: Path, rows: list[tuple[int, int, int, int, str]]) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE datas(id integer primary key, ot integer, alias integer,"
                     " setcode integer, type integer, atk integer, def integer, level integer,"
                     " race integer, attribute integer, category integer)")
        conn.execute("CREATE TABLE texts(id integer primary key, name text, desc text)")
        for code, ot, alias, kind, name in rows:
            conn.execute("INSERT INTO datas VALUES (?,?,?,0,?,0,0,0,0,0,0)",
                         (code, ot, alias, kind))
            conn.execute("INSERT INTO texts VALUES (?,?,'')", (code, name))
    return path


def test_type_bits_give_kinds(tmp_path: Path) -> None:
    db = cdb.read(_tiny_cdb(tmp_path / "t.cdb", [
        (100, 3, 0, 0x21, "Effect Monster"),
        (101, 3, 0, 0x800021, "Xyz Monster"),
        (102, 3, 0, 0x1000021, "Pendulum Monster"),
        (103, 3, 0, 0x2, "A Spell"),
        (104, 3, 0, 0x4, "A Trap"),
        (105, 3, 0, 0x4011, "A Token"),
        (106, 3, 100, 0x21, "Effect Monster"),
    ]))
    rows = {r["passcode"]: r for r in db.printings.iter_rows(named=True)}
    assert [rows[c]["kind"] for c in (100, 103, 104, 105)] == ["monster", "spell", "trap",
                                                                "token"]
    assert (rows[101]["extra"], rows[102]["extra"]) == (True, False)
    assert "pendulum" in rows[102]["subtypes"]
    assert rows[106]["card_id"] == 100
    assert rows[100]["pools"] == ["ocg", "tcg"]


def test_corrupt_sqlite_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "cards.cdb"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x13" * 2000)
    with pytest.raises(InputError) as info:
        cdb.read(bad)
    assert info.value.file == str(bad)
    assert info.value.codes == ["BAD_CARD_DATA"]


def test_empty_and_wrong_schema(tmp_path: Path) -> None:
    empty = tmp_path / "empty.cdb"
    empty.write_bytes(b"")
    with pytest.raises(InputError) as info:
        cdb.read(empty)
    assert info.value.codes == ["EMPTY_FILE"]
    other = tmp_path / "other.cdb"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE x(a)")
    with pytest.raises(InputError) as info:
        cdb.read(other)
    assert info.value.codes == ["BAD_CARD_DATA"]
