"""UNRESOLVED_NAME: a list entry whose text names no single card.

A registered list must identify every card; an entry that matches no card, or several, is
reported with the closest card names as suggestions, never replaced silently. It is the head
judge's decision what the entry names: no regulation prescribes a penalty for an unclear
entry (th §3B, ja §3B and ko §3B only require the deck to match the list), so none is
proposed, and the player's verdicts that count the whole list wait for the decision.

PASS: "Ash Blossom & Joyous Spring".  FAIL: "Ash Blosom" (suggests Ash Blossom & Joyous Spring).
"""

from __future__ import annotations

from functools import cache

import polars as pl

from validator.engine.rules._context import (
    Context,
    Found,
    Said,
    Term,
    Value,
    choose,
    no_card_flags,
    say,
    violations,
)

CODES = ("UNRESOLVED_NAME",)
DECISION = True
COUNTS = False
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    sources = [ctx.rows.with_columns(pl.lit(False).alias("on_list"))]
    if ctx.registered is not None and ctx.list_problems:
        sources.append(ctx.registered.with_columns(pl.lit(True).alias("on_list")))
    failing = pl.concat(sources).filter(pl.col("status") == "unresolved")
    return [violations(failing, "UNRESOLVED_NAME", _message, count=pl.col("qty"))]


@cache  # built once: the same expressions serve every check
def _message() -> Said:
    typed: dict[str, Value] = {
        "section": Term(pl.col("section").cast(pl.Utf8), "section"), "n": pl.col("qty"),
        "name": pl.col("name"), "suggestions": pl.col("suggestions").list.join(" / ")}
    return choose(
        (pl.col("ambiguous"),
         say('{section} {n}x "{name}" names more than one card: {suggestions}', **typed)),
        (pl.col("suggestions").list.len() > 0,
         say('{section} {n}x "{name}" names no card; did you mean {suggestions}?', **typed)),
        otherwise=say('{section} {n}x "{name}" names no card', **typed))
