"""Section sizes.

MAIN_TOO_SMALL: the main deck has fewer cards than the format's minimum (40; Speed Duel 20).
MAIN_TOO_LARGE: the main deck has more cards than the maximum (60; Speed Duel 30).
EXTRA_TOO_LARGE: the extra deck has more than 15 cards (Speed Duel 5).
SIDE_TOO_LARGE: the side deck has more than 15 cards (Speed Duel 5).

A Skill card is not counted in the main deck (it starts the duel outside it). Regulation: th
§3A (a deck of fewer than 40 or more than 60 cards → Duel Forfeiture), ko §3A (a deck under
40 cards → Duel Forfeiture; add cards to reach 40); extra and side deck sizes: no clause in
any — head judge's decision.

PASS: 40 main, 15 extra, 15 side.  FAIL: 39 main → MAIN_TOO_SMALL (count 39, limit 40).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial

import polars as pl

from validator.engine.rules._context import (
    Context,
    Found,
    Said,
    no_card_flags,
    say,
    violations,
)

CODES = ("MAIN_TOO_SMALL", "MAIN_TOO_LARGE", "EXTRA_TOO_LARGE", "SIDE_TOO_LARGE")
DECISION = False
COUNTS = True
COMPARES = False
card_flags = no_card_flags


def check(ctx: Context) -> list[Found]:
    f = ctx.fmt
    return [violations(ctx.sizes.filter(failing), code, message, **columns)
            for code, failing, message, columns in _bounds(f.main_min, f.main_max,
                                                           f.extra_max, f.side_max)]


@cache  # built once per format's bounds: the same expressions serve every check
def _bounds(main_min: int, main_max: int, extra_max: int, side_max: int) -> list[tuple[
        str, pl.Expr, Callable[[], Said], dict[str, pl.Expr]]]:
    """Each bound's code, failing condition over deck sizes, message and columns."""
    bounds = [
        ("MAIN_TOO_SMALL", "main", pl.col("main") < main_min, main_min,
         "Main deck has {n} cards; at least {limit} are required"),
        ("MAIN_TOO_LARGE", "main", pl.col("main") > main_max, main_max,
         "Main deck has {n} cards; at most {limit} are allowed"),
        ("EXTRA_TOO_LARGE", "extra", pl.col("extra") > extra_max, extra_max,
         "Extra deck has {n} cards; at most {limit} are allowed"),
        ("SIDE_TOO_LARGE", "side", pl.col("side") > side_max, side_max,
         "Side deck has {n} cards; at most {limit} are allowed"),
    ]
    return [(code, failing, partial(_message, text, section, limit),
             {"section": pl.lit(section), "count": pl.col(section), "limit": pl.lit(limit)})
            for code, section, failing, limit, text in bounds]


@cache  # built once: the same expressions serve every check
def _message(text: str, section: str, limit: int) -> Said:
    return say(text, n=pl.col(section), limit=pl.lit(limit))
