"""The event's penalty log as rows: what the web pages show and the CSV export (the
workbook: ``report.xlsx.log_xlsx``).

Each row names the player, says the infraction in the event's language (the catalogue's
text, or the violations a deck check found), the penalty and when it applies, the judge,
the round and table, and the time in the event's time zone. Entries are never deleted: a
voided or corrected entry keeps its row, with who changed it, when and why.

A repeat is an entry for a player who was already recorded for one of its codes: section 2
of every regulation lets the judge apply a higher penalty to a repeated violation. Voided
and corrected entries are not counted.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import zoneinfo
from dataclasses import dataclass
from typing import Any

from validator.event.store import LogEntry
from validator.judging.infractions import catalogue
from validator.report.style import csv_safe
from validator.text.i18n import say
from validator.vocab import REGULATIONS, Lang

__all__ = ["HEADER", "LogContext", "clause", "infraction_text", "local_time", "log_csv",
           "repeats", "rows", "status"]

HEADER = ["#", "Recorded (local time)", "Player ID", "Player", "Who", "Judge", "Head judge",
          "Round", "Table", "Duel", "Kind", "Codes", "Infraction", "Clause",
          "Default penalty", "Penalty", "Applies to", "Decision", "Reason", "Repeat of",
          "Status", "Changed by", "Changed at", "Change reason", "Corrects", "Time zone"]


@dataclass(frozen=True)
class LogContext:
    """What the rows are written for: the regulation whose catalogue names the
    infractions, the event's language and its time zone."""

    regulation: str = "th"
    lang: Lang = "en"
    timezone: str = "UTC"


def local_time(stamp: str, zone: str) -> str:
    """A stored time (ISO 8601, UTC) in the event's time zone: ``2026-12-05 16:30:00``."""
    try:
        moment = dt.datetime.fromisoformat(stamp)
        tz = zoneinfo.ZoneInfo(zone)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return stamp
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S")


def _catalogue(regulation: str) -> dict[str, Any]:
    known = regulation if regulation in REGULATIONS else "th"
    return {item.code: item for item in catalogue(known)}


def infraction_text(entry: LogEntry, context: LogContext) -> str:
    """What the entry is for, in the event's language: the catalogue's words for an
    infraction, the violations found for a deck check."""
    if entry.kind == "infraction":
        items = _catalogue(context.regulation)
        texts = [items[c].text.get(context.lang, items[c].text["en"]) if c in items
                 else str(entry.details.get("infraction", c)) for c in entry.codes]
        return "; ".join(texts)
    found = entry.details.get("violations") or entry.codes
    return "; ".join(str(v) for v in found)


def clause(entry: LogEntry, context: LogContext) -> str:
    """The regulation's section the entry rests on: ``th §5 Tardiness``."""
    if entry.kind == "infraction":
        items = _catalogue(context.regulation)
        parts = []
        for code in entry.codes:
            if code in items:
                item = items[code]
                title = item.section_title.get(context.lang, item.section_title["en"])
                parts.append(f"{context.regulation} §{item.section} {title}")
        return "; ".join(parts)
    return "; ".join(str(b) for b in entry.details.get("basis", []) if b)


def status(entry: LogEntry, lang: Lang = "en") -> str:
    """``in effect``, ``voided`` or ``corrected by #N``, in ``lang`` (the CSV export's
    column stays English)."""
    if entry.change is None:
        return say(lang, "in effect")
    if entry.change.action == "void":
        return say(lang, "voided")
    return say(lang, "corrected by #{id}", id=entry.change.replacement)


def repeats(entries: list[LogEntry]) -> dict[int, list[str]]:
    """Per entry id, the codes this player was already recorded for in earlier entries
    that are still in effect."""
    seen: dict[str, set[str]] = {}
    out: dict[int, list[str]] = {}
    for entry in sorted(entries, key=lambda e: e.id):
        if not entry.in_effect:
            continue
        earlier = seen.setdefault(entry.player_id, set())
        again = [code for code in entry.codes if code in earlier]
        if again:
            out[entry.id] = again
        earlier.update(entry.codes)
    return out


def rows(entries: list[LogEntry], context: LogContext | None = None) -> list[list[Any]]:
    """One row per entry under :data:`HEADER`."""
    context = context or LogContext()
    again = repeats(entries)
    out = []
    for e in entries:
        change = e.change
        out.append([
            e.id, local_time(e.recorded_at, context.timezone), e.player_id, e.player_name,
            e.player_kind, e.judge, "yes" if e.head_judge else "", e.round, e.table, e.duel,
            e.kind, ", ".join(e.codes), infraction_text(e, context), clause(e, context),
            e.default_penalty or "", e.penalty, str(e.details.get("applies_to", "")),
            e.decision, e.reason, ", ".join(again.get(e.id, [])), status(e),
            change.made_by if change else "",
            local_time(change.made_at, context.timezone) if change else "",
            change.reason if change else "", e.replaces, context.timezone])
    return out


def log_csv(entries: list[LogEntry], context: LogContext | None = None) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    for row in rows(entries, context):
        writer.writerow([csv_safe(v) for v in row])
    return buffer.getvalue()
