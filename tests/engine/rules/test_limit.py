from __future__ import annotations

import polars as pl

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.banlist import parse_lflist
from validator.cards.db import CardDB


def test_pass_one_limited(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Called by the Grave", 1), *legal_filler(demo_db, 39)])
    assert codes(run(deck)) == []


def test_fail_alternate_artwork_pushes_limited_card_over(run: Run, demo_db: CardDB) -> None:
    # a list that limits only the original Dark Magician printing; the alt art is in the side
    banlist = parse_lflist("!L\n46986414 1 --Dark Magician\n", "l.conf")[0]
    deck = build(demo_db, "d", [(46986414, 1), *legal_filler(demo_db, 39)],
                 side=[(46986421, 1)])
    result = run(deck, banlist=banlist)
    assert codes(result) == ["LIMIT_EXCEEDED"]
    assert result.violations.select("count", "limit").row(0) == (2, 1)


def test_fail_semi_limited(run: Run, demo_db: CardDB) -> None:
    banlist = parse_lflist("!L\n14558127 2 --Ash\n", "l.conf")[0]
    deck = build(demo_db, "d", [("Ash Blossom & Joyous Spring", 3),
                                *legal_filler(demo_db, 37)])
    result = run(deck, banlist=banlist)
    assert codes(result) == ["LIMIT_EXCEEDED"]
    assert "Semi-Limited" in result.violations["message"][0]
    assert result.violations.filter(pl.col("code") == "LIMIT_EXCEEDED")["limit"][0] == 2
