"""The penalty log as rows: repeats of a player's codes, the CSV export."""

from __future__ import annotations

import csv
import io

import pytest

from validator.event.store import LogEntry
from validator.report.penalty_log import HEADER, log_csv, repeats, rows


def entry(number: int, player_id: str, codes: list[str], recorded_at: str = "",
          reason: str = "") -> LogEntry:
    """A log entry of a confirmed Duel Forfeiture."""
    return LogEntry(number, player_id, f"Player {player_id}", "Judge Ana", 3, 1, "deck", codes,
                    "DUEL_FORFEITURE", "DUEL_FORFEITURE", "confirmed", reason, {},
                    recorded_at or f"2026-12-05T10:0{number}:00+00:00")


def test_a_repeat_is_a_code_the_player_was_recorded_for_before() -> None:
    entries = [entry(3, "P1", ["LIST_MISMATCH", "MAIN_TOO_SMALL"]),
               entry(1, "P1", ["LIST_MISMATCH"]),
               entry(2, "P2", ["LIST_MISMATCH"]),
               entry(4, "P1", ["FORBIDDEN_CARD"])]
    assert repeats(entries) == {3: ["LIST_MISMATCH"]}
    assert repeats([]) == {}


def test_rows_follow_the_header() -> None:
    table = rows([entry(1, "P1", ["LIST_MISMATCH"]), entry(2, "P1", ["LIST_MISMATCH"])])
    assert [len(r) for r in table] == [len(HEADER)] * 2
    first = dict(zip(HEADER, table[0], strict=True))
    assert (first["#"], first["Player ID"], first["Codes"], first["Repeat of"]) == (
        1, "P1", "LIST_MISMATCH", "")
    assert table[1][HEADER.index("Repeat of")] == "LIST_MISMATCH"


def test_the_csv_never_carries_a_formula() -> None:
    text = log_csv([entry(1, "P1", ["LIST_MISMATCH"], reason="=HYPERLINK(\"x\")")])
    header, row = list(csv.reader(io.StringIO(text)))
    assert header == HEADER
    assert row[HEADER.index("Reason")] == "'=HYPERLINK(\"x\")"
    assert row[HEADER.index("Player ID")] == "P1"


@pytest.mark.parametrize(("stamp", "zone", "shown"), [
    ("2026-12-05T09:30:00+00:00", "Asia/Bangkok", "2026-12-05 16:30:00"),
    ("2026-12-05T23:30:00+00:00", "Asia/Tokyo", "2026-12-06 08:30:00"),
    ("2026-12-05T09:30:00+00:00", "UTC", "2026-12-05 09:30:00"),
    ("not a time", "UTC", "not a time")])
def test_times_are_written_in_the_event_s_time_zone(stamp: str, zone: str, shown: str) -> None:
    from validator.report.penalty_log import local_time

    assert local_time(stamp, zone) == shown


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "th"])
def test_rows_say_the_infraction_and_clause_in_the_event_s_language(lang: str) -> None:
    from validator.event.store import Change
    from validator.judging.infractions import infraction
    from validator.report.penalty_log import LogContext

    late = infraction("ja", "LATE")
    logged = LogEntry(7, "P1", "Ana", "J", 2, None, "infraction", ["LATE"], "WARNING",
                      "WARNING", "confirmed", "", {"applies_to": "now"},
                      "2026-12-05T01:00:00+00:00", table=12,
                      change=Change("void", None, "HJ", "wrong player",
                                    "2026-12-05T02:00:00+00:00"))
    [row] = rows([logged], LogContext("ja", lang, "Asia/Tokyo"))  # type: ignore[arg-type]
    got = dict(zip(HEADER, row, strict=True))
    assert got["Infraction"] == late.text[lang]  # type: ignore[index]
    assert got["Clause"] == f"ja §{late.section} {late.section_title[lang]}"  # type: ignore[index]
    assert (got["Recorded (local time)"], got["Table"], got["Applies to"]) == (
        "2026-12-05 10:00:00", 12, "now")
    assert (got["Status"], got["Changed by"], got["Changed at"], got["Change reason"]) == (
        "voided", "HJ", "2026-12-05 11:00:00", "wrong player")
