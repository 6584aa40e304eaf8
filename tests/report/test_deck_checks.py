"""A round's deck-check sheet as a workbook: the drawn tables in order, a line per player,
the checks recorded beside them, blank cells where none is yet, no formula from user text."""

from __future__ import annotations

import io
from pathlib import Path

from openpyxl import load_workbook

from validator.event import rounds
from validator.event.rounds import Placed
from validator.event.store import EventDB
from validator.report.deck_checks import SHEET_HEADER, deck_check_xlsx


def test_the_sheet_lists_the_drawn_tables_and_the_checks(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "event.sqlite")
    placed = [Placed(2, 1 + i // 2, f"P{i}") for i in range(8)]
    rounds.import_pairings(db, placed, "test", [])
    made = rounds.draw(db, 2, 2, seed=5)
    checked = made.tables[0]
    player = rounds.players_at(db, checked, 2)[0]
    rounds.record_deck_check(db, player_id=player, judge="=HYPERLINK(1)", result="legal",
                             started_at="2026-12-05T10:00:00+00:00",
                             ended_at="2026-12-05T10:03:30+00:00")
    drawn, rows = rounds.deck_check_sheet(db, 2)
    assert drawn == made
    assert [r.table for r in rows] == made.tables
    content = deck_check_xlsx("Regional", 2, drawn, rows, {player: "Ana"})
    ws = load_workbook(io.BytesIO(content)).active
    assert ws is not None
    assert [c.value for c in ws[4]] == SHEET_HEADER
    lines = [[c.value for c in row] for row in ws.iter_rows(min_row=5)]
    assert [line[0] for line in lines] == [made.tables[0]] * 2 + [made.tables[1]] * 2
    assert lines[0][1:] == [player, "Ana", "=HYPERLINK(1)", "10:00:00", "10:03:30", "legal", 4]
    assert ws.cell(5, 4).data_type == "s"  # the judge's name stays text
    assert [line[3:] for line in lines[1:]] == [[None] * 5] * 3  # blank, to fill in
    assert f"seed {made.seed}" in str(ws["A2"].value)
