"""One event's durable store: a SQLite file (WAL, full sync, one transaction per change).

It keeps the event's settings, every uploaded file (as bytes: a check can always be re-run
from exactly what was uploaded) with what became of it (in effect, removed, waiting for a
"replace all" to be confirmed, refused), the earlier versions organizers restored for a
player, and the penalty log. A crash or power cut leaves each change either wholly
recorded or not at all.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.errors import InputError, Problem
from validator.event.versions import Choice, Part, Submission, in_effect
from validator.vocab import LANGS, Lang

__all__ = ["FAULT_PAUSE", "EventDB", "EventSettings", "LogEntry"]

#: seconds to wait inside every transaction before its commit; set only by crash tests,
#: which kill the server in that window and check that nothing was half-written
FAULT_PAUSE = "DECKCHECK_FAULT_PAUSE_BEFORE_COMMIT"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS event (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL, date TEXT NOT NULL, format TEXT NOT NULL,
    regulation TEXT NOT NULL, lang TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS uploads (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('registrations', 'decks', 'links')),
    name TEXT NOT NULL, data BLOB NOT NULL, sha256 TEXT NOT NULL,
    received_at TEXT NOT NULL,
    batch INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'active'
        CHECK (state IN ('active', 'removed', 'pending', 'refused')),
    replace_all INTEGER NOT NULL DEFAULT 0, reason TEXT NOT NULL DEFAULT '[]');
CREATE TABLE IF NOT EXISTS choices (
    player_id TEXT NOT NULL, part TEXT NOT NULL CHECK (part IN ('list', 'deck')),
    upload INTEGER NOT NULL, after INTEGER NOT NULL,
    chosen_at TEXT NOT NULL, PRIMARY KEY (player_id, part));
CREATE TABLE IF NOT EXISTS penalty_log (
    id INTEGER PRIMARY KEY,
    player_id TEXT NOT NULL, player_name TEXT NOT NULL DEFAULT '',
    judge TEXT NOT NULL, round INTEGER, duel INTEGER,
    kind TEXT NOT NULL CHECK (kind IN ('deck', 'infraction')),
    codes TEXT NOT NULL, default_penalty TEXT NOT NULL, penalty TEXT NOT NULL,
    decision TEXT NOT NULL CHECK (decision IN ('confirmed', 'downgraded', 'upgraded',
                                               'decided')),
    reason TEXT NOT NULL DEFAULT '', details TEXT NOT NULL,
    recorded_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS penalty_log_player ON penalty_log (player_id);
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY,
    player_id TEXT NOT NULL, place TEXT NOT NULL, card TEXT NOT NULL, qty INTEGER,
    section TEXT, decided_by TEXT NOT NULL, reason TEXT NOT NULL, decided_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    sid TEXT PRIMARY KEY, password TEXT NOT NULL, expires_at REAL NOT NULL);
"""


@dataclass(frozen=True)
class EventSettings:
    name: str
    date: str
    format: str
    regulation: str  # a shipped regulation, or "custom" (a policy file received)
    lang: Lang
    banlist: str = ""  # a list of the data store by its name; "" = the format's default


@dataclass(frozen=True)
class LogEntry:
    id: int
    player_id: str
    player_name: str
    judge: str
    round: int | None
    duel: int | None
    kind: str
    codes: list[str]
    default_penalty: str
    penalty: str
    decision: str
    reason: str
    details: dict[str, Any]
    recorded_at: str


def _owner_only(path: Path) -> None:
    """Create the event's file readable by its owner only (it holds the server's secret and
    every player's details), and tighten one made before; SQLite gives its WAL and shared
    memory files the database file's permissions."""
    if str(path) in ("", ":memory:") or path.is_dir():
        return
    try:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
        for made in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if made.exists() and made.stat().st_mode & 0o077:
                os.chmod(made, 0o600)
    except OSError:
        return  # a file it cannot create or change: sqlite3 says why


class EventDB:
    """A thread-safe handle on one event's SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        _owner_only(path)
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(SCHEMA)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise InputError.at(str(path), f"not a deckcheck event database ({exc})",
                                code="STORE_DAMAGED") from exc

    def _migrate(self) -> None:
        """Columns and values added since a file was created."""
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(event)")}
        if "banlist" not in columns:
            self._conn.execute("ALTER TABLE event ADD COLUMN banlist TEXT NOT NULL DEFAULT ''")
        uploads = {row[1] for row in self._conn.execute("PRAGMA table_info(uploads)")}
        if "state" not in uploads:  # every upload of an older file is in effect
            create = SCHEMA.split("CREATE TABLE IF NOT EXISTS uploads", 1)[1].split(";")[0]
            self._conn.executescript(
                "BEGIN; ALTER TABLE uploads RENAME TO uploads_old; "
                f"CREATE TABLE uploads {create}; "
                "INSERT INTO uploads (id, kind, name, data, sha256, received_at, batch) "
                "SELECT id, kind, name, data, sha256, received_at, id FROM uploads_old; "
                "DROP TABLE uploads_old; COMMIT;")
        table = self._conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'penalty_log'").fetchone()[0]
        if "'decided'" not in table:  # a penalty the head judge chose where none is prescribed
            create = SCHEMA.split("CREATE TABLE IF NOT EXISTS penalty_log", 1)[1].split(";")[0]
            self._conn.executescript(
                "BEGIN; ALTER TABLE penalty_log RENAME TO penalty_log_old; "
                f"CREATE TABLE penalty_log {create}; "
                "INSERT INTO penalty_log SELECT * FROM penalty_log_old; "
                "DROP TABLE penalty_log_old; "
                "CREATE INDEX IF NOT EXISTS penalty_log_player ON penalty_log (player_id); "
                "COMMIT;")

    def close(self) -> None:
        self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All statements inside commit together, or none do."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            if pause := os.environ.get(FAULT_PAUSE):  # fault injection for crash tests
                time.sleep(float(pause))
            self._conn.execute("COMMIT")

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._conn.execute(sql, args))

    def secret(self) -> bytes:
        """A per-event random key (CSRF tokens, sessions), created once and kept."""
        rows = self._query("SELECT value FROM meta WHERE key = 'secret'")
        if rows:
            return bytes.fromhex(rows[0][0])
        with self.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO meta VALUES ('secret', ?)",
                         (secrets.token_hex(32),))
        return bytes.fromhex(self._query("SELECT value FROM meta WHERE key = 'secret'")[0][0])

    def meta(self, key: str) -> str | None:
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str | None) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            if value is not None:
                conn.execute("INSERT INTO meta VALUES (?, ?)", (key, value))

    def settings(self) -> EventSettings | None:
        rows = self._query("SELECT name, date, format, regulation, lang, banlist FROM event")
        if not rows:
            return None
        name, date, format_, regulation, lang, banlist = rows[0]
        return EventSettings(name, date, format_, regulation,
                             lang if lang in LANGS else "en", banlist)

    def save_settings(self, settings: EventSettings) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO event (id, name, date, format, regulation, lang, banlist) "
                "VALUES (1, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                "name=excluded.name, date=excluded.date, format=excluded.format, "
                "regulation=excluded.regulation, lang=excluded.lang, banlist=excluded.banlist",
                (settings.name, settings.date, settings.format, settings.regulation,
                 settings.lang, settings.banlist))

    def add_uploads(self, kind: str, files: list[tuple[str, bytes]],
                    replace: bool = False, state: str = "active",
                    reason: list[Problem] | None = None) -> int:
        """Store the files of one form (all of one kind) as one batch; see ``add_batch``."""
        return self.add_batch([(kind, name, data) for name, data in files], replace=replace,
                              state=state, reason=reason)

    def add_batch(self, files: list[tuple[str, str, bytes]], *, replace: bool = False,
                  state: str = "active", reason: list[Problem] | None = None) -> int:
        """Store the files of one form, each ``(kind, name, bytes)``, in one transaction,
        as one batch (its id returned); ``replace``: they set aside every earlier upload of
        their part (lists, or decks and links) while they are in effect."""
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        refused = json.dumps([_problem_json(p) for p in reason or []], ensure_ascii=False)
        with self.transaction() as conn:
            batch = int(conn.execute("SELECT coalesce(max(id), 0) + 1 FROM uploads")
                        .fetchone()[0])
            conn.executemany(
                "INSERT INTO uploads (id, kind, name, data, sha256, received_at, batch, state, "
                "replace_all, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(batch + n, kind, name, data, hashlib.sha256(data).hexdigest(), now, batch,
                  state, int(replace), refused)
                 for n, (kind, name, data) in enumerate(files)])
        return batch

    def submissions(self) -> list[Submission]:
        """Every upload (without its bytes), oldest first."""
        return [Submission(int(i), int(b), str(k), str(n), str(h), str(t), str(s), bool(r),
                           int(size), [_problem(p) for p in json.loads(why)])
                for i, b, k, n, h, t, s, r, size, why in self._query(
                    "SELECT id, batch, kind, name, sha256, received_at, state, replace_all, "
                    "length(data), reason FROM uploads ORDER BY id")]

    def upload_data(self, upload: int) -> bytes:
        rows = self._query("SELECT data FROM uploads WHERE id = ?", (upload,))
        return bytes(rows[0][0]) if rows else b""

    def set_upload_state(self, batch: int, state: str, *, only: str | None = None,
                         replace_all: bool | None = None) -> int:
        """Set the state of a batch's uploads (those in state ``only``, when given), in one
        transaction; how many changed."""
        sql = "UPDATE uploads SET state = ?"
        args: list[Any] = [state]
        if replace_all is not None:
            sql += ", replace_all = ?"
            args.append(int(replace_all))
        sql += " WHERE batch = ? AND state != 'refused'"
        args.append(batch)
        if only is not None:
            sql += " AND state = ?"
            args.append(only)
        with self.transaction() as conn:
            return int(conn.execute(sql, args).rowcount)

    def choose(self, player_id: str, part: Part, upload: int) -> None:
        """Restore an earlier version of a player's list or deck (until a newer upload)."""
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with self.transaction() as conn:
            newest = int(conn.execute("SELECT coalesce(max(id), 0) FROM uploads").fetchone()[0])
            conn.execute("INSERT OR REPLACE INTO choices VALUES (?, ?, ?, ?, ?)",
                         (player_id, part, upload, newest, now))

    def choices(self) -> list[Choice]:
        return [Choice(str(p), "list" if part == "list" else "deck", int(u), int(a))
                for p, part, u, a in self._query(
                    "SELECT player_id, part, upload, after FROM choices ORDER BY player_id")]

    def uploads(self, kind: str) -> list[tuple[str, bytes]]:
        """The files of one kind that are in effect, oldest first."""
        ids = [s.id for s in in_effect(self.submissions()) if s.kind == kind]
        return [(str(n), bytes(d)) for i, n, d in self._query(
            "SELECT id, name, data FROM uploads WHERE kind = ? ORDER BY id", (kind,))
            if i in ids]

    def version(self) -> str:
        """Changes whenever settings, uploads, restored versions, decisions or the custom
        policy change (for caching check results)."""
        rows = self._query("SELECT group_concat(id || sha256 || state || replace_all, ',') "
                           "FROM (SELECT * FROM uploads ORDER BY id)")
        chosen = self._query("SELECT group_concat(player_id || part || upload || after, ',') "
                             "FROM choices")
        decided = self._query("SELECT count(*), max(id) FROM decisions")
        policy = hashlib.sha256((self.meta("policy") or "").encode()).hexdigest()[:12]
        return f"{rows[0][0]}|{chosen[0][0]}|{self.settings()}|{decided[0]}|{policy}"

    def add_decision(self, *, player_id: str, place: str, card: str, qty: int | None,
                     section: str | None, decided_by: str, reason: str) -> None:
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with self.transaction() as conn:
            conn.execute("INSERT INTO decisions (player_id, place, card, qty, section, "
                         "decided_by, reason, decided_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (player_id, place, card, qty, section, decided_by, reason, now))

    def decisions(self, player_id: str | None = None) -> list[dict[str, Any]]:
        sql = ("SELECT player_id, place, card, qty, section, decided_by, reason, decided_at "
               "FROM decisions")
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE player_id = ?"
            args = (player_id,)
        keys = ("player_id", "where", "card", "qty", "section", "decided_by", "reason",
                "decided_at")
        return [dict(zip(keys, row, strict=True)) for row in self._query(sql + " ORDER BY id",
                                                                          args)]

    def open_session(self, sid: str, password: str, expires_at: float) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE expires_at < ?", (time.time(),))
            conn.execute("INSERT OR REPLACE INTO sessions VALUES (?, ?, ?)",
                         (sid, password, expires_at))

    def session(self, sid: str) -> tuple[str, float] | None:
        rows = self._query("SELECT password, expires_at FROM sessions WHERE sid = ?", (sid,))
        return (str(rows[0][0]), float(rows[0][1])) if rows else None

    def close_session(self, sid: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE sid = ?", (sid,))

    def record(self, *, player_id: str, player_name: str, judge: str, round: int | None,
               duel: int | None, kind: str, codes: list[str], default_penalty: str,
               penalty: str, decision: str, reason: str, details: dict[str, Any]) -> int:
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with self.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO penalty_log (player_id, player_name, judge, round, duel, kind, "
                "codes, default_penalty, penalty, decision, reason, details, recorded_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (player_id, player_name, judge, round, duel, kind, json.dumps(codes),
                 default_penalty, penalty, decision, reason,
                 json.dumps(details, ensure_ascii=False), now))
            return int(cursor.lastrowid or 0)

    def log(self, player_id: str | None = None) -> list[LogEntry]:
        sql = ("SELECT id, player_id, player_name, judge, round, duel, kind, codes, "
               "default_penalty, penalty, decision, reason, details, recorded_at "
               "FROM penalty_log")
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE player_id = ?"
            args = (player_id,)
        rows = self._query(sql + " ORDER BY id", args)
        return [LogEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), r[8],
                         r[9], r[10], r[11], json.loads(r[12]), r[13]) for r in rows]


def _problem_json(problem: Problem) -> dict[str, Any]:
    return {"file": problem.file, "line": problem.line, "column": problem.column,
            "message": problem.message, "code": problem.code}


def _problem(data: dict[str, Any]) -> Problem:
    return Problem(str(data["file"]), data["line"], data["column"], str(data["message"]),
                   code=str(data["code"]))
