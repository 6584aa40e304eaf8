"""Decks built by card name or passcode, for engine and rule tests."""

from __future__ import annotations

from typing import Any

import polars as pl

from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import banlists_dir
from validator.engine.check import CheckResult
from validator.inputs.entries import entries_frame

Cards = list[tuple[str | int, int]]


def build(db: CardDB, deck_id: str, main: Cards, extra: Cards | None = None,
          side: Cards | None = None) -> pl.DataFrame:
    """Entries for one deck; a str names a card (its lowest passcode), an int is a passcode."""
    rows: list[dict[str, Any]] = []
    for section, cards in (("main", main), ("extra", extra or []), ("side", side or [])):
        for card, qty in cards:
            if isinstance(card, int):
                code = card
            else:
                hit = db.printings.filter(pl.col("name_en") == card)["passcode"]
                assert len(hit), f"{card} is not in the card data"
                code = int(hit.min())  # type: ignore[arg-type]
            rows.append({"deck_id": deck_id, "section": section, "passcode": code, "qty": qty,
                         "file": f"{deck_id}.ydk", "line": len(rows) + 1})
    return entries_frame(rows)


def legal_filler(db: CardDB, n: int, *, skip: int = 0, extra: bool = False) -> Cards:
    """n cards, 3 copies each, unlisted on the demo TCG list and released in TCG.

    ``skip`` passes over that many distinct cards first (for a side deck beside a main
    deck); ``extra`` gives Extra Deck monsters instead of main-deck cards.
    """
    listed = set(read_banlist(banlists_dir() / "lists" / "demo-tcg.lflist.conf")
                 .entries["passcode"].to_list())
    pool = (
        db.by_card.filter((pl.col("extra") == extra) & ~pl.col("rush")
                          & pl.col("kind").is_in(["monster", "spell", "trap"])
                          & pl.col("pools").list.contains("tcg")
                          & ~pl.col("card_id").is_in(list(listed))
                          & ~pl.col("subtypes").list.contains("pendulum"))
        .sort("card_id")["name_en"].unique(maintain_order=True).to_list()[skip:]
    )
    out: Cards = []
    for name in pool:
        take = min(3, n - sum(q for _, q in out))
        if take <= 0:
            break
        out.append((name, take))
    return out


def real_filler(db: CardDB, banlist: Banlist, n: int, *, avoid: tuple[str, ...] = ()) -> Cards:
    """n real main-deck cards, 3 copies each, that are released in the TCG, are their own
    name, and that the list does not limit (nor any name in ``avoid``)."""
    listed = banlist.entries["passcode"].drop_nulls().implode()
    pool = (
        db.by_card.filter(~pl.col("extra") & ~pl.col("rush") & pl.col("passcode").is_not_null()
                          & pl.col("kind").is_in(["monster", "spell", "trap"])
                          & pl.col("pools").list.contains("tcg")
                          & (pl.col("name_id") == pl.col("card_id"))
                          & (pl.len().over("name_id") == 1)
                          & ~pl.col("passcode").is_in(listed)
                          & ~pl.col("name_en").is_in(list(avoid))
                          & ~pl.col("subtypes").list.contains("pendulum"))
        .sort("card_id")["passcode"].to_list()
    )
    out: Cards = []
    for code in pool:
        take = min(3, n - sum(q for _, q in out))
        if take <= 0:
            break
        out.append((int(code), take))
    return out


def codes(result: CheckResult, deck_id: str | None = None) -> list[str]:
    frame = result.violations
    if deck_id is not None:
        frame = frame.filter(pl.col("deck_id") == deck_id)
    return frame["code"].to_list()
