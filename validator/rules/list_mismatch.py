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


def _same_decks(deck: pl.DataFrame, listed: pl.DataFrame, decks: int) -> pl.Series:
    """Deck numbers whose deck equals its list, found without a join.

    Both tables are sorted by (deck, card). Where a deck has as many rows as its list, its
    j-th row is compared with the list's j-th row, located by arithmetic on the two tables'
    per-deck offsets; a deck is the same when every row matches exactly.
    """
    def starts(frame: pl.DataFrame) -> tuple[pl.Series, pl.Series]:
        runs = frame["deck"].rle().struct.unnest()  # deck numbers are sorted: one run each
        counts = pl.zeros(decks, dtype=pl.Int64, eager=True).scatter(
            runs["value"], runs["len"].cast(pl.Int64))
        return counts, counts.cum_sum() - counts

    deck_n, deck_at = starts(deck)
    list_n, list_at = starts(listed)
    number = deck["deck"]
    candidates = (deck_n == list_n).gather(number)
    position = (pl.Series(range(deck.height), dtype=pl.Int64) - deck_at.gather(number).cast(
        pl.Int64) + list_at.gather(number).cast(pl.Int64)).clip(0, max(listed.height - 1, 0))
    columns = ["gk", *SECTIONS]
    if listed.is_empty():
        return pl.Series("deck", [], dtype=pl.UInt32)
    aligned = listed.select(columns).gather(position)
    equal = candidates
    for column in columns:
        equal = equal & (deck[column] == aligned[column]).fill_null(False)
    unequal = number.filter(~equal).unique()
    present = number.unique()
    return present.filter(~present.is_in(unequal.implode()))


def check(ctx: Context) -> list[pl.LazyFrame]:
    if ctx.registered_cards is None:
        return []
    deck, listed, sizes = pl.collect_all(
        [_counts(ctx.cards), _counts(ctx.registered_cards), ctx.sizes.select("deck")],
        engine="in-memory")
    same = _same_decks(deck, listed, sizes.height).implode()
    both = (
        deck.lazy().filter(~pl.col("deck").is_in(same))
        .join(listed.lazy().filter(~pl.col("deck").is_in(same)), on="gk", how="full",
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
