"""The Konami deck-list sheet layout: a blank template, and filled sheets for players.

Layout (one sheet per player): player name, KONAMI ID, event and date labels in rows 3-4;
Monster, Spell and Trap blocks side by side (quantity + card name, 20 rows, written total);
Side Deck and Extra Deck blocks below (15 rows, written total).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # openpyxl is imported only to write a workbook (it is slow to import)
    from openpyxl.worksheet.worksheet import Worksheet

__all__ = ["BLOCKS", "KonamiSheet", "write_konami_workbook"]

#: block key -> (title, first row, column, rows)
BLOCKS: dict[str, tuple[str, int, int, int]] = {
    "monster": ("Monster Cards", 6, 1, 20),
    "spell": ("Spell Cards", 6, 3, 20),
    "trap": ("Trap Cards", 6, 5, 20),
    "side": ("Side Deck", 30, 1, 15),
    "extra": ("Extra Deck", 30, 3, 15),
}


@dataclass
class KonamiSheet:
    player_name: str = ""
    player_id: str = ""
    event: str = ""
    date: str = ""
    blocks: dict[str, list[tuple[int | str, str]]] = field(default_factory=dict)
    sheet_name: str | None = None


def _fill(ws: Worksheet, sheet: KonamiSheet) -> None:
    from openpyxl.styles import Alignment, Font

    from validator.report.style import FILLS, export_text, put

    ws["A1"] = "Yu-Gi-Oh! Deck List"
    ws["A1"].font = Font(bold=True, size=14)
    ws.merge_cells("A1:F1")
    for row, (label, value, label2, value2) in ((3, ("Player Name", sheet.player_name,
                                                     "KONAMI ID", sheet.player_id)),
                                                (4, ("Event", sheet.event, "Date",
                                                     sheet.date))):
        put(ws, row, 1, label).font = Font(bold=True)
        put(ws, row, 2, value)
        ws.merge_cells(start_row=row, start_column=2, end_row=row, end_column=3)
        put(ws, row, 4, label2).font = Font(bold=True)
        put(ws, row, 5, value2)
        ws.merge_cells(start_row=row, start_column=5, end_row=row, end_column=6)
    # the id is text: a spreadsheet would drop its leading zero ("0401..." → 401...)
    for row in (3,):
        ws.cell(row=row, column=5).number_format = "@"
        if sheet.player_id:
            ws.cell(row=row, column=5).value = export_text(str(sheet.player_id))
    for key, (title, top, col, rows) in BLOCKS.items():
        head = put(ws, top, col, title)
        head.font = Font(bold=True)
        head.fill = FILLS["block"]
        ws.merge_cells(start_row=top, start_column=col, end_row=top, end_column=col + 1)
        put(ws, top + 1, col, "Qty").font = Font(italic=True)
        put(ws, top + 1, col + 1, "Card Name").font = Font(italic=True)
        entries = sheet.blocks.get(key, [])
        if len(entries) > rows:
            raise ValueError(f"{key} block holds at most {rows} rows")
        for offset, (qty, name) in enumerate(entries):
            put(ws, top + 2 + offset, col, qty)
            put(ws, top + 2 + offset, col + 1, name)
        put(ws, top + 2 + rows, col, "Total").font = Font(bold=True)
        counted = [q for q, _ in entries if isinstance(q, int)]
        put(ws, top + 2 + rows, col + 1, sum(counted) if counted else None)
    for letter, width in zip("ABCDEF", (6, 34, 6, 34, 6, 34), strict=True):
        ws.column_dimensions[letter].width = width
    ws["A1"].alignment = Alignment(horizontal="center")


def write_konami_workbook(path: Path, sheets: list[KonamiSheet]) -> None:
    """One sheet per player (or one blank sheet when ``sheets`` is empty)."""
    from openpyxl import Workbook

    from validator.report.style import sheet_title

    workbook = Workbook()
    first = workbook.active
    assert first is not None
    workbook.remove(first)
    for index, sheet in enumerate(sheets or [KonamiSheet()]):
        title = sheet_title(sheet.sheet_name or sheet.player_id or f"Deck List {index + 1}")
        _fill(workbook.create_sheet(title), sheet)
    path.parent.mkdir(parents=True, exist_ok=True)
    workbook.save(path)
