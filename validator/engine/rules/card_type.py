"""FORBIDDEN_CARD_TYPE: a card of a type the format bans.

GOAT: Synchro, Xyz, Pendulum and Link monsters; Genesys: Link and Pendulum monsters.
Regulation: th §3A (a card prohibited from use in the tournament) and ko §3A (a card that
cannot be used) → Duel Forfeiture; ja: no clause in its copy.

PASS: a Fusion monster in GOAT.  FAIL: a Link monster in Genesys.
"""

from __future__ import annotations

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    by_section,
    say,
    violations,
)

CODES = ("FORBIDDEN_CARD_TYPE",)
DECISION = False
COUNTS = False
COMPARES = False


def _banned(fmt: Format) -> pl.Expr:
    return pl.col("subtypes").list.set_intersection(pl.lit(fmt.forbidden_types)).list.join("/")


def card_flags(fmt: Format, whitelist: bool) -> dict[str, pl.Expr]:
    """``banned_type``: the card is of a type the format bans."""
    if not fmt.forbidden_types:
        return {"banned_type": pl.lit(False)}
    return {"banned_type": _banned(fmt) != ""}


def check(ctx: Context) -> list[Found]:
    if not ctx.fmt.forbidden_types:
        return []
    failing = by_section(ctx.named(ctx.known.filter(pl.col("banned_type")))).join(
        ctx.attrs.select("card_id", _banned(ctx.fmt).alias("types")), on="card_id", how="left")
    return [violations(failing, "FORBIDDEN_CARD_TYPE",
                       lambda: say("{card} is a {types} monster, which this format does not allow",
                           card=Card(), types=pl.col("types")),
                       count=pl.col("qty"))]
