"""Konami's fillable PDF deck registration sheet: its fields read (the writer is
:mod:`validator.sheets.pdf`).

Reading: the form fields of a filled sheet (``pypdf``), under the field names of the sheet
Konami publishes (``KDE_DeckList.pdf``) or of its earlier edition — both are data
(``data/pdf_forms.toml``). Every row keeps its field names as its location. A PDF that is
too large, encrypted, unreadable, or has no form fields (a scan or a print) is one clear
problem, read in bounded time (the size, and what its streams unpack to, are checked before
parsing).
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from validator.errors import InputError, Problem
from validator.files.safety import check_pdf_streams
from validator.inputs.ids import player_id_of
from validator.inputs.registrations._found import Found, Player, entry_row, quantity_and_name
from validator.text.datafile import data_file, read_model
from validator.text.lexicon import section_header

__all__ = ["BLOCK_KEYS", "MAX_PDF_BYTES", "BlockKey", "FormRow", "FormSheet", "FormTotal",
           "Forms", "Layout", "form_problems", "layouts", "read_filled_form", "read_form"]


MAX_PDF_BYTES = 10 << 20
MAX_FIELDS = 5_000

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

    def numbers(self, fields: dict[str, str]) -> list[int]:
        """The row numbers the form has fields for (its printed rows, and any more)."""
        found = set(range(1, self.rows + 1))
        for template in (self.count, self.name):
            pattern = re.compile(re.escape(template).replace(r"\{n\}", r"(\d+)") + "$")
            found.update(int(m.group(1)) for m in map(pattern.match, fields) if m)
        return sorted(found)


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

    def identifying(self) -> set[str]:
        """Fields that only this sheet has: the player's and the first row of each block."""
        return {self.player_id, self.first_name, self.last_name,
                *(b.count.format(n=1) for b in self.block),
                *(b.name.format(n=1) for b in self.block)}


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


def _fields(data: bytes, label: str) -> dict[str, str]:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PdfReadError

    if len(data) > MAX_PDF_BYTES:
        raise InputError.at(label, f"larger than any deck list form ({MAX_PDF_BYTES >> 20} MB); "
                                   "skipped", code="FILE_TOO_LARGE")
    if not data.lstrip()[:5] == b"%PDF-":
        raise InputError.at(label, "not a PDF file", code="BAD_PDF")
    check_pdf_streams(data, label)
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            raise InputError.at(label, "the PDF is encrypted: save the filled sheet without a "
                                       "password", code="PDF_ENCRYPTED")
        fields = reader.get_fields() or {}
    except FileNotDecryptedError as exc:
        raise InputError.at(label, "the PDF is encrypted: save the filled sheet without a "
                                   "password", code="PDF_ENCRYPTED") from exc
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError, RecursionError,
            OSError, NotImplementedError) as exc:
        raise InputError.at(label, f"not a readable PDF ({type(exc).__name__})",
                            code="BAD_PDF") from exc
    if not fields:
        raise InputError.at(label, "not a fillable deck list: no form fields (a scanned or "
                                   "printed sheet cannot be read; ask for the filled PDF form "
                                   "or a deck file)", code="NOT_A_FORM")
    if len(fields) > MAX_FIELDS:
        raise InputError.at(label, f"more than {MAX_FIELDS} form fields: not a deck list",
                            code="NOT_A_FORM")
    values: dict[str, str] = {}
    for name, item in fields.items():
        value = item.get("/V")
        values[str(name)] = "" if value is None else str(value).strip()
    return values


def read_form(data: bytes, label: str) -> FormSheet:
    """The sheet a PDF holds (raises :class:`InputError` with one clear problem)."""
    fields = _fields(data, label)
    layout = next((lay for lay in layouts() if lay.identifying() & set(fields)), None)
    if layout is None:
        shown = ", ".join(sorted(fields)[:6])
        raise InputError.at(label, "a PDF form, but not the Konami deck registration sheet "
                                   f"(its fields: {shown}{', ...' if len(fields) > 6 else ''})",
                            code="NOT_A_FORM")
    value = fields.get
    rows = []
    for block in layout.block:
        for n in block.numbers(fields):
            count_field, name_field = block.count.format(n=n), block.name.format(n=n)
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
            message = f"written {total.title} total {total.written!r} is not a number"
        elif written != rows:
            message = f"written {total.title} total {written} but its rows add up to {rows}"
        else:
            continue
        found.append(Problem(sheet.file, None, total.field, message, code="TOTAL_MISMATCH"))
    return found


def read_filled_form(form: FormSheet, out: Found) -> None:
    """A filled Konami PDF sheet: rows located by their field names, written totals
    checked against the rows."""
    rows: list[dict[str, Any]] = []
    wrong: list[tuple[str, tuple[str, str], str, str]] = []
    added: dict[str, int] = {}
    for item in form.rows:
        header = section_header(item.block)
        qty, name, problem = quantity_and_name(item.count, item.name)
        if problem is not None:
            wrong.append((item.count_field if qty is None else item.name_field, problem,
                          header.section, name))
            continue
        assert qty is not None
        added[item.block] = added.get(item.block, 0) + qty
        rows.append(entry_row(header.section, header.slot, qty, name, form.file, None,
                         item.name_field))
    if not form.player_id and not form.player_name and not rows and not wrong:
        out.problems.append(Problem(form.file, None, None,
                                    "a blank deck list form (no player, no cards): skipped",
                                    code="BLANK_LIST"))
        return
    player_id, message = player_id_of(form.player_id or Path(form.file).stem)
    if message:
        out.problems.append(Problem(form.file, None, "CARD GAME ID",
                                    f"player id {form.player_id!r} {message}", code="PLAYER_ID"))
    origin = out.origin()
    out.rows_read += len(form.rows)
    out.rows_reported += len(wrong)
    for where, (code, text), section, card in wrong:
        out.problems.append(Problem(form.file, None, where, text, code=code, deck_id=player_id,
                                    section=section, text=card or None))
    out.problems.extend(form_problems(form, added))
    out.rows.extend({**row, "deck_id": player_id, "origin": origin} for row in rows)
    out.players.append(Player(player_id, form.player_name or player_id, form.file, "",
                               form.file, origin, len(rows), event=form.event,
                               date=form.date))
