"""LIST_MISMATCH: the deck and the registered deck list differ.

One violation per (section, card name) whose counts differ, with both counts. Alternate
artworks are the same name, so swapping one for another is no difference. Regulation: th §3,
ja §3, ko §3 (the deck, extra and side deck differ from the registered list → Duel
Forfeiture; fix the deck to match the list).

PASS: deck equals list.  FAIL: a card moved from main to side → two rows (main -1, side +1).
"""

from __future__ import annotations

import polars as pl

from ._context import SECTIONS, Context, violations

CODES = ("LIST_MISMATCH",)


def _counts(frame: pl.LazyFrame) -> pl.LazyFrame:
    return frame.filter(pl.col("status") != "unresolved").select(
        "gk", "deck", "card_id", "passcode", *SECTIONS, *(f"row_{s}" for s in SECTIONS))


def check(ctx: Context) -> list[pl.LazyFrame]:
    if ctx.registered_cards is None:
        return []
    both = (
        _counts(ctx.cards).join(_counts(ctx.registered_cards), on="gk", how="full",
                                coalesce=True, suffix="_list")
        .with_columns(
            pl.coalesce("deck", "deck_list").alias("deck"),
            pl.coalesce("card_id", "card_id_list").alias("card_id"),
            pl.coalesce("passcode", "passcode_list").alias("passcode"),
            *[pl.col(s).fill_null(0).alias(f"{s}_deck") for s in SECTIONS],
            *[pl.col(f"{s}_list").fill_null(0) for s in SECTIONS],
        )
        .filter(pl.any_horizontal([pl.col(f"{s}_deck") != pl.col(f"{s}_list")
                                   for s in SECTIONS]))
        .collect(engine="in-memory").lazy()  # small: computed once for the three sections
    )
    out = []
    for section in SECTIONS:
        rows = ctx.named(both.filter(pl.col(f"{section}_deck") != pl.col(f"{section}_list")))
        in_deck = pl.col(f"row_{section}").is_not_null()
        out.append(violations(
            rows, "LIST_MISMATCH",
            pl.format("{} deck, {}: {} in the deck, {} on the registered list", pl.lit(section),
                      pl.coalesce(pl.col("card"), pl.format("passcode {}", pl.col("passcode"))),
                      pl.col(f"{section}_deck"), pl.col(f"{section}_list")),
            section=pl.lit(section), count=pl.col(f"{section}_deck"),
            registered=pl.col(f"{section}_list"),
            row=pl.coalesce(f"row_{section}", f"row_{section}_list"), on_list=~in_deck))
    return out
