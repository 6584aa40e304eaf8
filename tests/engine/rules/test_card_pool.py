from __future__ import annotations

import polars as pl
import pytest

from tests.conftest import Run, shared_path
from tests.deckbuild import (
    Cards,
    build,
    codes,
    legal_filler,
    passcode_of,
    real_filler,
    ydk_bytes,
)
from validator.cards.banlist import Banlist, parse_lflist, read_banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.importers import cdb
from validator.cards.store import merge
from validator.engine.check import check
from validator.inputs.decks.batch import read_deck_uploads
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


#: a classic GOAT deck (April 2005), every card on the GOAT list within its limits
GOAT_MAIN: Cards = [
    ("Black Luster Soldier - Envoy of the Beginning", 1), ("Breaker the Magical Warrior", 1),
    ("Cyber Jar", 1), ("D.D. Warrior Lady", 1), ("Dark Magician of Chaos", 1),
    ("Exiled Force", 1), ("Sangan", 1), ("Tribe-Infecting Virus", 1), ("Mystic Tomato", 2),
    ("Giant Rat", 2), ("Sinister Serpent", 1), ("Magician of Faith", 1), ("Morphing Jar", 1),
    ("Jinzo", 1), ("Airknight Parshath", 1), ("Kycoo the Ghost Destroyer", 1),
    ("Spirit Reaper", 1), ("Injection Fairy Lily", 1), ("Nobleman of Crossout", 1),
    ("Pot of Greed", 1), ("Graceful Charity", 1), ("Delinquent Duo", 1), ("Snatch Steal", 1),
    ("Premature Burial", 1), ("Heavy Storm", 1), ("Mystical Space Typhoon", 1),
    ("Scapegoat", 1), ("Book of Moon", 1), ("Smashing Ground", 1), ("Enemy Controller", 1),
    ("Reinforcement of the Army", 1), ("Mirror Force", 1), ("Call of the Haunted", 1),
    ("Torrential Tribute", 1), ("Ring of Destruction", 1), ("Sakuretsu Armor", 1),
    ("Dust Tornado", 1), ("Metamorphosis", 1),
]
GOAT_EXTRA: Cards = [("Thousand-Eyes Restrict", 1),
                                     ("Dark Balter the Terrible", 1)]


def _goat_text(main: Cards) -> bytes:
    lines = ["Main Deck", *(f"{q} {n}" for n, q in main), "Extra Deck",
             *(f"{q} {n}" for n, q in GOAT_EXTRA)]
    return "\n".join(lines).encode()


def _goat_check(db: CardDB, main: Cards, typed: bool) -> list[str]:
    upload = ("goat.txt", _goat_text(main)) if typed else (
        "goat.ydk", ydk_bytes(db, main, GOAT_EXTRA))  # modern passcodes: the lowest ones
    files = read_deck_uploads([upload])
    assert files.problems == []
    banlist = read_banlist(shared_path("lflist", "GOAT.lflist.conf"))
    return codes(check(files.entries, cards=db, fmt=load_format("goat"), banlist=banlist))


@pytest.mark.parametrize("typed", [True, False], ids=["typed", "ydk"])
@pytest.mark.parametrize("data", ["goat_db", "ygojson_db"])
def test_goat_deck_of_the_lists_own_cards(data: str, typed: bool,
                                          request: pytest.FixtureRequest) -> None:
    # with goat-entries.cdb the pre-errata entries are printings of the modern cards; without
    # it the list's entries are placed by the card names in their comments: the same verdicts
    db: CardDB = request.getfixturevalue(data)
    assert sum(q for _, q in GOAT_MAIN) == 40
    assert _goat_check(db, GOAT_MAIN, typed) == []
    # Sangan is Limited (listed by its pre-errata passcode 504700178)
    assert _goat_check(db, [*GOAT_MAIN, ("Sangan", 1)], typed) == ["LIMIT_EXCEEDED"]
    # Witch of the Black Forest is Forbidden (listed by 504700144)
    assert _goat_check(db, [*GOAT_MAIN, ("Witch of the Black Forest", 1)], typed) == [
        "FORBIDDEN_CARD"]
    # a card of 2017 is on no GOAT list
    assert _goat_check(db, [*GOAT_MAIN, ("Ash Blossom & Joyous Spring", 1)], typed) == [
        "NOT_IN_CARD_POOL"]


def test_goat_deck_with_edopros_own_goat_passcodes(goat_db: CardDB) -> None:
    # an EDOPro GOAT deck holds the pre-errata passcodes: the same cards, the same limits
    main = [(c, q) for c, q in GOAT_MAIN if c != "Sangan"]
    ydk = ydk_bytes(goat_db, [*main, (504700178, 1)], GOAT_EXTRA)
    banlist = read_banlist(shared_path("lflist", "GOAT.lflist.conf"))
    fmt = load_format("goat")
    files = read_deck_uploads([("goat.ydk", ydk)])
    assert codes(check(files.entries, cards=goat_db, fmt=fmt, banlist=banlist)) == []
    two = read_deck_uploads([("goat.ydk", ydk_bytes(goat_db, [*main, (504700178, 1),
                                                              ("Sangan", 1)], GOAT_EXTRA))])
    assert codes(check(two.entries, cards=goat_db, fmt=fmt, banlist=banlist)) == [
        "LIMIT_EXCEEDED"]


@pytest.mark.parametrize("card", ["Fusion Substitute", "Pacifis, the Phantasm City"])
def test_a_treated_as_name_never_admits_a_card(goat_db: CardDB, card: str) -> None:
    # Polymerization and Umi are on the GOAT list; the later cards treated as them are not
    deck = [*GOAT_MAIN[:-1], (card, 1)]
    assert _goat_check(goat_db, deck, typed=True) == ["NOT_IN_CARD_POOL"]


def test_custom_whitelist_admits_every_printing_of_a_listed_card(ygojson_db: CardDB) -> None:
    # an organizer's whitelist naming Dark Magician by its alternate artwork only
    filler = real_filler(ygojson_db, read_banlist(shared_path("lflist", "0TCG.lflist.conf")),
                         37, avoid=("Dark Magician",))
    listed = [passcode_of(ygojson_db, name) for name, _ in filler]
    text = "!Custom\n$whitelist\n46986421 3 --Dark Magician\n" + "".join(
        f"{code} 3\n" for code in listed)
    custom = parse_lflist(text, "custom.lflist.conf")[0]
    fmt = load_format("advanced-tcg")
    deck = build(ygojson_db, "d", [(46986414, 3), *filler])
    assert codes(check(deck, cards=ygojson_db, fmt=fmt, banlist=custom)) == []


def test_speed_deck_with_a_skill_the_list_names_by_its_comment(ygojson_db: CardDB) -> None:
    # Battle City Bestie has no passcode in YGOJSON: the list's 300309018 is placed by the
    # name in its comment ("Battle City Bestie (Skill Card)")
    speed = read_banlist(shared_path("lflist", "Speed.lflist.conf"))
    bound = speed.bind(ygojson_db)
    pool = ygojson_db.by_card.join(
        bound.cards.filter(pl.col("listed") & (pl.col("limit") >= 3)), on="card_id").filter(
        (pl.col("kind") == "monster") & ~pl.col("extra") & pl.col("passcode").is_not_null())
    main = "".join(f"3 {name}\n" for name in pool.sort("card_id")["name_en"].head(7))
    unlisted = ygojson_db.by_card.filter(pl.col("kind") == "skill").join(
        bound.cards.filter(pl.col("listed")), on="card_id", how="anti")["name_en"].sort()

    def verdict(skill: str) -> list[str]:
        files = read_deck_uploads([("s.txt", f"Main Deck\n{main}Skill\n1 {skill}\n".encode())])
        assert files.problems == []
        return codes(check(files.entries, cards=ygojson_db, fmt=load_format("speed"),
                           banlist=speed))

    assert verdict("Battle City Bestie") == []
    assert verdict(unlisted[0]) == ["NOT_IN_CARD_POOL"]
