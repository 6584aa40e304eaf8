"""NOT_IN_CARD_POOL: a card the format's card pool does not hold.

A card is outside the pool when the list is a whitelist that does not name it, when it was
not released in any of the format's regions (e.g. an OCG-only card at a TCG event), when it
belongs to the other game (a Rush card in OCG/TCG or the reverse), or when it is of a kind
the format has none of (tokens; skills outside Speed Duel). Regulation: th §3 and ko §3 (a
card that cannot be used in the tournament → Duel Forfeiture).

PASS: only cards on the whitelist.  FAIL: a Rush Duel card at a TCG event.
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("NOT_IN_CARD_POOL",)


def check(ctx: Context) -> list[pl.LazyFrame]:
    f = ctx.fmt
    reasons: list[tuple[pl.Expr, str]] = [
        (pl.col("rush") != f.rush,
         "is a Rush Duel card" if not f.rush else "is not a Rush Duel card"),
        (~pl.col("kind").cast(pl.Utf8).is_in(list(f.allowed_kinds)),
         "is a card of a kind this format does not use"),
    ]
    if ctx.whitelist:
        reasons.append((~pl.col("listed"), "is not on the format's list of legal cards"))
    if f.card_pool:
        released = pl.col("pools").list.set_intersection(pl.lit(f.card_pool)).list.len() > 0
        reasons.append((pl.col("pools").is_not_null() & ~released,
                        f"is not released in {'/'.join(p.upper() for p in f.card_pool)}"))
    reason = pl.coalesce([pl.when(cond).then(pl.lit(text)) for cond, text in reasons])
    failing = ctx.per_section.with_columns(reason.alias("reason")).filter(
        pl.col("reason").is_not_null())
    return [violations(failing, "NOT_IN_CARD_POOL",
                       pl.format("{} {} ({} in the {} deck)", pl.col("card"), pl.col("reason"),
                                 pl.col("qty"), pl.col("section").cast(pl.Utf8)),
                       count=pl.col("qty"))]
