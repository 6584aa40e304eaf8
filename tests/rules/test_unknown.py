from __future__ import annotations

from tests.deckbuild import build, codes, legal_filler


def test_pass_known(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    assert codes(run(build(demo_db, "d", legal_filler(demo_db, 40)))) == []


def test_fail_unknown_passcode_still_counts_toward_size(run, demo_db) -> None:  # type: ignore[no-untyped-def]
    deck = build(demo_db, "d", [(12, 2), *legal_filler(demo_db, 38)])
    result = run(deck)
    assert codes(result) == ["UNKNOWN_CARD"]
    assert result.violations.select("passcode", "count").row(0) == (12, 2)
    assert result.decks["main"].to_list() == [40]
