"""What every rule sees: the event's rows as lazy frames, prepared once."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from ..formats import Format

__all__ = ["VIOLATION_SCHEMA", "Context", "violations"]

VIOLATION_SCHEMA: dict[str, pl.DataType] = {
    "deck": pl.UInt32(),
    "code": pl.Utf8(),
    "section": pl.Enum(["main", "extra", "side"]),
    "card_id": pl.Int64(),
    "passcode": pl.Int64(),
    "count": pl.Int64(),
    "limit": pl.Int64(),
    "registered": pl.Int64(),
    "message": pl.Utf8(),
    "file": pl.Utf8(),
    "line": pl.Int32(),
    "cell": pl.Utf8(),
}


@dataclass(frozen=True)
class Context:
    """Lazy frames shared by the rules (polars computes common parts once).

    * ``rows``: one row per entry, with the card's attributes and the list's limit;
    * ``per_card``: one row per (deck, card name) with copies across main+extra+side;
    * ``per_section``: one row per (deck, card name, section);
    * ``sizes``: one row per deck with main/extra/side card counts;
    * ``registered``: the registered lists' rows (same deck numbers), when given;
    * ``list_problems``: whether rules also report problems of the registered lists.
    """

    fmt: Format
    whitelist: bool
    rows: pl.LazyFrame
    per_card: pl.LazyFrame
    per_section: pl.LazyFrame
    sizes: pl.LazyFrame
    registered: pl.LazyFrame | None = None
    list_problems: bool = True


def violations(frame: pl.LazyFrame, code: str | pl.Expr, message: pl.Expr,
               **columns: pl.Expr) -> pl.LazyFrame:
    """Shape a rule's failing rows as violation rows."""
    exprs = {"code": code if isinstance(code, pl.Expr) else pl.lit(code), "message": message,
             **columns}
    out = frame.with_columns(**exprs)
    present = set(out.collect_schema().names())
    return out.select(
        [pl.col(c).cast(t) if c in present else pl.lit(None, t).alias(c)
         for c, t in VIOLATION_SCHEMA.items()]
    )
