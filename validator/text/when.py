"""Dates and times as each language writes them (Babel's CLDR formats): the event's date,
and a stored time (ISO 8601, UTC) in the event's time zone.

English keeps the ISO forms the reports and the CSV export use (``2026-12-05``,
``2026-12-05 16:30:00``); Japanese, Korean and Thai read their own: ``2026年12月5日``,
``2026년 12월 5일``, ``5 ธันวาคม ค.ศ. 2026``. A value that is
not a date or time is shown as it is.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from babel.dates import format_date, format_datetime

from validator.vocab import Lang

__all__ = ["day", "moment"]


def day(text: str, lang: Lang) -> str:
    """An ISO date (``2026-12-05``) as the language writes it in full."""
    try:
        date = dt.date.fromisoformat(str(text))
    except ValueError:
        return str(text)
    return date.isoformat() if lang == "en" else format_date(date, "long", locale=lang)


def moment(stamp: str, zone: str, lang: Lang) -> str:
    """A stored time (ISO 8601, UTC when it names no zone) in the time zone ``zone``, as the
    language writes a date and time to the second."""
    try:
        when = dt.datetime.fromisoformat(str(stamp))
        tz = zoneinfo.ZoneInfo(zone)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return str(stamp)
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    local = when.astimezone(tz)
    if lang == "en":
        return local.strftime("%Y-%m-%d %H:%M:%S")
    return format_datetime(local, "medium", tzinfo=tz, locale=lang)
