from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from validator.errors import InputError
from validator.event.store import (
    FAULT_PAUSE,
    EventDB,
    EventSettings,
    valid_timezone,
)


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


#: an event file as the first versions wrote it: no time zone, no one-time keys, no
#: changes, no judges
OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE event (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL,
    date TEXT NOT NULL, format TEXT NOT NULL, regulation TEXT NOT NULL, lang TEXT NOT NULL);
CREATE TABLE penalty_log (id INTEGER PRIMARY KEY, player_id TEXT NOT NULL,
    player_name TEXT NOT NULL DEFAULT '', judge TEXT NOT NULL, round INTEGER, duel INTEGER,
    kind TEXT NOT NULL CHECK (kind IN ('deck', 'infraction')), codes TEXT NOT NULL,
    default_penalty TEXT NOT NULL, penalty TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'downgraded', 'upgraded')),
    reason TEXT NOT NULL DEFAULT '', details TEXT NOT NULL, recorded_at TEXT NOT NULL);
CREATE TABLE decisions (id INTEGER PRIMARY KEY, player_id TEXT NOT NULL,
    place TEXT NOT NULL, card TEXT NOT NULL, qty INTEGER, section TEXT,
    decided_by TEXT NOT NULL, reason TEXT NOT NULL, decided_at TEXT NOT NULL);
INSERT INTO event VALUES (1, 'Old', '2026-01-01', 'advanced-tcg', 'th', 'en');
INSERT INTO penalty_log VALUES (1, 'P1', 'Ana', 'J', 1, 1, 'infraction', '["LATE"]',
    'WARNING', 'WARNING', 'confirmed', '', '{}', '2026-01-01T10:00:00+00:00');
INSERT INTO decisions VALUES (1, 'P1', 'C3', 'Raigeki', 1, 'main', 'HJ', 'typo',
    '2026-01-01T10:00:00+00:00');
"""


def test_an_older_event_file_gains_the_new_columns_and_keeps_its_entries(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
    db = EventDB(path)
    settings = db.settings()
    assert settings is not None
    assert settings.timezone == "UTC"
    [entry] = db.log()
    assert (entry.player_name, entry.codes, entry.table, entry.form_key, entry.player_kind,
            entry.head_judge, entry.in_effect) == ("Ana", ["LATE"], None, None, "player",
                                                   False, True)
    [decided] = db.decisions()
    assert (decided["card"], decided["head_judge"], decided["change"]) == (
        "Raigeki", False, None)
    assert db.change("log", 1, "void", made_by="HJ", reason="wrong player")
    assert not db.change("log", 1, "void", made_by="HJ", reason="twice")
    [voided] = EventDB(path).log()
    assert voided.change is not None
    assert voided.change.reason == "wrong player"


def test_a_form_key_records_once_even_from_many_threads(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")

    def record(n: int) -> tuple[int, bool]:
        return db.record_once(player_id="P1", player_name="A", judge="J", round=1, duel=1,
                              kind="infraction", codes=["LATE"], default_penalty="WARNING",
                              penalty="WARNING", decision="confirmed", reason="",
                              details={}, form_key=f"key-{n % 4}")

    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(record, range(40)))
    assert sum(new for _, new in made) == 4
    assert len({entry for entry, _ in made}) == 4
    assert len(db.log()) == 4
    assert db.keyed("key-0") in {entry for entry, _ in made}
    assert db.keyed("no-such-key") is None


def _late(db: EventDB, key: str, replaces: int | None = None) -> tuple[int, bool]:
    return db.record_once(player_id="P1", player_name="A", judge="J", round=1, duel=1,
                          kind="infraction", codes=["LATE"], default_penalty="WARNING",
                          penalty="WARNING", decision="confirmed", reason="fix",
                          details={}, form_key=key, replaces=replaces)


def test_records_sent_at_once_share_a_commit_and_are_all_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one commit waits for the disk, the records sent meanwhile wait for the next
    one, which commits them all: fewer syncs than records, none lost, each its own id."""
    db = EventDB(tmp_path / "e.sqlite")
    monkeypatch.setenv(FAULT_PAUSE, "0.05")  # a slow disk
    with ThreadPoolExecutor(20) as pool:
        made = list(pool.map(lambda n: _late(db, f"key-{n}"), range(60)))
    assert all(new for _, new in made)
    assert len({entry for entry, _ in made}) == 60
    assert sorted(str(e.form_key) for e in EventDB(tmp_path / "e.sqlite").log()) == sorted(
        f"key-{n}" for n in range(60))
    assert db._commits < 30  # one sync for many records


def test_a_record_refused_inside_a_shared_commit_leaves_the_others_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    first, _ = _late(db, "first")
    _late(db, "correction", replaces=first)
    monkeypatch.setenv(FAULT_PAUSE, "0.2")
    with ThreadPoolExecutor(3) as pool:
        leader = pool.submit(_late, db, "leader")  # holds the commit while the others queue
        time.sleep(0.05)
        refused = pool.submit(_late, db, "again", first)  # corrected already
        kept = pool.submit(_late, db, "kept")
        with pytest.raises(InputError):
            refused.result()
        assert kept.result()[1]
        assert leader.result()[1]
    keys = [e.form_key for e in EventDB(tmp_path / "e.sqlite").log()]
    assert keys == ["first", "correction", "leader", "kept"]
    assert db._commits == 4  # first, correction, leader, then kept with the refused one


def test_a_correction_keeps_the_original_and_names_it(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    fields = {"player_id": "P1", "player_name": "A", "round": 1, "duel": 1,
              "kind": "infraction", "codes": ["LATE"], "default_penalty": "WARNING",
              "decision": "confirmed", "details": {}}
    first = db.record(judge="J", penalty="WARNING", reason="", **fields)  # type: ignore[arg-type]
    second = db.record(judge="HJ", penalty="CAUTION", reason="one minute late",
                       replaces=first, **fields)  # type: ignore[arg-type]
    original, correction = db.log()
    assert original.change is not None
    assert (original.change.action, original.change.replacement, original.change.made_by,
            original.change.reason) == ("correct", second, "HJ", "one minute late")
    assert (correction.replaces, correction.in_effect) == (first, True)
    with pytest.raises(InputError):
        db.record(judge="HJ", penalty="CAUTION", reason="again", replaces=first,
                  **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(("zone", "valid"), [
    ("UTC", True), ("Asia/Bangkok", True), ("Mars/Base", False), ("", False),
    (" UTC", False), ("../../etc/passwd", False)])
def test_time_zones_are_checked(zone: str, valid: bool) -> None:
    assert valid_timezone(zone) is valid


def test_the_judge_of_a_device_is_kept(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    assert db.judge("sid-1") is None
    db.set_judge("sid-1", "Mai", True)
    db.set_judge("sid-1", "Mai K", False)
    judge = db.judge("sid-1")
    assert judge is not None
    assert (judge.name, judge.head) == ("Mai K", False)


def test_the_page_language_of_a_device_is_kept(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    assert db.page_lang("sid-1") is None
    db.set_page_lang("sid-1", "ja")
    db.set_page_lang("sid-1", "th")
    db.set_page_lang("sid-2", "ko")
    assert (db.page_lang("sid-1"), db.page_lang("sid-2")) == ("th", "ko")
    assert EventDB(tmp_path / "e.sqlite").page_lang("sid-1") == "th"


def test_an_older_event_file_gains_the_page_language_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
    db = EventDB(path)
    assert db.page_lang("sid-1") is None
    db.set_page_lang("sid-1", "ko")
    assert db.page_lang("sid-1") == "ko"


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


def test_an_older_event_file_s_sessions_gain_a_role_and_stay_the_organizer_s(
        tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("CREATE TABLE sessions (sid TEXT PRIMARY KEY, password TEXT NOT NULL, "
                     "expires_at REAL NOT NULL)")  # as the first files had it
        conn.execute("INSERT INTO sessions VALUES ('sid-1', 'key', 9e12)")
    kept = EventDB(path).session("sid-1")
    assert kept is not None
    assert (kept.key, kept.role, kept.person, kept.staff) == ("key", "organizer", "", None)


def test_revoking_a_staff_code_ends_its_sessions_and_is_logged(tmp_path: Path) -> None:
    db = EventDB(tmp_path / "e.sqlite")
    code = db.add_staff(name="Ana", role="judge", salt="00", hash="ff", issued_by="organizer")
    db.open_session("sid-1", "key", 9e12, role="judge", person="Ana", staff=code)
    db.open_session("sid-2", "key", 9e12)
    assert db.session("sid-1") is not None
    assert db.revoke_staff(code, "organizer")
    assert not db.revoke_staff(code, "organizer")  # once
    assert db.session("sid-1") is None
    assert db.session("sid-2") is not None  # the organizer's stays
    assert [c.revoked_at is not None for c in db.staff()] == [True]
    assert [(line["who"], line["action"]) for line in db.staff_log()] == [
        ("organizer", "revoked"), ("organizer", "issued")]


def test_settings_and_version_are_read_again_after_any_commit(tmp_path: Path) -> None:
    """Kept between requests, but never stale: a commit by this handle or by another
    connection to the file (the checking process) is seen at once."""
    path = tmp_path / "e.sqlite"
    db, other = EventDB(path), EventDB(path)
    assert db.settings() is None
    empty = db.version()
    other.save_settings(EventSettings("Regional", "2026-12-05", "advanced-tcg", "th", "en"))
    assert db.settings() == EventSettings("Regional", "2026-12-05", "advanced-tcg", "th", "en")
    named = db.version()
    assert named != empty
    db.add_uploads("registrations", [("a.csv", b"x")])
    uploaded = db.version()
    assert uploaded != named
    assert db.version() == uploaded
    other.set_meta("policy", "[rules]")
    assert db.version() != uploaded
    with sqlite3.connect(path) as raw:  # a connection of no EventDB at all
        raw.execute("UPDATE event SET name = 'National'")
    settings = db.settings()
    assert settings is not None
    assert settings.name == "National"
