"""LIST_MISMATCH: the deck and the registered deck list differ.

One violation per (section, card name) whose counts differ, with both counts. Alternate
artworks are the same name, so swapping one for another is no difference. Regulation: th §3,
ja §3, ko §3 (the deck, extra and side deck differ from the registered list → Duel
Forfeiture; fix the deck to match the list).

PASS: deck equals list.  FAIL: a card moved from main to side → two rows (main -1, side +1).
"""

from __future__ import annotations

import polars as pl

from ._context import Context, violations

CODES = ("LIST_MISMATCH",)


def _counts(frame: pl.LazyFrame) -> pl.LazyFrame:
    return (
        frame.filter(pl.col("status") != "unresolved")
        .with_columns(pl.coalesce("card_id", "passcode").alias("key"))
        .group_by("deck", "section", "key")
        .agg(pl.col("qty").sum(), pl.col("card").first(), pl.col("card_id").first(),
             pl.col("passcode").first())
    )


def check(ctx: Context) -> list[pl.LazyFrame]:
    if ctx.registered is None:
        return []
    deck = _counts(ctx.rows)
    listed = _counts(ctx.registered).select(
        "deck", "section", "key", pl.col("qty").alias("registered"),
        pl.col("card").alias("card_listed"), pl.col("card_id").alias("card_id_listed"),
        pl.col("passcode").alias("passcode_listed"))
    decks = pl.concat([ctx.rows.select("deck"), ctx.registered.select("deck")]).unique()
    diff = (
        deck.join(listed, on=["deck", "section", "key"], how="full", coalesce=True)
        .join(decks, on="deck", how="semi")
        .with_columns(pl.col("qty").fill_null(0), pl.col("registered").fill_null(0),
                      pl.coalesce("card", "card_listed"), pl.coalesce("card_id", "card_id_listed"),
                      pl.coalesce("passcode", "passcode_listed"))
        .filter(pl.col("qty") != pl.col("registered"))
    )
    return [violations(diff, "LIST_MISMATCH",
                       pl.format("{} deck, {}: {} in the deck, {} on the registered list",
                                 pl.col("section").cast(pl.Utf8),
                                 pl.coalesce(pl.col("card"), pl.format("passcode {}",
                                                                       pl.col("passcode"))),
                                 pl.col("qty"), pl.col("registered")),
                       count=pl.col("qty"), registered=pl.col("registered"))]
