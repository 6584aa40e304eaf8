"""Registered deck lists from spreadsheets and CSV exports, in any of four layouts.

* **long**: a header row and one row per (player, section, quantity, card); a passcode
  column is used when present;
* **Konami sheet**: player name, KONAMI ID / CARD GAME ID, event and date labels, then
  Monster/Spell/Trap/Side/Extra blocks of quantity + name with their written totals (a
  written total that disagrees with its rows is reported at the number's cell);
* **one worksheet per player**: each sheet in the Konami layout (the sheet name is the
  player id when the sheet has none); a blank sheet (a template left empty) is skipped and
  reported;
* **forms export**: one row per submission with Main/Extra/Side columns holding multi-line
  text lists, or a column of ydke:// links.

Headers are matched loosely through the lexicon ("KONAMI ID (Card Game ID)", "Konami ID #",
"Full name", "First (Given) Name" + "Last (Family) Name"); when a header names the cards
but not the players, one problem lists the headers seen and the words expected.

Players: a KONAMI id is read as typed by a person or a spreadsheet: digits only ("0401-999-
888"), zero-padded to 10 digits when the event's other ids have 10 (Excel drops the leading
zero); an id shown in scientific notation has lost digits and is a problem. A player who
submitted a forms export twice keeps the latest submission (by its timestamp, else the later
row); the earlier one is reported as superseded. The same player registered in two places of
other layouts is a problem naming both, never a merge: the first place is read.

Every row is either used or reported: a row that cannot be read becomes a problem with its
file, sheet and cell (and its player, when known: the head judge decides what it says).
Hidden sheets are not read and are reported. ``rows_read == rows_used + rows_reported``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from ..entries import ENTRY_SCHEMA, entries_frame, typed_card
from ..errors import InputError, Problem, capped
from ..lexicon import (
    column_of,
    columns,
    entry_line,
    header_of,
    is_total_label,
    quantity_of,
    section_header,
    total_of,
)
from ..pdfform import MAX_PDF_BYTES, FormSheet, form_problems, read_form
from ..safety import MAX_UNPACKED, zip_members
from ..tabular import Sheet, cell_name, read_sheets
from .ids import normalise_ids, player_id_of
from .textlist import text_list_rows
from .ydk import is_ydke, parse_ydke

#: files a registration can come in
SUFFIXES = (".xlsx", ".csv", ".pdf", ".zip")

__all__ = ["PLAYER_SCHEMA", "SUFFIXES", "Registrations", "read_registration_files",
           "read_registrations"]

PLAYER_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(), "player_name": pl.Utf8(), "event": pl.Utf8(), "date": pl.Utf8(),
    "file": pl.Utf8(), "sheet": pl.Utf8(),
}
_PLAYER_COLUMNS = ("player_id", "player_name", "first_name", "last_name")


@dataclass
class Registrations:
    """Registered lists as entries (``deck_id`` = player id), players, and problems."""

    entries: pl.DataFrame
    players: pl.DataFrame
    problems: list[Problem] = field(default_factory=list)
    rows_read: int = 0
    rows_used: int = 0
    rows_reported: int = 0
    notes: list[Problem] = field(default_factory=list)  # worth knowing, nothing lost


@dataclass
class _Player:
    """One player's registration as found: where, and the rows that came from there."""

    player_id: str
    player_name: str
    file: str
    sheet: str
    place: str  # the sheet or row, for messages
    origin: int  # which registration the entries belong to
    rows: int  # source rows used
    forms: bool = False  # one submission of a forms export
    line: int | None = None  # its row
    stamp: dt.datetime | None = None
    event: str = ""
    date: str = ""


@dataclass
class _Found:
    """What the files held so far: entry rows, players, problems, and the row counts."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    players: list[_Player] = field(default_factory=list)
    frames: list[pl.DataFrame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows_read: int = 0
    rows_reported: int = 0
    origins: int = 0
    notes: list[Problem] = field(default_factory=list)

    def problem(self, sheet: Sheet, row: int, col: int | None, message: str,
                deck_id: str | None = None, section: str | None = None) -> None:
        """A problem at a cell; with ``deck_id`` the row could hold a card of that player's
        list, so it is also a decision for the head judge."""
        where = _where(sheet, row, col) if col is not None else (sheet.name or None)
        self.problems.append(Problem(sheet.file, row, where, message, deck_id=deck_id,
                                     section=section))

    def origin(self) -> int:
        self.origins += 1
        return self.origins


def _where(sheet: Sheet, row: int, col: int) -> str:
    """``Sheet!B12`` in a workbook, ``B12`` in a CSV."""
    return f"{sheet.name}!{cell_name(row, col)}" if sheet.name else cell_name(row, col)


def _place(sheet: Sheet) -> str:
    return f"{sheet.file}!{sheet.name}" if sheet.name else sheet.file


def _header_map(cells: list[str]) -> dict[str, int]:
    """What each header cell names (first cell wins), section columns as ``sec_<section>``."""
    found: dict[str, int] = {}
    for i, text in enumerate(cells):
        if not text.strip():
            continue
        header = header_of(text)
        column = column_of(text)
        key = f"sec_{header.section}" if header is not None and column in (None, "section") \
            and len(text) < 40 else column
        if key is not None and key not in found:
            found[key] = i
    return found


def _has_player(found: dict[str, int]) -> bool:
    return any(c in found for c in _PLAYER_COLUMNS)


def _find_header(sheet: Sheet) -> tuple[str, int, dict[str, int]] | None:
    """The layout of a tabular sheet: ``long`` or ``forms`` (or ``playerless``: a header
    that names the cards but no player), its header row and columns."""
    for r, cells in enumerate(sheet.rows[:10]):
        found = _header_map(cells)
        cards = "qty" in found and ("card" in found or "passcode" in found)
        decks = any(k.startswith("sec_") for k in found) or "ydke" in found
        if _has_player(found) and cards:
            return "long", r, found
        if _has_player(found) and decks:
            return "forms", r, found
        if cards or ("ydke" in found and len(found) >= 2):
            return "playerless", r, found
    return None


def _playerless(sheet: Sheet, header_row: int, out: _Found) -> None:
    """One problem for a header without a player column, never one per row."""
    cells = sheet.rows[header_row]
    seen = ", ".join(repr(c.strip()) for c in cells if c.strip())
    expected = ", ".join(repr(w) for w in columns()["player_id"][:6])
    out.problems.append(Problem(
        sheet.file, header_row + 1, sheet.name or None,
        f"no player column in the header (found {seen}): expected one of {expected} or a "
        "player name column; the sheet was not read"))
    rows = sum(1 for row in sheet.rows[header_row + 1:] if any(c.strip() for c in row))
    out.rows_read += rows
    out.rows_reported += rows


def _name(first: str, last: str, full: str) -> str:
    return full or " ".join(p for p in (first, last) if p)


def _read_long(sheet: Sheet, header_row: int, cols: dict[str, int], out: _Found) -> None:
    """The long layout, checked column-wise with polars (no Python work per row but for
    the rows that are reported)."""
    body = sheet.rows[header_row + 1:]
    first_line = header_row + 2
    frame = pl.DataFrame(
        {key: [row[i].strip() if i < len(row) else "" for row in body]
         for key, i in cols.items()} | {"line": list(range(first_line, first_line + len(body)))},
        schema={**dict.fromkeys(cols, pl.Utf8), "line": pl.Int32},
    )
    frame = frame.filter(pl.any_horizontal([pl.col(k) != "" for k in cols]))

    def column(key: str) -> pl.Expr:
        return pl.col(key) if key in cols else pl.lit("")

    full_name = pl.concat_str([column("first_name"), column("last_name")], separator=" ") \
        .str.strip_chars()
    name = pl.when(column("player_name") != "").then(column("player_name")).otherwise(full_name)
    player = pl.when(column("player_id") != "").then(column("player_id")).otherwise(name)
    # a total row: its card cell (or its player cell) is wholly a total word (and number)
    totals = {v: bool(total_of(v) is not None or is_total_label(v)) for v in
              frame.select(pl.concat([column("card"), column("player_id"),
                                      column("player_name")]).unique()).to_series()
              .to_list() if v}
    is_total = pl.any_horizontal(
        [column(k).replace_strict(totals, default=False, return_dtype=pl.Boolean)
         for k in ("card", "player_id", "player_name")])
    frame = frame.with_columns(player.alias("player"), name.alias("name_of_player")).filter(
        ~is_total)
    out.rows_read += frame.height
    named = {value: header_of(value) for value in frame.select(column("section"))
             .to_series().unique().to_list() if value}
    section = column("section").replace_strict(
        {k: v.section for k, v in named.items() if v}, default=None, return_dtype=pl.Utf8)
    slot = column("section").replace_strict(
        {k: v.slot for k, v in named.items() if v and v.slot}, default=None,
        return_dtype=pl.Utf8)
    quantities = {v: quantity_of(v) for v in frame.select(column("qty")).to_series().unique()
                  .to_list()}
    quantity = column("qty").replace_strict(quantities, default=None, return_dtype=pl.Int32)
    bad_section = (column("section") != "") & section.is_null()
    code = column("passcode")
    problem = (
        pl.when(pl.col("player") == "").then(pl.lit("player|no player on this row"))
        .when(bad_section).then(pl.format("section|section '{}' is not Main/Monster/Spell/"
                                          "Trap/Extra/Side", column("section")))
        .when(quantity.is_null() | (quantity < 1)).then(
            pl.format("qty|quantity '{}' is not a number 1-99", column("qty")))
        .when((column("card") == "") & (code == "")).then(pl.lit("card|no card name or passcode"))
        .when((code != "") & ~code.str.contains(r"^\d+$")).then(
            pl.format("passcode|passcode '{}' is not a number", code))
    )
    frame = frame.with_columns(problem.alias("problem"), quantity.alias("quantity"),
                               pl.when(bad_section).then(None).otherwise(section)
                               .alias("named"), slot.alias("slot"))
    # a row without a section of its own is in the section of the rows above it
    frame = frame.with_columns(pl.col("named").forward_fill().fill_null("main"))
    ids = {p: player_id_of(p) for p in frame["player"].unique().to_list() if p}
    frame = frame.with_columns(pl.col("player").replace_strict(
        {k: v[0] for k, v in ids.items()}, default=pl.col("player"), return_dtype=pl.Utf8))
    for raw, (_, message) in ids.items():
        if message:
            out.problems.append(Problem(sheet.file, None, sheet.name or None,
                                        f"player id {raw!r} {message}"))
    for line, message, player_of, section_of_row in frame.filter(
            pl.col("problem").is_not_null()).select("line", "problem", "player",
                                                     "named").iter_rows():
        key, text_ = message.split("|", 1)
        column_index = cols.get(key, cols.get("player_name", cols.get("player_id")))
        out.problem(sheet, line, column_index, text_, deck_id=player_of or None,
                    section=section_of_row)
        out.rows_reported += 1
    good = frame.filter(pl.col("problem").is_null())
    by_code = code != ""
    letter = {k: cell_name(1, i)[:-1] for k, i in cols.items()}
    prefix = f"{sheet.name}!" if sheet.name else ""
    where = pl.format(prefix + "{}{}",
                      pl.when(by_code).then(pl.lit(letter.get("passcode", "A")))
                      .otherwise(pl.lit(letter.get("card", "A"))), pl.col("line"))
    players = good.group_by("player", maintain_order=True).agg(
        pl.col("name_of_player").filter(pl.col("name_of_player") != "").first().alias("name"),
        pl.len().alias("rows"))
    origins = {p: out.origin() for p in players["player"].to_list()}
    for player, name, rows in players.iter_rows():
        out.players.append(_Player(player, name or player, sheet.file, sheet.name,
                                   _place(sheet), origins[player], rows))
    out.frames.append(good.select(
        pl.col("player").alias("deck_id"),
        pl.col("named").cast(ENTRY_SCHEMA["section"]).alias("section"),
        pl.when(by_code).then(code.cast(pl.Int64, strict=False)).alias("passcode"),
        pl.when(by_code).then(None).otherwise(column("card")).alias("name"),
        pl.col("quantity").alias("qty"),
        pl.lit(sheet.file).alias("file"),
        pl.col("line"),
        where.alias("cell"),
        pl.col("slot").cast(ENTRY_SCHEMA["slot"]),
        pl.col("player").replace_strict(origins, return_dtype=pl.Int64).alias("origin"),
    ))
    if "player_id" in cols and not any(c in cols for c in _PLAYER_COLUMNS[1:]):
        out.notes.append(Problem(sheet.file, header_row + 1, sheet.name or None,
                                 "player ids but no player name column: players are shown by "
                                 "their id"))


def _label_value(sheet: Sheet, meaning: str) -> str:
    """The value right of a label cell (empty when the next filled cell is another label)."""
    for row in sheet.rows[:12]:
        for i, text in enumerate(row):
            if text.strip() and len(text) < 40 and column_of(text) == meaning:
                for value in row[i + 1:]:
                    if value.strip() and column_of(value) is not None:
                        return ""
                    if value.strip():
                        return value.strip()
    return ""


def _blocks(sheet: Sheet) -> list[tuple[int, int, str, str | None, str]]:
    found = []
    for r, row in enumerate(sheet.rows):
        for c, text in enumerate(row):
            if text and len(text) < 40 and quantity_of(text) is None:
                named = header_of(text)
                if named is not None:
                    found.append((r, c, named.section, named.slot, text.strip()))
    return found


def _quantity_and_name(qty_text: str, name_text: str) -> tuple[int | None, str, str | None]:
    """A block row's quantity and card name, or what is wrong with it (a quantity that is
    not a number; a quantity without a name). "3 Raigeki" typed in the quantity cell is read
    as both."""
    qty = quantity_of(qty_text)
    if qty is None and not name_text:
        qty, name_text = entry_line(qty_text) if qty_text else (None, "")
        if name_text == qty_text:
            qty = None
    if qty is None or qty < 1:
        return None, name_text, f"quantity {qty_text!r} is not a number 1-99"
    if not name_text:
        return qty, name_text, f"quantity {qty} without a card name"
    return qty, name_text, None


def _row(section: str, slot: str | None, qty: int, name: str, file: str, line: int | None,
         cell: str) -> dict[str, Any]:
    """An entry row (a name of digits is a passcode too)."""
    return {"section": section, **typed_card(name), "qty": qty, "file": file, "line": line,
            "cell": cell, "slot": slot}


def _read_konami(sheet: Sheet, out: _Found, fallback_id: str) -> bool:
    blocks = _blocks(sheet)
    if not blocks:
        return False
    typed_id = _label_value(sheet, "player_id")
    name = _name(_label_value(sheet, "first_name"), _label_value(sheet, "last_name"),
                 _label_value(sheet, "player_name"))
    starts = {(r, c) for r, c, *_ in blocks}
    rows: list[dict[str, Any]] = []
    row_problems: list[tuple[int, int, str, str]] = []
    totals: list[tuple[int, int, str]] = []
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
                    totals.append((r + 1, number_col, f"written {title} total {written} but "
                                                      f"its rows add up to {total}"))
                break
            read += 1
            qty, name_text, wrong = _quantity_and_name(qty_text, name_text)
            if wrong is not None:
                row_problems.append((r + 1, c + (qty is not None), wrong, section))
                continue
            assert qty is not None
            total += qty
            rows.append(_row(section, slot, qty, name_text, sheet.file, r + 1,
                             _where(sheet, r + 1, c + 1)))
    if not typed_id and not name and not rows and not row_problems:
        out.problems.append(Problem(sheet.file, None, sheet.name or None,
                                    "a blank deck list (no player, no cards): skipped"))
        return True
    player_id, message = player_id_of(typed_id or fallback_id)
    if message:
        out.problems.append(Problem(sheet.file, None, sheet.name or None,
                                    f"player id {typed_id!r} {message}"))
    origin = out.origin()
    out.rows_read += read
    out.rows_reported += len(row_problems)
    for line, col, text, section in row_problems:
        out.problem(sheet, line, col, text, deck_id=player_id, section=section)
    for line, col, text in totals:
        out.problem(sheet, line, col, text)
    out.rows.extend({**row, "deck_id": player_id, "origin": origin} for row in rows)
    out.players.append(_Player(player_id, name or player_id, sheet.file, sheet.name,
                               _place(sheet), origin, len(rows),
                               event=_label_value(sheet, "event"),
                               date=_label_value(sheet, "date")))
    return True


def _read_form(form: FormSheet, out: _Found) -> None:
    """A filled Konami PDF sheet: rows located by their field names, written totals
    checked against the rows."""
    rows: list[dict[str, Any]] = []
    wrong: list[tuple[str, str, str]] = []
    added: dict[str, int] = {}
    for item in form.rows:
        header = section_header(item.block)
        qty, name, problem = _quantity_and_name(item.count, item.name)
        if problem is not None:
            wrong.append((item.count_field if qty is None else item.name_field, problem,
                          header.section))
            continue
        assert qty is not None
        added[item.block] = added.get(item.block, 0) + qty
        rows.append(_row(header.section, header.slot, qty, name, form.file, None,
                         item.name_field))
    if not form.player_id and not form.player_name and not rows and not wrong:
        out.problems.append(Problem(form.file, None, None,
                                    "a blank deck list form (no player, no cards): skipped"))
        return
    player_id, message = player_id_of(form.player_id or Path(form.file).stem)
    if message:
        out.problems.append(Problem(form.file, None, "CARD GAME ID",
                                    f"player id {form.player_id!r} {message}"))
    origin = out.origin()
    out.rows_read += len(form.rows)
    out.rows_reported += len(wrong)
    for where, text, section in wrong:
        out.problems.append(Problem(form.file, None, where, text, deck_id=player_id,
                                    section=section))
    out.problems.extend(form_problems(form, added))
    out.rows.extend({**row, "deck_id": player_id, "origin": origin} for row in rows)
    out.players.append(_Player(player_id, form.player_name or player_id, form.file, "",
                               form.file, origin, len(rows), event=form.event,
                               date=form.date))


_STAMP_FORMATS = ("%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y/%m/%d %H:%M:%S",
                  "%m/%d/%Y %H:%M:%S", "%d/%m/%Y %H:%M:%S", "%Y-%m-%d %H:%M",
                  "%m/%d/%Y %H:%M", "%Y-%m-%d", "%m/%d/%Y")


def _stamp(text: str) -> dt.datetime | None:
    text = re.sub(r"\s+(GMT|UTC)[+\-0-9:]*$", "", text.strip())
    for fmt in _STAMP_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def _read_forms(sheet: Sheet, header_row: int, cols: dict[str, int], out: _Found) -> None:
    def cell(row: list[str], key: str) -> str:
        i = cols.get(key)
        return row[i].strip() if i is not None and i < len(row) else ""

    for r, row in enumerate(sheet.rows[header_row + 1:], start=header_row + 2):
        if not any(c.strip() for c in row):
            continue
        out.rows_read += 1
        name = _name(cell(row, "first_name"), cell(row, "last_name"), cell(row, "player_name"))
        typed = cell(row, "player_id") or name
        if not typed:
            pid_col = next((cols[c] for c in _PLAYER_COLUMNS if c in cols), 0)
            out.problem(sheet, r, pid_col, "no player on this row")
            out.rows_reported += 1
            continue
        player, message = player_id_of(typed)
        if message:
            out.problem(sheet, r, cols.get("player_id"), f"player id {typed!r} {message}")
        origin = out.origin()
        failed = False
        for key, col in cols.items():
            if not (key.startswith("sec_") or key == "ydke") or col >= len(row) \
                    or not row[col].strip():
                continue
            text = row[col].strip()
            where = _where(sheet, r, col)
            section = key[4:] if key.startswith("sec_") else None
            try:
                if is_ydke(text):
                    out.frames.append(parse_ydke(text, sheet.file, player, line=r, cell=where)
                                      .with_columns(pl.lit(origin, pl.Int64).alias("origin")))
                    continue
                rows, bad = text_list_rows(text, sheet.file, player)
                if bad:
                    raise InputError(bad)
            except InputError as exc:
                failed = True
                out.problems.extend(Problem(sheet.file, r, where, p.message, deck_id=player,
                                            section=section) for p in exc.problems)
                continue
            # the cell's column names the section; its lines are located by the cell
            out.rows.extend({**entry, "section": section or "main", "line": r, "cell": where,
                             "origin": origin} for entry in rows)
        out.rows_reported += failed
        out.players.append(_Player(player, name or player, sheet.file, sheet.name,
                                   f"{_place(sheet)} row {r}", origin, 0 if failed else 1,
                                   forms=True, line=r, stamp=_stamp(cell(row, "timestamp"))))


def _read_sheet(sheet: Sheet, out: _Found) -> None:
    if not any(any(c.strip() for c in row) for row in sheet.rows):
        return
    found = _find_header(sheet)
    if found is not None and found[0] != "playerless":
        layout, header_row, cols = found
        (_read_long if layout == "long" else _read_forms)(sheet, header_row, cols, out)
        return
    fallback = sheet.name or Path(sheet.file).stem
    if _read_konami(sheet, out, fallback):
        return
    if found is not None:
        _playerless(sheet, found[1], out)
    else:
        out.problems.append(Problem(sheet.file, None, sheet.name or None,
                                    "no deck list found: expected a header with player, "
                                    "quantity and card columns, Main/Extra/Side columns, or "
                                    "Monster/Spell/Trap/Extra/Side blocks"))


def _one_per_player(out: _Found) -> set[int]:
    """The registration kept for each player id, and problems for the others: a later
    forms submission supersedes an earlier one; elsewhere the first place is read."""
    kept: dict[str, _Player] = {}
    for player in out.players:
        earlier = kept.get(player.player_id)
        if earlier is None:
            kept[player.player_id] = player
            continue
        if player.forms and earlier.forms and (player.file, player.sheet) == (
                earlier.file, earlier.sheet):
            newer = player if (player.stamp or dt.datetime.min) >= (
                earlier.stamp or dt.datetime.min) else earlier
            older = earlier if newer is player else player
            kept[player.player_id] = newer
            when = f" ({newer.stamp:%Y-%m-%d %H:%M})" if newer.stamp else ""
            out.problems.append(Problem(older.file, older.line, older.sheet or None,
                                        f"player {player.player_id}: this submission is "
                                        f"superseded by the later one at {newer.place}{when}; "
                                        "only the later one is checked"))
            out.rows_reported += older.rows
        else:
            out.problems.append(Problem(player.file, None, player.sheet or None,
                                        f"player {player.player_id} is registered twice: "
                                        f"{earlier.place} and {player.place}; only the first "
                                        "is checked (remove one)"))
            out.rows_reported += player.rows
    return {p.origin for p in kept.values()}


def _pdf_bytes(path: Path, data: bytes | None) -> bytes:
    """A PDF's bytes, its size checked before it is read."""
    if data is not None:
        return data
    try:
        if path.stat().st_size > MAX_PDF_BYTES:
            raise InputError.at(str(path), f"larger than any deck list form "
                                           f"({MAX_PDF_BYTES >> 20} MB); skipped")
        return path.read_bytes()
    except OSError as exc:
        raise InputError.at(str(path), f"cannot read: {exc.strerror}") from exc


def _read_file(path: Path, data: bytes | None, out: _Found) -> None:
    """One registration file (a zip: each of its registration files)."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".zip":
            for member, content in _zip_members(path, data, out):
                _read_file(member, content, out)
            return
        if suffix == ".pdf":
            _read_form(read_form(_pdf_bytes(path, data), str(path)), out)
            return
        sheets = read_sheets(path, include_hidden=True, data=data)
    except InputError as exc:
        out.problems.extend(exc.problems)
        return
    for sheet in sheets:
        if sheet.hidden:
            out.problems.append(Problem(sheet.file, None, sheet.name,
                                        "hidden sheet not read; unhide it to include it"))
            continue
        _read_sheet(sheet, out)


def read_registration_files(paths: list[Path],
                            contents: list[bytes] | None = None) -> Registrations:
    """Registrations from files (workbooks, CSV, PDF sheets, zips of them), or from uploaded
    ``contents`` that ``paths`` only name."""
    out = _Found()
    for number, path in enumerate(paths):
        _read_file(path, None if contents is None else contents[number], out)
    kept = _one_per_player(out)
    entries = pl.concat([entries_frame(out.rows).with_columns(
        pl.Series("origin", [r.get("origin") for r in out.rows], dtype=pl.Int64)),
        *out.frames], how="diagonal_relaxed")
    entries = entries.filter(pl.col("origin").is_in(list(kept))).select(list(ENTRY_SCHEMA))
    entries = entries.cast(ENTRY_SCHEMA)  # type: ignore[arg-type]
    players = (
        pl.DataFrame(
            {"player_id": [p.player_id for p in out.players],
             "player_name": [p.player_name for p in out.players],
             "event": [p.event for p in out.players], "date": [p.date for p in out.players],
             "file": [p.file for p in out.players], "sheet": [p.sheet for p in out.players],
             "origin": [p.origin for p in out.players]},
            schema={**PLAYER_SCHEMA, "origin": pl.Int64})
        # in the order players first appear, whichever registration of theirs is kept
        .with_columns(pl.col("origin").min().over("player_id").alias("first"))
        .filter(pl.col("origin").is_in(list(kept))).sort("first").drop("origin", "first"))
    entries, players, renamed = normalise_ids(entries, players)
    problems = out.problems + renamed
    used = sum(p.rows for p in out.players if p.origin in kept)
    return Registrations(entries, players, capped(problems), out.rows_read, used,
                         out.rows_reported, out.notes)


def _zip_members(path: Path, data: bytes | None, out: _Found) -> list[tuple[Path, bytes]]:
    """The registration files inside a zip (behind the archive guards), in name order; a
    member that cannot be read is a problem."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError.at(str(path), f"cannot read: {exc.strerror}") from exc
    members, problems = zip_members(data, str(path), tuple(s for s in SUFFIXES if s != ".zip"),
                                    MAX_UNPACKED)
    out.problems.extend(problems)
    if not members and not problems:
        raise InputError.at(str(path), "zip holds no .xlsx, .csv or .pdf registrations")
    return [(Path(f"{path}!{name}"), content) for name, content in sorted(members)]


def read_registrations(path: Path) -> Registrations:
    """One workbook, CSV or PDF sheet, or a folder or zip of them (one per player, or any
    mix)."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
        if not files:
            raise InputError.at(str(path), "folder holds no .xlsx, .csv, .pdf or .zip "
                                           "registrations")
        return read_registration_files(files)
    if not path.exists():
        raise InputError.at(str(path), "no such registrations file")
    return read_registration_files([path])
