"""Reading CSV and XLSX files as grids of text, with their real row numbers.

CSV encodings are sniffed (UTF-8, UTF-8 with BOM, UTF-16 by BOM, the Japanese, Korean and Thai
code pages CP932, CP949 and CP874 by the language they decode to, and others
via charset-normalizer); XLSX is read with calamine (fast, values only); the sheet's merged
cells and hidden state are read with openpyxl only when a reader asks for them.
"""

from __future__ import annotations

import csv
import io
import re
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from validator.errors import InputError, Problem
from validator.files.safety import MAX_COLUMNS

__all__ = ["Sheet", "cell_name", "decode_text", "read_csv_grid", "read_sheets"]


@dataclass
class Sheet:
    """One sheet as rows of text cells; ``rows[i]`` is spreadsheet row ``i + 1``."""

    file: str
    name: str
    rows: list[list[str]]
    hidden: bool = False
    #: rows left out (empty) because they could not be read: a cell or a row far larger
    #: than any deck list has (only when read with ``partial``)
    problems: list[Problem] = field(default_factory=list)


def cell_name(row: int, col: int) -> str:
    """Spreadsheet cell name: ``cell_name(3, 0) == "A3"``."""
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row}"


#: the code pages a spreadsheet saves CSV in for the events' languages, in the order tried
LEGACY = ("cp932", "cp949", "cp874")
#: what text decoded with each code page does not hold when it is that code page's language:
#: Korean and Thai bytes decode as Japanese too, as half-width katakana and kanji; Thai
#: bytes as Korean, with hanja and lone jamo; Western accents as Thai marks next to letters
ODD_IN = {
    "cp932": re.compile("[\uff61-\uff9f\ue000-\uf8ff]"),
    "cp949": re.compile("[\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                        "\ue000-\uf8ff]"),
    "cp874": re.compile("[A-Za-z][\u0e00-\u0e7f]|[\u0e00-\u0e7f][A-Za-z]|[\ue000-\uf8ff]"),
}


def decode_text(data: bytes, file: str) -> str:
    """Decode text bytes, sniffing the encoding; never guesses silently wrong for UTF-8.

    Without a BOM and not UTF-8, the first of the Japanese, Korean and Thai code pages that
    decodes the bytes into text of its own language (``ODD_IN``), else charset-normalizer's
    guess.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError.of(file, "broken UTF-8 text at byte {byte}", code="NOT_UTF8",
                                byte=exc.start + 3) from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise InputError.of(file, "broken UTF-16 text at byte {byte}", code="NOT_TEXT",
                                byte=exc.start) from exc
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    decoded = []
    for encoding in LEGACY:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not ODD_IN[encoding].search(text):
            return text
        decoded.append(text)
    from charset_normalizer import from_bytes  # the rare file in no usual encoding

    best = from_bytes(data).best()
    if best is None:
        if decoded:
            return decoded[0]
        raise InputError.of(file, "not readable as text in any known encoding", code="NOT_TEXT")
    return str(best)


_LONG_CELL = ("a cell of {length} characters; a deck list cell has at most {most}: the row is "
              "not read")
#: a CSV cell no deck list needs more of (a forms export's deck cell is a few KiB)
MAX_FIELD = 64 << 10
#: what the csv module reads of one cell before it stops (a longer one is reported)
csv.field_size_limit(max(csv.field_size_limit(), 1 << 20))
#: a CSV text of fewer possible cells (delimiters and line breaks) is read whole, then its
#: rows' widths and cells' lengths checked at once; a larger one row by row, each row too
#: wide or too long let go as it is read (a file built to hold many never fills memory)
WHOLE_CELLS = 2_000_000


def read_csv_grid(path: Path, data: bytes | None = None, *, partial: bool = False) -> Sheet:
    """A CSV file as a grid of text. A row with a cell or a row far larger than any deck
    list has is reported; with ``partial`` it is left out (empty) and the rest of the file is
    read, the problem in ``Sheet.problems``; else the problems are raised once the file is
    read."""
    raw = path.read_bytes() if data is None else data
    text = decode_text(raw, str(path))
    sample = text[:4096]
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    cells = None
    if text.count(delimiter) + text.count("\n") < WHOLE_CELLS:
        with suppress(csv.Error):  # told with its line below
            cells = list(csv.reader(io.StringIO(text), delimiter=delimiter, doublequote=True))
    if cells is not None and max(map(len, cells), default=0) <= MAX_COLUMNS and max(
            map(len, chain.from_iterable(cells)), default=0) <= MAX_FIELD:
        # no row too wide, no cell too long (as nearly always): no check per row
        return Sheet(str(path), "", [list(map(str.strip, row)) for row in cells])
    rows, problems = _checked_rows(text, delimiter, path)
    if problems and not partial:
        raise InputError(problems)
    return Sheet(str(path), "", rows, problems=problems)


def _checked_rows(text: str, delimiter: str, path: Path) -> tuple[list[list[str]],
                                                               list[Problem]]:
    """The rows of a CSV text read one by one: a row too wide or with a cell too long is
    reported at its line and left out (empty)."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, doublequote=True)
    rows: list[list[str]] = []
    problems: list[Problem] = []
    try:
        for row in reader:
            longest = max((len(cell) for cell in row), default=0)
            if len(row) > MAX_COLUMNS:
                problems.append(Problem.of(str(path), reader.line_num, None,
                                           "a row of {columns} columns; a deck list has at "
                                           "most {most}: the row is not read",
                                           code="SHEET_TOO_LARGE", columns=f"{len(row):,}",
                                           most=f"{MAX_COLUMNS:,}"))
                rows.append([])
            elif longest > MAX_FIELD:
                column = max(range(len(row)), key=lambda i: len(row[i]))
                problems.append(Problem.of(str(path), reader.line_num,
                                           cell_name(len(rows) + 1, column), _LONG_CELL,
                                           code="SHEET_TOO_LARGE", length=f"{longest:,}",
                                           most=f"{MAX_FIELD:,}"))
                rows.append([])
            else:
                rows.append([cell.strip() for cell in row])
    except csv.Error as exc:
        raise InputError.of(str(path), "not readable as CSV: {reason} (a deck list cell has "
                                       "at most {most} characters)", line=reader.line_num,
                            code="BAD_CSV", reason=exc, most=f"{MAX_FIELD:,}") from exc
    return rows, problems


def _cell_text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def read_sheets(path: Path, *, include_hidden: bool = False, data: bytes | None = None,
                partial: bool = False) -> list[Sheet]:
    """Every sheet of a CSV (one) or XLSX workbook, as text grids.

    ``data`` gives the file's bytes (an upload); ``path`` then only names it. ``partial``:
    a CSV row that cannot be read is left out and reported (:func:`read_csv_grid`).
    """
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".txt"):
        return [read_csv_grid(path, data, partial=partial)]
    if suffix not in (".xlsx", ".xlsm", ".xls", ".ods"):
        raise InputError.of(str(path), "expected a .csv or .xlsx file", code="WRONG_FILE_TYPE")
    from python_calamine import CalamineWorkbook

    from validator.files.safety import check_archive, check_sheet_extents

    raw = path.read_bytes() if data is None else data
    check_archive(raw, str(path))
    check_sheet_extents(raw, str(path))
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(raw))
    except Exception as exc:
        raise InputError.of(str(path), "not a readable workbook ({reason})",
                            code="BAD_WORKBOOK", reason=exc) from exc
    sheets: list[Sheet] = []
    for meta in workbook.sheets_metadata:
        hidden = str(meta.visible).lower().find("visible") < 0 or "hidden" in str(
            meta.visible
        ).lower()
        if hidden and not include_hidden:
            continue
        try:
            grid = workbook.get_sheet_by_name(meta.name).to_python(skip_empty_area=False)
        except Exception as exc:
            raise InputError.of(str(path), "sheet {sheet} unreadable ({reason})",
                                code="BAD_WORKBOOK", sheet=repr(meta.name),
                                reason=exc) from exc
        rows = [[_cell_text(v) for v in row] for row in grid]
        problems = _long_cells(str(path), meta.name, rows)
        if problems and not partial:
            raise InputError(problems)
        sheets.append(Sheet(str(path), meta.name, rows, hidden, problems=problems))
    return sheets


def _long_cells(file: str, sheet: str, rows: list[list[str]]) -> list[Problem]:
    """Rows holding a cell longer than :data:`MAX_FIELD`, emptied (no pattern reads them)
    and reported."""
    problems = []
    for number, row in enumerate(rows, start=1):
        longest = max(range(len(row)), key=lambda i: len(row[i]), default=None)
        if longest is not None and len(row[longest]) > MAX_FIELD:
            problems.append(Problem.of(file, number, f"{sheet}!{cell_name(number, longest)}",
                                       _LONG_CELL, code="SHEET_TOO_LARGE",
                                       length=f"{len(row[longest]):,}",
                                       most=f"{MAX_FIELD:,}"))
            row.clear()
    return problems
