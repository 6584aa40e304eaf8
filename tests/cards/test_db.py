from __future__ import annotations

from typing import Any

import polars as pl

from validator.cards.db import (
    CARD_SCHEMA,
    LINK_SCHEMA,
    REGIONS,
    SUBTYPES,
    CardDB,
    components,
    finalize,
    stable_negative_id,
)


def test_components_follow_chains_to_the_lowest_rank() -> None:
    nodes = pl.Series([10, 11, 12, 20, 30, 31], dtype=pl.Int64)
    a = pl.Series([11, 12, 31], dtype=pl.Int64)
    b = pl.Series([10, 11, 30], dtype=pl.Int64)
    assert components(nodes, a, b, nodes).to_list() == [10, 10, 10, 20, 30, 30]


def test_components_take_the_best_ranked_member_whatever_the_direction() -> None:
    nodes = pl.Series([5, 7, 9], dtype=pl.Int64)
    rank = pl.Series([3, 1, 2], dtype=pl.Int64)
    a = pl.Series([5, 9], dtype=pl.Int64)
    b = pl.Series([7, 7], dtype=pl.Int64)
    assert components(nodes, a, b, rank).to_list() == [7, 7, 7]


def test_stable_negative_id_is_stable_and_negative() -> None:
    assert stable_negative_id("abc") == stable_negative_id("abc")
    assert stable_negative_id("abc") < 0
    assert stable_negative_id("abc") != stable_negative_id("abd")


def test_names_table_has_every_language(demo_db: CardDB) -> None:
    names = demo_db.names
    ash = names.filter(pl.col("card_id") == 14558127)
    assert set(ash["lang"]) >= {"en", "ja", "ko"}
    assert "灰流うらら" in ash["name"].to_list()


def _cards(rows: list[dict[str, Any]]) -> pl.DataFrame:
    full = [{"card_id": r["passcode"], "name_id": r["passcode"], "kind": "monster",
             "extra": False, "rush": False, "legend": False, "subtypes": [], "pools": [],
             "other_names": [], "source": "t", **r} for r in rows]
    return pl.DataFrame({c: [r.get(c) for r in full] for c in CARD_SCHEMA}, schema=CARD_SCHEMA)


def _links(rows: list[tuple[int, int | None, str | None, str]]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=LINK_SCHEMA, orient="row")


def _ids(frame: pl.DataFrame) -> dict[int, tuple[int, int]]:
    return {r["passcode"]: (r["card_id"], r["name_id"]) for r in frame.iter_rows(named=True)}


def test_alias_near_or_same_name_is_one_card_far_alias_is_one_name() -> None:
    cards = _cards([
        {"passcode": 100, "name_en": "Firewall"},
        {"passcode": 105, "name_en": "Firewall"},  # alternate artwork, alias within 10
        {"passcode": 22702055, "name_en": "Umi", "kind": "spell"},
        {"passcode": 295517, "name_en": "A Legendary Ocean", "kind": "spell"},
        {"passcode": 9000, "name_en": "Dark Magician"},
        {"passcode": 9500, "name_en": "Dark Magician"},  # a far reprint of the same name
    ])
    links = _links([(105, 100, None, "alias"), (295517, 22702055, None, "alias"),
                    (9500, 9000, None, "alias")])
    ids = _ids(finalize(cards, links)[0])
    assert ids[105] == (100, 100)
    assert ids[295517] == (295517, 22702055)  # its own card, Umi's name
    assert ids[22702055] == (22702055, 22702055)
    assert ids[9500] == (9000, 9000)


def test_pre_errata_entry_is_a_printing_of_its_card_and_a_treated_as_link_is_not() -> None:
    cards = _cards([
        {"passcode": 26202165, "name_en": "Sangan"},
        {"passcode": 504700178, "name_en": "Sangan (GOAT)"},  # EDOPro's pre-errata entry
        {"passcode": 24094653, "name_en": "Polymerization", "kind": "spell"},
        {"passcode": 74335036, "name_en": "Fusion Substitute", "kind": "spell"},
    ])
    links = _links([(504700178, 26202165, None, "alias"), (74335036, 24094653, None, "alias")])
    ids = _ids(finalize(cards, links)[0])
    assert ids[504700178] == (26202165, 26202165)  # the same card, so the same listing
    assert ids[74335036] == (74335036, 24094653)  # only the name of Polymerization


def test_real_goat_entries_are_printings_of_the_modern_cards(goat_db: CardDB) -> None:
    goat = goat_db.printings.filter(pl.col("passcode").is_between(504700000, 504700999))
    assert goat.height == 191
    # every GOAT entry joins the card its alias points at: no GOAT entry is a card of its own
    assert goat.filter(pl.col("card_id") == pl.col("passcode")).is_empty()
    sangan = goat_db.printings.filter(pl.col("passcode").is_in([26202165, 504700178]))
    assert sangan["card_id"].to_list() == [26202165, 26202165]


def test_name_link_by_english_text_and_never_across_games() -> None:
    cards = _cards([
        {"passcode": 76812113, "name_en": "Harpie Lady"},
        {"passcode": 91932350, "name_en": "Harpie Lady 1"},
        {"passcode": 160001000, "name_en": "Blue-Eyes White Dragon (Rush)", "rush": True},
        {"passcode": 89631139, "name_en": "Blue-Eyes White Dragon"},
    ])
    links = _links([(91932350, None, "Harpie Lady", "name"),
                    (160001000, 89631139, None, "alias"),
                    (91932350, None, "No Such Card", "name")])
    frame, problems = finalize(cards, links)
    ids = _ids(frame)
    assert ids[91932350] == (91932350, 76812113)
    assert ids[160001000] == (160001000, 160001000)  # a Rush card never shares an OCG name
    assert ids[89631139] == (89631139, 89631139)
    assert [p.code for p in problems] == ["UNKNOWN_TREATED_AS"]
    assert "No Such Card" in problems[0].message  # names the name it is treated as


def test_printings_of_one_game_name_and_kind_are_one_card() -> None:
    cards = _cards([
        {"passcode": 160001000, "name_en": "Blue-Eyes White Dragon (Rush)", "rush": True,
         "pools": ["rush"]},
        {"passcode": 160205001, "name_en": "Blue-Eyes White Dragon (Rush)", "rush": True,
         "pools": ["prerelease"]},
        {"passcode": 1, "name_en": "Call of the Haunted", "kind": "trap"},
        {"passcode": 300000001, "name_en": "Call of the Haunted", "kind": "skill"},
    ])
    frame, _ = finalize(cards, _links([]))
    ids = _ids(frame)
    assert ids[160205001] == (160001000, 160001000)
    assert ids[300000001] == (300000001, 300000001)  # a Skill is not the Trap
    pools = frame.filter(pl.col("card_id") == 160001000)["pools"].to_list()
    assert pools == [["prerelease", "rush"], ["prerelease", "rush"]]


def _words(db: CardDB, column: str) -> set[str]:
    return set(db.printings[column].explode().drop_nulls().unique().to_list())


def test_every_monster_type_and_region_of_the_real_data_is_one_a_format_can_name(
        real_db: CardDB, demo_db: CardDB) -> None:
    for db in (real_db, demo_db):
        assert {"link", "pendulum", "xyz"} <= _words(db, "subtypes") <= set(SUBTYPES)
        assert {"tcg", "ocg", "rush"} <= _words(db, "pools") <= set(REGIONS)


def test_cards_without_release_information_are_counted_per_region(
        ygojson_db: CardDB, real_db: CardDB) -> None:
    alone = ygojson_db.without_release()
    assert set(alone) == {"tcg", "ocg", "rush"}
    assert alone["tcg"] > 500  # YGOJSON entries with an empty legality
    fuwalos = ygojson_db.by_card.filter(pl.col("passcode") == 42141493)
    assert fuwalos["pools"][0].to_list() == []
    # EDOPro's OCG/TCG cdb says where most of them are released
    assert real_db.without_release()["tcg"] < alone["tcg"]
