"""Deck files read ahead, on another core, while the program starts.

Starting ``deckcheck`` (its imports, polars first) keeps one core busy for a few tenths of
a second. :func:`start` forks a process, before polars is imported, that does what
:func:`~validator.inputs.decks.sources.path_sources` does with the paths given — the
folders listed, the files read, the deck ids taken — and leaves its result in an unlinked
temporary file. :func:`taken` gives that result to the check, when it asks for exactly
those paths; otherwise (other paths, no read ahead, the reader failed) it gives None and
the files are read as always. Either way the sources and problems are those of ``path_sources``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import BinaryIO, NamedTuple

from validator.errors import InputError, Problem
from validator.inputs.decks.sources import Source, path_sources

__all__ = ["MANY_FILES", "core_free", "start", "taken", "worth_it"]

#: a read ahead pays for its fork from about this many files (or one folder)
MANY_FILES = 20


class _Reader(NamedTuple):
    paths: list[str]
    pid: int
    spool: BinaryIO  # the file it writes its result to (unlinked: gone once closed)


_reader: list[_Reader] = []  # the one read ahead under way, if any


def worth_it(paths: list[str]) -> bool:
    """Whether reading ``paths`` ahead pays: many files, or a folder or zip among them."""
    if len(paths) >= MANY_FILES:
        return True
    return any(p.lower().endswith(".zip") or os.path.isdir(p) for p in paths)


def core_free() -> bool:
    """Whether another core is likely free to read on: over the last minute, fewer
    processes ran on average than this process may use cores. (On a busy machine the
    reader only takes time from the others: a read ahead costs a little more work in all.)"""
    try:
        cores = len(os.sched_getaffinity(0))
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return cores > 1 and load < cores


def start(paths: list[str]) -> bool:
    """Fork a process reading ``paths`` as ``path_sources`` does; whether one started (not
    where the system cannot fork, nor once threads may run — Python's or polars' own —: only
    a process of one thread forks safely)."""
    threading = sys.modules.get("threading")
    if _reader or not hasattr(os, "fork") or "polars" in sys.modules or (
            threading is not None and threading.active_count() > 1):
        return False
    import tempfile

    spool = tempfile.TemporaryFile()  # noqa: SIM115 (kept open until the result is taken)
    try:
        pid = os.fork()
    except OSError:
        spool.close()
        return False
    if pid == 0:  # the reader: never returns
        _read_and_write(paths, spool.fileno())
    _reader.append(_Reader([str(Path(p)) for p in paths], pid, spool))
    return True


def _read_and_write(paths: list[str], fd: int) -> None:
    """In the reader: ``path_sources``'s result (or the problems it raised) pickled into the
    file ``fd``; then the process ends, without the parent's exit functions or buffers (its
    exit status says whether it wrote all)."""
    import pickle

    try:
        try:
            found: tuple[str, object] = ("read", path_sources([Path(p) for p in paths]))
        except InputError as exc:
            found = ("raised", exc.problems)
        data = memoryview(pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL))
        while data:
            data = data[os.write(fd, data):]
    except BaseException:  # noqa: BLE001 (the parent reads the files itself)
        os._exit(1)
    os._exit(0)


def taken(paths: list[Path]) -> tuple[list[Source], list[Problem]] | None:
    """What the read ahead found for ``paths`` (raising its ``InputError`` as
    ``path_sources`` would), or None when none was read ahead for exactly these paths or
    the reader failed. The reader is waited for, and ended with, either way."""
    if not _reader:
        return None
    import pickle  # only where deck files were read ahead

    reader = _reader.pop()
    with reader.spool:
        if reader.paths != [str(p) for p in paths]:
            return None  # the reader ends by itself
        try:
            _, status = os.waitpid(reader.pid, 0)
            if status != 0:  # the reader failed: the files are read here
                return None
            size = os.fstat(reader.spool.fileno()).st_size
            kind, found = pickle.loads(os.pread(reader.spool.fileno(), size, 0))
        except Exception:  # noqa: BLE001 (the same)
            return None
    if kind == "raised":
        raise InputError(found)
    sources, problems = found
    return sources, problems
