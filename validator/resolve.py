"""Resolving entries to card names: passcodes by join, typed names by normalised key.

A typed name is accepted when its normalised key (any language) names exactly one card.
Otherwise a fuzzy matcher (rapidfuzz) ranks suggestions; a fuzzy match is accepted only
when it is near-identical to one card's name and clearly better than every other card's
(``ACCEPT_SCORE``, ``ACCEPT_MARGIN``), and the entry records that it was read fuzzily.
Anything else stays unresolved, with its suggestions — never silently another card.
Work is done once per distinct name of the whole input, never per deck.
"""

from __future__ import annotations

import polars as pl
from rapidfuzz import fuzz, process

from .cards import CardDB
from .normalize import name_key_expr

__all__ = ["ACCEPT_MARGIN", "ACCEPT_SCORE", "RESOLVED_SCHEMA", "resolve"]

ACCEPT_SCORE = 90.0
ACCEPT_MARGIN = 8.0
MIN_FUZZY_LENGTH = 8
SUGGESTIONS = 3

RESOLVED_SCHEMA: dict[str, pl.DataType] = {
    "card_id": pl.Int64(),
    "status": pl.Enum(["ok", "unknown", "unresolved"]),
    "how": pl.Enum(["passcode", "name", "fuzzy"]),
    "suggestions": pl.List(pl.Utf8()),
}


def _fuzzy(missing: list[str], keys: pl.DataFrame) -> pl.DataFrame:
    """Per missing key: the accepted card_id (or null) and suggestion names."""
    choices = keys["key"].to_list()
    ids = keys["card_id"].to_list()
    names = keys["name_en"].to_list()
    out_id: list[int | None] = []
    out_sugg: list[list[str]] = []
    for key in missing:
        loose: dict[int, float] = {}
        strict: dict[int, float] = {}
        for _, score, index in process.extract(key, choices, scorer=fuzz.WRatio, limit=20):
            card = ids[index]
            loose[card] = max(loose.get(card, 0.0), float(score))
            strict[card] = max(strict.get(card, 0.0), float(fuzz.ratio(key, choices[index])))
        by_strict = [*sorted(strict.values(), reverse=True), 0.0, 0.0]
        best = max(strict, key=lambda c: strict[c]) if strict else None
        accepted = best if (
            best is not None and len(key) >= MIN_FUZZY_LENGTH
            and by_strict[0] >= ACCEPT_SCORE and by_strict[0] - by_strict[1] >= ACCEPT_MARGIN
        ) else None
        first_name = {ids[i]: names[i] or choices[i] for i in range(len(ids) - 1, -1, -1)
                      if ids[i] in loose}
        ranked = sorted(loose, key=lambda c: (-loose[c], -strict[c]))[:SUGGESTIONS]
        out_id.append(accepted)
        out_sugg.append([first_name[c] for c in ranked])
    return pl.DataFrame(
        {"key": missing, "fuzzy_id": out_id, "suggestions": out_sugg},
        schema={"key": pl.Utf8, "fuzzy_id": pl.Int64, "suggestions": pl.List(pl.Utf8)},
    )


def _status(value: str) -> pl.Expr:
    return pl.lit(value, RESOLVED_SCHEMA["status"])


def _how(value: str) -> pl.Expr:
    return pl.lit(value, RESOLVED_SCHEMA["how"])


_NAME_SCHEMA: dict[str, pl.DataType] = {
    "name": pl.Utf8(), "name_id": pl.Int64(), "ambiguous": pl.List(pl.Utf8()),
    "fuzzy_id": pl.Int64(), "suggestions": pl.List(pl.Utf8())}


def _names(typed: pl.Series, cards: CardDB, rush: bool | None) -> pl.DataFrame:
    """Per distinct typed name: exact card, ambiguity, fuzzy card and suggestions."""
    distinct = typed.drop_nulls().unique().sort().to_frame("name")
    if distinct.is_empty():
        return pl.DataFrame(schema=_NAME_SCHEMA)
    distinct = distinct.with_columns(name_key_expr(pl.col("name")).alias("key"))
    pool = cards.by_card if rush is None else cards.by_card.filter(pl.col("rush") == rush)
    names = cards.names.join(pool.select("card_id", "name_en"), on="card_id", how="inner")
    by_key = names.group_by("key").agg(
        pl.col("card_id").unique().alias("ids"), pl.col("name_en").unique().alias("cands")
    )
    exact = by_key.filter(pl.col("ids").list.len() == 1).select(
        "key", pl.col("ids").list.first().alias("name_id"))
    ambiguous = by_key.filter(pl.col("ids").list.len() > 1).select(
        "key", pl.col("cands").list.sort().alias("ambiguous"))
    found = distinct.join(exact, on="key", how="left").join(ambiguous, on="key", how="left")
    missing = found.filter(pl.col("name_id").is_null() & pl.col("ambiguous").is_null())
    choices = names.unique(["key", "card_id"], maintain_order=True).select(
        "key", "card_id", "name_en")
    fuzzy = _fuzzy(missing["key"].unique().sort().to_list(), choices)
    return found.join(fuzzy, on="key", how="left").select(list(_NAME_SCHEMA))


def resolve(entries: pl.DataFrame, cards: CardDB, rush: bool | None = None) -> pl.DataFrame:
    """Entries plus ``card_id``, ``status``, ``how`` and ``suggestions``.

    ``rush`` limits typed names to Rush Duel cards (True) or to OCG/TCG cards (False), so
    "Dark Magician" means the card of the event's game; passcodes are always looked up whole.
    Names are resolved once per distinct text, then joined back to every row.
    """
    # lookups join only the key column and add the results beside the entries, so the
    # entries' other (string) columns are never copied
    printings = cards.cards.select("passcode", pl.col("card_id").alias("code_id")).drop_nulls()
    looked_up = [entries.select("passcode").join(printings, on="passcode", how="left",
                                                 maintain_order="left").select("code_id")]
    typed = _names(entries["name"], cards, rush)
    if not typed.is_empty():
        looked_up.append(entries.select("name").join(typed, on="name", how="left",
                                                     maintain_order="left").drop("name"))
    keyed = pl.concat([entries, *looked_up], how="horizontal")
    if typed.is_empty():  # decks given by passcode only: nothing was looked up by name
        keyed = keyed.with_columns(
            [pl.lit(None, dtype).alias(column) for column, dtype in _NAME_SCHEMA.items()
             if column != "name"])
    by_passcode = pl.col("passcode").is_not_null()
    card_id = (
        pl.when(by_passcode).then(pl.col("code_id"))
        .otherwise(pl.coalesce("name_id", "fuzzy_id"))
    )
    return keyed.with_columns(
        card_id.alias("card_id"),
        # literals typed as the Enum: no string is built per row
        pl.when(by_passcode & pl.col("code_id").is_null()).then(_status("unknown"))
        .when(card_id.is_null()).then(_status("unresolved"))
        .otherwise(_status("ok")).alias("status"),
        pl.when(by_passcode).then(_how("passcode"))
        .when(pl.col("name_id").is_not_null()).then(_how("name"))
        .when(pl.col("fuzzy_id").is_not_null()).then(_how("fuzzy"))
        .otherwise(pl.lit(None, RESOLVED_SCHEMA["how"])).alias("how"),
        pl.coalesce("ambiguous", "suggestions").alias("suggestions"),
    ).drop("code_id", "name_id", "ambiguous", "fuzzy_id")
