"""UNKNOWN_CARD: a passcode the card data does not know.

An unknown passcode cannot be checked and may be a card that does not exist; the deck is
illegal until it is fixed. When the card data is older than the list, the message says so:
the card may be newer than the data (`deckcheck data update`). Regulation: th §3A (a card
prohibited from use) and ko §3A (a card that cannot be used) → Duel Forfeiture; ja: no clause
in its copy. An unknown passcode of a code that gives the main and extra deck as one (an
Omega code) is kept in the main deck, and the message says so.

PASS: every passcode known.  FAIL: passcode 12 in the main deck.
"""

from __future__ import annotations

from functools import cache

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Context,
    Found,
    Said,
    Term,
    by_section,
    no_card_flags,
    say,
    violations,
)
from validator.vocab import LANGS

CODES = ("UNKNOWN_CARD",)
DECISION = False
COUNTS = False
COMPARES = False
card_flags = no_card_flags


_KEPT = ("; its code gives the main and extra deck as one, and an unknown card is kept in "
         "the main deck")
_STALE = "; card data dated {date} is older than list {list}: run `deckcheck data update`"


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing)."""
    return pl.col("status") == "unknown"


def check(ctx: Context) -> list[Found]:
    failing = by_section(ctx.deck_cards.filter(pl.col("status") == "unknown"))
    slots = ctx.rows.filter(pl.col("status") == "unknown").select(
        "row", (pl.col("slot") == "main_or_extra").fill_null(False).alias("kept"))
    failing = failing.join(slots, on="row", how="left")
    return [violations(failing, "UNKNOWN_CARD", lambda: _message(ctx.stale_dates),
                       count=pl.col("qty"))]


@cache  # built once: the same expressions serve every check
def _message(stale_dates: tuple[str, str] | None) -> Said:
    kept = say(_KEPT)
    stale = say(_STALE, date=pl.lit(stale_dates[0]), list=pl.lit(stale_dates[1])) \
        if stale_dates else dict.fromkeys(LANGS, pl.lit(""))
    return say("Passcode {passcode} is not a known card ({n} in the {section} deck)"
               "{kept}{stale}", passcode=pl.col("key"), n=pl.col("qty"),
               section=Term(pl.col("section").cast(pl.Utf8), "section"),
               kept={lang: pl.when(pl.col("kept")).then(kept[lang]).otherwise(pl.lit(""))
                     for lang in LANGS}, stale=stale)
