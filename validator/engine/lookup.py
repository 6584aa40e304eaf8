"""What the tool knows of one card, and why it is legal or not: ``deckcheck card``.

A query is a passcode or a name as a person types it (read as a deck list reads it, with
the format's preferences). For each card it names: every printing (passcode), the names in
every language, the name it counts as ("treated as"), kind and Extra Deck, its status on
the list the check would use (the list, its effective date and why it was chosen), release
per region with the sources that say so, Genesys points, and why the card is outside the
format's card pool when it is. A name that names several cards gives all of them.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from validator.cards.load import Setup
from validator.engine.resolve import resolve
from validator.engine.rules.card_pool import outside_pool_reason, release_unknown
from validator.engine.tables import card_attributes
from validator.errors import InputError
from validator.inputs.entries import entries_frame, typed_card
from validator.text.normalize import name_key
from validator.vocab import NAME_LANGS

__all__ = ["STATUS_WORDS", "card_facts"]

#: the status a list's limit means
STATUS_WORDS = {0: "Forbidden", 1: "Limited", 2: "Semi-Limited", 3: "Unlimited"}


def _card_ids(query: str, setup: Setup) -> list[int]:
    """The cards a query names: a passcode's card, or the card a typed name reads as and
    every other card printing a name of the same key; none is an error with suggestions."""
    cards = setup.cards
    typed = typed_card(query)
    if typed["passcode"] is not None:
        found = cards.printings.filter(pl.col("passcode") == typed["passcode"])["card_id"]
        if not found.is_empty():
            return [int(found[0])]
    row = resolve(entries_frame([{"deck_id": "q", "section": "main", "qty": 1, **typed}]),
                  cards, setup.fmt).row(0, named=True)
    same_key = cards.names.filter(pl.col("key") == name_key(query))["card_id"].unique()
    ids = sorted({int(c) for c in same_key.to_list()})
    if row["status"] == "ok":
        first = int(row["card_id"])
        return [first, *(c for c in ids if c != first)]
    if ids:
        return ids
    hint = f" (did you mean {', '.join(row['suggestions'])}?)" if row["suggestions"] else ""
    raise InputError.at(query, f"no card of the card data is named so{hint}",
                        code="NO_SUCH_CARD")


def card_facts(query: str, setup: Setup) -> dict[str, Any]:
    """Everything known of the cards ``query`` names, as plain data (``deckcheck card
    --json`` writes it as it is)."""
    cards, fmt, banlist = setup.cards, setup.fmt, setup.banlist
    ids = _card_ids(query.strip(), setup)
    table = card_attributes(cards, banlist, fmt).frame.filter(pl.col("card_id").is_in(ids))
    table = table.with_columns(
        outside_pool_reason(fmt, banlist.whitelist).alias("outside"),
        release_unknown(fmt).alias("no_release_info"))
    by_id = {row["card_id"]: row for row in table.iter_rows(named=True)}
    legality = cards.legality.join(cards.printings.select("passcode", "card_id"),
                                   on="passcode").filter(pl.col("card_id").is_in(ids))
    out = []
    for card_id in ids:
        row = by_id[card_id]
        printings = cards.printings.filter(pl.col("card_id") == card_id).sort(
            "passcode", nulls_last=True)
        first = printings.row(0, named=True)
        names = {lang: first[f"name_{lang}"] for lang in NAME_LANGS if first[f"name_{lang}"]}
        limit = row["limit"]
        stated = legality.filter(pl.col("card_id") == card_id).sort("region")
        out.append({
            "card_id": card_id,
            "name": row["card"],
            "names": names,
            "other_names": sorted({n for spelled in printings["other_names"].to_list()
                                   for n in spelled or []}),
            "treated_as": row["counts_as"],
            "kind": str(row["kind"]),
            "extra_deck": bool(row["is_extra"]),
            "rush": bool(row["rush"]),
            "passcodes": [int(p) for p in printings["passcode"].drop_nulls().to_list()],
            "status": {
                "limit": 3 if limit is None else int(limit),
                "word": STATUS_WORDS[3 if limit is None else int(limit)],
                "listed": bool(row["listed"]),
            },
            "legal_in_format": row["outside"] is None and (limit is None or limit > 0),
            "outside_pool": row["outside"],
            "release": {
                "regions": list(row["pools"] or []),
                "unreleased": list(row["unreleased"] or []),
                "sources": str(row["source"] or "").split("; "),
                "stated": [{"region": r, "status": s} for r, s, _ in
                           stated.select("region", "status", "points").iter_rows()],
                "unknown": bool(row["no_release_info"]),
            },
            "points": row["points"],
        })
    return {"query": query, "format": fmt.name, "banlist": banlist.name,
            "banlist_effective": banlist.effective, "banlist_reason": banlist.reason,
            "cards": out}
