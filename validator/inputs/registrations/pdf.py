"""Konami's fillable PDF deck registration sheet: its fields read (the writer is
:mod:`validator.sheets.pdf`).

Reading: the form fields of a filled sheet (``pikepdf``, one walk of the form's tree), under
the field names of the sheet Konami publishes (``KDE_DeckList.pdf``) or of its earlier
edition — both are data (``data/pdf_forms.toml``). Every row keeps its field names as its
location. A PDF that is too large, encrypted, unreadable, or has no form fields (a scan or a
print) is one clear problem, read in bounded time (the size, and what its streams unpack to,
are checked before parsing).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, get_args

import pikepdf
from pydantic import BaseModel, ConfigDict, Field, field_validator

from validator.errors import InputError, Problem
from validator.files.safety import check_pdf_streams
from validator.inputs.entries import typed_card
from validator.inputs.ids import LOST_DIGITS, player_id_of
from validator.inputs.registrations._found import (
    FORM_TOO_LARGE,
    TOTAL_DIFFERS,
    Found,
    Player,
    Wrong,
    quantity_and_name,
)
from validator.text.datafile import data_file, read_model
from validator.text.lexicon import section_header

__all__ = ["BLOCK_KEYS", "MAX_PDF_BYTES", "SHEET_COLUMNS", "BlockKey", "FormRow", "FormSheet",
           "FormTotal", "Forms", "Layout", "SheetEntries", "add_sheet", "form_fields",
           "form_problems", "layouts", "read_filled_form", "read_form", "sheet_entries"]


MAX_PDF_BYTES = 10 << 20
MAX_FIELDS = 5_000
_PROC_FD = Path("/proc/self/fd")
#: a PDF's first bytes (after any white space), matched without copying the file
_PDF_HEADER = re.compile(rb"[ \t\n\r\x0b\x0c]*+%PDF-")
#: the nodes of the form's tree walked at most (fields and their widgets)
MAX_NODES = 4 * MAX_FIELDS

#: the blocks of the sheet, by the lexicon's section key of the cards they hold
BlockKey = Literal["monster", "spell", "trap", "side", "extra"]
BLOCK_KEYS: tuple[BlockKey, ...] = get_args(BlockKey)


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    key: BlockKey
    title: str
    count: str = Field(pattern=r"\{n\}")
    name: str = Field(pattern=r"\{n\}")
    rows: int = Field(ge=1)
    total: str

    @cached_property
    def printed(self) -> dict[int, tuple[str, str]]:
        """The printed rows: number → its count and name fields."""
        return {n: (self.count.format(n=n), self.name.format(n=n))
                for n in range(1, self.rows + 1)}

    @cached_property
    def _patterns(self) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(re.escape(template).replace(r"\{n\}", r"(\d+)") + "$")
                     for template in (self.count, self.name))

    def numbers(self, fields: Iterable[str]) -> list[int]:
        """The row numbers the form has fields for (its printed rows, and any more)."""
        found = set(self.printed)
        for pattern in self._patterns:
            found.update(int(m.group(1)) for m in map(pattern.match, fields) if m)
        return sorted(found)

    def fields_of(self, n: int) -> tuple[str, str]:
        """Row ``n``'s count and name fields."""
        return self.printed.get(n) or (self.count.format(n=n), self.name.format(n=n))


class Layout(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    first_name: str
    last_name: str
    initial: str
    player_id: str
    country: str
    event: str
    year: str
    month: str
    day: str
    main_total: str
    block: list[Block]

    @field_validator("block")
    @classmethod
    def _each_block_once(cls, blocks: list[Block]) -> list[Block]:
        keys = [b.key for b in blocks]
        if sorted(keys) != sorted(BLOCK_KEYS):
            raise ValueError(f"expected each block once ({', '.join(BLOCK_KEYS)}), found "
                             f"{', '.join(keys) or 'none'}")
        return blocks

    @cached_property
    def identifying(self) -> frozenset[str]:
        """Fields that only this sheet has: the player's and the first row of each block."""
        return frozenset({self.player_id, self.first_name, self.last_name,
                          *(b.count.format(n=1) for b in self.block),
                          *(b.name.format(n=1) for b in self.block)})

    @cached_property
    def printed(self) -> frozenset[str]:
        """The fields of every printed row."""
        return frozenset(name for b in self.block for pair in b.printed.values()
                         for name in pair)


class Forms(BaseModel):
    """``validator/data/pdf_forms.toml``: the field names of each edition of the sheet."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    layout: list[Layout] = Field(min_length=1)


@cache
def layouts(source: Traversable | None = None) -> tuple[Layout, ...]:
    """The layouts of the sheet the package knows (or those in ``source``), the one the
    writer fills first."""
    return tuple(read_model(Forms, source or data_file("pdf_forms.toml")).layout)


@dataclass(frozen=True)
class FormRow:
    block: BlockKey
    number: int
    count_field: str
    name_field: str
    count: str
    name: str


@dataclass(frozen=True)
class FormTotal:
    field: str
    title: str
    written: str
    blocks: tuple[str, ...]  # the blocks whose rows it adds up


@dataclass(frozen=True)
class FormSheet:
    """What a filled sheet says, field by field (values as typed)."""

    file: str
    layout: str
    player_id: str
    player_name: str
    event: str
    date: str
    rows: list[FormRow]
    totals: list[FormTotal]


def _text(value: object) -> str:
    """A field's value as text: a string or a name (a checkbox's state, ``/Yes``) as written,
    a number as its digits, a list box's choices as a list, a text stream decoded."""
    if value is None:
        return ""
    if isinstance(value, pikepdf.Array):
        return str([str(item) for item in value])
    if isinstance(value, pikepdf.Stream):
        return value.read_bytes().decode()
    return str(value)


def form_fields(pdf: pikepdf.Pdf, label: str) -> dict[str, str]:
    """Every field of the PDF's AcroForm tree, read in one walk: its full dotted name (its
    mapping name ``/TM`` when it has one) → its value as text (``""`` when it has none); a
    node without a name is a widget, not a field, and ends its branch. (Keys are looked up
    with ``in`` first: a missing key costs pikepdf a caught exception.)"""
    form = pdf.Root.get("/AcroForm")
    roots = form.get("/Fields") if isinstance(form, pikepdf.Dictionary) else None
    if not isinstance(roots, pikepdf.Array):
        return {}
    values: dict[str, str] = {}
    parents: set[tuple[int, int]] = set()  # the fields whose kids were walked
    branches: list[tuple[Iterator[Any], str]] = [(iter(roots), "")]
    nodes = 0
    while branches:
        kids, parent = branches[-1]
        for node in kids:
            nodes += 1
            if nodes > MAX_NODES or len(values) > MAX_FIELDS:
                raise InputError.of(label, "more than {most} form fields: not a deck list",
                                    code="NOT_A_FORM", most=MAX_FIELDS)
            if not isinstance(node, pikepdf.Dictionary) and not isinstance(node,
                                                                            pikepdf.Stream):
                continue
            kids_of = "/Kids" in node
            if kids_of and node.is_indirect:
                if node.objgen in parents:
                    continue  # a field that is its own kid (or another's): read once
                parents.add(node.objgen)
            if "/TM" in node:
                name = str(node.get("/TM"))
            elif "/T" in node:
                title = str(node.get("/T"))
                name = f"{parent}.{title}" if parent else title
            else:
                continue
            values[name] = _text(node.get("/V")).strip() if "/V" in node else ""
            children = node.get("/Kids") if kids_of else None
            if isinstance(children, pikepdf.Array):
                branches.append((iter(children), name))
                break
        else:
            branches.pop()
    return values


@contextmanager
def _opened(data: bytes) -> Iterator[pikepdf.Pdf]:
    """The PDF in ``data``, read by qpdf from a file in memory that it maps itself (on
    Linux): several times faster than through Python's reads of a ``BytesIO``."""
    memfd = getattr(os, "memfd_create", None)
    if memfd is None or not _PROC_FD.is_dir():
        with pikepdf.open(io.BytesIO(data)) as pdf:
            yield pdf
        return
    descriptor = memfd("sheet.pdf", getattr(os, "MFD_CLOEXEC", 0))
    try:
        left = memoryview(data)
        while left:
            left = left[os.write(descriptor, left):]
        with pikepdf.open(_PROC_FD / str(descriptor)) as pdf:
            yield pdf
    finally:
        os.close(descriptor)


def _fields(data: bytes, label: str) -> dict[str, str]:
    if len(data) > MAX_PDF_BYTES:
        raise InputError.of(label, FORM_TOO_LARGE, code="FILE_TOO_LARGE",
                            most=MAX_PDF_BYTES >> 20)
    if _PDF_HEADER.match(data) is None:
        raise InputError.of(label, "not a PDF file", code="BAD_PDF")
    check_pdf_streams(data, label)
    try:
        with _opened(data) as pdf:
            fields = form_fields(pdf, label)
    except pikepdf.PasswordError as exc:
        raise InputError.of(label, "the PDF is encrypted: save the filled sheet without a "
                                   "password", code="PDF_ENCRYPTED") from exc
    except (pikepdf.PikepdfError, ValueError, KeyError, TypeError, AttributeError,
            RecursionError, OSError, NotImplementedError, RuntimeError) as exc:
        raise InputError.of(label, "not a readable PDF ({reason})", code="BAD_PDF",
                            reason=type(exc).__name__) from exc
    if not fields:
        raise InputError.of(label, "not a fillable deck list: no form fields (a scanned or "
                                   "printed sheet cannot be read; ask for the filled PDF form "
                                   "or a deck file)", code="NOT_A_FORM")
    return fields


def read_form(data: bytes, label: str) -> FormSheet:
    """The sheet a PDF holds (raises :class:`InputError` with one clear problem)."""
    fields = _fields(data, label)
    layout = next((lay for lay in layouts() if not lay.identifying.isdisjoint(fields)), None)
    if layout is None:
        shown = ", ".join(sorted(fields)[:6])
        raise InputError.of(label, "a PDF form, but not the Konami deck registration sheet "
                                   "(its fields: {fields})", code="NOT_A_FORM",
                            fields=shown + (", ..." if len(fields) > 6 else ""))
    value = fields.get
    rows = []
    unprinted = fields.keys() - layout.printed  # the fields of any rows beyond the printed
    for block in layout.block:
        for n in block.numbers(unprinted):
            count_field, name_field = block.fields_of(n)
            count, name = value(count_field, ""), value(name_field, "")
            if count or name:
                rows.append(FormRow(block.key, n, count_field, name_field, count, name))
    totals = [FormTotal(b.total, b.title, value(b.total, ""), (b.key,)) for b in layout.block]
    totals.append(FormTotal(layout.main_total, "Main Deck", value(layout.main_total, ""),
                            ("monster", "spell", "trap")))
    year, month, day = (value(f, "") for f in (layout.year, layout.month, layout.day))
    date = f"{year}-{month.zfill(2)}-{day.zfill(2)}" if year and month and day else \
        " ".join(p for p in (year, month, day) if p)
    name = " ".join(p for p in (value(layout.first_name, ""), value(layout.last_name, ""))
                    if p)
    return FormSheet(label, layout.name, value(layout.player_id, ""), name,
                     value(layout.event, ""), date, rows, totals)


def form_problems(sheet: FormSheet, added: dict[str, int]) -> list[Problem]:
    """Written totals that disagree with the rows they add up (``added``: block → sum)."""
    found = []
    for total in sheet.totals:
        if not total.written:
            continue
        rows = sum(added.get(block, 0) for block in total.blocks)
        written = int(total.written) if total.written.isdigit() else None
        if written is None:
            found.append(Problem.of(sheet.file, None, total.field,
                                    "written {title} total {written} is not a number",
                                    code="TOTAL_MISMATCH", title=total.title,
                                    written=repr(total.written)))
        elif written != rows:
            found.append(Problem.of(sheet.file, None, total.field, TOTAL_DIFFERS,
                                    code="TOTAL_MISMATCH", title=total.title, written=written,
                                    added=rows))
    return found


#: the entry columns a sheet's rows fill, in :attr:`SheetEntries.columns` (the deck, file and
#: line are the sheet's)
SHEET_COLUMNS = ("section", "slot", "passcode", "name", "qty", "cell")


@dataclass(frozen=True)
class SheetEntries:
    """A filled sheet read to its entries: its player, one list per entry column of
    :data:`SHEET_COLUMNS` (an item per row used), and its problems; a reading process sends
    it back whole."""

    file: str
    player_id: str
    player_name: str
    event: str
    date: str
    columns: tuple[list[Any], ...]
    problems: list[Problem]
    rows_read: int
    rows_reported: int

    @property
    def rows(self) -> int:
        """The rows used."""
        return len(self.columns[0])


@cache
def _headers() -> dict[BlockKey, tuple[str, str | None]]:
    """Each block's section and slot."""
    return {key: (header.section, header.slot)
            for key, header in ((key, section_header(key)) for key in BLOCK_KEYS)}


def sheet_entries(form: FormSheet) -> SheetEntries | list[Problem]:
    """A filled Konami PDF sheet's rows, located by their field names, and its written
    totals checked against them; a blank sheet is its one problem."""
    sections: list[str] = []
    slots: list[str | None] = []
    passcodes: list[int | None] = []
    names: list[str] = []
    quantities: list[int] = []
    cells: list[str] = []
    wrong: list[tuple[str, Wrong, str, str]] = []
    added: dict[str, int] = {}
    headers = _headers()
    for item in form.rows:
        section, slot = headers[item.block]
        qty, name, problem = quantity_and_name(item.count, item.name)
        if problem is not None:
            wrong.append((item.count_field if qty is None else item.name_field, problem,
                          section, name))
            continue
        assert qty is not None
        added[item.block] = added.get(item.block, 0) + qty
        card = typed_card(name)
        sections.append(section)
        slots.append(slot)
        passcodes.append(card["passcode"])
        names.append(card["name"])
        quantities.append(qty)
        cells.append(item.name_field)
    if not form.player_id and not form.player_name and not names and not wrong:
        return [Problem.of(form.file, None, None,
                           "a blank deck list form (no player, no cards): skipped",
                           code="BLANK_LIST")]
    player_id, message = player_id_of(form.player_id or Path(form.file).stem)
    problems = []
    if message:
        problems.append(Problem.of(form.file, None, "CARD GAME ID", LOST_DIGITS,
                                   code="PLAYER_ID", typed=repr(form.player_id)))
    for where, (code, msgid, values), section, card_text in wrong:
        problems.append(Problem.of(form.file, None, where, msgid, code=code,
                                   deck_id=player_id, section=section,
                                   text=card_text or None, **values))
    problems.extend(form_problems(form, added))
    return SheetEntries(form.file, player_id, form.player_name or player_id, form.event,
                        form.date, (sections, slots, passcodes, names, quantities, cells),
                        problems, len(form.rows), len(wrong))


def add_sheet(sheet: SheetEntries, out: Found) -> None:
    """A sheet's entries, player and problems added to what was found, as the next
    registration."""
    origin = out.origin()
    out.rows_read += sheet.rows_read
    out.rows_reported += sheet.rows_reported
    out.problems.extend(sheet.problems)
    out.columns.add(sheet.player_id, sheet.file, None, origin,
                    dict(zip(SHEET_COLUMNS, sheet.columns, strict=True)))
    out.players.append(Player(sheet.player_id, sheet.player_name, sheet.file, "",
                              sheet.file, origin, sheet.rows, event=sheet.event,
                              date=sheet.date))


def read_filled_form(form: FormSheet, out: Found) -> None:
    """A filled Konami PDF sheet read into what was found (:func:`sheet_entries`)."""
    read = sheet_entries(form)
    if isinstance(read, list):
        out.problems.extend(read)
    else:
        add_sheet(read, out)
