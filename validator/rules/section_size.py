"""Section sizes: MAIN_TOO_SMALL, MAIN_TOO_LARGE, EXTRA_TOO_LARGE, SIDE_TOO_LARGE.

The main deck holds 40 to 60 cards, the extra and side decks at most 15 each (Speed Duel:
20-30 and 5). Regulation: th §3 (deck of fewer than 40 or more than 60 cards → Duel
Forfeiture), ko §3 (main deck under 40 → Duel Forfeiture; add cards to reach 40).

PASS: 40 main, 15 extra, 15 side.  FAIL: 39 main → MAIN_TOO_SMALL (count 39, limit 40).
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("MAIN_TOO_SMALL", "MAIN_TOO_LARGE", "EXTRA_TOO_LARGE", "SIDE_TOO_LARGE")


def check(ctx: Context) -> list[pl.LazyFrame]:
    f = ctx.fmt
    bounds = [
        ("MAIN_TOO_SMALL", "main", pl.col("main") < f.main_min, f.main_min,
         "Main deck has {} cards; at least {} are required"),
        ("MAIN_TOO_LARGE", "main", pl.col("main") > f.main_max, f.main_max,
         "Main deck has {} cards; at most {} are allowed"),
        ("EXTRA_TOO_LARGE", "extra", pl.col("extra") > f.extra_max, f.extra_max,
         "Extra deck has {} cards; at most {} are allowed"),
        ("SIDE_TOO_LARGE", "side", pl.col("side") > f.side_max, f.side_max,
         "Side deck has {} cards; at most {} are allowed"),
    ]
    return [
        violations(ctx.sizes.filter(failing), code,
                   pl.format(text, pl.col(section), pl.lit(limit)),
                   section=pl.lit(section), count=pl.col(section), limit=pl.lit(limit))
        for code, section, failing, limit, text in bounds
    ]
