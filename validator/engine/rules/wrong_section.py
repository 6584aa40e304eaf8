"""WRONG_SECTION: an Extra Deck monster (Fusion, Synchro, Xyz, Link) in the main deck, or a
card that is not an Extra Deck monster in the extra deck. The side deck may hold both.

Regulation: no penalty regulation has a clause for a card in the wrong section — head
judge's decision (make the deck legal).

PASS: Accesscode Talker in the extra deck.  FAIL: Accesscode Talker in the main deck.
"""

from __future__ import annotations

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    no_card_flags,
    say,
    violations,
)

CODES = ("WRONG_SECTION",)
DECISION = False
COUNTS = False
COMPARES = False
card_flags = no_card_flags


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing)."""
    return (pl.col("status") == "ok") & (
        (pl.col("is_extra") & (pl.col("main") > 0)) | (~pl.col("is_extra") & (pl.col("extra") > 0)))


def check(ctx: Context) -> list[Found]:
    in_main = ctx.named(ctx.known.filter(pl.col("is_extra") & (pl.col("main") > 0)))
    in_extra = ctx.named(ctx.known.filter(~pl.col("is_extra") & (pl.col("extra") > 0)))
    return [
        violations(in_main, "WRONG_SECTION",
                   lambda: say("{card} is an Extra Deck monster in the main deck", card=Card()),
                   section=pl.lit("main"), count=pl.col("main")),
        violations(in_extra, "WRONG_SECTION",
                   lambda: say("{card} is not an Extra Deck monster, but in the extra deck",
                       card=Card()),
                   section=pl.lit("extra"), count=pl.col("extra")),
    ]
