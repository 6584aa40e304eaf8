from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def test_pass_40_15_15(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "ok", legal_filler(demo_db, 40),
                 extra=legal_filler(demo_db, 15, extra=True),
                 side=legal_filler(demo_db, 15, skip=14))
    result = run(deck)
    assert result.decks.select("main", "extra", "side").rows() == [(40, 15, 15)]
    assert codes(result) == []


def test_fail_39_and_61(run: Run, demo_db: CardDB) -> None:
    small = build(demo_db, "small", legal_filler(demo_db, 39))
    large = build(demo_db, "large", legal_filler(demo_db, 61))
    result = run(small, large)
    assert codes(result, "small") == ["MAIN_TOO_SMALL"]
    assert codes(result, "large") == ["MAIN_TOO_LARGE"]
    row = result.violations.filter(result.violations["deck_id"] == "small").row(0, named=True)
    assert (row["count"], row["limit"], row["section"]) == (39, 40, "main")


def test_fail_extra_and_side_over_15(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40),
                 extra=legal_filler(demo_db, 16, extra=True),
                 side=legal_filler(demo_db, 16, skip=14))
    result = run(deck)
    assert codes(result) == ["EXTRA_TOO_LARGE", "SIDE_TOO_LARGE"]
    assert result.violations.select("count", "limit").rows() == [(16, 15), (16, 15)]


def test_speed_duel_bounds(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 31))
    assert "MAIN_TOO_LARGE" in codes(run(deck, fmt="speed"))
