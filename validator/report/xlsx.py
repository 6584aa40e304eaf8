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
from pathlib import Path
from typing import Any

import polars as pl
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, Side
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from validator.errors import ImplementationError
from validator.event.store import LogEntry
from validator.report.model import Header, Report, Verdict
from validator.report.penalty_log import HEADER, LogContext, rows
from validator.report.style import STATUS_FILLS, autosize, put, write_header
from validator.text.i18n import problem_line, problem_text, say, term
from validator.vocab import STATUS_LABELS, Lang, Status

__all__ = ["event_xlsx", "generated_now", "log_xlsx", "write_event_xlsx"]

_FIXED_DATE = (1980, 1, 1, 0, 0, 0)
_WRAP = Alignment(wrap_text=True, vertical="top")
_BOLD = Font(bold=True)


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


def _summary(ws: Worksheet, report: Report, generated_at: str) -> None:
    lang = report.header.lang
    put(ws, 1, 1, say(lang, "Deck check report")).font = Font(bold=True, size=14)
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
        put(ws, i, 1, say(lang, label)).font = Font(bold=True)
        put(ws, i, 2, value)
    top = len(facts) + 5
    write_header(ws, top - 1, _said(lang, "Violation code", "Count"))
    for i, (code, count) in enumerate(report.counts.items(), start=top):
        put(ws, i, 1, code)
        put(ws, i, 2, count)
    if report.warnings:
        top += len(report.counts) + 2
        write_header(ws, top - 1, _said(lang, "Warning"))
        for i, warning in enumerate(report.warnings, start=top):
            put(ws, i, 1, problem_line(warning, lang))
    autosize(ws, {1: 44})


def _players(ws: Worksheet, report: Report) -> None:
    lang = report.header.lang
    titles = _said(lang, "Player ID", "Player", "Status", "List legal", "Deck legal",
                   "Main (list)", "Extra (list)", "Side (list)", "Deck file", "Violations",
                   "Penalty", "Applies to", "Remedies", "Read fuzzily")
    write_header(ws, 1, titles)
    yes, no = say(lang, "yes"), say(lang, "no")
    for r, row in enumerate(report.items.iter_rows(named=True), start=2):
        verdict = report.verdict(row["deck"])
        status: Status = row["status"]
        values = [row["player_id"], row["player_name"],
                  term(lang, "status label", STATUS_LABELS[status]),
                  yes if row["list_legal"] else no,
                  "" if row["deck_legal"] is None else (yes if row["deck_legal"] else no),
                  row["list_main"], row["list_extra"], row["list_side"], row["deck_source"],
                  row["violations"], _penalty_cell(verdict, report.header),
                  (verdict.applies_to or "") if verdict else "",
                  "\n".join(verdict.remedies) if verdict else "",
                  "\n".join(f"{f['typed']} → {f['card']} ({f['cell'] or f['line'] or ''})"
                            for f in report.fuzzy.get(row["player_id"], []))]
        for c, value in enumerate(values, start=1):
            put(ws, r, c, value)
        if verdict:
            ws.cell(row=r, column=13).alignment = _WRAP
        ws.cell(row=r, column=3).fill = STATUS_FILLS[status]
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions
    autosize(ws, {13: 70})


def _violations(ws: Worksheet, report: Report) -> None:
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
    write_header(ws, 1, titles)
    frame = report.violations.select(
        [pl.col(c).cast(pl.Utf8) if c in ("on", "section") else pl.col(c) for c in columns])
    for r, row in enumerate(frame.iter_rows(), start=2):
        for c, value in enumerate(row, start=1):
            put(ws, r, c, value)
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = ws.dimensions
    autosize(ws, {11: 80, 12: 80} if lang != "en" else {11: 80})


def _slips(ws: Worksheet, report: Report) -> None:
    header = report.header
    lang = header.lang
    labels = [term(lang, "slip", label) for label in (
        "Penalty", "Player", "Player ID", "Applies to", "Violations", "Remedies",
        "Judge signature", "Player signature")]
    underline = Border(bottom=Side(style="thin"))
    r = 1
    grouped = {k: v for (k,), v in report.violations.partition_by("deck", as_dict=True).items()}
    for row in report.items.filter(pl.col("status") == "illegal").iter_rows(named=True):
        verdict = report.verdict(row["deck"])
        assert verdict is not None  # an illegal player has violations
        put(ws, r, 1, f"{labels[0]}: {_penalty_cell(verdict, header)}").font = Font(
            bold=True, size=13)
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
            put(ws, r, 1, label).font = _BOLD
            cell = put(ws, r, 2, value)
            cell.alignment = _WRAP
            cell.border = underline
        r += 2
        ws.row_breaks.append(Break(id=r - 1))
    ws.column_dimensions["A"].width = 18
    ws.column_dimensions["B"].width = 90
    ws.page_setup.orientation = "portrait"
    ws.page_setup.fitToWidth = 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)


def _names(report: Report) -> dict[str, str]:
    return dict(report.items.select("player_id", "player_name").iter_rows())


def _unresolved(ws: Worksheet, report: Report) -> None:
    write_header(ws, 1, _said(report.header.lang, "Player ID", "Player", "Typed name", "Count",
                              "File", "Cell", "Suggestions"))
    names = _names(report)
    for r, row in enumerate(report.unresolved.iter_rows(named=True), start=2):
        for c, value in enumerate([row["deck_id"], names.get(row["deck_id"]), row["name"],
                                   row["qty"], row["file"], row["cell"] or row["line"],
                                   " / ".join(row["suggestions"] or [])], start=1):
            put(ws, r, c, value)
    ws.freeze_panes = "A2"
    autosize(ws)


def _decisions(ws: Worksheet, report: Report) -> None:
    write_header(ws, 1, _said(report.header.lang, "Player ID", "Player", "Where",
                              "The entry said", "Decided: card", "Qty", "Decided by", "Reason"))
    names = _names(report)
    for r, item in enumerate(report.decisions, start=2):
        for c, value in enumerate([item.player_id, names.get(item.player_id), item.where,
                                   item.typed, item.card, item.qty, item.decided_by,
                                   item.reason], start=1):
            put(ws, r, c, value)
    ws.freeze_panes = "A2"
    autosize(ws)


def _problems(ws: Worksheet, report: Report) -> None:
    write_header(ws, 1, _said(report.header.lang, "File", "Row/line", "Where", "Code",
                              "Problem"))
    for r, p in enumerate(sorted(report.problems), start=2):
        for c, value in enumerate([p.file, p.line, p.column, p.code,
                                   problem_text(p, report.header.lang)], start=1):
            put(ws, r, c, value)
    ws.freeze_panes = "A2"
    autosize(ws, {5: 90})


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
    workbook = Workbook()
    summary = workbook.active
    assert summary is not None
    lang = report.header.lang
    summary.title = term(lang, "sheet", "Summary")
    _summary(summary, report, when.isoformat())
    _players(workbook.create_sheet(term(lang, "sheet", "Players")), report)
    _violations(workbook.create_sheet(term(lang, "sheet", "Violations")), report)
    _slips(workbook.create_sheet(term(lang, "sheet", "Penalties")), report)
    _unresolved(workbook.create_sheet(term(lang, "sheet", "Unresolved")), report)
    _decisions(workbook.create_sheet(term(lang, "sheet", "Decisions")), report)
    _problems(workbook.create_sheet(term(lang, "sheet", "Problems")), report)
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
