"""The head judge's decisions: what a decision says a card is, read as any list entry is."""

from __future__ import annotations

import pytest

from validator.errors import Problem
from validator.inputs.entries import entries_frame
from validator.judging.decisions import Decision, apply_decisions


@pytest.mark.parametrize(("card", "passcode", "name"), [
    ("89631139", 89631139, "89631139"),  # a passcode (the name kept: "7" may be a name)
    ("7", 7, "7"),
    ("1234567890123456789012", None, "1234567890123456789012"),  # too long for a passcode
    ("Raigeki", None, "Raigeki"),
])
def test_a_decided_card_is_read_as_a_typed_entry(card: str, passcode: int | None,
                                                 name: str) -> None:
    entries = entries_frame([{"deck_id": "P1", "section": "main", "name": "Riagekki",
                              "qty": 3, "file": "l.csv", "line": 2, "cell": "C2"}])
    unreadable = Problem("l.csv", 3, "C3", "quantity 'three' is not a number 1-99",
                         code="BAD_QUANTITY", deck_id="P1", section="main")
    applied = apply_decisions(entries, [unreadable], [
        Decision("P1", "C2", card, "Head judge", "typo"),
        Decision("P1", "C3", card, "Head judge", "written 'three'", 3)])
    assert applied.unmatched == []
    assert applied.entries.select("passcode", "name").rows() == [(passcode, name)] * 2
