from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def test_pass_fusion_in_genesys(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40), extra=[("Stardust Dragon", 1)])
    assert "FORBIDDEN_CARD_TYPE" not in codes(run(deck, fmt="genesys"))


def test_fail_link_and_pendulum_in_genesys(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Odd-Eyes Pendulum Dragon", 1), *legal_filler(demo_db, 39)],
                 extra=[("Linkuriboh", 1)])
    result = run(deck, fmt="genesys")
    found = result.violations.filter(result.violations["code"] == "FORBIDDEN_CARD_TYPE")
    assert sorted(found["card"].to_list()) == ["Linkuriboh", "Odd-Eyes Pendulum Dragon"]


def test_fail_xyz_in_goat(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40), extra=[("Number 39: Utopia", 1)])
    assert "FORBIDDEN_CARD_TYPE" in codes(run(deck, fmt="goat"))
