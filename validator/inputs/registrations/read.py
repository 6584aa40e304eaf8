"""Registrations read from files: each sheet given to the reader of its layout, one
registration kept per player, and every row used or reported (see the package's docstring)."""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from validator.errors import InputError, Problem, capped
from validator.files.safety import MAX_UNPACKED, zip_members
from validator.files.tabular import Sheet, read_sheets
from validator.inputs.entries import ENTRY_SCHEMA, entries_frame
from validator.inputs.ids import normalise_ids
from validator.inputs.registrations._found import FORM_TOO_LARGE, Found, Player
from validator.inputs.registrations.forms import read_forms
from validator.inputs.registrations.konami import read_konami
from validator.inputs.registrations.layout import find_header, playerless
from validator.inputs.registrations.long import read_long
from validator.inputs.registrations.pdf import (
    MAX_PDF_BYTES,
    SheetEntries,
    add_sheet,
    read_form,
    sheet_entries,
)

__all__ = ["PLAYER_SCHEMA", "SUFFIXES", "Registrations", "read_registration_files",
           "read_registrations"]

#: files a registration can come in
SUFFIXES = (".xlsx", ".csv", ".pdf", ".zip")
#: the fewest PDF sheets read across processes (fewer are read sooner in this one)
MIN_PARALLEL = 48

PLAYER_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(), "player_name": pl.Utf8(), "event": pl.Utf8(), "date": pl.Utf8(),
    "file": pl.Utf8(), "sheet": pl.Utf8(),
}


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

def read_sheet(sheet: Sheet, out: Found) -> None:
    if not any(any(c.strip() for c in row) for row in sheet.rows):
        return
    found = find_header(sheet)
    if found is not None and found[0] != "playerless":
        layout, header_row, cols = found
        (read_long if layout == "long" else read_forms)(sheet, header_row, cols, out)
        return
    fallback = sheet.name or Path(sheet.file).stem
    if read_konami(sheet, out, fallback):
        return
    if found is not None:
        playerless(sheet, found[1], out)
    else:
        out.problems.append(Problem.of(sheet.file, None, sheet.name or None,
                                       "no deck list found: expected a header with player, "
                                       "quantity and card columns, Main/Extra/Side columns, or "
                                       "Monster/Spell/Trap/Extra/Side blocks", code="NO_HEADER"))

def one_per_player(out: Found) -> set[int]:
    """The registration kept for each player id, and problems for the others: a later
    forms submission supersedes an earlier one; elsewhere the first place is read."""
    kept: dict[str, Player] = {}
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
            out.problems.append(Problem.of(older.file, older.line, older.sheet or None,
                                           "player {player}: this submission is superseded by "
                                           "the later one at {later}; only the later one is "
                                           "checked", code="SUPERSEDED",
                                           player=player.player_id, later=newer.place + when))
            out.rows_reported += older.rows
        else:
            out.problems.append(Problem.of(player.file, None, player.sheet or None,
                                           "player {player} is registered twice: {first} and "
                                           "{second}; only the first is checked (remove one)",
                                           code="REGISTERED_TWICE", player=player.player_id,
                                           first=earlier.place, second=player.place))
            out.rows_reported += player.rows
    return {p.origin for p in kept.values()}

def pdf_bytes(path: Path, data: bytes | None) -> bytes:
    """A PDF's bytes, its size checked before it is read."""
    if data is not None:
        return data
    try:
        if path.stat().st_size > MAX_PDF_BYTES:
            raise InputError.of(str(path), FORM_TOO_LARGE, code="FILE_TOO_LARGE",
                                most=MAX_PDF_BYTES >> 20)
        return path.read_bytes()
    except OSError as exc:
        raise InputError.of(str(path), "cannot read: {reason}", code="FILE_UNREADABLE",
                            reason=exc.strerror) from exc

def read_file(path: Path, data: bytes | None, out: Found) -> None:
    """One workbook or CSV file."""
    try:
        sheets = read_sheets(path, include_hidden=True, data=data, partial=True)
    except InputError as exc:
        out.problems.extend(exc.problems)
        return
    for sheet in sheets:
        out.problems.extend(sheet.problems)
        if sheet.hidden:
            out.problems.append(Problem.of(sheet.file, None, sheet.name,
                                           "hidden sheet not read; unhide it to include it",
                                           code="HIDDEN_SHEET"))
            continue
        read_sheet(sheet, out)

#: a registration file (its bytes, or None to read them from its path), or what was wrong
#: with a zip: the files of a reading in their order
Item = tuple[Path, bytes | None] | list[Problem]


def expanded(paths: list[Path], contents: list[bytes] | None) -> list[Item]:
    """Each registration file in order, a zip's members (and its problems) in its place."""
    items: list[Item] = []
    for number, path in enumerate(paths):
        data = None if contents is None else contents[number]
        if path.suffix.lower() != ".zip":
            items.append((path, data))
            continue
        problems: list[Problem] = []
        try:
            members = registration_members(path, data, problems)
        except InputError as exc:
            items.append(problems + exc.problems)
            continue
        items.append(problems)
        items.extend(members)
    return items


def read_pdf(path: Path, data: bytes | None) -> SheetEntries | list[Problem]:
    """One PDF sheet's entries, or its one problem."""
    try:
        form = read_form(pdf_bytes(path, data), str(path))
    except InputError as exc:
        return exc.problems
    return sheet_entries(form)


def _read_pdf(item: tuple[Path, bytes | None]) -> SheetEntries | list[Problem]:
    return read_pdf(*item)


def read_pdfs(pdfs: list[tuple[Path, bytes | None]],
              workers: int | None = None) -> list[SheetEntries | list[Problem]]:
    """PDF sheets read in their order; from ``MIN_PARALLEL`` of them on, across ``workers``
    processes (by default one per core; none inside a daemon process, which may not start
    any). The workers are forked from this process, whose readers are already imported, and
    read each file from its path themselves."""
    workers = (os.cpu_count() or 1) if workers is None else workers
    if workers < 2 or len(pdfs) < MIN_PARALLEL or multiprocessing.current_process().daemon:
        return [read_pdf(path, data) for path, data in pdfs]
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux")
                                          else "spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        return list(pool.map(_read_pdf, pdfs, chunksize=max(1, len(pdfs) // (8 * workers))))


def read_registration_files(paths: list[Path], contents: list[bytes] | None = None, *,
                            workers: int | None = None) -> Registrations:
    """Registrations from files (workbooks, CSV, PDF sheets, zips of them), or from uploaded
    ``contents`` that ``paths`` only name; PDF sheets across ``workers`` processes (see
    :func:`read_pdfs`)."""
    out = Found()
    items = expanded(paths, contents)
    pdfs = [item for item in items if isinstance(item, tuple) and _is_pdf(item[0])]
    forms = iter(read_pdfs(pdfs, workers))
    for item in items:
        if isinstance(item, list):
            out.problems.extend(item)
        elif not _is_pdf(item[0]):
            read_file(*item, out)
        elif isinstance(sheet := next(forms), SheetEntries):
            add_sheet(sheet, out)
        else:
            out.problems.extend(sheet)
    kept = one_per_player(out)
    entries = pl.concat([_rows_in_order(out), *out.frames], how="diagonal_relaxed")
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

def _rows_in_order(out: Found) -> pl.DataFrame:
    """The entries found as rows and as columns, in the order they were read (a reader
    adds a registration's entries when it reads it: origins never decrease)."""
    rows = entries_frame(out.rows).with_columns(
        pl.Series("origin", [r.get("origin") for r in out.rows], dtype=pl.Int64))
    if not out.columns:
        return rows
    columns = out.columns.frame()
    if rows.is_empty():
        return columns
    return pl.concat([rows, columns]).sort("origin", maintain_order=True)

def registration_members(path: Path, data: bytes | None,
                         problems: list[Problem]) -> list[tuple[Path, bytes | None]]:
    """The registration files inside a zip (behind the archive guards), in name order; a
    member that cannot be read is a problem."""
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InputError.of(str(path), "cannot read: {reason}", code="FILE_UNREADABLE",
                                reason=exc.strerror) from exc
    members, found = zip_members(data, str(path), tuple(s for s in SUFFIXES if s != ".zip"),
                                    MAX_UNPACKED)
    problems.extend(found)
    if not members and not found:
        raise InputError.of(str(path), "zip holds no .xlsx, .csv or .pdf registrations",
                            code="NO_REGISTRATIONS")
    return [(Path(f"{path}!{name}"), content) for name, content in sorted(members)]


def _is_pdf(path: Path) -> bool:
    return path.suffix.lower() == ".pdf"

def read_registrations(path: Path) -> Registrations:
    """One workbook, CSV or PDF sheet, or a folder or zip of them (one per player, or any
    mix)."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES)
        if not files:
            raise InputError.of(str(path), "folder holds no .xlsx, .csv, .pdf or .zip "
                                           "registrations", code="NO_REGISTRATIONS")
        return read_registration_files(files)
    if not path.exists():
        raise InputError.of(str(path), "no such registrations file", code="FILE_MISSING")
    return read_registration_files([path])
