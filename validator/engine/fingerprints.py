"""Deck fingerprints: which decks hold exactly their registered list's cards, told apart
without a deck-by-card table of the list.

A fingerprint is two seeded 64-bit sums over a deck's rows; a deck and its list with equal
fingerprints hold the same cards section by section (:func:`same_as_listed`), and the list
comparison leaves them out.
"""

from __future__ import annotations

import secrets

import polars as pl

__all__ = ["fingerprints", "same_as_listed"]

#: seeds of the two 64-bit hashes behind a deck's fingerprint, drawn at random when the
#: process starts: with seeds known in advance, a deck could be built to differ from its
#: list and still match its fingerprint (the sums are linear); unknown, no input can aim
#: for that, and the odds in ``same_as_listed`` hold whatever the decks
_SEEDS = (secrets.randbits(64), secrets.randbits(64))


def fingerprints(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Per deck, two sums of ``qty × h(section, card)`` modulo 2**64 over its rows.

    Each ``h`` is a seeded 64-bit hash of the (section, key) pair, so a deck's fingerprint is
    the same however its copies are split across rows (3 lines of 1 or one line of 3) and in
    whatever order; rows naming no card count nothing (the list comparison leaves them out
    too). Products and sums wrap modulo 2**64 (``test_fingerprints`` pins polars doing so).
    """
    cell = pl.col("key") * 4 + pl.col("section").to_physical().cast(pl.Int64)
    counted = (pl.col("qty") * (pl.col("status") != "unresolved")).cast(pl.UInt64)
    return rows.group_by("deck").agg(*[(counted * cell.hash(seed)).sum().alias(f"f{i}")
                                       for i, seed in enumerate(_SEEDS)])


def same_as_listed(mine: pl.DataFrame, theirs: pl.DataFrame, decks: int) -> pl.Series:
    """One flag per deck number: the deck holds exactly its list's cards, section by section.

    Decided by the ``fingerprints`` of decks (``mine``) and lists (``theirs``): a deck and a
    list that differ in some (section, card) counts (by less than 2**16 copies) have two sums
    that both agree with odds below 2**-96. Decks flagged here need no deck-by-card table of
    their list (usually nearly all of an event's decks).
    """
    columns = [c for c in mine.columns if c != "deck"]
    both = mine.join(theirs, on="deck", how="inner", suffix="_list").filter(
        pl.all_horizontal(pl.col(c) == pl.col(f"{c}_list") for c in columns))
    return pl.zeros(decks, dtype=pl.Boolean, eager=True).scatter(both["deck"], True)
