from __future__ import annotations

from tests.conftest import Run
from tests.deckbuild import build, codes, legal_filler
from validator.cards.db import CardDB
from validator.inputs.entries import entries_frame


def test_pass_all_names_resolve(run: Run, demo_db: CardDB) -> None:
    listed = entries_frame([{"deck_id": "d", "section": "main", "name": name, "qty": qty}
                            for name, qty in legal_filler(demo_db, 40)])
    assert codes(run(listed)) == []


def test_fail_typo_is_reported_with_suggestion(run: Run, demo_db: CardDB) -> None:
    rows = [{"deck_id": "d", "section": "main", "name": name, "qty": qty, "file": "l.csv",
             "line": i + 2} for i, (name, qty) in enumerate(legal_filler(demo_db, 37))]
    rows.append({"deck_id": "d", "section": "main", "name": "Ash Blosom", "qty": 3,
                 "file": "l.csv", "line": 99})
    result = run(entries_frame(rows))
    assert codes(result) == ["UNRESOLVED_NAME"]
    row = result.violations.row(0, named=True)
    assert (row["line"], row["count"]) == (99, 3)
    assert "Ash Blossom & Joyous Spring" in row["message"]
    assert result.decks["main"].to_list() == [40]
    _ = build
