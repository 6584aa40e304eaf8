from __future__ import annotations

import polars as pl

from tests.deckbuild import build, codes, legal_filler

FILLER_SIZE = 37


def _pair(demo_db, deck_main, list_main, deck_side=(), list_side=()):  # type: ignore[no-untyped-def]
    base = legal_filler(demo_db, FILLER_SIZE)
    deck = build(demo_db, "p1", [*base, *deck_main], side=list(deck_side))
    listed = build(demo_db, "p1", [*base, *list_main], side=list(list_side))
    return deck, listed


def _diff(result) -> list[tuple[str, str, int, int]]:  # type: ignore[no-untyped-def]
    found = result.violations.filter(pl.col("code") == "LIST_MISMATCH")
    return found.select(pl.col("section").cast(pl.Utf8), "card", "count", "registered").rows()


def test_pass_identical(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck, listed = _pair(demo_db, [("Effect Veiler", 3)], [("Effect Veiler", 3)])
    assert codes(run(deck, registered=listed)) == []


def test_swapped_alternate_artwork_is_no_mismatch(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck, listed = _pair(demo_db, [(46986421, 3)], [(46986414, 3)])
    assert _diff(run(deck, registered=listed)) == []


def test_fail_card_moved_from_main_to_side(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck, listed = _pair(demo_db, [("Effect Veiler", 2)], [("Effect Veiler", 3)],
                         deck_side=[("Effect Veiler", 1)])
    assert _diff(run(deck, registered=listed)) == [("main", "Effect Veiler", 2, 3),
                                                   ("side", "Effect Veiler", 1, 0)]


def test_fail_missing_card_and_extra_card(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck, listed = _pair(demo_db, [("Effect Veiler", 2), ("Raigeki", 1)],
                         [("Effect Veiler", 3)])
    assert sorted(_diff(run(deck, registered=listed))) == [("main", "Effect Veiler", 2, 3),
                                                           ("main", "Raigeki", 1, 0)]


def test_deck_without_list_and_list_without_deck(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck = build(demo_db, "only-deck", legal_filler(demo_db, 40))
    listed = build(demo_db, "only-list", legal_filler(demo_db, 40))
    result = run(deck, registered=listed)
    by_deck = result.violations.group_by("deck_id").agg(pl.col("registered").sum(),
                                                        pl.col("count").sum())
    assert dict(by_deck.select("deck_id", "count").iter_rows()) == {"only-deck": 40,
                                                                    "only-list": 0}
