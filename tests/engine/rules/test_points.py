from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.banlist import parse_lflist
from validator.cards.db import CardDB

POINTS = parse_lflist("!G\n$genesys\n55144522 30 --Pot of Greed\n14558127 10 --Ash\n",
                      "g.conf")[0]


def test_pass_exactly_100(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Pot of Greed", 3), ("Ash Blossom & Joyous Spring", 1),
                                *legal_filler(demo_db, 36)])
    assert "POINTS_EXCEEDED" not in codes(run(deck, fmt="genesys", banlist=POINTS))


def test_fail_110_counting_the_side_deck(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Pot of Greed", 3), ("Ash Blossom & Joyous Spring", 1),
                                *legal_filler(demo_db, 36)],
                 side=[("Ash Blossom & Joyous Spring", 1)])
    result = run(deck, fmt="genesys", banlist=POINTS)
    assert codes(result) == ["POINTS_EXCEEDED"]
    assert result.violations.select("count", "limit").row(0) == (110, 100)
