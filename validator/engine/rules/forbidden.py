"""FORBIDDEN_CARD: a card the Forbidden/Limited list sets to 0, in any section (side too).

A limit on any printing applies to the card name, and to cards whose name is always treated
as that name. In a format where Forbidden cards count as Limited (Traditional) the card is
Limited instead. Regulation: th §3A (a card prohibited from use in the main or side deck)
and ko §3A (more Forbidden, Limited or Semi-Limited cards than allowed) → Duel Forfeiture;
ja: no clause in its copy.

PASS: no Forbidden card.  FAIL: 1 Pot of Greed in the side deck under the TCG list.
"""

from __future__ import annotations

from functools import cache

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    LOCAL_LANGS,
    Card,
    Context,
    Found,
    Said,
    Term,
    by_section,
    choose,
    no_card_flags,
    say,
    violations,
)

CODES = ("FORBIDDEN_CARD",)
DECISION = False
COUNTS = False
COMPARES = False
card_flags = no_card_flags


@cache  # built once: the same expressions serve every check
def _message() -> Said:
    section = Term(pl.col("section").cast(pl.Utf8), "section")
    return choose(
        (pl.col("counts_as").is_not_null(),
         say("{card} (its name is always treated as {counts_as}) is Forbidden ({n} in the "
             "{section} deck)", card=Card(), counts_as=Card("counts_as"), n=pl.col("qty"),
             section=section)),
        otherwise=say("{card} is Forbidden ({n} in the {section} deck)", card=Card(),
                      n=pl.col("qty"), section=section))


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing)."""
    return (pl.col("status") == "ok") & (pl.col("limit") == 0)


def check(ctx: Context) -> list[Found]:
    failing = by_section(ctx.named(ctx.known.filter(pl.col("limit") == 0), "counts_as",
                                   *(f"counts_as_{lang}" for lang in LOCAL_LANGS)))
    return [violations(failing, "FORBIDDEN_CARD", _message,
                       count=pl.col("qty"), limit=pl.lit(0))]
