from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB
from validator.engine.check import CheckResult

FILLER_SIZE = 37


Counts = Sequence[tuple[str | int, int]]


def _pair(demo_db: CardDB, deck_main: Counts, list_main: Counts, deck_side: Counts = (),
          list_side: Counts = ()) -> tuple[pl.DataFrame, pl.DataFrame]:
    base = legal_filler(demo_db, FILLER_SIZE)
    deck = build(demo_db, "p1", [*base, *deck_main], side=list(deck_side))
    listed = build(demo_db, "p1", [*base, *list_main], side=list(list_side))
    return deck, listed


def _diff(result: CheckResult) -> list[tuple[str, str, int, int]]:
    found = result.violations.filter(pl.col("code") == "LIST_MISMATCH")
    return found.select(pl.col("section").cast(pl.Utf8), "card", "count", "registered").rows()


def test_pass_identical(run: Run, demo_db: CardDB) -> None:
    deck, listed = _pair(demo_db, [("Effect Veiler", 3)], [("Effect Veiler", 3)])
    assert codes(run(deck, registered=listed)) == []


def test_swapped_alternate_artwork_is_no_mismatch(run: Run, demo_db: CardDB) -> None:
    deck, listed = _pair(demo_db, [(46986421, 3)], [(46986414, 3)])
    assert _diff(run(deck, registered=listed)) == []


def test_fail_card_moved_from_main_to_side(run: Run, demo_db: CardDB) -> None:
    deck, listed = _pair(demo_db, [("Effect Veiler", 2)], [("Effect Veiler", 3)],
                         deck_side=[("Effect Veiler", 1)])
    assert _diff(run(deck, registered=listed)) == [("main", "Effect Veiler", 2, 3),
                                                   ("side", "Effect Veiler", 1, 0)]


def test_fail_missing_card_and_extra_card(run: Run, demo_db: CardDB) -> None:
    deck, listed = _pair(demo_db, [("Effect Veiler", 2), ("Raigeki", 1)],
                         [("Effect Veiler", 3)])
    assert sorted(_diff(run(deck, registered=listed))) == [("main", "Effect Veiler", 2, 3),
                                                           ("main", "Raigeki", 1, 0)]


def test_deck_without_list_and_list_without_deck(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "only-deck", legal_filler(demo_db, 40))
    listed = build(demo_db, "only-list", legal_filler(demo_db, 40))
    result = run(deck, registered=listed)
    by_deck = result.violations.group_by("deck_id").agg(pl.col("registered").sum(),
                                                        pl.col("count").sum())
    assert dict(by_deck.select("deck_id", "count").iter_rows()) == {"only-deck": 40,
                                                                    "only-list": 0}


def _siding(demo_db: CardDB, deck_main: Counts,
            deck_side: Counts) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A registered list with 2 Lightning Storm + 1 Raigeki in the main deck and 2 Cosmic
    Cyclone + 1 Harpie's Feather Duster in the side deck, and a deck as given."""
    base = legal_filler(demo_db, FILLER_SIZE)
    extra = legal_filler(demo_db, 6, extra=True)
    listed = build(demo_db, "p1", [*base, ("Lightning Storm", 2), ("Raigeki", 1)],
                   extra=extra, side=[("Cosmic Cyclone", 2), ("Harpie's Feather Duster", 1)])
    deck = build(demo_db, "p1", [*base, *deck_main], extra=extra, side=list(deck_side))
    return deck, listed


SWAPPED = ([("Cosmic Cyclone", 2), ("Harpie's Feather Duster", 1)],
           [("Lightning Storm", 2), ("Raigeki", 1)])


def test_pass_duel_two_side_deck_swap(demo_db: CardDB) -> None:
    deck, listed = _siding(demo_db, *SWAPPED)
    result = _check(demo_db, deck, listed, siding=True)
    assert result.violations.is_empty()
    assert result.decks["status"].cast(pl.Utf8).to_list() == ["legal"]


def test_fail_the_same_swap_in_duel_one(demo_db: CardDB) -> None:
    deck, listed = _siding(demo_db, *SWAPPED)
    got = sorted(_diff(_check(demo_db, deck, listed, siding=False)))
    assert got == [("main", "Cosmic Cyclone", 2, 0), ("main", "Harpie's Feather Duster", 1, 0),
                   ("main", "Lightning Storm", 0, 2), ("main", "Raigeki", 0, 1),
                   ("side", "Cosmic Cyclone", 0, 2), ("side", "Harpie's Feather Duster", 0, 1),
                   ("side", "Lightning Storm", 2, 0), ("side", "Raigeki", 1, 0)]


def _messages(result: CheckResult) -> list[str]:
    return result.violations.filter(pl.col("code") == "LIST_MISMATCH")["message"].to_list()


def test_fail_duel_two_card_not_on_the_list(demo_db: CardDB) -> None:
    deck, listed = _siding(demo_db, [("Cosmic Cyclone", 2), ("Pot of Greed", 1)],
                           [("Lightning Storm", 2), ("Raigeki", 1)])
    result = _check(demo_db, deck, listed, siding=True)
    messages = _messages(result)
    assert "1 Pot of Greed in the deck (main 1, extra 0, side 0), not on the registered list" \
        in messages
    assert "Harpie's Feather Duster: none in the deck, 1 on the registered list" in messages


def test_fail_duel_two_side_deck_one_short(demo_db: CardDB) -> None:
    deck, listed = _siding(demo_db, [("Cosmic Cyclone", 2), ("Harpie's Feather Duster", 1)],
                           [("Lightning Storm", 2)])
    messages = _messages(_check(demo_db, deck, listed, siding=True))
    assert "side deck 2 cards, registered 3: side deck exchanges are one for one" in messages


def test_fail_duel_two_extra_deck_monster_moved_to_main(demo_db: CardDB) -> None:
    extra = legal_filler(demo_db, 6, extra=True)
    (moved, copies), rest = extra[0], extra[1:]
    listed = _siding(demo_db, [], [])[1]
    deck = build(demo_db, "p1", [*legal_filler(demo_db, FILLER_SIZE), ("Lightning Storm", 2),
                                 ("Raigeki", 1), (moved, 1)],
                 extra=[(moved, copies - 1), *rest] if copies > 1 else rest,
                 side=[("Cosmic Cyclone", 2), ("Harpie's Feather Duster", 1)])
    result = _check(demo_db, deck, listed, siding=True)
    assert f"{moved} in the main deck: an Extra Deck monster is sided only between the extra " \
           "and the side deck" in _messages(result)
    assert result.decks["status"].cast(pl.Utf8).to_list() == ["illegal"]


def _check(demo_db: CardDB, deck: pl.DataFrame, listed: pl.DataFrame, *,
           siding: bool) -> CheckResult:
    from validator.cards.load import load
    from validator.engine.check import check

    setup = load("advanced-tcg", demo_db)
    return check(deck, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                 registered=listed, siding=siding)
