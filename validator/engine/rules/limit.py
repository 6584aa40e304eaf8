"""LIMIT_EXCEEDED: more copies (all sections together) than the list's Limited (1) or
Semi-Limited (2).

The limit binds to the card name, so it counts every printing and every card whose name is
always treated as that name. Regulation: th §3A and ko §3A (more Forbidden/Limited/
Semi-Limited cards than allowed → Duel Forfeiture; remove the cards to make the deck legal);
ja: no clause in its copy.

PASS: 1 copy of a Limited card.  FAIL: a Limited card once in main and once (an alternate
artwork) in side → count 2, limit 1.
"""

from __future__ import annotations

from functools import cache

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    Said,
    Term,
    name_totals,
    no_card_flags,
    say,
    violations,
)

CODES = ("LIMIT_EXCEEDED",)
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing);
    the cards of a name shared with others are added up by name, so each of them could."""
    return (pl.col("status") == "ok") & (pl.col("folded") | (
        (pl.col("limit") > 0) & (pl.col("limit") < fmt.copy_limit)
        & (pl.col("total") > pl.col("limit"))))


def check(ctx: Context) -> list[Found]:
    failing = ctx.named(name_totals(ctx).filter(
        (pl.col("limit") > 0) & (pl.col("limit") < ctx.fmt.copy_limit)
        & (pl.col("total") > pl.col("limit"))))
    return [violations(failing, "LIMIT_EXCEEDED", _message, count=pl.col("total"))]


@cache  # built once: the same expressions serve every check
def _message() -> Said:
    status = pl.col("limit").replace_strict({1: "Limited"}, default="Semi-Limited",
                                            return_dtype=pl.Utf8)
    return say("{n} copies of {card}{detail}, which is {status} (at most {limit})",
               n=pl.col("total"), card=Card(), detail=Card("detail"),
               status=Term(status, "limit status"), limit=pl.col("limit"))
