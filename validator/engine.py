"""The legality engine: every rule over every deck in one lazy polars plan.

Readers give entries (one long table for all decks); :func:`check` resolves them to card
names, attaches card attributes and list limits with joins, prepares the shared per-card,
per-section and per-deck frames once, lets every registered rule add its failing rows, and
collects all of it in one go. No Python code runs per deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from .banlist import Banlist
from .cards import CardDB
from .entries import ENTRY_SCHEMA
from .errors import Problem
from .formats import Format
from .resolve import resolve
from .rules import CODES, MODULES, VIOLATION_SCHEMA, Context

__all__ = ["CheckResult", "check", "prepare_rows"]

_CODE_ORDER = pl.Enum(list(CODES))


@dataclass
class CheckResult:
    """Verdicts: ``decks`` (one row per deck) and ``violations`` (one row per violation)."""

    decks: pl.DataFrame
    violations: pl.DataFrame
    format: Format
    banlist: str
    cards: str
    resolved: pl.DataFrame
    warnings: list[Problem] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Violations per code, in registry order."""
        counted = self.violations.group_by("code").len()
        by_code = dict(counted.iter_rows())
        return {code: int(by_code[code]) for code in CODES if code in by_code}


def _attributes(cards: CardDB, banlist: Banlist, fmt: Format) -> pl.DataFrame:
    limits = banlist.bind(cards)
    if fmt.forbidden_as_limited:
        limits = limits.with_columns(
            pl.when(pl.col("limit") == 0).then(1).otherwise(pl.col("limit")).alias("limit"))
    attrs = cards.by_card.select(
        "card_id", pl.col("name_en").alias("card"), "kind", "extra", "rush", "legend",
        "subtypes", "pools", pl.col("points").alias("card_points"))
    joined = attrs.join(limits, on="card_id", how="left").with_columns(
        pl.col("listed").fill_null(False))
    points = pl.col("points").fill_null(0.0) if banlist.genesys else pl.col("card_points")
    return joined.with_columns(points.alias("points")).drop("card_points")


def prepare_rows(resolved: pl.DataFrame, index: pl.DataFrame,
                 attrs: pl.DataFrame) -> pl.LazyFrame:
    """Resolved entries with deck number, card attributes and limits (lazy)."""
    return (
        resolved.lazy()
        .join(index.lazy(), on="deck_id", how="inner")
        .join(attrs.lazy(), on="card_id", how="left")
    )


def _grouped(rows: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    return (
        rows.filter(pl.col("status") == "ok")
        .group_by(keys)
        .agg(
            pl.col("qty").sum().cast(pl.Int64),
            pl.col("passcode").first(), pl.col("file").first(), pl.col("line").min(),
            pl.col("cell").first(), pl.col("card").first(), pl.col("kind").first(),
            pl.col("extra").first(), pl.col("rush").first(), pl.col("legend").first(),
            pl.col("subtypes").first(), pl.col("pools").first(), pl.col("limit").first(),
            pl.col("listed").first(), pl.col("points").first(), pl.col("name").first(),
        )
    )


def check(
    entries: pl.DataFrame,
    *,
    cards: CardDB,
    fmt: Format,
    banlist: Banlist,
    registered: pl.DataFrame | None = None,
    deck_ids: list[str] | None = None,
    list_problems: bool = True,
) -> CheckResult:
    """Check every deck in ``entries`` (and compare with ``registered`` lists when given).

    ``deck_ids`` names decks that must get a verdict even with no rows at all (a player
    whose registered sheet is empty is a deck of 0 cards, not a missing one).
    ``list_problems=False`` leaves the registered lists' own problems (unresolved names) to
    a separate check of the lists.
    """
    entries = entries.select(list(ENTRY_SCHEMA))
    ids = [pl.Series(deck_ids or [], dtype=pl.Utf8), entries["deck_id"]] + (
        [registered["deck_id"]] if registered is not None else [])
    index = (
        pl.concat(ids).unique(maintain_order=True).to_frame("deck_id")
        .with_row_index("deck")
    )
    attrs = _attributes(cards, banlist, fmt)
    resolved = resolve(entries, cards, rush=fmt.rush)
    rows = prepare_rows(resolved, index, attrs)
    reg_rows = None
    if registered is not None:
        reg_rows = prepare_rows(resolve(registered.select(list(ENTRY_SCHEMA)), cards,
                                        rush=fmt.rush), index, attrs)
    sizes = index.lazy().join(
        rows.group_by("deck").agg(
            *[pl.col("qty").filter(pl.col("section") == s).sum().cast(pl.Int64).alias(s)
              for s in ("main", "extra", "side")],
            pl.col("file").first().alias("source"),
        ),
        on="deck", how="left",
    ).with_columns(pl.col("main", "extra", "side").fill_null(0))
    per_card = _grouped(rows, ["deck", "card_id"]).rename({"qty": "total"})
    ctx = Context(
        fmt=fmt, whitelist=banlist.whitelist, rows=rows, per_card=per_card,
        per_section=_grouped(rows, ["deck", "card_id", "section"]), sizes=sizes,
        registered=reg_rows, list_problems=list_problems,
    )
    frames = [frame for module in MODULES for frame in module.check(ctx)]
    plan = pl.concat(frames) if frames else pl.LazyFrame(schema=VIOLATION_SCHEMA)
    found, deck_sizes = pl.collect_all([plan, sizes])
    names = attrs.select("card_id", "card")
    found = (
        found.join(index, on="deck", how="left")
        .join(names, on="card_id", how="left")
        .with_columns(pl.col("code").cast(_CODE_ORDER))
        .sort("deck", "code", "section", "card_id", "passcode", nulls_last=True)
        .with_columns(pl.col("code").cast(pl.Utf8))
    )
    illegal = found.select("deck").unique()
    decks = deck_sizes.with_columns(
        (~pl.col("deck").is_in(illegal["deck"].implode())).alias("legal")
    ).sort("deck")
    return CheckResult(
        decks=decks, violations=found, format=fmt, banlist=banlist.name,
        cards=", ".join(str(s.get("source")) for s in cards.sources), resolved=resolved,
        warnings=list(banlist.warnings) + list(cards.warnings),
    )
