"""The workbooks: the organizer's event report and the penalty log.

Sheets: Summary (counts, format, list, data, generated-at), Players (one row per player,
filters, frozen header, status colours), Violations (one row per violation with its file
and cell), Penalties (printable slips in the chosen language), Unresolved (names with
suggestions), Decisions (the head judge's decisions applied) and Problems (rows that could
not be read, unmatched decks). User text never
becomes a formula. Apart from the Summary's generated-at line the workbook is byte-stable:
its zip entries and document properties carry a fixed date.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import polars as pl
from openpyxl import Workbook
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from validator.errors import ImplementationError
from validator.event.store import LogEntry
from validator.report.model import Header, Report, Verdict
from validator.report.penalty_log import HEADER, LogContext, rows
from validator.report.style import (
    FILLS,
    HEADER_FONT,
    STATUS_FILLS,
    autosize,
    export_text,
    looks_like_formula,
    put,
    write_header,
)
from validator.text.i18n import problem_line, problem_text, say, term
from validator.vocab import STATUS_LABELS, Lang, Status

__all__ = ["event_xlsx", "generated_now", "log_xlsx", "write_event_xlsx"]

_FIXED_DATE = (1980, 1, 1, 0, 0, 0)
_WRAP = Alignment(wrap_text=True, vertical="top")
_BOLD = Font(bold=True)
#: the styles of the event workbook's cells, by name: font, fill, alignment and border
_STYLES: dict[str, tuple[Font | None, PatternFill | None, Alignment | None, Border | None]] = {
    "header": (HEADER_FONT, FILLS["header"], Alignment(vertical="center", wrap_text=True),
               None),
    "title": (Font(bold=True, size=14), None, None, None),
    "bold": (_BOLD, None, None, None),
    "wrap": (None, None, _WRAP, None),
    "slip": (Font(bold=True, size=13), None, None, None),
    "signed": (None, None, _WRAP, Border(bottom=Side(style="thin"))),
    **{f"status {status}": (None, fill, None, None) for status, fill in STATUS_FILLS.items()},
}


class _Styles:
    """The styles of :data:`_STYLES` used so far, each made in the workbook once, when a
    cell first has it."""

    def __init__(self) -> None:
        self._made: dict[str, StyleArray] = {}

    def array(self, name: str, ws: Worksheet) -> StyleArray:
        """The style ``name``, as a cell of ``ws`` carries it (a copy of its own)."""
        made = self._made.get(name)
        if made is None:
            font, fill, alignment, border = _STYLES[name]
            cell = Cell(ws, 1, 1)
            if font is not None:
                cell.font = font
            if fill is not None:
                cell.fill = fill
            if alignment is not None:
                cell.alignment = alignment
            if border is not None:
                cell.border = border
            # the style openpyxl keeps on a cell (a slot the stubs omit)
            made = self._made[name] = cell._style  # type: ignore[attr-defined]
        return StyleArray(made)


class _Sheet:
    """A worksheet of the event workbook written in one pass (openpyxl's write-only mode):
    its rows are kept as they are added, its columns sized from their text (as
    :func:`~validator.report.style.autosize` does), then the rows streamed in order. Values
    are written as :func:`~validator.report.style.put` writes them; each style is made once
    and shared by the cells that have it."""

    def __init__(self, workbook: Workbook, title: str, styles: _Styles) -> None:
        # a write-only sheet: a worksheet's settings, rows only appended (the stubs list
        # only some of its settings)
        self.ws: Worksheet = workbook.create_sheet(title)
        self.rows: list[list[Any]] = []
        self.longest: dict[int, int] = {}  # column → its longest line
        self.width = 0  # the most cells in a row
        self._styles = styles

    def add(self, values: Sequence[Any], styles: dict[int, str] | None = None,
            at: int | None = None) -> None:
        """A row of values (``at``: its number, past the rows so far); ``styles``: the style
        of some of its columns (1-based)."""
        while at is not None and len(self.rows) < at - 1:
            self.rows.append([])
        row: list[Any] = []
        for column, value in enumerate(values, start=1):
            value = export_text(value)
            style = styles.get(column) if styles else None
            formula = looks_like_formula(value)
            if value is not None:
                longest = max(len(line) for line in str(value).splitlines() or [""])
                if longest > self.longest.get(column, -1):
                    self.longest[column] = longest
            if style is None and not formula:
                row.append(value)
                continue
            cell = Cell(self.ws, 1, column, value,
                        None if style is None else self._styles.array(style, self.ws))
            if formula:
                cell.data_type = "s"
            row.append(cell)
        self.width = max(self.width, len(values))
        self.rows.append(row)

    def header(self, titles: Sequence[str], at: int | None = None) -> None:
        """A header row, styled as :func:`~validator.report.style.write_header` styles it."""
        self.add(titles, dict.fromkeys(range(1, len(titles) + 1), "header"), at)

    @property
    def dimensions(self) -> str:
        """The cells written, from A1 (as a worksheet's ``dimensions``)."""
        return f"A1:{get_column_letter(max(self.width, 1))}{max(len(self.rows), 1)}"

    def autosize(self, widths: dict[int, int] | None = None, most: int = 60) -> None:
        """Column widths from content (bounded), or as given."""
        for column, width in {**self.longest, **(widths or {})}.items():
            self.ws.column_dimensions[get_column_letter(column)].width = min(max(width + 2, 6),
                                                                             most)

    def write(self) -> None:
        """The rows, streamed (the sheet's columns, panes and page set up before)."""
        for row in self.rows:
            self.ws.append(row)



def _said(lang: Lang, *texts: str) -> list[str]:
    """Labels (sheet names, column titles) in the report's language."""
    return [say(lang, text) for text in texts]


def _penalty_cell(verdict: Verdict | None, header: Header) -> str:
    """The prescribed penalty, or what the head judge decides and why."""
    if verdict is None:
        return ""
    parts = [verdict.label] if verdict.label else []
    if verdict.head_judge:
        parts.append(f"{', '.join(verdict.head_judge)}: {header.no_clause}")
    return "; ".join(parts) or header.decide


def _summary(sheet: _Sheet, report: Report, generated_at: str) -> None:
    lang = report.header.lang
    sheet.add([say(lang, "Deck check report")], {1: "title"})
    header, counted = report.header, report.statuses
    facts: list[tuple[str, Any]] = [
        ("Format", header.format_title_in or header.format_title),
        ("Forbidden/Limited list", header.banlist_line_in(lang)),
        ("Card data", header.cards),
        ("Regulation", f"{header.regulation_title} ({header.regulation_title_local})"
         if lang == "en" or not header.regulation_title_in else
         f"{header.regulation_title_in} ({header.regulation_title})"),
        ("Players", report.items.height),
        ("Legal", counted["legal"]),
        ("Illegal", counted["illegal"]),
        ("Needs a head judge's decision", counted["needs_decision"]),
        ("Deck not checked", counted["not_checked"]),
        ("Head judge's decisions applied", len(report.decisions)),
        ("Problems (unreadable rows, unmatched decks)", len(report.problems)),
        ("Generated at", generated_at),
    ]
    for i, (label, value) in enumerate(facts, start=3):
        sheet.add([say(lang, label), value], {1: "bold"}, at=i)
    top = len(facts) + 5
    sheet.header(_said(lang, "Violation code", "Count"), at=top - 1)
    for code, count in report.counts.items():
        sheet.add([code, count])
    if report.warnings:
        top += len(report.counts) + 2
        sheet.header(_said(lang, "Warning"), at=top - 1)
        for warning in report.warnings:
            sheet.add([problem_line(warning, lang)])
    sheet.autosize({1: 44})


def _players(sheet: _Sheet, report: Report) -> None:
    lang = report.header.lang
    sheet.header(_said(lang, "Player ID", "Player", "Status", "List legal", "Deck legal",
                       "Main (list)", "Extra (list)", "Side (list)", "Deck file", "Violations",
                       "Penalty", "Applies to", "Remedies", "Read fuzzily"))
    yes, no = say(lang, "yes"), say(lang, "no")
    labels = {status: term(lang, "status label", label) for status, label in
              STATUS_LABELS.items()}
    for row in report.items.iter_rows(named=True):
        verdict = report.verdict(row["deck"])
        status: Status = row["status"]
        values = [row["player_id"], row["player_name"], labels[status],
                  yes if row["list_legal"] else no,
                  "" if row["deck_legal"] is None else (yes if row["deck_legal"] else no),
                  row["list_main"], row["list_extra"], row["list_side"], row["deck_source"],
                  row["violations"], _penalty_cell(verdict, report.header),
                  (verdict.applies_to or "") if verdict else "",
                  "\n".join(verdict.remedies) if verdict else "",
                  "\n".join(f"{f['typed']} → {f['card']} ({f['cell'] or f['line'] or ''})"
                            for f in report.fuzzy.get(row["player_id"], []))]
        styles = {3: f"status {status}"}
        if verdict:
            styles[13] = "wrap"
        sheet.add(values, styles)
    sheet.ws.freeze_panes = "A2"
    sheet.ws.auto_filter.ref = sheet.dimensions
    sheet.autosize({13: 70})


def _violations(sheet: _Sheet, report: Report) -> None:
    lang = report.header.lang
    titles = _said(lang, "Player ID", "Player", "On", "Code", "Section", "Card", "Passcode",
                   "Count", "Limit", "Registered", "Message", "File", "Row/line", "Cell",
                   "Counts as", "Waits for a decision", "Head judge's decision",
                   "Read fuzzily from")
    columns = ["player_id", "player_name", "on", "code", "section", "card", "passcode", "count",
               "limit", "registered", "message", "file", "line", "cell", "counts_as", "held",
               "decision", "read_from"]
    if lang != "en":  # the message in the report's language beside the English one
        titles.insert(11, say(lang, "Message in the report's language"))
        columns.insert(11, "localized_message")
    sheet.header(titles)
    frame = report.violations.select(
        [pl.col(c).cast(pl.Utf8) if c in ("on", "section") else pl.col(c) for c in columns])
    for row in frame.iter_rows():
        sheet.add(row)
    sheet.ws.freeze_panes = "A2"
    sheet.ws.auto_filter.ref = sheet.dimensions
    sheet.autosize({11: 80, 12: 80} if lang != "en" else {11: 80})


def _slips(sheet: _Sheet, report: Report) -> None:
    header = report.header
    lang = header.lang
    labels = [term(lang, "slip", label) for label in (
        "Penalty", "Player", "Player ID", "Applies to", "Violations", "Remedies",
        "Judge signature", "Player signature")]
    grouped = {k: v for (k,), v in report.violations.partition_by("deck", as_dict=True).items()}
    r = 1
    for row in report.items.filter(pl.col("status") == "illegal").iter_rows(named=True):
        verdict = report.verdict(row["deck"])
        assert verdict is not None  # an illegal player has violations
        sheet.add([f"{labels[0]}: {_penalty_cell(verdict, header)}"], {1: "slip"}, at=r)
        lines: list[tuple[str, str]] = [
            (labels[1], row["player_name"]), (labels[2], row["player_id"]),
            (labels[3], verdict.applies_to or header.no_clause),
            (labels[4], "\n".join(
                f"[{term(lang, 'on', str(v['on']))}] {v['code']}: "
                f"{v.get('localized_message') or v['message']}"
                for v in grouped[row["deck"]].iter_rows(named=True))),
            (labels[5], "\n".join(f"• {remedy}" for remedy in verdict.remedies)),
            (labels[6], ""), (labels[7], ""),
        ]
        for label, value in lines:
            r += 1
            sheet.add([label, value], {1: "bold", 2: "signed"}, at=r)
        r += 2
        sheet.ws.row_breaks.append(Break(id=r - 1))
    sheet.ws.column_dimensions["A"].width = 18
    sheet.ws.column_dimensions["B"].width = 90
    sheet.ws.page_setup.orientation = "portrait"
    sheet.ws.page_setup.fitToWidth = 1
    sheet.ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)


def _names(report: Report) -> dict[str, str]:
    return dict(report.items.select("player_id", "player_name").iter_rows())


def _unresolved(sheet: _Sheet, report: Report) -> None:
    sheet.header(_said(report.header.lang, "Player ID", "Player", "Typed name", "Count",
                       "File", "Cell", "Suggestions"))
    names = _names(report)
    for row in report.unresolved.iter_rows(named=True):
        sheet.add([row["deck_id"], names.get(row["deck_id"]), row["name"], row["qty"],
                   row["file"], row["cell"] or row["line"],
                   " / ".join(row["suggestions"] or [])])
    sheet.ws.freeze_panes = "A2"
    sheet.autosize()


def _decisions(sheet: _Sheet, report: Report) -> None:
    sheet.header(_said(report.header.lang, "Player ID", "Player", "Where", "The entry said",
                       "Decided: card", "Qty", "Decided by", "Reason"))
    names = _names(report)
    for item in report.decisions:
        sheet.add([item.player_id, names.get(item.player_id), item.where, item.typed,
                   item.card, item.qty, item.decided_by, item.reason])
    sheet.ws.freeze_panes = "A2"
    sheet.autosize()


def _problems(sheet: _Sheet, report: Report) -> None:
    sheet.header(_said(report.header.lang, "File", "Row/line", "Where", "Code", "Problem"))
    for p in sorted(report.problems):
        sheet.add([p.file, p.line, p.column, p.code, problem_text(p, report.header.lang)])
    sheet.ws.freeze_panes = "A2"
    sheet.autosize({5: 90})


def generated_now() -> dt.datetime:
    """When a report is made: ``$SOURCE_DATE_EPOCH`` when set (reproducible builds' way of
    fixing the date, so the same inputs give the same bytes), else now, to the second."""
    stamp = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if stamp.isascii() and stamp.isdigit():
        return dt.datetime.fromtimestamp(int(stamp), dt.UTC)
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def write_event_xlsx(report: Report, target: Path,
                     generated_at: dt.datetime | None = None) -> None:
    """The report as a file, written whole or not at all."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(event_xlsx(report, generated_at))
    partial.replace(target)


def event_xlsx(report: Report, generated_at: dt.datetime | None = None) -> bytes:
    """The event report workbook's bytes (``report``: a judged event)."""
    if report.kind != "event":
        raise ImplementationError("the event workbook is written from a judged event")
    when = generated_at or generated_now()
    workbook = Workbook(write_only=True)
    lang = report.header.lang
    styles = _Styles()

    def summary(sheet: _Sheet, report: Report) -> None:
        _summary(sheet, report, when.isoformat())

    sheets: list[tuple[str, Callable[[_Sheet, Report], None]]] = [
        ("Summary", summary), ("Players", _players), ("Violations", _violations),
        ("Penalties", _slips), ("Unresolved", _unresolved), ("Decisions", _decisions),
        ("Problems", _problems)]
    for title, write in sheets:
        sheet = _Sheet(workbook, term(lang, "sheet", title), styles)
        write(sheet, report)
        sheet.write()
    return _stable(workbook, when.astimezone(dt.UTC).replace(tzinfo=None))


def log_xlsx(entries: list[LogEntry], context: LogContext | None = None) -> bytes:
    """The penalty log as a workbook, the CSV's columns (its zip entries dated like the
    event report's)."""
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Penalty log"
    write_header(sheet, 1, HEADER)
    for r, row in enumerate(rows(entries, context), start=2):
        for c, value in enumerate(row, start=1):
            put(sheet, r, c, value)
    sheet.freeze_panes = "A2"
    autosize(sheet)
    stamp = max((e.recorded_at for e in entries), default="1980-01-01T00:00:00")
    return _stable(workbook, dt.datetime.fromisoformat(stamp[:19]))


def _stable(workbook: Workbook, stamp: dt.datetime) -> bytes:
    """A workbook's bytes that depend only on its content and ``stamp``: every zip entry
    carries one fixed date, and the document's dates are ``stamp``."""
    workbook.properties.created = stamp
    workbook.properties.creator = "deckcheck"
    buffer = io.BytesIO()
    workbook.save(buffer)
    stable_bytes = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as source, zipfile.ZipFile(
            stable_bytes, "w", zipfile.ZIP_DEFLATED) as out:
        for info in source.infolist():
            stable = zipfile.ZipInfo(info.filename, date_time=_FIXED_DATE)
            stable.compress_type = zipfile.ZIP_DEFLATED
            stable.external_attr = 0o644 << 16
            data = source.read(info)
            if info.filename == "docProps/core.xml":  # openpyxl stamps the save time here
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*",
                              rb"\g<1>" + stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode(), data)
            out.writestr(stable, data)
    return stable_bytes.getvalue()
