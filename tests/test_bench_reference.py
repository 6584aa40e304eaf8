"""The benchmark's reference checker agrees with the engine (the benchmark relies on it)."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

from bench.reference import ReferenceChecker, Row, engine_verdicts
from bench.synth import synthesize
from validator.cards.db import CardDB
from validator.cards.load import load
from validator.engine.check import check


def _decks(frame: pl.DataFrame) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for deck, section, passcode, qty in frame.select("deck_id", "section", "passcode",
                                                     "qty").iter_rows():
        out.setdefault(deck, []).append((section, passcode, qty))
    return out


@pytest.mark.parametrize("fmt_name", ["advanced-tcg", "traditional", "goat", "genesys"])
def test_reference_and_engine_agree_on_a_synthetic_event(demo_db: CardDB, fmt_name: str) -> None:
    setup = load(fmt_name, demo_db)
    fmt, banlist = setup.fmt, setup.banlist
    event = synthesize(demo_db, banlist, fmt, 600, seed=3, rate=0.05)
    result = check(event.decks, cards=demo_db, fmt=fmt, banlist=banlist,
                   registered=event.registered)
    engine = engine_verdicts(result.violations)
    reference = ReferenceChecker(demo_db, banlist, fmt)
    decks, listed = _decks(event.decks), _decks(event.registered)
    expected = Counter(v for deck, rows in decks.items()
                       for v in reference.check_deck(deck, rows, listed.get(deck, [])))
    assert sum(expected.values()) > 50  # the synthetic event does contain problems
    assert {code for _, code, _, _ in expected} >= {"FORBIDDEN_CARD", "UNKNOWN_CARD",
                                                    "LIST_MISMATCH"} or fmt_name != "advanced-tcg"
    assert engine == expected
