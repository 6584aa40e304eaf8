"""The long table every reader returns: one row per (deck, section, card, quantity).

``passcode`` is set when the source gave one, ``name`` when it gave typed text; the
resolver later adds ``card_id``. ``slot`` is the block of the source the entry was written
in, when it tells a card's kind (the Monster/Spell/Trap/Extra blocks of a Konami sheet, a
"Skill" header): the resolver prefers cards of that kind when a name fits several.
``file``, ``line`` and ``cell`` locate the entry in its source so every message can point
at what the organizer must fix.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from validator.vocab import SECTION_ENUM, SECTIONS, SLOT_ENUM, SLOTS

__all__ = ["ENTRY_SCHEMA", "SECTIONS", "SLOTS", "conform", "entries_frame", "typed_card"]


ENTRY_SCHEMA: dict[str, pl.DataType] = {
    "deck_id": pl.Utf8(),
    "section": SECTION_ENUM,
    "passcode": pl.Int64(),
    "name": pl.Utf8(),
    "qty": pl.Int32(),
    "file": pl.Utf8(),
    "line": pl.Int32(),
    "cell": pl.Utf8(),
    "slot": SLOT_ENUM,
}


def typed_card(text: str) -> dict[str, Any]:
    """What a person wrote for a card: its ``name``, and its ``passcode`` when it is one
    (up to 10 digits; the resolver still takes the card named so when no card has that
    passcode, e.g. "7")."""
    text = text.strip()
    digits = text.isascii() and text.isdigit() and len(text) <= 10
    return {"passcode": int(text) if digits else None, "name": text}


def entries_frame(rows: list[dict[str, Any]] | None = None) -> pl.DataFrame:
    """A frame of entries with the standard schema (missing keys are null)."""
    rows = rows or []
    return pl.DataFrame(
        {col: [row.get(col) for row in rows] for col in ENTRY_SCHEMA}, schema=ENTRY_SCHEMA
    )


def conform(frame: pl.DataFrame) -> pl.DataFrame:
    """Exactly the entry columns, in order; a column the frame lacks is null (constant)."""
    return frame.select(
        [pl.col(c) if c in frame.columns else pl.lit(None, t).alias(c)
         for c, t in ENTRY_SCHEMA.items()])
