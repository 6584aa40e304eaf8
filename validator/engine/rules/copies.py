"""TOO_MANY_COPIES: more than 3 copies of one card name across main, extra and side.

Alternate artworks and reprints are the same name and count together, and so do cards whose
text says their name "is always treated as" another card's (Harpie Lady 1 counts as Harpie
Lady, Fusion Substitute as Polymerization, A Legendary Ocean as Umi), as EDOPro counts
copies by alias and the official rulings limit such cards to 3 combined. A card merely
"treated as a "Kuriboh" card" is of that archetype, not of that name. Regulation: th §3A
(more than three cards of the same name in the deck) and ko §3A (4 or more copies of one
card in deck, extra and side deck) → Duel Forfeiture; ja: no clause in its copy.

PASS: 3 Ash Blossom; 3 Kuriboh + 3 Kuribee.  FAIL: 2 Dark Magician + 2 of its alternate
artwork → count 4, limit 3; 3 Harpie Lady + 1 Harpie Lady 1 → count 4, limit 3.
"""

from __future__ import annotations

from functools import cache, partial

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    Said,
    name_totals,
    no_card_flags,
    say,
    violations,
)

CODES = ("TOO_MANY_COPIES",)
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing);
    the cards of a name shared with others are added up by name, so each of them could."""
    return (pl.col("status") == "ok") & (pl.col("folded") | (pl.col("total") > fmt.copy_limit))


def check(ctx: Context) -> list[Found]:
    limit = ctx.fmt.copy_limit
    failing = ctx.named(name_totals(ctx).filter(pl.col("total") > limit))
    return [violations(failing, "TOO_MANY_COPIES", partial(_message, limit),
                       count=pl.col("total"), limit=pl.lit(limit))]


@cache  # built once: the same expressions serve every check
def _message(limit: int) -> Said:
    return say("{n} copies of {card} across main, extra and side{detail}; at most {limit}",
               n=pl.col("total"), card=Card(), detail=Card("detail"), limit=pl.lit(limit))
