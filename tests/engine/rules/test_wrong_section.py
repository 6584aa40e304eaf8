from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def test_pass_extra_monster_in_extra_and_side(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", legal_filler(demo_db, 40), extra=[("Accesscode Talker", 1)],
                 side=[("Stardust Dragon", 1), ("Effect Veiler", 1)])
    assert codes(run(deck)) == []


def test_fail_extra_monster_in_main_and_main_card_in_extra(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [("Accesscode Talker", 1), *legal_filler(demo_db, 40)],
                 extra=[("Effect Veiler", 1)])
    result = run(deck)
    assert codes(result) == ["WRONG_SECTION", "WRONG_SECTION"]
    assert result.violations["section"].to_list() == ["main", "extra"]
