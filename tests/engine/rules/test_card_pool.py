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
from validator.inputs.entries import entries_frame


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
    # another region's list says nothing about the TCG, nor does YGOJSON (no legality):
    # no evidence, so no violation, and a warning names the card
    ocg = read_banlist(shared_path("lflist", "OCG.lflist.conf"))
    result = check(deck, cards=ygojson_db, fmt=fmt, banlist=ocg)
    assert codes(result) == []
    assert "Dracotail Arthalion" in result.release_unknown
    assert [w.code for w in result.warnings].count("NO_RELEASE_INFO") == 1


def test_no_release_information_is_not_unreleased(ygojson_db: CardDB,
                                                  tcg_list: Banlist) -> None:
    # Mulcharmy Fuwalos (42141493): an empty YGOJSON legality; EDOPro's cdb marks it OCG+TCG
    fmt = load_format("advanced-tcg")
    deck = _real_deck(ygojson_db, tcg_list, 42141493)
    alone = check(deck, cards=ygojson_db, fmt=fmt, banlist=tcg_list)
    assert codes(alone) == []
    assert "Mulcharmy Fuwalos" in alone.release_unknown
    warned = [w for w in alone.warnings if w.code == "NO_RELEASE_INFO"]
    assert len(warned) == 1
    assert "Mulcharmy Fuwalos" in warned[0].message
    assert "cards.delta.cdb" in warned[0].message  # what to import to know
    both = merge([ygojson_db, cdb.read(shared_path("cdb", "cards.delta.cdb"))])
    fuwalos = both.by_card.filter(pl.col("passcode") == 42141493)
    assert "tcg" in fuwalos["pools"][0].to_list()
    together = check(_real_deck(both, tcg_list, 42141493), cards=both, fmt=fmt,
                     banlist=tcg_list)
    assert codes(together) == []
    assert "Mulcharmy Fuwalos" not in together.release_unknown


def test_no_card_without_release_information_is_outside_the_pool(
        ygojson_db: CardDB, tcg_list: Banlist) -> None:
    # every YGOJSON card with passcodes and an empty legality, in decks of 40, checked at once
    fmt = load_format("advanced-tcg")
    silent = ygojson_db.by_card.filter(
        (pl.col("pools").list.len() == 0) & pl.col("passcode").is_not_null()
        & pl.col("kind").cast(pl.Utf8).is_in(["monster", "spell", "trap"])
        & ~pl.col("rush"))
    said = ygojson_db.legality.filter(pl.col("status") == "unreleased")["passcode"]
    silent = silent.filter(~pl.col("passcode").is_in(said.implode()))
    assert silent.height > 500
    rows = [{"deck_id": f"d{i // 40}", "section": "extra" if extra else "main",
             "passcode": code, "qty": 1}
            for i, (code, extra) in enumerate(silent.select("passcode", "extra").iter_rows())]
    result = check(entries_frame(rows), cards=ygojson_db, fmt=fmt, banlist=tcg_list)
    assert "NOT_IN_CARD_POOL" not in codes(result)
    assert [w.code for w in result.warnings].count("NO_RELEASE_INFO") == 1
    assert len(result.release_unknown) > 500
    # checked in chunks of decks: still one warning naming every such card
    chunked = check(entries_frame(rows), cards=ygojson_db, fmt=fmt, banlist=tcg_list,
                    chunk_rows=200, chunk_above=0)
    assert chunked.release_unknown == result.release_unknown
    assert [w.code for w in chunked.warnings] == [w.code for w in result.warnings]


def test_unreleased_by_ygojson_names_the_source(ygojson_db: CardDB, tcg_list: Banlist) -> None:
    fmt = load_format("advanced-tcg")
    listed = tcg_list.entries["passcode"].implode()
    unreleased = ygojson_db.legality.filter(
        (pl.col("region") == "tcg") & (pl.col("status") == "unreleased")
        & ~pl.col("passcode").is_in(listed))
    cards = ygojson_db.by_card.filter(
        pl.col("passcode").is_in(unreleased["passcode"].implode())
        & (pl.col("kind").cast(pl.Utf8) == "monster") & ~pl.col("extra"))
    code = int(cards["passcode"][0])
    result = check(_real_deck(ygojson_db, tcg_list, code), cards=ygojson_db, fmt=fmt,
                   banlist=tcg_list)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
    message = result.violations["message"][0]
    assert "YGOJSON calls it unreleased" in message
    assert "cards.json" in message
