"""Dates and times as each language writes them, in the event's time zone."""

from __future__ import annotations

import pytest

from validator.text.when import day, moment
from validator.vocab import Lang


@pytest.mark.parametrize(("lang", "written"), [
    ("en", "2026-12-05"), ("ja", "2026年12月5日"), ("ko", "2026년 12월 5일"),
    ("th", "5 ธันวาคม ค.ศ. 2026"),
])
def test_the_event_date_in_each_language(lang: Lang, written: str) -> None:
    assert day("2026-12-05", lang) == written


@pytest.mark.parametrize(("lang", "written"), [
    ("en", "2026-12-05 18:30:00"), ("ja", "2026/12/05 18:30:00"),
    ("ko", "2026. 12. 5. 오후 6:30:00"), ("th", "5 ธ.ค. 2026 18:30:00"),
])
def test_a_stored_time_in_the_events_time_zone(lang: Lang, written: str) -> None:
    assert moment("2026-12-05T09:30:00+00:00", "Asia/Tokyo", lang) == written


def test_a_time_without_a_zone_is_utc_and_what_is_not_a_time_stays() -> None:
    assert moment("2026-12-05T09:30:00", "Asia/Bangkok", "ja") == "2026/12/05 16:30:00"
    assert moment("soon", "Asia/Bangkok", "ja") == "soon"
    assert moment("2026-12-05T09:30:00", "Mars/Olympus", "ja") == "2026-12-05T09:30:00"
    assert day("TBA", "ko") == "TBA"
