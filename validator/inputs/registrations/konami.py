"""The Konami sheet layout: player name, KONAMI ID / CARD GAME ID, event and date labels,
then Monster/Spell/Trap/Side/Extra blocks of quantity + name with their written totals (a
written total that disagrees with its rows is reported at the number's cell)."""

from __future__ import annotations

from typing import Any

from validator.errors import Problem
from validator.files.tabular import Sheet
from validator.inputs.ids import LOST_DIGITS, player_id_of
from validator.inputs.registrations._found import (
    TOTAL_DIFFERS,
    Found,
    Player,
    Wrong,
    entry_row,
    full_name,
    place,
    quantity_and_name,
    where,
)
from validator.text.lexicon import (
    column_of,
    header_of,
    is_label_length,
    is_total_label,
    quantity_of,
    total_of,
)

__all__ = ["read_konami"]


def label_value(sheet: Sheet, meaning: str) -> str:
    """The value right of a label cell (empty when the next filled cell is another label)."""
    for row in sheet.rows[:12]:
        for i, text in enumerate(row):
            if text.strip() and is_label_length(text) and column_of(text) == meaning:
                for value in row[i + 1:]:
                    if value.strip() and column_of(value) is not None:
                        return ""
                    if value.strip():
                        return value.strip()
    return ""

def find_blocks(sheet: Sheet) -> list[tuple[int, int, str, str | None, str]]:
    found = []
    for r, row in enumerate(sheet.rows):
        for c, text in enumerate(row):
            if text and is_label_length(text) and quantity_of(text) is None:
                named = header_of(text)
                if named is not None:
                    found.append((r, c, named.section, named.slot, text.strip()))
    return found

def read_konami(sheet: Sheet, out: Found, fallback_id: str) -> bool:
    blocks = find_blocks(sheet)
    if not blocks:
        return False
    typed_id = label_value(sheet, "player_id")
    name = full_name(label_value(sheet, "first_name"), label_value(sheet, "last_name"),
                 label_value(sheet, "player_name"))
    starts = {(r, c) for r, c, *_ in blocks}
    rows: list[dict[str, Any]] = []
    row_problems: list[tuple[int, int, Wrong, str, str]] = []
    totals: list[tuple[int, int, str, int, int]] = []
    read = 0
    for r0, c, section, slot, title in blocks:
        total = 0
        for r in range(r0 + 1, len(sheet.rows)):
            row = sheet.rows[r]
            if (r, c) in starts:
                break
            qty_text = row[c].strip() if c < len(row) else ""
            name_text = row[c + 1].strip() if c + 1 < len(row) else ""
            if not qty_text and not name_text:
                continue
            if (column_of(qty_text) == "qty" and not name_text) or column_of(name_text) == "card":
                continue  # the block's column headings
            if is_total_label(qty_text) or total_of(qty_text) is not None \
                    or total_of(name_text) is not None:
                written = total_of(qty_text) if total_of(qty_text) is not None else (
                    total_of(name_text) if total_of(name_text) is not None
                    else quantity_of(name_text))
                number_col = c if total_of(qty_text) is not None else c + 1
                if written is not None and written != total:
                    totals.append((r + 1, number_col, title, written, total))
                break
            read += 1
            qty, name_text, wrong = quantity_and_name(qty_text, name_text)
            if wrong is not None:
                row_problems.append((r + 1, c + (qty is not None), wrong, section, name_text))
                continue
            assert qty is not None
            total += qty
            rows.append(entry_row(section, slot, qty, name_text, sheet.file, r + 1,
                             where(sheet, r + 1, c + 1)))
    if not typed_id and not name and not rows and not row_problems:
        out.problems.append(Problem.of(sheet.file, None, sheet.name or None,
                                       "a blank deck list (no player, no cards): skipped",
                                       code="BLANK_LIST"))
        return True
    player_id, message = player_id_of(typed_id or fallback_id)
    if message:
        out.problems.append(Problem.of(sheet.file, None, sheet.name or None, LOST_DIGITS,
                                       code="PLAYER_ID", typed=repr(typed_id)))
    origin = out.origin()
    out.rows_read += read
    out.rows_reported += len(row_problems)
    for line, col, (code, msgid, values), section, card in row_problems:
        out.problem(sheet, line, col, msgid, code=code, deck_id=player_id, section=section,
                    text=card, **values)
    for line, col, title, written, added in totals:
        out.problem(sheet, line, col, TOTAL_DIFFERS, code="TOTAL_MISMATCH", title=title,
                    written=written, added=added)
    out.rows.extend({**row, "deck_id": player_id, "origin": origin} for row in rows)
    out.players.append(Player(player_id, name or player_id, sheet.file, sheet.name,
                               place(sheet), origin, len(rows),
                               event=label_value(sheet, "event"),
                               date=label_value(sheet, "date")))
    return True
