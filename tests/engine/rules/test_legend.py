"""Rush Duel Legend cards, with the real Rush database and Rush whitelist."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from tests.conftest import Run, shared_path
from tests.deckbuild import Cards, build, codes
from validator.cards.banlist import Banlist, read_banlist
from validator.cards.db import CardDB
from validator.engine.check import CheckResult

BLUE_EYES, DARK_MAGICIAN = 160001000, 160002000  # Legend Monsters (ot & 0x400)
SALVAGE = 160015056  # a Legend Spell
NEGATE_ATTACK = 160014065  # a Legend Trap


@pytest.fixture(scope="module")
def rush_list() -> Banlist:
    return read_banlist(Path(shared_path("lflist", "Rush.lflist.conf")))


def _filler(rush_db: CardDB, rush_list: Banlist, n: int) -> list[tuple[str | int, int]]:
    on_list = rush_list.entries.filter(pl.col("limit") == 3)["passcode"]
    pool = (rush_db.printings.filter(~pl.col("legend") & ~pl.col("extra")
                                 & pl.col("passcode").is_in(on_list.implode())
                                 & (pl.col("card_id") == pl.col("passcode")))
            .sort("passcode")["passcode"].to_list())
    return [(code, 3) for code in pool[: n // 3]] + ([(pool[n // 3], n % 3)] if n % 3 else [])


def _check(run: Callable[..., CheckResult], rush_db: CardDB, rush_list: Banlist, main: Cards,
           side: Cards | None = None) -> CheckResult:
    deck = build(rush_db, "d", main + _filler(rush_db, rush_list, 40 - sum(q for _, q in main)),
                 side=side)
    return run(deck, fmt="rush", cards=rush_db, banlist=rush_list)


def test_fail_two_legend_monsters(run: Run, rush_db: CardDB, rush_list: Banlist) -> None:
    result = _check(run, rush_db, rush_list, [(BLUE_EYES, 1), (DARK_MAGICIAN, 1)])
    assert codes(result) == ["LEGEND_LIMIT_EXCEEDED"]
    assert result.violations.select("count", "limit").row(0) == (2, 1)


def test_fail_two_copies_of_one_legend_monster(run: Run, rush_db: CardDB,
                                               rush_list: Banlist) -> None:
    assert codes(_check(run, rush_db, rush_list, [(BLUE_EYES, 2)])) == ["LEGEND_LIMIT_EXCEEDED"]


def test_pass_legend_monster_spell_and_trap(run: Run, rush_db: CardDB, rush_list: Banlist) -> None:
    result = _check(run, rush_db, rush_list, [(BLUE_EYES, 1), (SALVAGE, 1), (NEGATE_ATTACK, 1)])
    assert codes(result) == []
    assert result.decks["main"].to_list() == [40]


def test_pass_second_legend_in_side_deck(run: Run, rush_db: CardDB, rush_list: Banlist) -> None:
    result = _check(run, rush_db, rush_list, [(BLUE_EYES, 1)], side=[(DARK_MAGICIAN, 1)])
    assert codes(result) == []


def test_ocg_card_in_rush_is_outside_the_pool(run: Run, rush_db: CardDB, rush_list: Banlist,
                                              ygojson_db: CardDB) -> None:
    from validator.cards.store import merge

    both = merge([rush_db, ygojson_db])
    deck = build(both, "d", [(14558127, 1), *_filler(rush_db, rush_list, 39)])
    result = run(deck, fmt="rush", cards=both, banlist=rush_list)
    assert codes(result) == ["NOT_IN_CARD_POOL"]
