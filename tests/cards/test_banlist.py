from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.conftest import shared_path
from validator.cards.banlist import (
    effective_date,
    from_ygojson,
    in_force,
    parse_lflist,
    read_banlist,
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
    assert [w.line for w in bound.warnings] == [3]


def test_table_list_by_name_in_any_language(tmp_path: Path, demo_db: CardDB) -> None:
    src = tmp_path / "list.csv"
    src.write_text("カード名,区分\n灰流うらら,制限\nPot of Greed,Forbidden\n"
                   "하루 우라라,준제한\nNo Such Card,Limited\n", encoding="utf-8")
    banlist = read_table_list(src)
    assert banlist.entries["limit"].to_list() == [1, 0, 2, 1]
    bound = banlist.bind(demo_db)
    limits = dict(bound.cards.select("card_id", "limit").iter_rows())
    assert limits == {14558127: 1, 55144522: 0}  # the strictest of two Ash entries wins
    assert [(w.line, w.code) for w in bound.warnings] == [(5, "UNKNOWN_LIST_ENTRY")]


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
