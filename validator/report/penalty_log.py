"""The event's penalty log as rows: what the web pages show and the CSV export (the
workbook: ``report.xlsx.log_xlsx``).

A repeat is an entry for a player who was already recorded for one of its codes: section 2
of every regulation lets the judge apply a higher penalty to a repeated violation.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from validator.event.store import LogEntry
from validator.report.style import csv_safe

__all__ = ["HEADER", "log_csv", "repeats", "rows"]

HEADER = ["#", "Recorded (UTC)", "Player ID", "Player", "Judge", "Round", "Duel", "Kind",
          "Codes", "Default penalty", "Penalty", "Decision", "Reason", "Repeat of"]


def repeats(entries: list[LogEntry]) -> dict[int, list[str]]:
    """Per entry id, the codes this player was already recorded for in earlier entries."""
    seen: dict[str, set[str]] = {}
    out: dict[int, list[str]] = {}
    for entry in sorted(entries, key=lambda e: e.id):
        earlier = seen.setdefault(entry.player_id, set())
        again = [code for code in entry.codes if code in earlier]
        if again:
            out[entry.id] = again
        earlier.update(entry.codes)
    return out


def rows(entries: list[LogEntry]) -> list[list[Any]]:
    again = repeats(entries)
    return [[e.id, e.recorded_at, e.player_id, e.player_name, e.judge, e.round, e.duel, e.kind,
             ", ".join(e.codes), e.default_penalty or "", e.penalty, e.decision, e.reason,
             ", ".join(again.get(e.id, []))] for e in entries]


def log_csv(entries: list[LogEntry]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(HEADER)
    for row in rows(entries):
        writer.writerow([csv_safe(v) for v in row])
    return buffer.getvalue()
