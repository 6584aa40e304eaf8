from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB


def test_pass_known(run: Run, demo_db: CardDB) -> None:
    assert codes(run(build(demo_db, "d", legal_filler(demo_db, 40)))) == []


def test_fail_unknown_passcode_still_counts_toward_size(run: Run, demo_db: CardDB) -> None:
    deck = build(demo_db, "d", [(12, 2), *legal_filler(demo_db, 38)])
    result = run(deck)
    assert codes(result) == ["UNKNOWN_CARD"]
    assert result.violations.select("passcode", "count").row(0) == (12, 2)
    assert result.decks["main"].to_list() == [40]
