"""LEGEND_LIMIT_EXCEEDED: Rush Duel, more than one Legend card of one card type.

At most one Legend Monster, one Legend Spell and one Legend Trap in the main and extra deck
together; the side deck is not counted. Regulation: ko §3A (more Legend cards than allowed →
Duel Forfeiture; remove the inappropriate cards to make the deck legal); th and ja say
nothing of Legend cards — head judge's decision.

PASS: one Legend Monster and one Legend Spell.  FAIL: two different Legend Monsters.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    Term,
    no_card_flags,
    say,
    violations,
)
from validator.vocab import LANGS

CODES = ("LEGEND_LIMIT_EXCEEDED",)
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    limit = ctx.fmt.legend_limit
    if limit is None:
        return []
    per_type = (
        ctx.named(ctx.known.filter(pl.col("is_legend") & (pl.col("main") + pl.col("extra") > 0)))
        .group_by("deck", "kind")
        .agg((pl.col("main") + pl.col("extra")).sum().alias("count"),
             *[Card().expr(lang).unique().sort().str.join(", ")
               .alias("cards" if lang == "en" else f"cards_{lang}") for lang in LANGS])
        .filter(pl.col("count") > limit)
    )
    return [violations(per_type, "LEGEND_LIMIT_EXCEEDED",
                       lambda: say("{n} Legend {kind} cards in main+extra ({cards}); at most "
                                   "{limit}", n=pl.col("count"),
                                   kind=Term(pl.col("kind").cast(pl.Utf8), "kind"),
                                   cards=Card("cards"), limit=pl.lit(limit)),
                       count=pl.col("count"), limit=pl.lit(limit))]
