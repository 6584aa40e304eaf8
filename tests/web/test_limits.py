from __future__ import annotations

import pytest

from validator.web.limits import PlayerLimits, Window


def test_a_window_lets_so_many_through_per_key() -> None:
    window = Window(3, 60.0)
    assert [window.allow("10.0.0.1") for _ in range(5)] == [True, True, True, False, False]
    assert window.allow("10.0.0.2")  # another address has its own count


def test_a_window_forgets_what_is_older_than_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr("validator.web.limits.time.monotonic", lambda: now[0])
    window = Window(2, 10.0)
    assert window.allow("a")
    assert window.allow("a")
    assert not window.allow("a")
    now[0] += 10.0
    assert window.allow("a")


def test_the_default_limits() -> None:
    limits = PlayerLimits()
    assert (limits.submissions, limits.id_seconds, limits.requests, limits.address_seconds) == (
        10, 600.0, 300, 60.0)
