"""The benchmark's DuckDB anchor gives the engine's and the reference's verdicts."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench.reference import ReferenceChecker, Verdict, engine_verdicts
from bench.sql import SHAPES, sql_verdicts
from bench.synth import synthesize
from tests.conftest import shared_path
from tests.test_bench_reference import _decks
from validator.cards.db import CardDB
from validator.cards.load import load
from validator.engine.check import check


def _agree(cards: CardDB, banlist: str | None, folder: Path, players: int) -> set[str]:
    """Engine, reference and every query shape agree, legality only and with lists; the
    codes found."""
    setup = load("advanced-tcg", cards, banlist)
    event = synthesize(cards, setup.banlist, setup.fmt, players, seed=3, rate=0.05)
    decks, lists = folder / "decks.parquet", folder / "lists.parquet"
    event.decks.write_parquet(decks)
    event.registered.write_parquet(lists)
    reference = ReferenceChecker(cards, setup.banlist, setup.fmt)
    listed = _decks(event.registered)
    for registered in (None, event.registered):
        result = check(event.decks, cards=cards, fmt=setup.fmt, banlist=setup.banlist,
                       registered=registered)
        engine = engine_verdicts(result.violations)
        expected = Counter(v for deck, rows in _decks(event.decks).items()
                           for v in reference.check_deck(
                               deck, rows, None if registered is None else listed.get(deck, [])))
        assert engine == expected
        for shape in SHAPES:
            found = sql_verdicts(reference, decks, None if registered is None else lists,
                                 shape=shape)
            assert Counter[Verdict](found.iter_rows()) == engine, shape
    return {code for _, code, _, _ in engine}


def test_duckdb_anchor_agrees_on_the_demo_pool(demo_db: CardDB, tmp_path: Path) -> None:
    codes = _agree(demo_db, None, tmp_path, 600)
    assert codes >= {"MAIN_TOO_SMALL", "EXTRA_TOO_LARGE", "TOO_MANY_COPIES", "LIMIT_EXCEEDED",
                     "FORBIDDEN_CARD", "NOT_IN_CARD_POOL", "WRONG_SECTION", "UNKNOWN_CARD",
                     "LIST_MISMATCH"}


def test_duckdb_anchor_agrees_on_real_card_data(ygojson_db: CardDB, tmp_path: Path) -> None:
    """Real cards: alternate artworks, cards without release information, the TCG list."""
    codes = _agree(ygojson_db, str(shared_path("lflist", "0TCG.lflist.conf")), tmp_path, 1_000)
    assert {"FORBIDDEN_CARD", "LIMIT_EXCEEDED", "LIST_MISMATCH"} <= codes


def test_duckdb_anchor_refuses_formats_it_does_not_cover(demo_db: CardDB,
                                                         tmp_path: Path) -> None:
    setup = load("genesys", demo_db)
    with pytest.raises(ValueError, match="genesys"):
        sql_verdicts(ReferenceChecker(demo_db, setup.banlist, setup.fmt), tmp_path / "d",
                     None)
