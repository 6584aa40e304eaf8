"""LIST_MISMATCH: the deck and the registered deck list differ.

Before the event and in the first duel of a match the deck equals its list section by
section: one violation per (section, card) whose counts differ, with both counts. From the
second duel of a match on, cards of the side deck may have been exchanged one for one with
main or extra deck cards (never main with extra; the side deck keeps its size; everything is
restored before the next match): the ja regulation compares the list with "デッキ（サイドデッキ
を含む）", the deck including its side deck. Then a difference is only what siding cannot
explain — a card whose copies over main + extra + side differ from the list's, a side deck
whose size differs from the registered one, or a card in a section it can never occupy (an
Extra Deck monster only in the extra or side deck, any other card only in the main or side
deck). Cards are compared as cards (alternate artworks are the same card): a card whose name
is always treated as another's is still another card on a deck list. Regulation: th §3B,
ja §3B, ko §3B (the deck, extra and side deck differ from the registered list → Duel
Forfeiture; fix the deck to match the list).

PASS: deck equals list; in duel 2, 2 Lightning Storm swapped for 2 Cosmic Cyclone from the
side deck.  FAIL: a card moved from main to side before duel 1 → two rows (main -1, side +1);
in duel 2, 1 Raigeki not on the list, or a side deck one card short.
"""

from __future__ import annotations

from functools import cache, partial

import polars as pl

from validator.engine.rules._context import (
    Card,
    Context,
    Found,
    Said,
    choose,
    no_card_flags,
    say,
    violations,
    word,
)
from validator.errors import ImplementationError
from validator.vocab import LANGS, SECTIONS

CODES = ("LIST_MISMATCH",)
DECISION = False
COUNTS = True
COMPARES = True
card_flags = no_card_flags


def _counts(frame: pl.LazyFrame) -> pl.LazyFrame:
    return frame.filter(pl.col("status") != "unresolved").select(
        "deck_key", "deck", "card_id", "passcode", *SECTIONS, *(f"row_{s}" for s in SECTIONS))


def _card() -> Said:
    """The card's name in each language, or its passcode when the data lacks the card."""
    passcode = say("passcode {passcode}", passcode=pl.col("passcode"))
    return {lang: pl.coalesce(Card().expr(lang), passcode[lang]) for lang in LANGS}


def check(ctx: Context) -> list[Found]:
    if ctx.registered_cards is None:
        return []
    # decks whose fingerprints equal their lists' (``engine.same_as_listed``) are left out
    # before any row is read (their lists have no deck-by-card table: ``registered_cards``
    # holds only the others); the rest are compared card by card
    flagged = ctx.same_as_list
    if flagged is not None and bool(flagged.all()):
        return []  # every deck holds exactly its list's cards: nothing to compare
    if ctx.few and flagged is not None:  # each row's deck flag read by its number
        compared = ~pl.lit(flagged).gather(pl.col("deck"))
    else:
        compared = ~pl.col("deck").is_in(
            (flagged.arg_true().cast(pl.UInt32) if flagged is not None
             else pl.Series("deck", [], dtype=pl.UInt32)).implode())
    deck = _counts(ctx.deck_cards).filter(compared)
    listed = _counts(ctx.registered_cards)
    if not ctx.few:  # many decks: both counted once, then joined
        deck, listed = (frame.lazy() for frame in pl.collect_all([deck, listed],
                                                                  engine="in-memory"))
    both = (
        deck
        .join(listed, on="deck_key", how="full",
              coalesce=True, suffix="_list")
        .with_columns(
            pl.coalesce("deck", "deck_list").alias("deck"),
            pl.coalesce("card_id", "card_id_list").alias("card_id"),
            pl.coalesce("passcode", "passcode_list").alias("passcode"),
            *[pl.col(s).fill_null(0).alias(f"{s}_deck") for s in SECTIONS],
            *[pl.col(f"{s}_list").fill_null(0) for s in SECTIONS],
        )
        .filter(pl.any_horizontal([pl.col(f"{s}_deck") != pl.col(f"{s}_list")
                                   for s in SECTIONS]))
    )
    if not ctx.few:  # small: computed once and reused below
        both = both.collect(engine="in-memory").lazy()
    if ctx.siding:
        return _siding(ctx, both, compared)
    out = []
    for section in SECTIONS:
        rows = ctx.named(both.filter(pl.col(f"{section}_deck") != pl.col(f"{section}_list")))
        in_deck = pl.col(f"row_{section}").is_not_null()
        out.append(violations(
            rows, "LIST_MISMATCH", partial(_differs, section),
            section=pl.lit(section), count=pl.col(f"{section}_deck"),
            registered=pl.col(f"{section}_list"),
            row=pl.coalesce(f"row_{section}", f"row_{section}_list"), on_list=~in_deck))
    return out


@cache  # built once: the same expressions serve every check
def _differs(section: str) -> Said:
    return say("{section} deck, {card}: {found} in the deck, {listed} on the registered list",
               section=word("section", section), card=_card(),
               found=pl.col(f"{section}_deck"), listed=pl.col(f"{section}_list"))


def _siding(ctx: Context, both: pl.LazyFrame, compared: pl.Expr) -> list[Found]:
    """What side-decking between duels cannot explain (see the module)."""
    total_deck = pl.sum_horizontal(f"{s}_deck" for s in SECTIONS)
    total_list = pl.sum_horizontal(f"{s}_list" for s in SECTIONS)
    first_row = pl.min_horizontal(*(f"row_{s}" for s in SECTIONS))
    first_listed = pl.min_horizontal(*(f"row_{s}_list" for s in SECTIONS))
    totals = ctx.named(both.filter(total_deck != total_list).with_columns(
        total_deck.alias("found"), total_list.alias("listed")))
    out = [violations(totals, "LIST_MISMATCH", _totals_differ, count=pl.col("found"),
                      registered=pl.col("listed"), row=pl.coalesce(first_row, first_listed),
                      on_list=first_row.is_null())]
    # a card moved into a section it can never occupy
    misplaced = ctx.named(
        both.join(ctx.attrs.select("card_id", "is_extra"), on="card_id", how="left")
        .filter(pl.when(pl.col("is_extra")).then(pl.col("main_deck") > 0)
                .otherwise(pl.col("extra_deck") > 0)))
    out.append(violations(
        misplaced, "LIST_MISMATCH",
        lambda: choose((pl.col("is_extra"), say(
            "{card} in the main deck: an Extra Deck monster is sided only between the extra "
            "and the side deck", card=_card())),
            otherwise=say("{card} in the extra deck: only Extra Deck monsters go there",
                          card=_card())),
        section=pl.when(pl.col("is_extra")).then(pl.lit("main")).otherwise(pl.lit("extra")),
        count=pl.when(pl.col("is_extra")).then(pl.col("main_deck"))
        .otherwise(pl.col("extra_deck")),
        row=pl.when(pl.col("is_extra")).then(pl.col("row_main"))
        .otherwise(pl.col("row_extra"))))
    # the side deck keeps its registered size
    if ctx.registered_cards is None:
        raise ImplementationError("list_mismatch ran without the registered lists")
    listed_side = ctx.registered_cards.group_by("deck").agg(
        pl.col("side").sum().alias("registered"))
    side = (
        ctx.sizes.filter(compared)
        .join(listed_side, on="deck", how="left")
        .with_columns(pl.col("registered").fill_null(0))
        .filter(pl.col("side") != pl.col("registered"))
    )
    out.append(violations(
        side, "LIST_MISMATCH",
        lambda: say("side deck {n} cards, registered {registered}: side deck exchanges are one "
                    "for one", n=pl.col("side"), registered=pl.col("registered")),
        section=pl.lit("side"), count=pl.col("side"), registered=pl.col("registered")))
    return out


@cache  # built once: the same expressions serve every check
def _totals_differ() -> Said:
    """A card whose copies over main + extra + side differ from its list's."""
    where = say("main {main}, extra {extra}, side {side}",
                **{s: pl.col(f"{s}_deck") for s in SECTIONS})
    card, found, listed = _card(), pl.col("found"), pl.col("listed")
    return choose(
        (listed == 0, say("{n} {card} in the deck ({where}), not on the registered list",
                          n=found, card=card, where=where)),
        (found == 0, say("{card}: none in the deck, {listed} on the registered list",
                         card=card, listed=listed)),
        otherwise=say("{card}: {found} in the deck ({where}), {listed} on the registered list: "
                      "siding exchanges cards one for one", card=card, found=found,
                      where=where, listed=listed))
