"""NOT_IN_CARD_POOL: a card the format's card pool does not hold.

A card is outside the pool when the list is a whitelist that does not name it, when it was
not released in any of the format's regions (e.g. an OCG-only card at a TCG event), when it
belongs to the other game (a Rush card in OCG/TCG or the reverse), or when it is of a kind
the format has none of (tokens; skills outside Speed Duel). A card is released in a region
when any source says so: a cdb's ``ot`` bits, YGOJSON's legality, or the region's own
Forbidden/Limited list naming it (sources disagree: YGOJSON calls some cards unreleased in
the TCG that EDOPro and the TCG list itself show released). It is unreleased only when a
source says so: YGOJSON's "unreleased", a release in other regions but not this one (a
YGOJSON legality, a cdb's ``ot`` bits); a card about which no source says anything is not a
violation (the check warns about it, ``NO_RELEASE_INFO``). Regulation: th §3A (a card
prohibited from use in the tournament) and ko §3A (a card that cannot be used) → Duel
Forfeiture; ja: no clause in its copy.

A whitelist names a card in any of its printings: alternate artworks, reprints and
pre-errata entries ("Sangan (GOAT)"). A card always treated as a listed name is not thereby
listed: Polymerization does not admit Fusion Substitute.

PASS: only cards on the whitelist.  FAIL: a Rush Duel card at a TCG event.
"""

from __future__ import annotations

import polars as pl

from validator.cards.formats import Format
from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    Said,
    Term,
    by_section,
    say,
    violations,
)
from validator.vocab import LANGS

CODES = ("NOT_IN_CARD_POOL",)
DECISION = False
COUNTS = False
COMPARES = False


def card_flags(fmt: Format, whitelist: bool) -> dict[str, pl.Expr]:
    """``outside_pool``: the card is outside the format's pool."""
    return {"outside_pool": _reason(fmt, whitelist)["en"].is_not_null()}


def _reason(fmt: Format, whitelist: bool) -> Said:
    """Why a card is outside the pool (null: inside)."""
    reasons: list[tuple[pl.Expr, str]] = [
        (pl.col("rush") != fmt.rush,
         "{card} is a Rush Duel card" if not fmt.rush else "{card} is not a Rush Duel card"),
        (~pl.col("kind").cast(pl.Utf8).is_in(list(fmt.allowed_kinds)),
         "{card} is a card of a kind this format does not use"),
    ]
    if whitelist:
        reasons.append((~pl.col("listed"), "{card} is not on the format's list of legal cards"))
    texts = [say(t, card=Card()) for _, t in reasons]
    conditions = [c for c, _ in reasons]
    if fmt.card_pool:
        pool = pl.lit("/".join(p.upper() for p in fmt.card_pool))
        released = _in_pool(pl.col("pools"), fmt)
        conditions += [~released & _in_pool(pl.col("unreleased"), fmt),
                       ~released & (pl.col("pools").list.len() > 0)]
        texts += [say("{card} is not released in {pool}: YGOJSON calls it unreleased there "
                      "({sources})", card=Card(), pool=pool, sources=Card("source")),
                  say("{card} is not released in {pool}: the card data gives it only in "
                      "{regions} ({sources}), and the format's list does not name it",
                      card=Card(), pool=pool,
                      regions=pl.col("pools").list.join("/").str.to_uppercase(),
                      sources=Card("source"))]
    return {lang: pl.coalesce([pl.when(c).then(t[lang])
                               for c, t in zip(conditions, texts, strict=True)])
            for lang in LANGS}


def _in_pool(regions: pl.Expr, fmt: Format) -> pl.Expr:
    return regions.list.set_intersection(pl.lit(fmt.card_pool)).list.len() > 0


def outside_pool_reason(fmt: Format, whitelist: bool) -> pl.Expr:
    """Over the card table: why the card is outside the format's pool (null: inside), in
    English."""
    return _reason(fmt, whitelist)["en"]


def release_unknown(fmt: Format) -> pl.Expr:
    """Over the card table: no source says whether the card is released in the format's
    regions (no release region at all, none called unreleased), so it is not a violation."""
    if not fmt.card_pool:
        return pl.lit(False)
    return ((pl.col("pools").list.len().fill_null(0) == 0)
            & ~_in_pool(pl.col("unreleased"), fmt).fill_null(False))


#: the card-table columns a reason reads, beside the card's names and ``kind``
_REASON_COLUMNS = ("rush", "listed", "pools", "unreleased", "source",
                   *(f"source_{lang}" for lang in LANGS if lang != "en"))


def could_find(fmt: Format) -> pl.Expr:
    """Over deck-by-card rows: the row could fail the rule (none: ``check`` finds nothing)."""
    return (pl.col("status") == "ok") & pl.col("outside_pool")


def check(ctx: Context) -> list[Found]:
    # the reason is worded over the failing rows only, not over every card
    failing = by_section(ctx.named(ctx.known.filter(pl.col("outside_pool")), *_REASON_COLUMNS))
    return [violations(failing, "NOT_IN_CARD_POOL", lambda: _message(ctx.fmt, ctx.whitelist),
                       count=pl.col("qty"))]


def _message(fmt: Format, whitelist: bool) -> Said:
    return say("{reason} ({n} in the {section} deck)", reason=_reason(fmt, whitelist),
               n=pl.col("qty"), section=Term(pl.col("section").cast(pl.Utf8), "section"))
