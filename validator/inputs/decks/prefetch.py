"""Deck files read ahead, on another core, while the program starts.

Starting ``deckcheck`` (its imports, polars first) keeps one core busy for a few tenths of
a second. :func:`start` forks a process, before polars is imported, that does what
:func:`~validator.inputs.decks.sources.path_sources` does with the paths given — the
folders listed, the files read, the deck ids taken — and hands its result back through a
pipe. :func:`taken` gives that result to the check, when it asks for exactly those paths;
otherwise (other paths, no read ahead, the reader failed) it gives None and the files are
read as always. Either way the sources and problems are those of ``path_sources``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NamedTuple

from validator.errors import InputError, Problem
from validator.inputs.decks.sources import Source, path_sources

__all__ = ["MANY_FILES", "start", "taken", "worth_it"]

#: a read ahead pays for its fork from about this many files (or one folder)
MANY_FILES = 20


class _Reader(NamedTuple):
    paths: list[str]
    pid: int
    fd: int


_reader: list[_Reader] = []  # the one read ahead under way, if any


def worth_it(paths: list[str]) -> bool:
    """Whether reading ``paths`` ahead pays: many files, or a folder or zip among them."""
    if len(paths) >= MANY_FILES:
        return True
    return any(p.lower().endswith(".zip") or os.path.isdir(p) for p in paths)


def start(paths: list[str]) -> bool:
    """Fork a process reading ``paths`` as ``path_sources`` does; whether one started (not
    where the system cannot fork, nor once threads may run — Python's or polars' own —: only
    a process of one thread forks safely)."""
    threading = sys.modules.get("threading")
    if _reader or not hasattr(os, "fork") or "polars" in sys.modules or (
            threading is not None and threading.active_count() > 1):
        return False
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return False
    if pid == 0:  # the reader: never returns
        os.close(read_end)
        _read_and_send(paths, write_end)
    os.close(write_end)
    _reader.append(_Reader([str(Path(p)) for p in paths], pid, read_end))
    return True


def _read_and_send(paths: list[str], fd: int) -> None:
    """In the reader: ``path_sources``'s result (or the problems it raised) pickled to
    ``fd``; then the process ends, without the parent's exit functions or buffers."""
    import pickle

    try:
        try:
            found: tuple[str, object] = ("read", path_sources([Path(p) for p in paths]))
        except InputError as exc:
            found = ("raised", exc.problems)
        data = pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)
        with open(fd, "wb") as stream:
            stream.write(data)
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
    if reader.paths != [str(p) for p in paths]:
        os.close(reader.fd)  # the reader ends when it writes
        return None
    try:
        with open(reader.fd, "rb") as stream:
            data = stream.read()
        os.waitpid(reader.pid, 0)
        kind, found = pickle.loads(data)
    except Exception:  # noqa: BLE001 (a reader that failed: the files are read here)
        return None
    if kind == "raised":
        raise InputError(found)
    sources, problems = found
    return sources, problems
