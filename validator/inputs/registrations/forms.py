"""The forms export: one row per submission with Main/Extra/Side columns holding multi-line
text lists, or a column of ydke:// links or other deck codes (Omega, mycard, YGOMobile)."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace

import polars as pl

from validator.errors import InputError
from validator.files.tabular import Sheet
from validator.inputs.decks.codes import is_code, parse_code
from validator.inputs.decks.textlist import text_list_rows
from validator.inputs.decks.ydk import is_ydke, parse_ydke
from validator.inputs.ids import LOST_DIGITS, player_id_of
from validator.inputs.registrations._found import (
    PLAYER_COLUMNS,
    Found,
    Player,
    full_name,
    place,
    where,
)

__all__ = ["cell_line", "read_forms"]

STAMP_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y/%m/%d %H:%M:%S",
                  "%m/%d/%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%Y-%m-%d %H:%M",
                  "%m/%d/%Y %H:%M", "%Y-%m-%d", "%m/%d/%Y")

#: a time zone at the end of a timestamp ("GMT+9", "UTC"), taken out before it is read
_ZONE = re.compile(r"(?:GMT|UTC)[+\-0-9:]*+$")


def stamp(text: str) -> dt.datetime | None:
    text = text.strip()
    if len(text) > 64:  # no timestamp is this long
        return None
    zone = _ZONE.search(text)
    if zone and zone.start() > 0 and text[zone.start() - 1].isspace():
        text = text[:zone.start()].rstrip()
    for fmt in STAMP_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None

def cell_line(cell: str, line: int | None, multiline: bool) -> str:
    """The address of one line of a cell: ``Form responses!D4, line 2`` (the cell alone
    when it holds one line)."""
    return f"{cell}, line {line}" if multiline and line is not None else cell

def read_forms(sheet: Sheet, header_row: int, cols: dict[str, int], out: Found) -> None:
    def cell(row: list[str], key: str) -> str:
        i = cols.get(key)
        return row[i].strip() if i is not None and i < len(row) else ""

    for r, row in enumerate(sheet.rows[header_row + 1:], start=header_row + 2):
        if not any(c.strip() for c in row):
            continue
        out.rows_read += 1
        name = full_name(cell(row, "first_name"), cell(row, "last_name"), cell(row, "player_name"))
        typed = cell(row, "player_id") or name
        if not typed:
            pid_col = next((cols[c] for c in PLAYER_COLUMNS if c in cols), 0)
            out.problem(sheet, r, pid_col, "no player on this row", code="NO_PLAYER")
            out.rows_reported += 1
            continue
        player, message = player_id_of(typed)
        if message:
            out.problem(sheet, r, cols.get("player_id"), LOST_DIGITS, code="PLAYER_ID",
                        typed=repr(typed))
        origin = out.origin()
        failed = False
        for key, col in cols.items():
            if not (key.startswith("sec_") or key == "ydke") or col >= len(row) \
                    or not row[col].strip():
                continue
            text = row[col].strip()
            at = where(sheet, r, col)
            section = key[4:] if key.startswith("sec_") else None
            try:
                code = is_ydke(text) or is_code(text)
                if code:
                    parse = parse_ydke if is_ydke(text) else parse_code
                    out.frames.append(parse(text, sheet.file, player, line=r, cell=at)
                                      .with_columns(pl.lit(origin, pl.Int64).alias("origin")))
                    continue
                rows, bad = text_list_rows(text, sheet.file, player)
            except InputError as exc:
                failed = True
                out.problems.extend(replace(p, file=sheet.file, line=r, column=at,
                                            deck_id=player, section=section, text=None)
                                    for p in exc.problems)
                continue
            # the cell's column names the section; each line has its own address
            lines = len(text.splitlines()) > 1
            out.problems.extend(replace(p, file=sheet.file, line=r,
                                        column=cell_line(at, p.line, lines), deck_id=player,
                                        section=section or p.section)
                                for p in bad)
            for entry in rows:
                number = entry["line"]
                out.rows.append({**entry, "section": section or "main", "line": r,
                                 "cell": cell_line(at, number if isinstance(number, int)
                                                   else None, lines), "origin": origin})
        out.rows_reported += failed
        out.players.append(Player(player, name or player, sheet.file, sheet.name,
                                   f"{place(sheet)} row {r}", origin, 0 if failed else 1,
                                   forms=True, line=r, stamp=stamp(cell(row, "timestamp"))))
