from __future__ import annotations

import polars as pl

from validator.cards import fold_aliases, stable_negative_id


def test_fold_aliases_follows_chains_to_the_lowest_passcode() -> None:
    passcode = pl.Series([10, 11, 12, 20, 30, 31], dtype=pl.Int64)
    alias = pl.Series([0, 10, 11, 0, None, 30], dtype=pl.Int64)
    assert fold_aliases(passcode, alias).to_list() == [10, 10, 10, 20, 30, 30]


def test_fold_aliases_takes_group_minimum_when_alias_points_up() -> None:
    passcode = pl.Series([5, 7], dtype=pl.Int64)
    alias = pl.Series([7, 0], dtype=pl.Int64)
    assert fold_aliases(passcode, alias).to_list() == [5, 5]


def test_stable_negative_id_is_stable_and_negative() -> None:
    assert stable_negative_id("abc") == stable_negative_id("abc")
    assert stable_negative_id("abc") < 0
    assert stable_negative_id("abc") != stable_negative_id("abd")


def test_names_table_has_every_language(demo_db) -> None:  # type: ignore[no-untyped-def]
    names = demo_db.names
    ash = names.filter(pl.col("card_id") == 14558127)
    assert set(ash["lang"]) >= {"en", "ja", "ko"}
    assert "灰流うらら" in ash["name"].to_list()
