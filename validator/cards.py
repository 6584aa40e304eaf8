"""The card table: one row per printing (passcode), a stable ``card_id`` per card *name*.

All printings of one card name (alternate artworks, reprints under a new passcode) share one
``card_id``: the lowest passcode of the group, or for cards that have no passcode (skills,
some tokens) a stable negative number derived from the source's own id. Every check counts
copies per ``card_id``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property

import polars as pl

from .errors import Problem
from .normalize import name_key_expr

__all__ = [
    "CARD_SCHEMA",
    "KINDS",
    "LANGS",
    "LEGALITY_SCHEMA",
    "CardDB",
    "empty_cards",
    "fold_aliases",
    "stable_negative_id",
    "unique_printings",
]

LANGS: tuple[str, ...] = ("en", "ja", "ko", "zh", "fr", "de", "it", "es", "pt")
KINDS: tuple[str, ...] = ("monster", "spell", "trap", "token", "skill")

CARD_SCHEMA: dict[str, pl.DataType] = {
    "passcode": pl.Int64(),
    "card_id": pl.Int64(),
    **{f"name_{lang}": pl.Utf8() for lang in LANGS},
    "kind": pl.Enum(list(KINDS)),
    "extra": pl.Boolean(),
    "rush": pl.Boolean(),
    "legend": pl.Boolean(),
    "subtypes": pl.List(pl.Utf8()),
    "pools": pl.List(pl.Utf8()),
    "points": pl.Float64(),
    "source": pl.Utf8(),
}

#: Legality that a card source states itself (YGOJSON's tcg/ocg/ocg-kr/genesys fields).
LEGALITY_SCHEMA: dict[str, pl.DataType] = {
    "card_id": pl.Int64(),
    "region": pl.Utf8(),
    "status": pl.Utf8(),
    "points": pl.Float64(),
}


def empty_cards() -> pl.DataFrame:
    return pl.DataFrame(schema=CARD_SCHEMA)


def unique_printings(frame: pl.DataFrame) -> pl.DataFrame:
    """Keep the first row of each passcode; rows without a passcode are all kept."""
    with_code = frame.filter(pl.col("passcode").is_not_null())
    return pl.concat(
        [with_code.unique("passcode", keep="first", maintain_order=True),
         frame.filter(pl.col("passcode").is_null())]
    )


def stable_negative_id(source_id: str) -> int:
    """A stable card id for a card with no passcode: in [-2**31 + 1, -1], so it never
    collides with a passcode and packs into the engine's 64-bit (deck, card) key."""
    return -(int(hashlib.sha1(source_id.encode()).hexdigest()[:12], 16) % (2**31 - 1)) - 1


def fold_aliases(passcode: pl.Series, alias: pl.Series) -> pl.Series:
    """``card_id`` per row: follow ``alias`` links to their root, then take the group minimum.

    ``alias`` is the passcode this printing is a copy of (0/null: none). Chains are followed
    to a fixed point with joins, never a Python loop per row.
    """
    frame = pl.DataFrame({"passcode": passcode, "root": alias}).with_columns(
        pl.when(pl.col("root").is_null() | (pl.col("root") == 0))
        .then(pl.col("passcode"))
        .otherwise(pl.col("root"))
        .alias("root")
    )
    for _ in range(8):
        lookup = frame.select(pl.col("passcode").alias("root"), pl.col("root").alias("next"))
        stepped = frame.join(lookup, on="root", how="left", maintain_order="left").with_columns(
            pl.coalesce("next", "root").alias("next")
        )
        if stepped["next"].equals(stepped["root"]):
            break
        frame = stepped.select("passcode", pl.col("next").alias("root"))
    return frame.select(pl.col("passcode").min().over("root").alias("card_id"))["card_id"]


@dataclass
class CardDB:
    """Cards (one row per printing) plus the legality their source states."""

    cards: pl.DataFrame
    legality: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=LEGALITY_SCHEMA))
    sources: list[dict[str, object]] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @cached_property
    def names(self) -> pl.DataFrame:
        """Long table of (card_id, lang, name, key) over every language, one row per name."""
        long = (
            self.cards.select("card_id", *[f"name_{lang}" for lang in LANGS])
            .unpivot(index="card_id", variable_name="lang", value_name="name")
            .drop_nulls("name")
            .filter(pl.col("name") != "")
            .with_columns(pl.col("lang").str.strip_prefix("name_"))
            .unique(["card_id", "lang", "name"], maintain_order=True)
        )
        # Rush cards are printed without the "(Rush)" that databases add to tell them apart
        plain = long.filter(pl.col("name").str.ends_with(" (Rush)")).with_columns(
            pl.col("name").str.strip_suffix(" (Rush)"))
        return pl.concat([long, plain]).with_columns(name_key_expr(pl.col("name")).alias("key"))

    @cached_property
    def by_card(self) -> pl.DataFrame:
        """One row per card name: the first printing's attributes."""
        return self.cards.sort("passcode", nulls_last=True).unique(
            "card_id", keep="first", maintain_order=True)

    def card_count(self) -> int:
        return self.cards["card_id"].n_unique()
