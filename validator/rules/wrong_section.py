"""WRONG_SECTION: an Extra Deck monster (Fusion, Synchro, Xyz, Link) in the main deck, or a
card that is not an Extra Deck monster in the extra deck. The side deck may hold both.

Regulation: th §3 and ko §3 (an illegal deck → Duel Forfeiture; make the deck legal).

PASS: Accesscode Talker in the extra deck.  FAIL: Accesscode Talker in the main deck.
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("WRONG_SECTION",)


def check(ctx: Context) -> list[pl.LazyFrame]:
    wrong = ((pl.col("section") == "main") & pl.col("extra")) | (
        (pl.col("section") == "extra") & ~pl.col("extra"))
    failing = ctx.per_section.filter(wrong)
    where = pl.when(pl.col("extra")).then(pl.lit("an Extra Deck monster in the main deck")
                                          ).otherwise(pl.lit("not an Extra Deck monster, "
                                                             "but in the extra deck"))
    return [violations(failing, "WRONG_SECTION", pl.format("{} is {}", pl.col("card"), where),
                       count=pl.col("qty"))]
