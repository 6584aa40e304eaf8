"""TOO_MANY_COPIES: more than 3 copies of one card name across main, extra and side.

Alternate artworks and reprints are the same name and count together. Regulation: th §3
(more than three cards of the same name in deck, extra and side deck → Duel Forfeiture),
ko §3 (4 or more copies of one card → Duel Forfeiture).

PASS: 3 Ash Blossom.  FAIL: 2 Dark Magician + 2 of its alternate artwork → count 4, limit 3.
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("TOO_MANY_COPIES",)


def check(ctx: Context) -> list[pl.LazyFrame]:
    limit = ctx.fmt.copy_limit
    failing = ctx.named(ctx.known.filter(pl.col("total") > limit))
    return [violations(failing, "TOO_MANY_COPIES",
                       pl.format("{} copies of {} across main, extra and side; at most {}",
                                 pl.col("total"), pl.col("card"), pl.lit(limit)),
                       count=pl.col("total"), limit=pl.lit(limit))]
