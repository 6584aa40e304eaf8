"""FORBIDDEN_CARD_TYPE: a card of a type the format bans.

GOAT: Synchro, Xyz, Pendulum and Link monsters; Genesys: Link and Pendulum monsters.
Regulation: th §3 and ko §3 (a card that cannot be used in the tournament → Duel Forfeiture).

PASS: a Fusion monster in GOAT.  FAIL: a Link monster in Genesys.
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("FORBIDDEN_CARD_TYPE",)


def check(ctx: Context) -> list[pl.LazyFrame]:
    banned = ctx.fmt.forbidden_types
    if not banned:
        return []
    hit = pl.col("subtypes").list.set_intersection(pl.lit(banned))
    failing = ctx.per_section.with_columns(hit.list.join("/").alias("types")).filter(
        pl.col("types") != "")
    return [violations(failing, "FORBIDDEN_CARD_TYPE",
                       pl.format("{} is a {} monster, which this format does not allow",
                                 pl.col("card"), pl.col("types")),
                       count=pl.col("qty"))]
