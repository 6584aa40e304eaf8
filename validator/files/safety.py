"""Guards for untrusted archives: XLSX workbooks, zips of deck or registration files, and the
compressed streams of PDF forms.

A zip bomb (a small file that unpacks to gigabytes), too many members, or a member whose
real size exceeds its stated size is refused before anything is unpacked. A worksheet whose
extent — its declared dimension or its farthest real cell — is beyond what any deck list
needs is refused before the reader allocates it (one cell at XFD1048576 would ask for 17
billion cells). XLSX content is parsed by calamine, whose XML reader expands no entities (no
"billion laughs").
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib

from validator.errors import InputError, Problem

__all__ = [
    "MAX_COLUMNS",
    "MAX_DEFLATE_RATIO",
    "MAX_MEMBERS",
    "MAX_PDF_INFLATED",
    "MAX_RATIO",
    "MAX_SHEET_CELLS",
    "MAX_UNPACKED",
    "MAX_UPLOAD",
    "READ_MEMORY",
    "READ_SECONDS",
    "check_archive",
    "check_pdf_streams",
    "check_sheet_extents",
    "zip_members",
]

try:
    from lzma import LZMAError
except ImportError:  # a Python built without lzma: zipfile cannot unpack such members at all
    class LZMAError(Exception):  # type: ignore[no-redef]
        """Never raised."""

#: what unpacking a damaged member raises: zipfile's own errors (a bad CRC, an unknown or
#: encrypted method) and those of its decompressors (deflate, bzip2's OSError, LZMA), or a
#: compressed stream that ends too early
_UNPACK_ERRORS = (zipfile.BadZipFile, NotImplementedError, RuntimeError, zlib.error, OSError,
                  LZMAError, EOFError)

#: the largest upload the web app accepts unless its operator says otherwise (a zip of a
#: 7,000-player event's YDK files is about 20 MiB)
MAX_UPLOAD = 100 << 20
#: what reading one uploaded file in the web app may take unless its operator says otherwise:
#: seconds of wall-clock time, bytes of memory
READ_SECONDS = 10.0
READ_MEMORY = 1 << 30
MAX_UNPACKED = 256 << 20
MAX_MEMBERS = 50_000
MAX_RATIO = 200  # unpacked / packed; ordinary XLSX files stay far below
MAX_COLUMNS = 1_000  # no deck-list layout comes near; a forms export has a few dozen
MAX_SHEET_CELLS = 20_000_000  # rows × columns of one sheet (a 10,000-player long layout: 2M)
#: what the streams of one PDF may unpack to in all (Konami's filled sheet: under 1 MiB)
MAX_PDF_INFLATED = 64 << 20
#: what one byte of a deflated stream unpacks to at most (deflate's own limit: a 258-byte
#: copy coded in two bits)
MAX_DEFLATE_RATIO = 1032

# a tag's attributes never hold "<" (XML escapes it): each search ends at the next tag
_TAG_SHEET = re.compile(rb"<sheet\b[^<>]*+>")
_TAG_REL = re.compile(rb"<Relationship\b[^<>]*+>")
_ATTR = re.compile(rb'\b([\w:]++)="([^"]*+)"')
_DIMENSION = re.compile(rb'<dimension\b[^<>]*?\bref="[A-Z]*\d*:?([A-Z]+)(\d+)"')
_ROW = re.compile(rb'<row\b[^<>]*?\br="(\d{1,9})"')
_CELL = re.compile(rb'<c\b[^<>]*?\br="([A-Z]{1,4})\d')


def check_archive(data: bytes, label: str) -> None:
    """Refuse an archive that would unpack to too much; silently accept what is not a zip."""
    if not data.startswith(b"PK"):
        if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
            raise InputError.of(label, "an old .xls or an encrypted workbook; save it as .xlsx",
                                code="WRONG_FILE_TYPE")
        raise InputError.of(label, "not an .xlsx workbook (not a zip file)", code="WRONG_FILE_TYPE")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile as exc:
        raise InputError.of(label, "a damaged zip/xlsx file ({reason})", code="ZIP_DAMAGED",
                            reason=exc) from exc
    if len(members) > MAX_MEMBERS:
        raise InputError.of(label, "more than {most} files inside", code="ZIP_UNSAFE",
                            most=MAX_MEMBERS)
    unpacked = sum(m.file_size for m in members)
    packed = sum(m.compress_size for m in members) or 1
    if unpacked > MAX_UNPACKED:
        raise InputError.of(label, "unpacks to {size} MiB; at most {most} MiB are read (a zip "
                                   "bomb?)", code="ZIP_UNSAFE", size=unpacked >> 20,
                            most=MAX_UNPACKED >> 20)
    if unpacked > (1 << 20) and unpacked / packed > MAX_RATIO:
        raise InputError.of(label, "compressed {ratio}:1, far beyond any real workbook or deck "
                                   "file (a zip bomb?)", code="ZIP_UNSAFE",
                            ratio=unpacked // packed)


def _stream_bodies(data: bytes) -> list[tuple[int, int]]:
    """Where each stream of a PDF holds its bytes (start, end), as a reader finds them."""
    found = []
    start = data.find(b"stream")
    while start >= 0:
        body = start + len(b"stream")
        body += 2 if data[body:body + 2] == b"\r\n" else 1 if data[body:body + 1] in (
            b"\n", b"\r") else 0
        end = data.find(b"endstream", body)
        if end < 0:
            break
        if data[start - 3:start] != b"end":
            found.append((body, end))
        start = data.find(b"stream", end + len(b"endstream"))
    return found


def _inflated(packed: memoryview, most: int) -> int:
    """What one deflated stream unpacks to, counted a chunk at a time up to just past
    ``most`` (nothing is kept); 0 for a stream that is not deflated or is damaged."""
    total = 0
    inflater = zlib.decompressobj()
    pending: bytes | memoryview = packed
    try:
        while pending and total <= most and not inflater.eof:
            out = len(inflater.decompress(pending, 1 << 20))
            total += out
            if not out and inflater.unconsumed_tail == pending:
                break  # no progress: a stream cut short
            pending = inflater.unconsumed_tail
    except zlib.error:
        pass  # not deflated, or damaged: the reader says so
    return total


def check_pdf_streams(data: bytes, label: str, most: int = MAX_PDF_INFLATED) -> None:
    """Refuse a PDF whose deflated streams together unpack to more than ``most`` bytes,
    before any PDF reader inflates them; a stream that is not deflated (or damaged) is left
    to the reader. Deflate unpacks a byte to at most ``MAX_DEFLATE_RATIO`` bytes, so only the
    largest streams are inflated here (a chunk at a time, nothing kept), until what the
    others could unpack to at most fits in what is left; a form's streams seldom need any."""
    bodies = sorted(_stream_bodies(data), key=lambda span: span[0] - span[1])
    could = MAX_DEFLATE_RATIO * sum(end - body + 1 for body, end in bodies)
    total = 0
    view = memoryview(data)
    for body, end in bodies:
        if total + could <= most:
            return
        could -= MAX_DEFLATE_RATIO * (end - body + 1)
        total += _inflated(view[body:end], most - total)
        if total > most:
            raise InputError.of(label, "its compressed streams unpack to more than {most} MiB: "
                                       "far more than a deck list form (a PDF bomb?)",
                                code="PDF_UNSAFE", most=most >> 20)


def zip_members(data: bytes, label: str, suffixes: tuple[str, ...],
                largest: int) -> tuple[list[tuple[str, bytes]], list[Problem]]:
    """The members of a zip whose names end in ``suffixes``, in the zip's order, behind the
    archive guards (raised); a member over ``largest`` bytes or one that cannot be unpacked
    (damaged, encrypted, an unknown compression) is a problem, and the others are read."""
    check_archive(data, label)
    found: list[tuple[str, bytes]] = []
    problems: list[Problem] = []
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.infolist():
                if member.is_dir() or not member.filename.lower().endswith(suffixes):
                    continue
                where = f"{label}!{member.filename}"
                if member.file_size > largest:
                    problems.append(Problem.of(where, None, None, "larger than any such file "
                                               "({most} MiB); skipped",
                                               code="FILE_TOO_LARGE", most=largest >> 20))
                    continue
                try:
                    found.append((member.filename, archive.read(member)))
                except _UNPACK_ERRORS as exc:
                    problems.append(Problem.of(where, None, None, "cannot be unpacked ({reason}); "
                                               "skipped", code="ZIP_DAMAGED", reason=exc))
    except zipfile.BadZipFile as exc:
        raise InputError.of(label, "not a readable zip file ({reason})", code="ZIP_DAMAGED",
                            reason=exc) from exc
    return found, problems


def _column(letters: bytes) -> int:
    number = 0
    for letter in letters:
        number = number * 26 + (letter - 64)
    return number


def _sheet_names(archive: zipfile.ZipFile) -> dict[str, str]:
    """Worksheet member → the sheet's name, for messages."""
    try:
        book = archive.read("xl/workbook.xml")
        rels = archive.read("xl/_rels/workbook.xml.rels")
    except KeyError:
        return {}
    import html  # workbooks only: a folder of deck files never needs it

    def attributes(tag: bytes) -> dict[str, str]:
        return {k.decode(): html.unescape(v.decode("utf-8", "replace"))
                for k, v in _ATTR.findall(tag)}

    targets = {a.get("Id", ""): a.get("Target", "").lstrip("/")
               for a in map(attributes, _TAG_REL.findall(rels))}
    out = {}
    for sheet in map(attributes, _TAG_SHEET.findall(book)):
        target = targets.get(sheet.get("r:id", ""), "")
        out[target if target.startswith("xl/") else f"xl/{target}"] = sheet.get("name", "")
    return out


def check_sheet_extents(data: bytes, label: str) -> None:
    """Refuse a workbook with a sheet wider than ``MAX_COLUMNS`` or larger than
    ``MAX_SHEET_CELLS``, by its declared dimension or by its real farthest cell, read from
    the sheet's XML before any reader allocates the sheet."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = _sheet_names(archive)
        for member in archive.namelist():
            if not (member.startswith("xl/worksheets/") and member.endswith(".xml")):
                continue
            rows = columns = 0
            tail = b""
            with archive.open(member) as stream:
                while chunk := stream.read(1 << 20):
                    text = tail + chunk
                    for found in (_DIMENSION.findall(text[:4096]) if not tail else []):
                        columns = max(columns, _column(found[0]))
                        rows = max(rows, int(found[1]))
                    numbers = _ROW.findall(text)
                    if numbers:
                        rows = max(rows, max(map(int, numbers)))
                    letters = set(_CELL.findall(text))
                    if letters:
                        columns = max(columns, max(map(_column, letters)))
                    tail = text[-64:]
            sheet = names.get(member, member)
            if columns > MAX_COLUMNS or rows * max(columns, 1) > MAX_SHEET_CELLS:
                raise InputError.of(
                    label, "sheet {sheet} reaches {columns} columns and {rows} rows: more "
                           "than a deck list needs (at most {most_columns} columns and "
                           "{most_cells} cells). Delete the cells far from the list and save "
                           "again", code="SHEET_TOO_LARGE", sheet=repr(sheet),
                    columns=f"{columns:,}", rows=f"{rows:,}", most_columns=f"{MAX_COLUMNS:,}",
                    most_cells=f"{MAX_SHEET_CELLS:,}")
