"""FORBIDDEN_CARD: a card the Forbidden/Limited list sets to 0, in any section (side too).

A limit on any printing applies to the card name, and to cards whose name is always treated
as that name. In a format where Forbidden cards count as Limited (Traditional) the card is
Limited instead. Regulation: th §3A (a card prohibited from use in the main or side deck)
and ko §3A (more Forbidden, Limited or Semi-Limited cards than allowed) → Duel Forfeiture;
ja: no clause in its copy.

PASS: no Forbidden card.  FAIL: 1 Pot of Greed in the side deck under the TCG list.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import Context, by_section, no_card_flags, violations

CODES = ("FORBIDDEN_CARD",)
DECISION = False
COUNTS = False
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[pl.LazyFrame]:
    failing = by_section(ctx.named(ctx.known.filter(pl.col("limit") == 0), "counts_as"))
    treated = pl.when(pl.col("counts_as").is_not_null()).then(
        pl.format(" (its name is always treated as {})", pl.col("counts_as"))).otherwise(
        pl.lit(""))
    return [violations(failing, "FORBIDDEN_CARD",
                       pl.format("{}{} is Forbidden ({} in the {} deck)", pl.col("card"),
                                 treated, pl.col("qty"), pl.col("section").cast(pl.Utf8)),
                       count=pl.col("qty"), limit=pl.lit(0))]
