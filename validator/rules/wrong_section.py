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
    in_main = ctx.named(ctx.known.filter(pl.col("is_extra") & (pl.col("main") > 0)))
    in_extra = ctx.named(ctx.known.filter(~pl.col("is_extra") & (pl.col("extra") > 0)))
    return [
        violations(in_main, "WRONG_SECTION",
                   pl.format("{} is an Extra Deck monster in the main deck", pl.col("card")),
                   section=pl.lit("main"), count=pl.col("main")),
        violations(in_extra, "WRONG_SECTION",
                   pl.format("{} is not an Extra Deck monster, but in the extra deck",
                             pl.col("card")),
                   section=pl.lit("extra"), count=pl.col("extra")),
    ]
