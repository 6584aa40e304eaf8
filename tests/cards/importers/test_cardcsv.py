from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from validator.cards.db import CardDB
from validator.cards.importers import cardcsv
from validator.errors import InputError


def test_reads_columns_and_folds_alias(tmp_path: Path) -> None:
    src = tmp_path / "cards.csv"
    src.write_text(
        "Passcode,Name,Alias,Kind,Extra,Legend,Points,name_ja\n"
        "46986414,Dark Magician,,monster,no,no,0,ブラック・マジシャン\n"
        "46986421,Dark Magician,46986414,monster,no,no,,\n"
        "86066372,Accesscode Talker,,monster,yes,no,,\n",
        encoding="utf-8",
    )
    db = cardcsv.read(src)
    rows = {r["passcode"]: r for r in db.printings.iter_rows(named=True)}
    assert rows[46986421]["card_id"] == 46986414
    assert rows[86066372]["extra"] is True
    assert rows[46986414]["name_ja"] == "ブラック・マジシャン"


def test_every_bad_row_is_reported_with_its_row(tmp_path: Path) -> None:
    src = tmp_path / "cards.csv"
    src.write_text(
        "passcode,name,kind,extra\n"
        "12ab,Bad Code,monster,no\n"
        "1,Good,monster,no\n"
        "2,Bad Kind,creature,no\n"
        "3,Bad Flag,monster,maybe\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as info:
        cardcsv.read(src)
    assert [(p.line, p.column) for p in info.value.problems] == [
        (2, "passcode"), (4, "kind"), (5, "extra")]


def test_missing_header_column(tmp_path: Path) -> None:
    src = tmp_path / "cards.csv"
    src.write_text("code,title\n1,x\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        cardcsv.read(src)
    assert info.value.codes == ["MISSING_COLUMN", "MISSING_COLUMN"]  # passcode and name


def test_demo_pool_loads(demo_db: CardDB) -> None:
    assert demo_db.card_count() > 300
    assert demo_db.printings.filter(pl.col("legend"))["kind"].unique().sort().to_list() == [
        "monster", "spell", "trap"]
