"""UNKNOWN_CARD: a passcode the card data does not know.

An unknown passcode cannot be checked and may be a card that does not exist; the deck is
illegal until it is fixed. When the card data is older than the list, the message says so:
the card may be newer than the data (`deckcheck data update`). Regulation: th §3A (a card
prohibited from use) and ko §3A (a card that cannot be used) → Duel Forfeiture; ja: no clause
in its copy.

PASS: every passcode known.  FAIL: passcode 12 in the main deck.
"""

from __future__ import annotations

import polars as pl

from validator.engine.rules._context import Context, by_section, no_card_flags, violations

CODES = ("UNKNOWN_CARD",)
DECISION = False
COUNTS = False
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[pl.LazyFrame]:
    failing = by_section(ctx.deck_cards.filter(pl.col("status") == "unknown"))
    return [violations(failing, "UNKNOWN_CARD",
                       pl.format("Passcode {} is not a known card ({} in the {} deck){}",
                                 pl.col("key"), pl.col("qty"),
                                 pl.col("section").cast(pl.Utf8), pl.lit(ctx.stale)),
                       count=pl.col("qty"))]
