from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from validator.errors import InputError
from validator.event.store import EventDB, EventSettings


def test_settings_uploads_and_log_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "event.sqlite"
    db = EventDB(path)
    db.save_settings(EventSettings("Regional", "2026-12-05", "advanced-tcg", "th", "en"))
    db.add_uploads("registrations", [("r.xlsx", b"PK...")])
    entry = db.record(player_id="P1", player_name="A", judge="J", round=2, duel=1,
                      kind="deck", codes=["LIST_MISMATCH"], default_penalty="DUEL_FORFEITURE",
                      penalty="DUEL_FORFEITURE", decision="confirmed", reason="",
                      details={"violations": ["x"]})
    secret = db.secret()
    db.close()
    again = EventDB(path)
    assert again.settings() == EventSettings("Regional", "2026-12-05", "advanced-tcg", "th",
                                             "en")
    assert again.uploads("registrations") == [("r.xlsx", b"PK...")]
    [logged] = again.log("P1")
    assert (logged.id, logged.codes, logged.round) == (entry, ["LIST_MISMATCH"], 2)
    assert again.secret() == secret
    assert again.log("P2") == []


def test_failed_transaction_leaves_nothing(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")

    def interrupted() -> None:
        with db.transaction() as conn:
            conn.execute("INSERT INTO uploads (kind, name, data, sha256, received_at) "
                         "VALUES ('decks', 'a.ydk', x'00', 'h', 'now')")
            raise RuntimeError("power cut")

    with pytest.raises(RuntimeError):
        interrupted()
    assert db.uploads("decks") == []


def test_replace_uploads(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    db.add_uploads("decks", [("a.ydk", b"1")])
    db.add_uploads("decks", [("b.ydk", b"2")], replace=True)
    assert db.uploads("decks") == [("b.ydk", b"2")]


def test_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "e.sqlite"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(InputError) as info:
        EventDB(bad)
    assert info.value.codes == ["STORE_DAMAGED"]
    assert sqlite3.sqlite_version


def test_the_event_file_and_its_wal_are_the_owner_s_only(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    db.secret()
    for name in ("e.sqlite", "e.sqlite-wal"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o600
    older = tmp_path / "older.sqlite"
    older.touch(mode=0o644)
    older.chmod(0o644)
    EventDB(older)
    assert older.stat().st_mode & 0o777 == 0o600
