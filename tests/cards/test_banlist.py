from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.banlist import (
    Banlist,
    effective_date,
    from_ygojson,
    in_force,
    parse_lflist,
    read_banlist,
    read_list_file,
    read_table_list,
)
from validator.cards.db import CardDB
from validator.errors import InputError

LFLISTS = ["0TCG", "GOAT", "Genesys", "OCG", "Rush-Prerelease", "Rush", "Speed",
           "Traditional", "World"]


@pytest.mark.parametrize("name", LFLISTS)
def test_every_real_list_loads(name: str) -> None:
    banlist = read_banlist(shared_path("lflist", f"{name}.lflist.conf"))
    assert banlist.entries.height > 100
    assert banlist.entries["line"].is_not_null().all()


def test_tcg_list_facts() -> None:
    tcg = read_banlist(shared_path("lflist", "0TCG.lflist.conf"))
    assert tcg.name == "2026.05 TCG"  # the file is CRLF: no stray \r in the name
    counts = dict(tcg.entries.group_by("limit").len().iter_rows())
    assert counts == {0: 121, 1: 98, 2: 10}
    # the alternate artwork of Apollousa is listed beside the original
    apollousa = tcg.entries.filter(pl.col("passcode").is_in([4280258, 4280259]))
    assert apollousa["limit"].to_list() == [0, 0]


def test_whitelists_and_points() -> None:
    rush = read_banlist(shared_path("lflist", "Rush.lflist.conf"))
    assert rush.whitelist
    assert rush.entries.height == 3441
    genesys = read_banlist(shared_path("lflist", "Genesys.lflist.conf"))
    assert genesys.genesys
    assert not genesys.whitelist
    pot = genesys.entries.filter(pl.col("passcode") == 55144522)
    assert pot["points"].to_list() == [30.0]
    assert pot["limit"].to_list() == [None]


def test_speed_list_skips_double_dash_comment_lines() -> None:
    speed = read_banlist(shared_path("lflist", "Speed.lflist.conf"))
    assert speed.whitelist
    assert 300307012 in speed.entries["passcode"].to_list()


def test_several_lists_signed_counts_and_directives() -> None:
    text = ("\ufeff#[two lists]\r\n!First\r\n$whitelist\r\n1 3 --A\r\n2 -1 --B\r\n"
            "--a comment line\r\n!Second\r\n3 +2\r\n")
    first, second = parse_lflist(text, "x.conf")
    assert (first.name, first.whitelist, second.whitelist) == ("First", True, False)
    assert first.entries["limit"].to_list() == [3, 0]
    assert second.entries.select("passcode", "limit", "line").rows() == [(3, 2, 8)]


def test_line_with_letters_is_an_error_naming_file_and_line() -> None:
    with pytest.raises(InputError) as info:
        parse_lflist("!L\n1 3\nabc 1 --x\n4 x\n", "bad.conf")
    assert [(p.file, p.line) for p in info.value.problems] == [("bad.conf", 3),
                                                               ("bad.conf", 4)]


def test_pick_a_list_by_name(tmp_path: Path) -> None:
    conf = tmp_path / "l.conf"
    conf.write_text("!A\n1 1\n!B\n1 2\n")
    assert read_banlist(conf, "B").entries["limit"].to_list() == [2]
    with pytest.raises(InputError) as info:
        read_banlist(conf, "C")
    assert info.value.codes == ["NO_LIST"]


def test_limit_on_alternate_printing_binds_to_the_name(ygojson_db: CardDB) -> None:
    # list only the alternate artwork 46986421 of Dark Magician
    banlist = parse_lflist("!L\n46986421 1 --alt\n99999999991 0 --unknown\n", "l.conf")[0]
    bound = banlist.bind(ygojson_db)
    assert bound.cards.select("card_id", "limit").rows() == [(36996508, 1)]
    assert bound.unplaced["line"].to_list() == [3]
    assert [(w.line, w.code) for w in bound.warnings] == [(None, "UNKNOWN_LIST_ENTRY")]


def test_table_list_by_name_in_any_language(tmp_path: Path, demo_db: CardDB) -> None:
    src = tmp_path / "list.csv"
    src.write_text("カード名,区分\n灰流うらら,制限\nPot of Greed,Forbidden\n"
                   "하루 우라라,준제한\nNo Such Card,Limited\n", encoding="utf-8")
    banlist = read_table_list(src)
    assert banlist.entries["limit"].to_list() == [1, 0, 2, 1]
    bound = banlist.bind(demo_db)
    limits = dict(bound.cards.select("card_id", "limit").iter_rows())
    assert limits == {14558127: 1, 55144522: 0}  # the strictest of two Ash entries wins
    assert bound.unplaced["line"].to_list() == [5]
    assert [(w.line, w.code) for w in bound.warnings] == [(None, "UNKNOWN_LIST_ENTRY")]


def test_table_list_bad_status(tmp_path: Path) -> None:
    src = tmp_path / "list.csv"
    src.write_text("passcode,status\n1,Sometimes\n2,Limited\nx,Limited\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_table_list(src)
    assert [p.line for p in info.value.problems] == [2, 4]


def test_ygojson_legality_lists(ygojson_db: CardDB) -> None:
    tcg = from_ygojson(ygojson_db, "tcg")
    pot = tcg.entries.filter(pl.col("passcode") == 55144522)
    assert pot["limit"].to_list() == [0]
    genesys = from_ygojson(ygojson_db, "genesys")
    assert genesys.genesys
    ash = genesys.entries.filter(pl.col("passcode") == 14558127)
    assert ash["points"].to_list() == [15.0]
    with pytest.raises(InputError):
        from_ygojson(ygojson_db, "nowhere")


@pytest.mark.parametrize(("name", "day"), [
    ("2025.04 TCG", "2025-04-01"), ("2005.4 GOAT", "2005-04-01"),
    ("2026.07.01 Rush Duel", "2026-07-01"), ("Demo 2026.06.08 Genesys", "2026-06-08"),
    ("Store list", None), ("2026.13 TCG", None)])
def test_the_effective_date_read_from_a_lists_name(name: str, day: str | None) -> None:
    assert effective_date(name) == day


def test_the_list_in_force_is_the_newest_on_or_before_the_date() -> None:
    dated = [("2024-09-01", "2024.09"), ("2024-04-01", "2024.04"), ("2024-12-01", "2024.12")]
    assert in_force(dated, "2024-09-01", "lists") == "2024.09"  # effective that very day
    assert in_force(dated, "2024-08-31", "lists") == "2024.04"
    assert in_force(dated, "2030-01-01", "lists") == "2024.12"
    with pytest.raises(InputError) as raised:
        in_force(dated, "2024-03-31", "lists")
    assert raised.value.codes == ["NO_LIST_IN_FORCE"]
    assert "2024-04-01" in raised.value.problems[0].message  # the earliest named


def test_comment_name_ends_before_a_label() -> None:
    text = ("!L\n$whitelist\n511002996 0 --Imperial Order          TRAPS CARDS\t\t\n"
            "504700118 1 --Black Luster Soldier - Envoy of the Beginning \t\tMAIN DECK\n"
            "78706415 0 --Fiber Jar\n")
    names = parse_lflist(text, "l.conf")[0].entries["name"].to_list()
    assert names == ["Imperial Order", "Black Luster Soldier - Envoy of the Beginning",
                     "Fiber Jar"]


def test_entry_with_an_unknown_passcode_is_placed_by_its_comment_name(
        ygojson_db: CardDB) -> None:
    text = ("!L\n$whitelist\n504700178 1 --Sangan\n16226796 3 --Night Assailant (Pre-Errata)\n"
            "511099999 3 --No Such Card Anywhere\n97077563 1 --Call of the Haunted\n")
    bound = parse_lflist(text, "l.conf")[0].bind(ygojson_db)
    listed = dict(bound.cards.filter(pl.col("listed")).select("card_id", "limit").iter_rows())
    # Sangan, Night Assailant (the name without its version suffix), Call of the Haunted
    assert listed == {26202165: 1, 16226786: 3, 97077563: 1}
    assert bound.by_comment == 2
    assert bound.unplaced.select("line", "passcode").rows() == [(5, 511099999)]
    assert [(w.line, w.code) for w in bound.warnings] == [(None, "UNKNOWN_LIST_ENTRY")]
    assert "line 5 passcode 511099999" in bound.warnings[0].message


def test_only_entries_placed_by_name_give_a_note_of_their_own(ygojson_db: CardDB) -> None:
    bound = parse_lflist("!L\n504700178 1 --Sangan\n", "l.conf")[0].bind(ygojson_db)
    assert bound.by_comment == 1
    assert bound.unplaced.is_empty()
    assert [w.code for w in bound.warnings] == ["LIST_ENTRY_BY_NAME"]


def test_comment_name_of_two_cards_prefers_the_lists_game(real_db: CardDB) -> None:
    # "Dark Magician" names the OCG card and the Rush card printed as "Dark Magician"; a list
    # whose other entries are Rush cards means the Rush one
    rush = real_db.by_card.filter(pl.col("name_en") == "Dark Magician (Rush)")
    assert rush.height == 1
    lizard = real_db.by_card.filter(pl.col("name_en") == "Lizard Soldier (Rush)")["passcode"]
    text = f"!R\n$whitelist\n{lizard[0]} 3 --Lizard Soldier\n169999999 3 --Dark Magician\n"
    bound = parse_lflist(text, "r.conf")[0].bind(real_db)
    assert rush["card_id"][0] in bound.cards.filter(pl.col("listed"))["card_id"].to_list()
    assert 46986414 not in bound.cards["card_id"].to_list()  # the OCG Dark Magician
    assert bound.by_comment == 1


def _placed_by_passcode(banlist: Banlist, cards: CardDB) -> int:
    return banlist.entries.join(cards.printings.select("passcode"), on="passcode",
                                how="semi").height


@pytest.mark.parametrize(("name", "data"), [
    ("GOAT", "goat_db"), ("GOAT", "ygojson_db"), ("Speed", "ygojson_db"), ("Rush", "rush_db"),
    ("Rush-Prerelease", "real_db"),
])
def test_every_entry_of_a_real_whitelist_is_bound_or_reported_once(
        name: str, data: str, request: pytest.FixtureRequest) -> None:
    cards: CardDB = request.getfixturevalue(data)
    banlist = read_banlist(shared_path("lflist", f"{name}.lflist.conf"))
    assert banlist.whitelist
    bound = banlist.bind(cards)
    assert (_placed_by_passcode(banlist, cards) + bound.by_comment + bound.unplaced.height
            == banlist.entries.height)
    # one warning for the whole list, not one per entry
    assert [w.code for w in bound.warnings] == (
        [] if not bound.by_comment and bound.unplaced.is_empty()
        else ["UNKNOWN_LIST_ENTRY" if bound.unplaced.height else "LIST_ENTRY_BY_NAME"])
    for row in bound.unplaced.iter_rows(named=True):  # each named in that warning
        assert f"line {row['line']} passcode {row['passcode']}" in bound.warnings[0].message


@pytest.mark.parametrize(("data", "by_comment"), [("goat_db", 23), ("ygojson_db", 214)])
def test_goat_list_is_placed_whole_with_or_without_the_goat_entries(
        data: str, by_comment: int, request: pytest.FixtureRequest) -> None:
    # with goat-entries.cdb only the 511xxxxxx entries (and four other passcodes) need their
    # comment; without it the 504700xxx ones too
    cards: CardDB = request.getfixturevalue(data)
    bound = read_banlist(shared_path("lflist", "GOAT.lflist.conf")).bind(cards)
    assert bound.unplaced.is_empty()
    assert bound.by_comment == by_comment
    assert f"{by_comment} entries" in bound.warnings[0].message


def test_speed_skills_the_card_data_lacks_a_passcode_for_are_placed_by_name(
        ygojson_db: CardDB) -> None:
    # Battle City Bestie: a Skill that YGOJSON holds without a passcode
    bestie = ygojson_db.by_card.filter(pl.col("name_en") == "Battle City Bestie")
    assert bestie["passcode"].to_list() == [None]
    bound = read_banlist(shared_path("lflist", "Speed.lflist.conf")).bind(ygojson_db)
    listed = bound.cards.filter(pl.col("listed"))["card_id"].to_list()
    assert bestie["card_id"][0] in listed
    # the Skill "Call of the Haunted" (300101003) is listed, the Trap of that name is not
    assert 300101003 in listed
    assert 97077563 not in listed


@pytest.mark.parametrize(("prefix", "encoding"), [(b"", "utf-8"), (b"\xef\xbb\xbf", "utf-8"),
                                                  (b"", "utf-16"), (b"", "cp932")])
def test_an_lflist_is_read_in_the_encoding_it_is_written_in(
        tmp_path: Path, prefix: bytes, encoding: str) -> None:
    text = "!2026.05 TCG\n#forbidden\n55144522 0 --強欲な壺\n#limited\n14558127 1 --灰流うらら\n"
    path = tmp_path / "list.lflist.conf"
    path.write_bytes(prefix + text.encode(encoding))
    (banlist,) = read_list_file(path)
    assert banlist.name == "2026.05 TCG"
    assert dict(banlist.entries.select("passcode", "limit").iter_rows()) == {
        55144522: 0, 14558127: 1}
