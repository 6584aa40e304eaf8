from __future__ import annotations

import polars as pl

from tests.deckbuild import build, codes, legal_filler
from validator.banlist import parse_lflist
from validator.cards import CardDB


def test_pass_tcg_cards(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    assert codes(run(build(demo_db, "d", legal_filler(demo_db, 40)))) == []


def test_fail_rush_card_at_a_tcg_event(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck = build(demo_db, "d", legal_filler(demo_db, 40), side=[(160001001, 1)])
    result = run(deck)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert "Rush Duel card" in result.violations["message"][0]


def test_fail_ocg_only_card_at_tcg_event(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    # Effect Veiler, rewritten in a copy of the pool as released only in the OCG
    code = int(demo_db.cards.filter(pl.col("name_en") == "Effect Veiler")["passcode"][0])
    db = CardDB(demo_db.cards.with_columns(
        pl.when(pl.col("passcode") == code).then(pl.lit(["ocg"]))
        .otherwise(pl.col("pools")).alias("pools")))
    deck = build(db, "d", [(code, 1), *legal_filler(db, 39)])
    result = run(deck, cards=db)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert "Effect Veiler is not released in TCG" in result.violations["message"][0]


def test_fail_card_not_on_whitelist(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    filler = legal_filler(demo_db, 40)
    names = [name for name, _ in filler]
    codes_on_list = demo_db.by_card.filter(pl.col("name_en").is_in(names[1:]))["passcode"]
    text = "!W\n$whitelist\n" + "".join(f"{c} 3\n" for c in codes_on_list)
    result = run(build(demo_db, "d", filler), banlist=parse_lflist(text, "w.conf")[0])
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert result.violations["card"].to_list() == [names[0]]


def test_fail_token_in_deck(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    token = demo_db.by_card.filter(pl.col("kind") == "token")
    assert not token.is_empty()
    deck = build(demo_db, "d", [(int(token["passcode"][0]), 1), *legal_filler(demo_db, 39)])
    assert "NOT_IN_CARD_POOL" in codes(run(deck))
