"""Normalised search keys for card names in any language.

One implementation, as a polars expression; :func:`name_key` applies it to one string.
The key folds case, full-width/half-width forms (NFKC), quotes, ``&``/``and``, spacing and
punctuation, so that "Ash Blossom & Joyous Spring", "ash blossom and joyous spring" and
"ＡＳＨ　ＢＬＯＳＳＯＭ＆ＪＯＹＯＵＳ ＳＰＲＩＮＧ" share one key, and "ブラック・マジシャン"
equals "ブラックマジシャン".
"""

from __future__ import annotations

import polars as pl

__all__ = ["name_key", "name_key_expr"]



def name_key_expr(expr: pl.Expr) -> pl.Expr:
    """The normalised key of a string column (null stays null)."""
    return (
        expr.str.normalize("NFKC")
        .str.to_lowercase()
        .str.replace_all("&", " and ", literal=True)
        .str.replace_all(r"[\p{P}\p{S}\p{Z}\s]+", "")
    )


def name_key(text: str) -> str:
    """The normalised key of one name."""
    out = pl.select(name_key_expr(pl.lit(text, dtype=pl.Utf8))).item()
    return str(out) if out is not None else ""
