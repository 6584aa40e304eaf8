"""Synthetic events from any card pool: seeded, reproducible, vectorised.

Decks are built from a few hundred archetype templates (a core of archetype cards, shared
staples that repeat across decks, a legal extra and side deck), expanded to N decks with one
join, then a few percent of decks get each kind of violation and of list/deck difference.
Returns the registered lists and the submitted decks as entry tables.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format

__all__ = ["INJECTED", "SyntheticEvent", "synthesize"]

#: violation kinds injected into the registered lists (and so into the decks too)
INJECTED = ("small", "copies", "forbidden", "limit", "wrong_section", "unknown", "pool",
            "extra_large")
UNKNOWN_PASSCODE = 999_999_999


@dataclass
class SyntheticEvent:
    registered: pl.DataFrame
    decks: pl.DataFrame
    players: int


def _pools(cards: CardDB, banlist: Banlist, fmt: Format) -> dict[str, np.ndarray]:
    limits = banlist.bind(cards).cards
    first = cards.by_card.join(limits, on="card_id", how="left")
    region = pl.lit(True)
    if fmt.card_pool:
        region = pl.col("pools").list.set_intersection(pl.lit(fmt.card_pool)).list.len() > 0
    legal = first.filter(region & (pl.col("rush") == fmt.rush)
                         & pl.col("kind").is_in(["monster", "spell", "trap"])
                         & (pl.col("limit").is_null() | (pl.col("limit") >= 3)))
    if fmt.forbidden_types:
        legal = legal.filter(
            pl.col("subtypes").list.set_intersection(pl.lit(fmt.forbidden_types)).list.len()
            == 0)
    if banlist.whitelist:
        legal = legal.filter(pl.col("listed"))
    outside = first.filter(~region & (pl.col("rush") == fmt.rush)
                           & pl.col("kind").is_in(["monster", "spell", "trap"])
                           & ~pl.col("extra"))
    if outside.is_empty():
        outside = first.filter(pl.col("rush") != fmt.rush)
    return {
        "main": legal.filter(~pl.col("extra") & ~pl.col("legend"))["passcode"].to_numpy(),
        "extra": legal.filter(pl.col("extra") & ~pl.col("legend"))["passcode"].to_numpy(),
        "forbidden": first.filter(pl.col("limit") == 0)["passcode"].to_numpy(),
        "limited": first.filter((pl.col("limit") == 1) & ~pl.col("extra"))["passcode"]
        .to_numpy(),
        "outside": outside["passcode"].to_numpy(),
    }


def _templates(pools: dict[str, np.ndarray], count: int, rng: np.random.Generator,
               staples: np.ndarray) -> pl.DataFrame:
    rows: list[tuple[int, str, int, int]] = []
    main_pool = np.setdiff1d(pools["main"], staples)
    for t in range(count):
        core = rng.choice(main_pool, size=10, replace=False)
        picks = list(core) + list(rng.choice(staples, size=5, replace=False))
        qty = [3] * 12 + [2, 1, 1]  # 36 + 2 + 1 + 1 = 40 cards
        extra_n = int(rng.integers(0, 16))
        extra = rng.choice(pools["extra"], size=min(extra_n, len(pools["extra"])),
                           replace=False)
        side_pool = np.setdiff1d(main_pool, core)
        side = rng.choice(side_pool, size=5, replace=False)
        side_qty = int(rng.integers(0, 6))
        rows += [(t, "main", int(c), q) for c, q in zip(picks, qty, strict=True)]
        rows += [(t, "extra", int(c), 1) for c in extra]
        rows += [(t, "side", int(c), 3) for c in side[:side_qty]]
    return pl.DataFrame(rows, schema={"template": pl.Int32, "section": pl.Utf8,
                                      "passcode": pl.Int64, "qty": pl.Int32}, orient="row")


def synthesize(cards: CardDB, banlist: Banlist, fmt: Format, players: int, *, seed: int = 7,
               rate: float = 0.02, templates: int = 300) -> SyntheticEvent:
    """N players' registered lists and submitted decks with ``rate`` of each problem."""
    rng = np.random.default_rng(seed)
    pools = _pools(cards, banlist, fmt)
    staples = rng.choice(pools["main"], size=min(30, len(pools["main"]) // 4), replace=False)
    table = _templates(pools, templates, rng, staples)
    deck_template = rng.integers(0, templates, size=players).astype(np.int32)
    kind = rng.random(players)
    decks = pl.DataFrame({"deck": np.arange(players, dtype=np.int64),
                          "template": deck_template, "roll": kind})
    rows = decks.join(table, on="template", how="inner").sort("deck", maintain_order=True)
    rows = rows.with_columns(pl.int_range(pl.len()).over("deck").alias("row"))
    k = len(INJECTED)
    bucket = (pl.col("roll") / rate).floor().cast(pl.Int64)  # 0..k-1 get one problem each
    pick = {name: (bucket == i) for i, name in enumerate(INJECTED)}
    first_main = (pl.col("row") == 0)
    extra_row = (pl.col("section") == "extra") & (
        pl.col("row") == pl.col("row").filter(pl.col("section") == "extra").min().over("deck"))

    def one(pool: np.ndarray) -> pl.Expr:
        return pl.lit(int(pool[0]) if len(pool) else UNKNOWN_PASSCODE, pl.Int64)

    rows = rows.with_columns(
        pl.when(pick["small"] & first_main).then(pl.col("qty") - 1)
        .otherwise(pl.col("qty")).alias("qty"),
        pl.when(pick["unknown"] & first_main).then(pl.lit(UNKNOWN_PASSCODE, pl.Int64))
        .when(pick["pool"] & first_main).then(one(pools["outside"]))
        .otherwise(pl.col("passcode")).alias("passcode"),
        pl.when(pick["wrong_section"] & extra_row).then(pl.lit("main"))
        .otherwise(pl.col("section")).alias("section"),
    )
    first_code = rows.filter(pl.col("row") == 1).select("deck", pl.col("passcode").alias("dup"))
    added = pl.concat([
        rows.filter(pick["copies"] & (pl.col("row") == 1)).select(
            "deck", pl.lit("side").alias("section"), "passcode", pl.lit(1, pl.Int32).alias("qty")),
        rows.filter(pick["forbidden"] & first_main).select(
            "deck", pl.lit("side").alias("section"), one(pools["forbidden"]).alias("passcode"),
            pl.lit(1, pl.Int32).alias("qty")),
        rows.filter(pick["limit"] & first_main).select(
            "deck", pl.lit("side").alias("section"), one(pools["limited"]).alias("passcode"),
            pl.lit(2, pl.Int32).alias("qty")),
        rows.filter(pick["extra_large"] & first_main).select(
            "deck", pl.lit("extra").alias("section"), one(pools["extra"]).alias("passcode"),
            pl.lit(16, pl.Int32).alias("qty")),
    ])
    _ = first_code
    registered = pl.concat([rows.select("deck", "section", "passcode", "qty"), added])
    # list/deck differences: a main card swapped for another in the submitted deck
    differ = decks.filter((pl.col("roll") >= k * rate) & (pl.col("roll") < (k + 1) * rate))
    swap_to = int(pools["main"][-1])
    submitted = registered.join(differ.select("deck", pl.lit(True).alias("differs")),
                                on="deck", how="left").with_columns(
        pl.when(pl.col("differs").fill_null(False) & (pl.col("section") == "side"))
        .then(pl.lit(swap_to, pl.Int64)).otherwise(pl.col("passcode")).alias("passcode"),
    ).drop("differs")
    return SyntheticEvent(_entries(registered), _entries(submitted), players)


def _entries(frame: pl.DataFrame) -> pl.DataFrame:
    """Entry rows with each deck's rows together, as readers write them."""
    return frame.sort("deck", maintain_order=True).select(
        pl.format("S{}", pl.col("deck").cast(pl.Utf8).str.zfill(7)).alias("deck_id"),
        pl.col("section").cast(pl.Enum(["main", "extra", "side"])),
        pl.col("passcode"),
        pl.lit(None, pl.Utf8).alias("name"),
        pl.col("qty").cast(pl.Int32),
        pl.lit(None, pl.Utf8).alias("file"),
        pl.lit(None, pl.Int32).alias("line"),
        pl.lit(None, pl.Utf8).alias("cell"),
    ).filter(pl.col("qty") > 0)


#: the header of the long-layout lists the benchmarks write
LIST_HEADER = ("Player ID", "Section", "Qty", "Card Name")


def named_lists(entries: pl.DataFrame, cards: CardDB) -> pl.DataFrame:
    """Entries by passcode as a person writes them: ``deck_id``, ``section``, ``qty`` and the
    card's English ``name`` (its passcode when no card has it), with ``card_id``."""
    names = cards.by_card.select("card_id", "name_en")
    return (entries.join(cards.printings.select("passcode", "card_id"), on="passcode",
                         how="left", maintain_order="left")
            .join(names, on="card_id", how="left", maintain_order="left")
            .select("deck_id", pl.col("section").cast(pl.Utf8), "qty",
                    pl.coalesce("name_en", pl.col("passcode").cast(pl.Utf8)).alias("name"),
                    "card_id"))


def lists_csv(lists: pl.DataFrame) -> bytes:
    """Named lists as a long-layout CSV."""
    table = lists.select("deck_id", "section", "qty", "name").rename(
        dict(zip(("deck_id", "section", "qty", "name"), LIST_HEADER, strict=True)))
    return table.write_csv().encode()
