from __future__ import annotations

import polars as pl

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def _with_skills(db: CardDB) -> CardDB:
    extra = pl.DataFrame({"passcode": [900000001, 900000002], "card_id": [900000001, 900000002],
                          "name_id": [900000001, 900000002],
                          "name_en": ["Skill A", "Skill B"]}).with_columns(
        pl.lit("skill").cast(db.printings.schema["kind"]).alias("kind"))
    return CardDB(pl.concat([db.printings, extra], how="diagonal").with_columns(
        pl.col("extra", "rush", "legend").fill_null(False),
        pl.when(pl.col("kind") == "skill").then(pl.lit(["speed"])).otherwise(pl.col("pools"))
        .alias("pools")), sources=db.sources)


def test_pass_one_skill(run: Run, demo_db: CardDB) -> None:
    db = _with_skills(demo_db)
    deck = build(db, "d", legal_filler(db, 20), side=[(900000001, 1)])
    assert "SKILL_COUNT" not in codes(run(deck, fmt="speed", cards=db))


def test_fail_two_skills(run: Run, demo_db: CardDB) -> None:
    db = _with_skills(demo_db)
    deck = build(db, "d", legal_filler(db, 20), side=[(900000001, 1), (900000002, 1)])
    assert "SKILL_COUNT" in codes(run(deck, fmt="speed", cards=db))
