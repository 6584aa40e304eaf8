"""SKILL_COUNT: Speed Duel, more than one Skill card.

Regulation: Speed Duel deck construction (one Skill card); no penalty regulation has a clause
for it — head judge's decision.

PASS: one Skill card.  FAIL: two Skill cards.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import Context, Found, no_card_flags, say, violations

CODES = ("SKILL_COUNT",)
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    most = ctx.fmt.skill_max
    if most is None:
        return []
    per_deck = (
        ctx.known.filter(pl.col("kind") == "skill").group_by("deck")
        .agg(pl.col("total").sum().alias("count"))
        .filter(pl.col("count") > most)
    )
    return [violations(per_deck, "SKILL_COUNT",
                       lambda: say("{n} Skill cards; at most {limit}", n=pl.col("count"),
                           limit=pl.lit(most)),
                       count=pl.col("count"), limit=pl.lit(most))]
