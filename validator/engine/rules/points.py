"""POINTS_EXCEEDED: Genesys, the points of main+extra+side together above the cap (100).

Every copy costs the card's points on the format's points list; unlisted cards cost 0.
Regulation: the Genesys format's points cap; no penalty regulation has a clause for it —
head judge's decision.

PASS: 100 points.  FAIL: 3 Pot of Greed (30 each) + 1 card of 20 → 110.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import Context, Found, no_card_flags, say, violations

CODES = ("POINTS_EXCEEDED",)
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    cap = ctx.fmt.points_cap
    if cap is None:
        return []
    per_deck = (
        ctx.known.filter(pl.col("points") > 0).group_by("deck")
        .agg((pl.col("total") * pl.col("points")).sum().alias("points"))
        .filter(pl.col("points") > cap)
    )
    return [violations(per_deck, "POINTS_EXCEEDED",
                       lambda: say("Deck totals {points} points; the cap is {cap}",
                           points=pl.col("points"), cap=pl.lit(cap)),
                       count=pl.col("points").ceil(), limit=pl.lit(cap).floor())]
