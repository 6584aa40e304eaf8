"""Uploads read with a time and a memory limit per file.

A reading process (forked from a server that already imported the readers, so it starts in
milliseconds) reads a batch of uploads one after another and sends each back as it is read.
A file that takes longer than ``Limits.seconds`` stops the process; so does one whose
reading holds more than ``Limits.memory`` bytes (the server watches the process), and an
allocation far beyond it fails (``RLIMIT_AS``) or ends the process. Either
becomes one problem for that file (``UPLOAD_TOO_SLOW``, ``UPLOAD_TOO_BIG_IN_MEMORY``), and a
new process reads the rest of the batch. The process is kept for the next batch. Before it
says it is ready, a new process reads one small upload of each kind (``WARM_JOBS``), so what
a first read costs once is held from the start and never charged to a file.
"""

from __future__ import annotations

import io
import multiprocessing
import pickle
import resource
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Literal

import polars as pl

from validator.errors import InputError, Problem, is_failure
from validator.event.versions import empty_registrations
from validator.files.safety import READ_MEMORY, READ_SECONDS
from validator.inputs.decks.batch import DeckFiles, read_deck_uploads, require_decks
from validator.inputs.registrations.read import Registrations, read_registration_files

__all__ = ["LIMIT_CODES", "Job", "Limits", "Read", "ReadFn", "Reader",
           "limit_problem", "limit_record", "pack", "read_upload", "still_hit", "unread", "warm"]

Read = Registrations | DeckFiles
LimitCode = Literal["UPLOAD_TOO_SLOW", "UPLOAD_TOO_BIG_IN_MEMORY"]
LIMIT_CODES: tuple[LimitCode, ...] = ("UPLOAD_TOO_SLOW", "UPLOAD_TOO_BIG_IN_MEMORY")
#: how often the server looks at the memory the reading process holds, in seconds
WATCH_SECONDS = 0.05
#: the address space the reading process may reserve, in memory limits: what it holds is
#: watched by the server; this stops an allocation too large to be watched
ADDRESS_ROOM = 2
#: how long a new reading process may take to say it is ready (not counted against a file)
START_SECONDS = 60.0


@dataclass(frozen=True)
class Limits:
    """What reading one upload may take: seconds of wall-clock time, bytes of memory."""

    seconds: float = READ_SECONDS
    memory: int = READ_MEMORY


@dataclass(frozen=True)
class Job:
    """One upload to read: its kind, its name (as the problems say it) and its bytes."""

    kind: str
    name: str
    label: str  # the name reduced to a file name, for the registration readers
    data: bytes


#: uploads a new reading process reads before it says it is ready, so that what a first read
#: costs once (modules imported on first use, polars' first query, code paged in) is part of
#: the memory the process holds when ready and is never charged to the first real file
WARM_JOBS = (
    # the passcode of a card in every pool; only the reading is warmed, not a check
    Job("decks", "warm.ydk", "warm.ydk", b"#main\n89631139\n#extra\n!side\n"),
    Job("registrations", "warm.csv", "warm.csv",
        b"Player ID,Player Name,Section,Qty,Card Name\nW1,Warm,Main,1,Warm\n"),
    Job("text", "warm", "warm", b"#main\n89631139\n"),
)

def read_upload(job: Job) -> Read:
    """One upload as read on its own, its problems included (no limit: see ``Reader``)."""
    try:
        if job.kind == "registrations":
            # given the bytes, the readers use a path only as the file's label; one process:
            # the limits watch this one
            return read_registration_files([Path(job.label)], [job.data], workers=1)
        if job.kind == "decks":
            read = read_deck_uploads([(job.name, job.data)])
            require_decks(read, job.name)
            return read
        return read_deck_uploads([], job.data.decode("utf-8", "replace"))
    except InputError as exc:
        return unread(job.kind, exc.problems)


def unread(kind: str, problems: list[Problem]) -> Read:
    """An upload of ``kind`` from which nothing was read, and why."""
    if kind == "registrations":
        return empty_registrations(problems)
    return DeckFiles(empty_registrations([]).entries, problems, [], {})


def limit_record(code: LimitCode, limits: Limits) -> str:
    """What the database keeps of a limit hit: its code and the limit it hit."""
    return f"{code} {limits.seconds if code == 'UPLOAD_TOO_SLOW' else limits.memory}"


def still_hit(record: str | None, limits: Limits) -> LimitCode | None:
    """The limit a kept record says an upload hits under ``limits``; None when nothing was
    kept, or when the limit is now more generous than the one it hit (read it again)."""
    word, _, limit = (record or "").partition(" ")
    code = next((c for c in LIMIT_CODES if c == word), None)
    try:
        hit = float(limit)
    except ValueError:
        return code
    now = limits.seconds if code == "UPLOAD_TOO_SLOW" else limits.memory
    return code if now <= hit else None


def limit_problem(name: str, code: LimitCode, limits: Limits) -> Problem:
    """The one problem of an upload whose reading hit a limit."""
    if code == "UPLOAD_TOO_SLOW":
        return Problem.of(name, None, None, "reading this file took longer than {seconds} s; "
                          "it was not read (a file built to stall the check?); check its "
                          "content, or send it another way", code=code,
                          seconds=f"{limits.seconds:g}")
    return Problem.of(name, None, None, "reading this file needed more than {most} MiB of "
                      "memory; it was not read (a file built to stall the check?); check its "
                      "content, or send it another way", code=code, most=limits.memory >> 20)


def _status(field: str, pid: int | None = None) -> int:
    """A size (``VmSize``, ``VmRSS``) of a process (this one by default), in bytes; 0 when
    the system does not say."""
    try:
        for line in Path(f"/proc/{pid or 'self'}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) << 10
    except (OSError, ValueError):
        pass
    return 0


def _frame(data: bytes) -> pl.DataFrame:
    return pl.read_ipc(io.BytesIO(data))


class _Packer(pickle.Pickler):
    """A pickler that writes each table as compressed Arrow IPC (a tenth of the bytes, and
    many times faster to write and read than a pickled polars table), each table once
    however often it is referred to."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, pl.DataFrame):
            buffer = io.BytesIO()
            try:
                obj.write_ipc(buffer, compression="lz4")
            except Exception:  # noqa: BLE001 - a table IPC cannot hold is pickled as it is
                return NotImplemented
            return _frame, (buffer.getvalue(),)
        return NotImplemented


def pack(value: object) -> bytes:
    """``value`` pickled, its tables as compressed Arrow IPC (read by ``pickle.loads``):
    how a reading or checking process sends what it made."""
    buffer = io.BytesIO()
    _Packer(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


ReadFn = Callable[[Job], Read]


def warm() -> None:
    """Read one small upload of each kind, and import the workbook reader, as a new reading
    process does before it says it is ready."""
    from python_calamine import CalamineWorkbook  # noqa: F401 - imported on a workbook's first read

    for job in WARM_JOBS:
        read_upload(job)


def _serve(conn: Connection, memory: int, read: ReadFn) -> None:
    """In the reading process: read each job sent, send back each read (or the limit hit)."""
    warm()
    base = _status("VmSize")
    if base:  # address space reserved but never used (threads' heaps) may take as much again
        cap = base + ADDRESS_ROOM * memory
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    conn.send("ready")
    while True:
        try:
            jobs: list[Job] | None = conn.recv()
        except EOFError:
            return
        if jobs is None:
            return
        for job in jobs:
            try:
                conn.send_bytes(pack(("read", read(job))))
            except MemoryError:
                conn.send_bytes(pack(("memory", None)))
            except BaseException as exc:  # the server reports it as a failed check
                if not is_failure(exc):
                    raise  # an interrupt, the process ending
                conn.send_bytes(pack(("failed", f"{type(exc).__name__}: {exc}")))


def _context() -> ForkServerContext | SpawnContext:
    if sys.platform.startswith("linux"):
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


class Reader:
    """Reads batches of uploads in a process of its own, each file within ``limits``, with
    ``read`` (a module-level function: the process is given it by name)."""

    def __init__(self, limits: Limits | None = None, read: ReadFn = read_upload) -> None:
        self.limits = limits or Limits()
        self.read_one = read
        self._process: BaseProcess | None = None
        self._resident = 0  # the memory the reading process held when it was ready
        self._conn: Connection | None = None

    def _start(self) -> Connection:
        if self._conn is not None:
            return self._conn
        context = _context()
        mine, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, self.limits.memory, self.read_one),
                                  name="upload-reader",
                                  daemon=not multiprocessing.current_process().daemon)
        process.start()
        theirs.close()
        try:
            ready = mine.poll(START_SECONDS) and mine.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            process.kill()
            mine.close()
            raise RuntimeError("the upload reading process did not start")
        self._process, self._conn = process, mine
        self._resident = _status("VmRSS", process.pid)
        weakref.finalize(self, process.kill)  # a reader dropped unclosed ends its process
        return mine

    def start(self) -> None:
        """Start the reading process now (else the first batch starts it)."""
        self._start()

    def close(self) -> None:
        """End the reading process (a new one starts for the next batch)."""
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None

    def read(self, jobs: list[Job]) -> list[Read | LimitCode]:
        """Each job read, in order, or the limit its reading hit."""
        out: list[Read | LimitCode] = []
        while len(out) < len(jobs):
            conn = self._start()
            conn.send(jobs[len(out):])
            while len(out) < len(jobs) and self._conn is conn:
                out.append(self._next(conn))  # a limit hit may end the process
        return out

    def _next(self, conn: Connection) -> Read | LimitCode:
        deadline = time.monotonic() + self.limits.seconds
        pid = self._process.pid if self._process is not None else None
        while not conn.poll(min(WATCH_SECONDS, max(deadline - time.monotonic(), 0))):
            if pid is not None and self._resident and \
                    _status("VmRSS", pid) - self._resident > self.limits.memory:
                self.close()
                return "UPLOAD_TOO_BIG_IN_MEMORY"
            if time.monotonic() >= deadline:
                self.close()
                return "UPLOAD_TOO_SLOW"
        try:
            what, value = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the process ended: out of memory (or killed)
            self.close()
            return "UPLOAD_TOO_BIG_IN_MEMORY"
        if what == "failed":
            self.close()
            raise RuntimeError(f"reading an upload failed ({value})")
        if what == "memory" or (pid is not None and self._resident and _status("VmRSS", pid)
                                - self._resident > self.limits.memory // 2):
            self.close()  # a fresh process for the next file: none is blamed for another's
        if what == "memory":
            return "UPLOAD_TOO_BIG_IN_MEMORY"
        read: Read = value
        return read
