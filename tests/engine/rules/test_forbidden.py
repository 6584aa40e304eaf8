from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def test_pass_no_forbidden(run: Run, demo_db: CardDB) -> None:
    assert codes(run(build(demo_db, "d", legal_filler(demo_db, 40)))) == []


def test_fail_forbidden_in_side_deck(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40), side=[("Pot of Greed", 1)])
    result = run(deck)
    assert codes(result) == ["FORBIDDEN_CARD"]
    assert result.violations["section"].to_list() == ["side"]


def test_traditional_counts_forbidden_as_limited(run: Run, demo_db: CardDB) -> None:
    one = build(demo_db, "one", legal_filler(demo_db, 40), side=[("Pot of Greed", 1)])
    two = build(demo_db, "two", legal_filler(demo_db, 40), side=[("Pot of Greed", 2)])
    result = run(one, two, fmt="traditional")
    assert codes(result, "one") == []
    assert codes(result, "two") == ["LIMIT_EXCEEDED"]
