"""The event behind the web app: its settings, what was uploaded, and the latest check.

Event checks run in the background, one at a time. A page never waits for one: it shows the
latest finished check and says when a newer one is running ("checking…"). An upload asks
for a check and waits for it (its own request only). A judge's deck check uses the latest
finished check's lists and runs beside the event check, never behind it.

Where: ``checks="process"`` (what ``deckcheck serve`` uses) runs them in a worker process at
a lower CPU priority, with its own interpreter and polars threads, so that a judge's check
is served first even while a 7,000-player event is checked again; the worker reads the
uploads from the event's database itself and sends the result back. ``checks="thread"``
runs them in a thread of the server's process (tests: no process to start).

The pages and downloads write a finished check's judgement (``report.model``), made once
per check under the event's policy and language.

Each upload is read on its own, within a time and a memory limit (``event.bounded``: a file
that hits one is remembered in the database by its content hash and not read again), and
kept read by its content hash. Each player's list and deck is the version
``event.versions`` chooses: a corrected deck for one player replaces only that player's.
"""

from __future__ import annotations

import datetime as dt
import multiprocessing
import os
import pickle
import threading
import time
import tomllib
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

import polars as pl

from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.cards.load import Setup, load
from validator.cards.store import MANIFEST, data_dir
from validator.engine.check import ListedDecks, ListedFew
from validator.engine.resolve import Readings, keep_readings, prepare, readings, resolve
from validator.engine.tables import CardTable, card_attributes
from validator.errors import InputError, Problem, is_failure
from validator.event import submissions
from validator.event.bounded import (
    Job,
    Limits,
    Read,
    Reader,
    ReadFn,
    limit_problem,
    limit_record,
    pack,
    read_upload,
    still_hit,
    unread,
)
from validator.event.run import EventResult, check_event
from validator.event.store import EventDB, EventSettings
from validator.event.versions import (
    Submission,
    Versions,
    assemble,
    in_effect,
)
from validator.inputs.decks.batch import DeckFiles
from validator.inputs.registrations.read import Registrations
from validator.judging.decisions import Decision
from validator.judging.judge import ListLine, grouped_lines, lines_of
from validator.judging.penalties import Policy, load_policy, policy_from_toml
from validator.report.model import Report, judged_event
from validator.text.i18n import LANGS, catalog
from validator.vocab import REGULATIONS, Lang, Regulation

__all__ = ["CUSTOM_POLICY", "EventState", "PlayerRows", "RowsBy", "Snapshot", "safe_name"]

#: the regulation setting that means "the policy file the organizer uploaded"
CUSTOM_POLICY = "custom"


def safe_name(name: str) -> str:
    """An upload's file name reduced to its last part, for display and type checks only."""
    base = PurePosixPath(name.replace("\\", "/")).name
    return base[:120] or "upload"


#: the most upload bytes sent to the reading process at once
BATCH_BYTES = 64 << 20


def _limit_key(upload: Submission) -> str:
    """Where the database remembers that reading this upload's content hit a limit."""
    return f"read-limit:{upload.kind}:{upload.sha256}"


@dataclass(frozen=True)
class Snapshot:
    """The latest finished event check (None before the first upload) and whether a newer
    one is under way."""

    result: EventResult | None
    errors: list[Problem]
    checking: bool
    versions: Versions = field(default_factory=Versions)  # each player's lists and decks
    finished: int = 0  # how many checks have finished (a page sees a newer one by it)


class RowsBy:
    """A table's rows of each value of one column, found by slice, not by a filter of the
    whole table (a player's page at 7,000 players reads 40 rows of 300,000): the rows of a
    value in their order in the table, as ``filter`` gives them."""

    def __init__(self, frame: pl.DataFrame, column: str) -> None:
        keys = frame.get_column(column).cast(pl.Utf8)
        runs = keys.rle()
        if runs.len() != keys.n_unique():  # a value's rows apart: sorted once, stably
            frame = frame.sort(pl.col(column).cast(pl.Utf8), maintain_order=True,
                               nulls_last=True)
            runs = frame.get_column(column).cast(pl.Utf8).rle()
        self.frame = frame
        self._spans: dict[str | None, tuple[int, int]] = {}
        start = 0
        for length, value in zip(runs.struct.field("len").to_list(),
                                 runs.struct.field("value").to_list(), strict=True):
            self._spans[value] = (start, length)
            start += length

    def of(self, value: str) -> pl.DataFrame:
        """The rows whose column is ``value`` (none: an empty table of the same columns)."""
        start, length = self._spans.get(value, (0, 0))
        return self.frame.slice(start, length)


@dataclass
class PlayerRows:
    """A finished check's tables by player, made once per check: each player's registered
    entries, submitted deck and problems, and the violations of its judgement."""

    result: EventResult
    entries: RowsBy
    submitted: RowsBy | None
    problems: dict[str, list[Problem]]
    _by_report: dict[str, tuple[Report, RowsBy]] = field(default_factory=dict)
    _players: RowsBy | None = None
    # every list's and deck's lines, made at once for the setup they were resolved with
    _lines: tuple[Setup, RowsBy, RowsBy | None] | None = None
    # every registered list as a judge's check of its player's deck takes it, made at once
    # for the card table they were made with
    _listed: ListedDecks | None = None
    _making: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def of(cls, result: EventResult) -> PlayerRows:
        problems: dict[str, list[Problem]] = {}
        for problem in result.problems:
            if problem.deck_id is not None:
                problems.setdefault(problem.deck_id, []).append(problem)
        return cls(result, RowsBy(result.entries, "deck_id"),
                   None if result.submitted is None else RowsBy(result.submitted, "deck_id"),
                   problems)

    def problems_of(self, player_id: str) -> list[Problem]:
        """The check's problems of the player's rows, in their order."""
        return self.problems.get(player_id, [])

    def player_of(self, player_id: str) -> pl.DataFrame:
        """The player's row of the check's player table."""
        if self._players is None:
            self._players = RowsBy(self.result.players, "player_id")
        return self._players.of(player_id)

    def item_of(self, report: Report, player_id: str) -> pl.DataFrame:
        """The player's row of the judgement's player table (``report``: of this check)."""
        return self._of_report(report, "items", lambda: report.items).of(player_id)

    def violations_of(self, report: Report, player_id: str) -> pl.DataFrame:
        """The player's rows of the judgement's violations (``report``: of this check)."""
        return self._of_report(report, "violations", lambda: report.violations).of(player_id)

    def deck_violations_of(self, report: Report, player_id: str) -> pl.DataFrame:
        """The player's rows of the judgement's violations of the deck they submitted."""
        return self._of_report(report, "deck violations", lambda: report.violations.filter(
            pl.col("on") == "deck")).of(player_id)

    def has_lines(self, setup: Setup) -> bool:
        """Whether the lines of every list and deck are made for ``setup``."""
        held = self._lines
        return held is not None and held[0] is setup

    def lines_by_player(self, setup: Setup) -> tuple[RowsBy, RowsBy | None]:
        """Every registered list's and submitted deck's lines (``grouped_lines``), made once
        for each setup: a page reads a player's lines by slice, not by resolving them."""
        held = self._lines
        if held is None or held[0] is not setup:
            with self._making:
                held = self._lines
                if held is None or held[0] is not setup:
                    submitted = self.result.submitted
                    held = self._lines = (
                        setup, RowsBy(grouped_lines(self.result.entries, setup.cards,
                                                    setup.fmt), "deck_id"),
                        None if submitted is None else RowsBy(
                            grouped_lines(submitted, setup.cards, setup.fmt), "deck_id"))
        return held[1], held[2]

    def listed_lines(self, player_id: str, setup: Setup) -> list[ListLine]:
        """The player's registered list as lines (``registered_lines``), the rows that could
        not be read last."""
        listed, _ = self.lines_by_player(setup)
        return lines_of(listed.of(player_id), setup.cards, setup.fmt,
                        self.problems_of(player_id))

    def deck_lines(self, player_id: str, setup: Setup) -> list[ListLine] | None:
        """The player's submitted deck as lines; None when decks were not collected or the
        player's was not submitted (or could not be read)."""
        _, found = self.lines_by_player(setup)
        if found is None:
            return None
        mine = found.of(player_id)
        if mine.is_empty() and player_id in self.result.players_without_deck:
            return None
        return lines_of(mine, setup.cards, setup.fmt)

    def listed_decks(self, table: CardTable) -> ListedDecks:
        """Every registered list as a check of its player's deck takes it (``ListedDecks``),
        made once for each card table."""
        held = self._listed
        if held is None or held.table is not table:
            with self._making:
                held = self._listed
                if held is None or held.table is not table:
                    held = self._listed = ListedDecks(self.result.entries, table)
        return held

    def made_list(self, player_id: str, table: CardTable) -> ListedFew | None:
        """The player's list as made already for ``table`` by :meth:`listed_decks` (None:
        not made yet; a judge's check does not wait for it)."""
        held = self._listed
        if held is None or held.table is not table:
            return None
        return held.of(player_id)

    def unresolved_of(self, report: Report, player_id: str) -> pl.DataFrame:
        """The entries of the player's list that name no single card (``report``: of this
        check)."""
        return self._of_report(report, "unresolved", lambda: report.unresolved,
                               "deck_id").of(player_id)

    def _of_report(self, report: Report, name: str, table: Callable[[], pl.DataFrame],
                   column: str = "player_id") -> RowsBy:
        """A table of the judgement by player, made once per judgement."""
        held = self._by_report.get(name)
        if held is None or held[0] is not report:
            held = self._by_report[name] = (report, RowsBy(table(), column))
        return held[1]


#: how much lower the checking process runs than the server (``os.nice`` increment)
WORKER_NICENESS = 10
_worker: EventState | None = None  # in the checking process: its own view of the event


def _start_worker(db_path: Path, cards: CardDB, data_dir: Path | None, server: int,
                  limits: Limits) -> None:
    """In the checking process: below the server's priority, and gone with the server (even
    one killed without a shutdown)."""
    global _worker
    os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()
    _worker = EventState(EventDB(db_path), cards, data_dir, checks="thread", limits=limits)
    _worker.prepare()


Checked = tuple[EventResult | None, list[Problem], Versions]


def _sent(checked: Checked) -> Checked:
    """A check made ready to send: the lists as checked sent once when the head judge's
    decisions changed nothing in them."""
    result = checked[0]
    if result is not None and result.registered is not None \
            and result.registered is not result.registrations.entries \
            and result.registered.equals(result.registrations.entries):
        result.registered = result.registrations.entries
    return checked


def _check_in_worker() -> bytes:
    """In the checking process: the event checked, and the readings of its names (the
    server keeps them: its pages do not read the same names again)."""
    if _worker is None:
        raise RuntimeError("the checking process was not started")
    checked = _sent(_worker.check_all())
    made = None
    if checked[0] is not None:
        setup = _worker.setup()
        made = (_worker.setup_key(), readings(setup.cards, setup.fmt))
    return pack((checked, made))


@dataclass
class EventState:
    db: EventDB
    cards: CardDB
    data_dir: Path | None = None
    checks: Literal["process", "thread"] = "thread"
    limits: Limits = field(default_factory=Limits)  # what reading one upload may take
    read_one: ReadFn = read_upload  # what reads one upload (in the reading process)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _latest: tuple[str, Checked] | None = None
    _running: tuple[str, Future[None]] | None = None
    _next: Future[None] | None = None  # asked for while another check ran
    _finished: int = 0
    _pool: ProcessPoolExecutor | None = None
    # the setup and policy of the settings they were loaded for: pages and judge checks ask
    # for them on every request; a change of settings, policy file or data store reloads
    _setup: tuple[tuple[object, ...], Setup] | None = None
    _table: CardTable | None = None  # the card table of the last setup checked
    _policy: tuple[tuple[object, ...], Policy] | None = None
    # the judgement of the latest check asked for, and what it was judged from
    _report: tuple[EventResult, Policy, Lang, Report] | None = None
    _rows: PlayerRows | None = None  # the tables of the latest check asked for, by player
    _loading: threading.RLock = field(default_factory=threading.RLock)  # setup, card table
    # the readings of names the checking process made, with the setup they were made for
    _made: tuple[tuple[object, ...], Readings] | None = None
    # each upload as read, by its content: a check reads only what is new
    _read: dict[tuple[str, str, str], Read] = field(default_factory=dict)
    _reader: Reader | None = None  # the process uploads are read in, one batch at a time
    _reading: threading.Lock = field(default_factory=threading.Lock)

    def settings(self) -> EventSettings:
        return self.db.settings() or EventSettings("New event", dt.date.today().isoformat(),
                                                   "advanced-tcg", "th", "en")

    def setup_key(self) -> tuple[object, ...]:
        """What the setup is loaded from: the event's format, list and date, and the data
        store's version."""
        settings = self.settings()
        manifest = data_dir(self.data_dir) / MANIFEST
        return (settings.format, settings.banlist, settings.date,
                manifest.stat().st_mtime_ns if manifest.exists() else None)

    def setup(self) -> Setup:
        key = self.setup_key()
        cached = self._setup
        if cached is not None and cached[0] == key:
            return cached[1]
        with self._loading:  # loaded once, however many ask at once
            cached = self._setup
            if cached is not None and cached[0] == key:
                return cached[1]
            settings = self.settings()
            loaded = load(load_format(settings.format), self.cards, settings.banlist or None,
                          folder=self.data_dir, date=settings.date or None)
            self._setup = (key, loaded)
        return loaded

    def card_table(self, setup: Setup) -> CardTable:
        """The card attribute table of ``setup``, made once (a judge checks deck after deck
        against the same card data, list and format)."""
        held = self._table
        if held is None or not held.is_for(setup.cards, setup.banlist, setup.fmt):
            with self._loading:
                held = self._table
                if held is None or not held.is_for(setup.cards, setup.banlist, setup.fmt):
                    held = card_attributes(setup.cards, setup.banlist, setup.fmt)
                    self._table = held
        return held

    def prepare(self) -> None:
        """Start, in the background, what the first check needs: the reading process, the
        setup, its card table, the resolver's names and the message catalogs (a check asking
        for one meanwhile waits for it rather than making it again)."""
        def reader() -> None:
            with self._reading:
                if self._reader is None:
                    self._reader = Reader(self.limits, self.read_one)
                self._reader.start()

        def cards() -> None:
            with self._loading:
                setup = self.setup()
                self.card_table(setup)
                prepare(setup.cards, setup.fmt)
            for lang in LANGS:  # the violations' messages are written in every language
                catalog(lang)

        for work in (reader, cards):
            threading.Thread(target=self._quietly, args=(work,), name="prepare",
                             daemon=True).start()

    @staticmethod
    def _quietly(work: Any) -> None:
        try:
            work()
        except Exception:  # noqa: BLE001 - the check makes it itself then, and says why
            traceback.print_exc()

    def policy(self) -> Policy:
        settings = self.settings()
        custom = settings.regulation == CUSTOM_POLICY
        key = (settings.regulation, *((self.db.meta("policy"), self.db.meta("policy_name"))
                                      if custom else ()))
        cached = self._policy
        if cached is not None and cached[0] == key:
            return cached[1]
        if custom:
            text, name = key[1], key[2]
            if not isinstance(text, str):
                raise InputError.at("regulation", "no policy file was uploaded", code="NOT_READY")
            loaded = policy_from_toml(tomllib.loads(text), str(name or "policy"))
        else:
            loaded = load_policy(settings.regulation)
        self._policy = (key, loaded)
        return loaded

    def report(self, result: EventResult) -> Report:
        """A finished check's judgement under the event's policy and language (made once
        for each check, policy and language; the pages and downloads all write it)."""
        policy, lang = self.policy(), self.settings().lang
        cached = self._report
        if cached is not None and cached[0] is result and cached[1] is policy \
                and cached[2] == lang:
            return cached[3]
        judged = judged_event(result, policy, "pre-event", lang)
        self._report = (result, policy, lang, judged)
        return judged

    def rows(self, result: EventResult) -> PlayerRows:
        """The tables of a finished check by player (made once for each check)."""
        held = self._rows
        if held is None or held.result is not result:
            held = PlayerRows.of(result)
            self._rows = held
        return held

    def page_rows(self, result: EventResult) -> PlayerRows:
        """The tables of a finished check by player, with every list's and deck's lines
        for the current setup."""
        rows = self.rows(result)
        rows.lines_by_player(self.setup())
        return rows

    def made_rows(self, result: EventResult) -> PlayerRows | None:
        """:meth:`page_rows` when they are made already (a page takes them without waiting
        for a thread), else None."""
        held = self._rows
        setup = self._setup
        if held is None or held.result is not result or setup is None \
                or setup[0] != self.setup_key() or not held.has_lines(setup[1]):
            return None
        return held

    def made_report(self, result: EventResult) -> Report | None:
        """:meth:`report` when it is made already, else None."""
        cached = self._report
        if cached is None or cached[0] is not result:
            return None
        if cached[1] is not self.policy() or cached[2] != self.settings().lang:
            return None
        return cached[3]

    def infractions(self) -> Regulation:
        """The regulation whose infraction catalogue the penalty log offers: the event's, or
        th's under a custom policy (a policy file holds deck rules, not a catalogue)."""
        regulation = self.settings().regulation
        return next((r for r in REGULATIONS if r == regulation), "th")

    def decisions(self) -> list[Decision]:
        return [Decision(d["player_id"], d["where"], d["card"], d["decided_by"], d["reason"],
                         d["qty"], d["section"]) for d in self.db.decisions()]

    def read_upload(self, upload: Submission) -> Read:
        """One upload as read on its own (kept, by its content, for the next check)."""
        return self.read_uploads([upload])[upload.id]

    def read_uploads(self, uploads: list[Submission]) -> dict[int, Read]:
        """Uploads as read, each on its own and within the limits (by upload id). What is
        new is read in one batch; an upload that hit a limit is remembered by its content
        in the database and not read again, even after a restart (unless the limit it hit
        was raised since)."""
        out: dict[int, Read] = {}
        new: list[Submission] = []
        for upload in uploads:
            held = self._read.get((upload.kind, upload.sha256, upload.name))
            hit = still_hit(self.db.meta(_limit_key(upload)), self.limits) if held is None \
                else None
            if held is not None:
                out[upload.id] = held
            elif hit is not None:
                out[upload.id] = self._keep(upload, unread(upload.kind, [
                    limit_problem(upload.name, hit, self.limits)]))
            else:
                new.append(upload)
        while new:  # in batches of at most BATCH_BYTES (or one larger file)
            batch: list[tuple[Submission, Job]] = []
            size = 0
            while new and (not batch or size + new[0].size <= BATCH_BYTES):
                upload = new.pop(0)
                data = self.db.upload_data(upload.id)
                batch.append((upload, Job(upload.kind, upload.name, safe_name(upload.name),
                                          data)))
                size += len(data)
            with self._reading:
                if self._reader is None:
                    self._reader = Reader(self.limits, self.read_one)
                found = self._reader.read([job for _, job in batch])
            for (upload, _), read in zip(batch, found, strict=True):
                if isinstance(read, str):
                    self.db.set_meta(_limit_key(upload), limit_record(read, self.limits))
                    read = unread(upload.kind, [limit_problem(upload.name, read, self.limits)])
                out[upload.id] = self._keep(upload, read)
        return out

    def _keep(self, upload: Submission, read: Read) -> Read:
        self._read[(upload.kind, upload.sha256, upload.name)] = read
        return read

    def _check(self) -> Checked:
        effective = in_effect(self.db.submissions())
        lists: dict[int, Registrations] = {}
        decks: dict[int, DeckFiles] = {}
        reads = self.read_uploads(effective)
        for upload in effective:
            read = reads[upload.id]
            if isinstance(read, Registrations):
                lists[upload.id] = read
            else:
                decks[upload.id] = read
        assembled = assemble(effective, lists, decks, self.db.choices())
        settings = self.settings()  # the lists players submitted count as one more upload
        registrations = submissions.merged(
            assembled.registrations,
            submissions.page_registrations(self.db, settings.name, settings.date),
            submissions.choices(self.db))
        if registrations is None:
            return None, [], assembled.versions
        try:
            setup = self.setup()
            return check_event(registrations, assembled.decks, setup,
                               decks_label="submitted decks", decisions=self.decisions(),
                               decisions_label="decisions",
                               attributes=self.card_table(setup)), [], assembled.versions
        except InputError as exc:
            return None, exc.problems, assembled.versions

    def check_all(self) -> Checked:
        """Check the event as the database holds it, here and now, with each player's
        versions; a failure is a problem the pages show."""
        try:
            return self._check()
        except BaseException as exc:  # the pages must say the check failed
            if not is_failure(exc):
                raise  # an interrupt, the process ending
            traceback.print_exc()
            return None, [Problem("event check", None, None,
                                  f"the check failed ({type(exc).__name__}: {exc}); the "
                                  "uploads are kept", code="CHECK_FAILED")], Versions()

    def check_now(self) -> tuple[EventResult | None, list[Problem]]:
        """Check the event as the database holds it, here and now."""
        result, problems, _ = self.check_all()
        return result, problems

    def _in_process(self) -> Checked:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.db.path, self.cards, self.data_dir, os.getpid(), self.limits))
        try:
            checked, made = pickle.loads(self._pool.submit(_check_in_worker).result())
            if made is not None:
                self._made = made
            return checked  # type: ignore[no-any-return]
        except BrokenProcessPool:
            self._pool = None  # a new process next time
            return None, [Problem("event check", None, None, "the checking process stopped "
                                  "(out of memory?); the uploads are kept; upload again or "
                                  "restart the server", code="CHECK_FAILED")], Versions()

    def close(self) -> None:
        """Stop the checking process (the server is shutting down)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._reader is not None:
            self._reader.close()

    def _run(self, version: str) -> None:
        checked = self._in_process() if self.checks == "process" else self.check_all()
        with self._lock:
            self._latest = (version, checked)
            self._finished += 1

    def refresh(self) -> Future[None]:
        """Start checking the event as it is now, unless that check is done or running; while
        another check runs, this one waits for it (one at a time: a slower, older check never
        overwrites a newer one's result)."""
        version = self.db.version()
        with self._lock:
            if self._latest is not None and self._latest[0] == version:
                done: Future[None] = Future()
                done.set_result(None)
                return done
            if self._running is not None:
                if self._running[0] == version:
                    return self._running[1]
                if self._next is None:
                    self._next = Future()
                return self._next
            future: Future[None] = Future()
            self._running = (version, future)
        self._start(version, future)
        return future

    def _start(self, version: str, future: Future[None]) -> None:
        def work() -> None:
            try:
                self._run(version)
            finally:
                with self._lock:
                    self._running, waiting, self._next = None, self._next, None
                future.set_result(None)
                if self.checks == "process":
                    threading.Thread(target=self._warm, name="warm-pages", daemon=True).start()
                if waiting is not None:  # the event changed meanwhile: check it as it is now
                    current = self.db.version()
                    with self._lock:
                        self._running = (current, waiting)
                    self._start(current, waiting)
                else:
                    self.refresh()

        threading.Thread(target=work, name="event-check", daemon=True).start()

    def _warm(self) -> None:
        """In the server, after a check in the checking process: the check's tables by
        player made, its lists' names read (kept by the resolver), every list's and deck's
        lines made, so that the first pages of each player do not wait for them, then every
        list as a judge's check of its player's deck takes it (``listed_decks``)."""
        with self._lock:
            latest = self._latest
        result = None if latest is None else latest[1][0]
        if result is None:
            return
        try:
            self.rows(result)
            setup = self.setup()
            self.card_table(setup)
            made = self._made
            if made is not None and made[0] == self.setup_key():
                prepare(setup.cards, setup.fmt)
                keep_readings(setup.cards, setup.fmt, made[1])
            else:
                resolve(result.entries, setup.cards, setup.fmt)
            self.page_rows(result)
            self.rows(result).listed_decks(self.card_table(setup))
        except Exception:  # noqa: BLE001 - a page makes them itself then
            traceback.print_exc()

    def snapshot(self) -> Snapshot:
        """The latest finished check, at once (never waits)."""
        self.refresh()
        with self._lock:
            latest, running, finished = self._latest, self._running, self._finished
        if latest is None:
            return Snapshot(None, [], running is not None, finished=finished)
        result, errors, versions = latest[1]
        return Snapshot(result, errors, running is not None, versions, finished)
