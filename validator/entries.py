"""The long table every reader returns: one row per (deck, section, card, quantity).

``passcode`` is set when the source gave one, ``name`` when it gave typed text; the
resolver later adds ``card_id``. ``file``, ``line`` and ``cell`` locate the entry in its
source so every message can point at what the organizer must fix.
"""

from __future__ import annotations

from typing import Any

import polars as pl

__all__ = ["ENTRY_SCHEMA", "SECTIONS", "entries_frame"]

SECTIONS: tuple[str, ...] = ("main", "extra", "side")

ENTRY_SCHEMA: dict[str, pl.DataType] = {
    "deck_id": pl.Utf8(),
    "section": pl.Enum(list(SECTIONS)),
    "passcode": pl.Int64(),
    "name": pl.Utf8(),
    "qty": pl.Int32(),
    "file": pl.Utf8(),
    "line": pl.Int32(),
    "cell": pl.Utf8(),
}


def entries_frame(rows: list[dict[str, Any]] | None = None) -> pl.DataFrame:
    """A frame of entries with the standard schema (missing keys are null)."""
    rows = rows or []
    return pl.DataFrame(
        {col: [row.get(col) for row in rows] for col in ENTRY_SCHEMA}, schema=ENTRY_SCHEMA
    )
