from __future__ import annotations

import polars as pl

from tests.conftest import Run, shared_path
from tests.deckbuild import build, codes, legal_filler, real_filler
from validator.cards.banlist import Banlist, parse_lflist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.importers import cdb
from validator.cards.store import merge
from validator.engine.check import check


def test_pass_tcg_cards(run: Run, demo_db: CardDB) -> None:
    assert codes(run(build(demo_db, "d", legal_filler(demo_db, 40)))) == []


def test_fail_rush_card_at_a_tcg_event(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40), side=[(160001001, 1)])
    result = run(deck)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert "Rush Duel card" in result.violations["message"][0]


def test_fail_ocg_only_card_at_tcg_event(run: Run, demo_db: CardDB) -> None:
    # Effect Veiler, rewritten in a copy of the pool as released only in the OCG
    code = int(demo_db.printings.filter(pl.col("name_en") == "Effect Veiler")["passcode"][0])
    db = CardDB(demo_db.printings.with_columns(
        pl.when(pl.col("passcode") == code).then(pl.lit(["ocg"]))
        .otherwise(pl.col("pools")).alias("pools")), sources=demo_db.sources)
    deck = build(db, "d", [(code, 1), *legal_filler(db, 39)])
    result = run(deck, cards=db)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert "Effect Veiler is not released in TCG" in result.violations["message"][0]


def test_fail_card_not_on_whitelist(run: Run, demo_db: CardDB) -> None:
    filler = legal_filler(demo_db, 40)
    names = [name for name, _ in filler]
    codes_on_list = demo_db.by_card.filter(pl.col("name_en").is_in(names[1:]))["passcode"]
    text = "!W\n$whitelist\n" + "".join(f"{c} 3\n" for c in codes_on_list)
    result = run(build(demo_db, "d", filler), banlist=parse_lflist(text, "w.conf")[0])
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    assert result.violations["card"].to_list() == [names[0]]


def test_fail_token_in_deck(run: Run, demo_db: CardDB) -> None:
    token = demo_db.by_card.filter(pl.col("kind") == "token")
    assert not token.is_empty()
    deck = build(demo_db, "d", [(int(token["passcode"][0]), 1), *legal_filler(demo_db, 39)])
    assert "NOT_IN_CARD_POOL" in codes(run(deck))


def _real_deck(db: CardDB, banlist: Banlist, code: int) -> pl.DataFrame:
    if db.printings.filter(pl.col("passcode") == code)["extra"][0]:
        return build(db, "d", real_filler(db, banlist, 40), extra=[(code, 1)])
    return build(db, "d", [(code, 1), *real_filler(db, banlist, 39)])


def test_released_when_any_source_says_so(ygojson_db: CardDB, tcg_list: Banlist) -> None:
    # Fiendsmith Engraver (60764609): YGOJSON says unreleased in the TCG, EDOPro's cdb OCG+TCG
    fmt = load_format("advanced-tcg")
    alone = check(_real_deck(ygojson_db, tcg_list, 60764609), cards=ygojson_db, fmt=fmt,
                  banlist=tcg_list)
    assert codes(alone) == ["NOT_IN_CARD_POOL"]
    message = alone.violations["message"][0]
    assert "not released in TCG" in message
    assert "cards.json, data of 2025-11-07" in message  # the source that decided, its date
    both = merge([ygojson_db, cdb.read(shared_path("cdb", "cards.delta.cdb"))])
    together = check(_real_deck(both, tcg_list, 60764609), cards=both, fmt=fmt,
                     banlist=tcg_list)
    assert codes(together) == []


def test_released_when_the_regions_own_list_names_it(ygojson_db: CardDB,
                                                     tcg_list: Banlist) -> None:
    # Dracotail Arthalion (33760966) has no TCG entry in YGOJSON but is on the 0TCG list
    fmt = load_format("advanced-tcg")
    assert tcg_list.entries.filter(pl.col("passcode") == 33760966).height == 1
    deck = _real_deck(ygojson_db, tcg_list, 33760966)
    assert codes(check(deck, cards=ygojson_db, fmt=fmt, banlist=tcg_list)) == []
    # another region's list says nothing about the TCG
    ocg = read_banlist(shared_path("lflist", "OCG.lflist.conf"))
    assert codes(check(deck, cards=ygojson_db, fmt=fmt, banlist=ocg)) == ["NOT_IN_CARD_POOL"]
