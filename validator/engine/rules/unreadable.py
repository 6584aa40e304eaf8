"""UNREADABLE_ROW: a row of a registered list that could not be read (a quantity written
"three", a name with no quantity), so the list does not say what the deck holds.

No regulation prescribes a penalty for an unreadable list entry: it is the head judge's
decision what the row says, and until it is settled the player's list-dependent verdicts
(sizes, copies, the list comparison) wait for it and no penalty is proposed. Once decided
(``--decisions`` or the web app), the row becomes an entry and the check runs again.
Regulation: th §3B, ja §3B and ko §3B require the deck to match the list; none says what an
unreadable list is — head judge's decision (section 2 of each: penalties are the judge's).

PASS: every row of the list is readable.  FAIL: "three" in a quantity cell (cell A17) →
needs a decision.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import Context, Found, no_card_flags, violations

CODES = ("UNREADABLE_ROW",)
DECISION = True
COUNTS = False
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    if ctx.unreadable is None:
        return []
    rows = ctx.unreadable if ctx.list_problems else ctx.unreadable.filter(~pl.col("on_list"))
    return [violations(rows, "UNREADABLE_ROW", pl.col("message"),
                       section=pl.col("section"))]
