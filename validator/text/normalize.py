"""Normalised search keys for card names in any language.

One implementation, as a polars expression; :func:`name_key` applies it to one string.
The key folds case, full-width/half-width forms (NFKC), quotes, ``&``/``and``, spacing and
punctuation, so that "Ash Blossom & Joyous Spring", "ash blossom and joyous spring" and
"ＡＳＨ　ＢＬＯＳＳＯＭ＆ＪＯＹＯＵＳ ＳＰＲＩＮＧ" share one key, and "ブラック・マジシャン"
equals "ブラックマジシャン".
"""

from __future__ import annotations

import itertools
import unicodedata

import polars as pl

__all__ = ["as_typed", "name_key", "name_key_expr"]


def as_typed(original: str, folded: str) -> str:
    """The part of ``original`` (in Unicode NFC) that ``folded`` was read from, where
    ``folded`` is a part of the NFKC form of ``original`` (a reader finds quantities in the
    NFKC form, "３枚"): names keep their printed characters ("－" stays "－"), so that the
    exact printed name is found before any normalised one. ``folded`` itself when it cannot
    be placed."""
    text = unicodedata.normalize("NFC", original)
    pieces = [unicodedata.normalize("NFKC", c) for c in text]
    at = "".join(pieces).find(folded)
    if not folded or at < 0:
        return folded
    ends = list(itertools.accumulate(len(p) for p in pieces))
    starts = [0, *ends]
    if at not in starts or at + len(folded) not in ends:
        return folded
    return text[starts.index(at):ends.index(at + len(folded)) + 1]



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
