"""A round's deck-check sheet as a workbook: the tables drawn in the order to check them,
their players, and what each check recorded (blank cells to fill in by hand). User text
never becomes a formula."""

from __future__ import annotations

import io

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Side

from validator.event.rounds import Draw, SheetRow
from validator.report.style import autosize, put, write_header

__all__ = ["SHEET_HEADER", "deck_check_xlsx"]

SHEET_HEADER = ["Table", "Player ID", "Player", "Judge", "Start (UTC)", "End (UTC)", "Result",
                "Extension (min)"]
_THIN = Side(style="thin", color="999999")
_BOX = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)


def _time(stamp: str) -> str:
    return stamp.replace("T", " ").removesuffix("+00:00")[11:]


def deck_check_xlsx(event: str, round: int, drawn: Draw | None, rows: list[SheetRow],
                    names: dict[str, str]) -> bytes:
    """The sheet: one line per player of each table, their deck check's fields beside
    them (the latest, when checked more than once)."""
    book = Workbook()
    ws = book.active
    assert ws is not None  # a new workbook has its sheet
    ws.title = f"Round {round}"
    put(ws, 1, 1, f"{event} · deck checks · round {round}")
    put(ws, 2, 1, f"draw #{drawn.id}, seed {drawn.seed}, tables "
                  f"{', '.join(map(str, drawn.tables))}" if drawn else "no draw")
    write_header(ws, 4, SHEET_HEADER)
    line = 5
    for row in rows:
        for player in row.players or [""]:
            check = next((c for c in reversed(row.checks) if c.player_id == player), None)
            values = [row.table, player, names.get(player, ""),
                      check.judge if check else "", _time(check.started_at) if check else "",
                      _time(check.ended_at) if check else "", check.result if check else "",
                      check.extension if check else None]
            for col, value in enumerate(values, start=1):
                cell = put(ws, line, col, value)
                cell.border = _BOX
                cell.alignment = Alignment(vertical="top")
            line += 1
    ws.freeze_panes = "A5"
    autosize(ws)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
