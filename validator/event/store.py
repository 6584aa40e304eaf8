"""One event's durable store: a SQLite file (WAL, full sync, one transaction per change;
reads on a connection of their own, never behind a commit).

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
import zoneinfo
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from validator.errors import InputError, Problem
from validator.event.versions import Choice, Part, Submission, in_effect
from validator.vocab import LANGS, Lang

__all__ = ["FAULT_PAUSE", "PLAYER_KINDS", "STAFF_ROLES", "Change", "EventDB", "EventSettings",
           "Judge", "LogEntry", "SignIn", "StaffCode", "problem_of_record", "problem_record",
           "valid_timezone"]

T = TypeVar("T")

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
    recorded_at TEXT NOT NULL, table_no INTEGER);
CREATE INDEX IF NOT EXISTS penalty_log_player ON penalty_log (player_id);
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY,
    player_id TEXT NOT NULL, place TEXT NOT NULL, card TEXT NOT NULL, qty INTEGER,
    section TEXT, decided_by TEXT NOT NULL, reason TEXT NOT NULL, decided_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    sid TEXT PRIMARY KEY, password TEXT NOT NULL, expires_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY,
    target TEXT NOT NULL CHECK (target IN ('log', 'decision')), entry INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN ('void', 'correct')), replacement INTEGER,
    made_by TEXT NOT NULL, reason TEXT NOT NULL, made_at TEXT NOT NULL,
    form_key TEXT UNIQUE, UNIQUE (target, entry));
CREATE TABLE IF NOT EXISTS judges (
    sid TEXT PRIMARY KEY, name TEXT NOT NULL, head INTEGER NOT NULL DEFAULT 0,
    set_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS page_langs (
    sid TEXT PRIMARY KEY, lang TEXT NOT NULL, set_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS register_submissions (
    id INTEGER PRIMARY KEY,
    player_id TEXT NOT NULL, player_name TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('typed', 'ydke', 'code', 'ydk', 'pdf')),
    lang TEXT NOT NULL, submitted_at TEXT NOT NULL, rows TEXT NOT NULL, sha256 TEXT NOT NULL,
    late INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS register_submissions_player ON register_submissions (player_id);
CREATE TABLE IF NOT EXISTS register_access (
    player_id TEXT PRIMARY KEY, receipt TEXT, pin TEXT);
CREATE TABLE IF NOT EXISTS register_unlocks (
    id INTEGER PRIMARY KEY, player_id TEXT NOT NULL, reason TEXT NOT NULL,
    made_by TEXT NOT NULL, made_at TEXT NOT NULL, used_by INTEGER);
CREATE TABLE IF NOT EXISTS register_choices (
    player_id TEXT PRIMARY KEY, choice TEXT NOT NULL CHECK (choice IN ('page', 'upload')),
    made_by TEXT NOT NULL, made_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS staff (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('judge', 'head', 'organizer')),
    salt TEXT NOT NULL, hash TEXT NOT NULL, issued_by TEXT NOT NULL, issued_at TEXT NOT NULL,
    revoked_at TEXT);
CREATE TABLE IF NOT EXISTS staff_log (
    id INTEGER PRIMARY KEY, at TEXT NOT NULL, who TEXT NOT NULL, action TEXT NOT NULL,
    detail TEXT NOT NULL DEFAULT '');
"""

#: columns added to a table since the first files were written: (table, column, definition)
ADDED_COLUMNS = (
    ("event", "banlist", "TEXT NOT NULL DEFAULT ''"),
    ("event", "timezone", "TEXT NOT NULL DEFAULT 'UTC'"),
    ("penalty_log", "table_no", "INTEGER"),
    ("penalty_log", "form_key", "TEXT"),
    ("penalty_log", "player_kind", "TEXT NOT NULL DEFAULT 'player'"),
    ("penalty_log", "head_judge", "INTEGER NOT NULL DEFAULT 0"),
    ("decisions", "form_key", "TEXT"),
    ("decisions", "head_judge", "INTEGER NOT NULL DEFAULT 0"),
    ("sessions", "role", "TEXT NOT NULL DEFAULT 'organizer'"),
    ("sessions", "person", "TEXT NOT NULL DEFAULT ''"),
    ("sessions", "staff", "INTEGER"),
)
#: who a log entry is for: a player of the event, or someone the judge chose as such
PLAYER_KINDS = ("player", "walk-in", "spectator")
#: the roles of the event's staff: a judge, the head judge, the organizer (who can do all)
STAFF_ROLES = ("judge", "head", "organizer")


@dataclass(frozen=True)
class EventSettings:
    name: str
    date: str
    format: str
    regulation: str  # a shipped regulation, or "custom" (a policy file received)
    lang: Lang
    banlist: str = ""  # a list of the data store by its name; "" = the format's default
    timezone: str = "UTC"  # an IANA zone (Asia/Bangkok): the local time of the log


def valid_timezone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this machine knows (Europe/Paris, UTC)."""
    if not name or len(name) > 64 or name != name.strip():
        return False
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Change:
    """A void or a correction of a log entry or a decision: who, when, why, and (for a
    correction) the entry that replaces it. The original is kept as it was."""

    action: str  # "void" or "correct"
    replacement: int | None
    made_by: str
    reason: str
    made_at: str


@dataclass(frozen=True)
class Judge:
    """The judge using one device (a session): their name, and whether they are the head
    judge."""

    name: str
    head: bool


@dataclass(frozen=True)
class SignIn:
    """One signed-in session: the key of what it signed in with, when it ends, its role,
    the person's name ("" when the credential names nobody) and their staff code's id."""

    key: str
    expires_at: float
    role: str
    person: str = ""
    staff: int | None = None


@dataclass(frozen=True)
class StaffCode:
    """A sign-in code the organizer issued to one person: kept only as a salted hash."""

    id: int
    name: str
    role: str
    salt: str
    hash: str
    issued_by: str
    issued_at: str
    revoked_at: str | None


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
    table: int | None = None
    form_key: str | None = None
    player_kind: str = "player"
    head_judge: bool = False
    change: Change | None = None  # its void or correction, when it was voided or corrected
    replaces: int | None = None  # the entry this one corrects

    @property
    def in_effect(self) -> bool:
        """Neither voided nor corrected by a later entry."""
        return self.change is None


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


class _Work(Generic[T]):
    """One thread's part of a shared commit: what it runs and what became of it."""

    def __init__(self, work: Callable[[sqlite3.Connection], T]) -> None:
        self.work = work
        self.result: T | None = None
        self.error: Exception | None = None
        self.done = False


class EventDB:
    """A thread-safe handle on one event's SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._waiting: list[_Work[Any]] = []  # work for the next shared commit
        self._turn = threading.Condition()  # a thread commits them while the others wait
        self._committing = False
        self._commits = 0  # this handle's commits: with the file's data_version, a stamp
        self._held: dict[str, tuple[tuple[int, int], Any]] = {}  # reads kept until a commit
        _owner_only(path)
        try:
            self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            self._conn.executescript(SCHEMA)
            self._migrate()
            # reads on a connection of their own: in WAL they never wait for a commit's
            # sync to the disk (a judge's record), they see what was committed before it
            self._reads, self._read_lock = self._conn, self._lock
            if str(path) not in ("", ":memory:"):
                self._reads = sqlite3.connect(path, check_same_thread=False,
                                              isolation_level=None)
                self._read_lock = threading.Lock()
        except sqlite3.DatabaseError as exc:
            raise InputError.at(str(path), f"not a deckcheck event database ({exc})",
                                code="STORE_DAMAGED") from exc

    def _migrate(self) -> None:
        """Columns and values added since a file was created."""
        uploads = {row[1] for row in self._conn.execute("PRAGMA table_info(uploads)")}
        if "state" not in uploads:  # every upload of an older file is in effect
            create = SCHEMA.split("CREATE TABLE IF NOT EXISTS uploads", 1)[1].split(";")[0]
            self._conn.executescript(
                "BEGIN; ALTER TABLE uploads RENAME TO uploads_old; "
                f"CREATE TABLE uploads {create}; "
                "INSERT INTO uploads (id, kind, name, data, sha256, received_at, batch) "
                "SELECT id, kind, name, data, sha256, received_at, id FROM uploads_old; "
                "DROP TABLE uploads_old; COMMIT;")
        logged = {row[1] for row in self._conn.execute("PRAGMA table_info(penalty_log)")}
        if "table_no" not in logged:  # the player's table, beside the round
            self._conn.execute("ALTER TABLE penalty_log ADD COLUMN table_no INTEGER")
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
        for table_name, column, definition in ADDED_COLUMNS:
            have = {row[1] for row in self._conn.execute(f"PRAGMA table_info({table_name})")}
            if column not in have:
                self._conn.execute(f"ALTER TABLE {table_name} ADD COLUMN {column} {definition}")
        # a form's one-time key records once, however often the form is sent
        self._conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS penalty_log_key ON penalty_log "
                           "(form_key) WHERE form_key IS NOT NULL")
        self._conn.execute("CREATE UNIQUE INDEX IF NOT EXISTS decisions_key ON decisions "
                           "(form_key) WHERE form_key IS NOT NULL")

    def close(self) -> None:
        if self._reads is not self._conn:
            self._reads.close()
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
            self._commits += 1

    def together(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` committed with the work other threads hand in meanwhile: one
        transaction and one sync to the disk for all of them (a group commit), each in a
        savepoint of its own, so work that raises is undone alone and raises to its caller.
        Returns once its work is on the disk. ``work`` must not open a transaction."""
        mine = _Work(work)
        with self._turn:
            self._waiting.append(mine)
            while self._committing and not mine.done:
                self._turn.wait()
            leads = not mine.done  # then this thread commits every work waiting by now
            if leads:
                self._committing = True
                batch, self._waiting = self._waiting, []
        if leads:
            try:
                with self._lock:
                    self._commit_all(batch)
            finally:
                with self._turn:
                    self._committing = False
                    self._turn.notify_all()
        if mine.error is not None:
            raise mine.error
        return cast(T, mine.result)

    def _commit_all(self, batch: list[_Work[Any]]) -> None:
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            for item in batch:
                conn.execute("SAVEPOINT work")
                try:
                    item.result = item.work(conn)
                except Exception as exc:  # noqa: BLE001 - raised again in its own thread
                    conn.execute("ROLLBACK TO work")
                    item.error = exc
                conn.execute("RELEASE work")
            if pause := os.environ.get(FAULT_PAUSE):  # fault injection for crash tests
                time.sleep(float(pause))
            conn.execute("COMMIT")
            self._commits += 1
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            for item in batch:
                item.result, item.error = None, exc if isinstance(exc, Exception) else \
                    RuntimeError("the commit was interrupted")
            if not isinstance(exc, Exception):
                raise
        finally:
            for item in batch:
                item.done = True

    def _stamp(self) -> tuple[int, int]:
        """Changes with every commit to the file, by this handle or any other connection."""
        with self._read_lock:
            return int(self._reads.execute("PRAGMA data_version").fetchone()[0]), \
                self._commits

    def _kept(self, name: str, read: Callable[[], T]) -> T:
        """``read()``, made again only after a commit (pages ask for the settings and the
        version on every request)."""
        stamp = self._stamp()  # before reading: a commit meanwhile makes the next call read
        held = self._held.get(name)
        if held is not None and held[0] == stamp:
            return cast(T, held[1])
        value = read()
        self._held[name] = (stamp, value)
        return value

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._read_lock:
            return list(self._reads.execute(sql, args))

    def select(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query (for the modules that keep tables of their own here)."""
        return self._query(sql, args)

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
        return self._kept("settings", self._settings)

    def _settings(self) -> EventSettings | None:
        rows = self._query("SELECT name, date, format, regulation, lang, banlist, timezone "
                           "FROM event")
        if not rows:
            return None
        name, date, format_, regulation, lang, banlist, zone = rows[0]
        return EventSettings(name, date, format_, regulation,
                             lang if lang in LANGS else "en", banlist,
                             zone if valid_timezone(zone) else "UTC")

    def save_settings(self, settings: EventSettings) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO event (id, name, date, format, regulation, lang, banlist, "
                "timezone) VALUES (1, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                "name=excluded.name, date=excluded.date, format=excluded.format, "
                "regulation=excluded.regulation, lang=excluded.lang, banlist=excluded.banlist, "
                "timezone=excluded.timezone",
                (settings.name, settings.date, settings.format, settings.regulation,
                 settings.lang, settings.banlist, settings.timezone))

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
        refused = json.dumps([problem_record(p) for p in reason or []], ensure_ascii=False)
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
                           int(size), [problem_of_record(p) for p in json.loads(why)])
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
        return self._kept("version", self._version)

    def _version(self) -> str:
        rows = self._query("SELECT group_concat(id || sha256 || state || replace_all, ',') "
                           "FROM (SELECT id, sha256, state, replace_all FROM uploads "
                           "ORDER BY id)")
        chosen = self._query("SELECT group_concat(player_id || part || upload || after, ',') "
                             "FROM choices")
        decided = self._query("SELECT count(*), max(id), (SELECT count(*) FROM changes "
                              "WHERE target = 'decision') FROM decisions")
        policy = hashlib.sha256((self.meta("policy") or "").encode()).hexdigest()[:12]
        registered = self._query(  # the lists players submitted on the registration page
            "SELECT max(id), (SELECT group_concat(player_id || choice, ',') FROM "
            "register_choices) FROM register_submissions")
        return (f"{rows[0][0]}|{chosen[0][0]}|{self.settings()}|{decided[0]}|{policy}"
                f"|{registered[0]}")

    def add_decision(self, *, player_id: str, place: str, card: str, qty: int | None,
                     section: str | None, decided_by: str, reason: str,
                     form_key: str | None = None, head_judge: bool = False,
                     replaces: int | None = None) -> tuple[int, bool]:
        """Record a decision once per ``form_key``: its id, and whether it is new (False:
        the form was sent before, the decision it made is returned). ``replaces``: the
        decision this one corrects (kept, marked as corrected)."""
        now = _now()
        with self.transaction() as conn:
            if form_key is not None:
                found = conn.execute("SELECT id FROM decisions WHERE form_key = ?",
                                     (form_key,)).fetchone()
                if found is not None:
                    return int(found[0]), False
            cursor = conn.execute(
                "INSERT INTO decisions (player_id, place, card, qty, section, decided_by, "
                "reason, decided_at, form_key, head_judge) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (player_id, place, card, qty, section, decided_by, reason, now, form_key,
                 int(head_judge)))
            made = int(cursor.lastrowid or 0)
            if replaces is not None:
                _change(conn, "decision", replaces, "correct", made, decided_by, reason, now)
        return made, True

    def decisions(self, player_id: str | None = None, *,
                  every: bool = False) -> list[dict[str, Any]]:
        """The decisions in effect (``every``: voided and corrected ones too, each with its
        ``change``), oldest first."""
        sql = ("SELECT id, player_id, place, card, qty, section, decided_by, reason, "
               "decided_at, head_judge FROM decisions")
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE player_id = ?"
            args = (player_id,)
        keys = ("id", "player_id", "where", "card", "qty", "section", "decided_by", "reason",
                "decided_at", "head_judge")
        changes = self._changes("decision")
        out = []
        for row in self._query(sql + " ORDER BY id", args):
            found = dict(zip(keys, row, strict=True))
            found["head_judge"] = bool(found["head_judge"])
            found["change"] = changes.get(int(found["id"]))
            if every or found["change"] is None:
                out.append(found)
        return out

    def change(self, target: str, entry: int, action: str, *, made_by: str, reason: str,
               form_key: str | None = None) -> bool:
        """Void a log entry or a decision (kept, marked as voided, with who and why);
        False when it was voided or corrected already (or this form was sent before)."""
        with self.transaction() as conn:
            if form_key is not None and conn.execute(
                    "SELECT 1 FROM changes WHERE form_key = ?", (form_key,)).fetchone():
                return False
            if conn.execute("SELECT 1 FROM changes WHERE target = ? AND entry = ?",
                            (target, entry)).fetchone():
                return False
            _change(conn, target, entry, action, None, made_by, reason, _now(), form_key)
        return True

    def _changes(self, target: str) -> dict[int, Change]:
        return {int(entry): Change(str(action), replacement, str(by), str(why), str(at))
                for entry, action, replacement, by, why, at in self._query(
                    "SELECT entry, action, replacement, made_by, reason, made_at FROM changes "
                    "WHERE target = ?", (target,))}

    def set_judge(self, sid: str, name: str, head: bool) -> None:
        """The judge using the device of session ``sid``."""
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO judges VALUES (?, ?, ?, ?)",
                         (sid, name, int(head), _now()))

    def judge(self, sid: str) -> Judge | None:
        rows = self._query("SELECT name, head FROM judges WHERE sid = ?", (sid,))
        return Judge(str(rows[0][0]), bool(rows[0][1])) if rows else None

    def set_page_lang(self, sid: str, lang: Lang) -> None:
        """The language the device of session ``sid`` reads pages in (records stay in the
        event's language)."""
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO page_langs VALUES (?, ?, ?)",
                         (sid, lang, _now()))

    def page_lang(self, sid: str) -> Lang | None:
        """The language chosen on the device of session ``sid``, None when none was."""
        rows = self._query("SELECT lang FROM page_langs WHERE sid = ?", (sid,))
        return next((code for code in LANGS if rows and code == rows[0][0]), None)

    def open_session(self, sid: str, password: str, expires_at: float, *,
                     role: str = "organizer", person: str = "",
                     staff: int | None = None) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE expires_at < ?", (time.time(),))
            conn.execute("INSERT OR REPLACE INTO sessions (sid, password, expires_at, role, "
                         "person, staff) VALUES (?, ?, ?, ?, ?, ?)",
                         (sid, password, expires_at, role, person, staff))

    def session(self, sid: str) -> SignIn | None:
        """The sign-in of session ``sid``; None when there is none, or its staff code was
        revoked."""
        rows = self._query(
            "SELECT s.password, s.expires_at, s.role, s.person, s.staff FROM sessions s "
            "LEFT JOIN staff c ON c.id = s.staff WHERE s.sid = ? AND "
            "(s.staff IS NULL OR (c.id IS NOT NULL AND c.revoked_at IS NULL))", (sid,))
        if not rows:
            return None
        key, expires, role, person, staff = rows[0]
        return SignIn(str(key), float(expires), str(role), str(person),
                      None if staff is None else int(staff))

    def add_staff(self, *, name: str, role: str, salt: str, hash: str, issued_by: str) -> int:
        """Keep a new staff code (its salted hash only); its id. The staff log says so."""
        now = _now()
        with self.transaction() as conn:
            made = int(conn.execute(
                "INSERT INTO staff (name, role, salt, hash, issued_by, issued_at) "
                "VALUES (?, ?, ?, ?, ?, ?)", (name, role, salt, hash, issued_by, now))
                .lastrowid or 0)
            conn.execute("INSERT INTO staff_log (at, who, action, detail) VALUES (?, ?, ?, ?)",
                         (now, issued_by, "issued", f"#{made} {name} ({role})"))
        return made

    def staff(self) -> list[StaffCode]:
        """Every staff code issued, revoked ones too, oldest first."""
        return [StaffCode(int(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]),
                          str(r[6]), None if r[7] is None else str(r[7]))
                for r in self._query("SELECT id, name, role, salt, hash, issued_by, "
                                     "issued_at, revoked_at FROM staff ORDER BY id")]

    def revoke_staff(self, code: int, by: str) -> bool:
        """Revoke a staff code and end its sessions at once; False when it was revoked
        already or never issued."""
        now = _now()
        with self.transaction() as conn:
            found = conn.execute("SELECT name, role FROM staff WHERE id = ? AND revoked_at IS "
                                 "NULL", (code,)).fetchone()
            if found is None:
                return False
            conn.execute("UPDATE staff SET revoked_at = ? WHERE id = ?", (now, code))
            conn.execute("DELETE FROM sessions WHERE staff = ?", (code,))
            conn.execute("INSERT INTO staff_log (at, who, action, detail) VALUES (?, ?, ?, ?)",
                         (now, by, "revoked", f"#{code} {found[0]} ({found[1]})"))
        return True

    def log_staff(self, who: str, action: str, detail: str = "") -> None:
        """One line of the staff log (a sign-in, a code issued or revoked)."""
        with self.transaction() as conn:
            conn.execute("INSERT INTO staff_log (at, who, action, detail) VALUES (?, ?, ?, ?)",
                         (_now(), who, action, detail))

    def staff_log(self, last: int = 500) -> list[dict[str, str]]:
        """The latest lines of the staff log, newest first."""
        return [{"at": str(at), "who": str(who), "action": str(action), "detail": str(d)}
                for at, who, action, d in self._query(
                    "SELECT at, who, action, detail FROM staff_log ORDER BY id DESC LIMIT ?",
                    (last,))]

    def close_session(self, sid: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE sid = ?", (sid,))

    def record(self, *, player_id: str, player_name: str, judge: str, round: int | None,
               duel: int | None, kind: str, codes: list[str], default_penalty: str,
               penalty: str, decision: str, reason: str, details: dict[str, Any],
               table: int | None = None, form_key: str | None = None,
               player_kind: str = "player", head_judge: bool = False,
               replaces: int | None = None) -> int:
        """Record an entry; its id. See ``record_once``."""
        return self.record_once(
            player_id=player_id, player_name=player_name, judge=judge, round=round, duel=duel,
            kind=kind, codes=codes, default_penalty=default_penalty, penalty=penalty,
            decision=decision, reason=reason, details=details, table=table,
            form_key=form_key, player_kind=player_kind, head_judge=head_judge,
            replaces=replaces)[0]

    def record_once(self, *, player_id: str, player_name: str, judge: str, round: int | None,
                    duel: int | None, kind: str, codes: list[str], default_penalty: str,
                    penalty: str, decision: str, reason: str, details: dict[str, Any],
                    table: int | None = None, form_key: str | None = None,
                    player_kind: str = "player", head_judge: bool = False,
                    replaces: int | None = None) -> tuple[int, bool]:
        """Record an entry once per ``form_key``: its id and whether it is new (False: the
        form was sent before; the entry it made is returned). ``replaces``: the entry this
        one corrects, kept and marked as corrected (by this entry's judge, for its reason)."""
        now = _now()

        def record(conn: sqlite3.Connection) -> tuple[int, bool]:
            if form_key is not None:
                found = conn.execute("SELECT id FROM penalty_log WHERE form_key = ?",
                                     (form_key,)).fetchone()
                if found is not None:
                    return int(found[0]), False
            if replaces is not None and conn.execute(
                    "SELECT 1 FROM changes WHERE target = 'log' AND entry = ?",
                    (replaces,)).fetchone():
                raise InputError.at("log", f"entry #{replaces} was already voided or "
                                    "corrected: correct the entry now in effect",
                                    code="BAD_OPTION")
            cursor = conn.execute(
                "INSERT INTO penalty_log (player_id, player_name, judge, round, duel, kind, "
                "codes, default_penalty, penalty, decision, reason, details, recorded_at, "
                "table_no, form_key, player_kind, head_judge) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (player_id, player_name, judge, round, duel, kind, json.dumps(codes),
                 default_penalty, penalty, decision, reason,
                 json.dumps(details, ensure_ascii=False), now, table, form_key, player_kind,
                 int(head_judge)))
            made = int(cursor.lastrowid or 0)
            if replaces is not None:
                _change(conn, "log", replaces, "correct", made, judge, reason, now)
            return made, True

        return self.together(record)

    def log(self, player_id: str | None = None, *, round: int | None = None,
            in_round: bool = False) -> list[LogEntry]:
        """Every entry (of a player; ``in_round``: of that ``round`` only, None = no round
        given), voided and corrected ones too (each with its ``change``), oldest first."""
        sql = ("SELECT id, player_id, player_name, judge, round, duel, kind, codes, "
               "default_penalty, penalty, decision, reason, details, recorded_at, table_no, "
               "form_key, player_kind, head_judge FROM penalty_log")
        args: tuple[Any, ...] = ()
        if player_id is not None:
            sql += " WHERE player_id = ?"
            args = (player_id,)
            if in_round:
                sql += " AND round IS ?"
                args = (player_id, round)
        rows = self._query(sql + " ORDER BY id", args)
        changes = self._changes("log") if rows else {}
        replaced = {c.replacement: entry for entry, c in changes.items()
                    if c.replacement is not None}
        return [LogEntry(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), r[8],
                         r[9], r[10], r[11], json.loads(r[12]), r[13], r[14], r[15], r[16],
                         bool(r[17]), changes.get(r[0]), replaced.get(r[0])) for r in rows]

    def entry(self, entry_id: int) -> LogEntry | None:
        return next((e for e in self.log() if e.id == entry_id), None)

    def keyed(self, form_key: str) -> int | None:
        """The entry a form with this one-time key made, if it was sent before."""
        rows = self._query("SELECT id FROM penalty_log WHERE form_key = ?", (form_key,))
        return int(rows[0][0]) if rows else None


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _change(conn: sqlite3.Connection, target: str, entry: int, action: str,
            replacement: int | None, made_by: str, reason: str, when: str,
            form_key: str | None = None) -> None:
    conn.execute("INSERT INTO changes (target, entry, action, replacement, made_by, reason, "
                 "made_at, form_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (target, entry, action, replacement, made_by, reason, when, form_key))


def problem_record(problem: Problem) -> dict[str, Any]:
    """A problem as JSON to store (with its catalog entry, when it names one)."""
    said = {"msgid": problem.msgid, "values": dict(problem.values)} if problem.msgid else {}
    return {"file": problem.file, "line": problem.line, "column": problem.column,
            "message": problem.message, "code": problem.code, **said}


def problem_of_record(data: dict[str, Any]) -> Problem:
    """A problem read back from :func:`problem_record`'s JSON."""
    msgid = data.get("msgid")
    return Problem(str(data["file"]), data["line"], data["column"], str(data["message"]),
                   code=str(data["code"]), msgid=str(msgid) if msgid else None,
                   values=tuple((str(k), str(v)) for k, v in dict(data.get("values") or {})
                                .items()))
