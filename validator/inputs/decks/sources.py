"""Deck sources under one set of rules, whatever their way in.

* a deck file is ``.ydk``, ``.ydke``, ``.omega`` or ``.txt``, at most 1 MiB, or a file
  without an extension that holds a deck code (``codes.py``); a folder is searched
  recursively; a zip is unpacked in memory behind the archive guards (``safety.py``), member
  by member, without writing anything;
* the deck id is the file name without its extension (or the id before a pasted link), read
  as a person typed it: a player's name is a valid id ("Jordan Lee"), pairing decides;
* two decks with one id: the second is reported, never merged.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from validator.errors import InputError, Problem
from validator.files.safety import MAX_UNPACKED, zip_members

__all__ = ["DECK_SUFFIXES", "MAX_DECK_BYTES", "Source", "deck_id_problem", "path_sources",
           "upload_sources"]

DECK_SUFFIXES = (".ydk", ".ydke", ".omega", ".txt")
MAX_DECK_BYTES = 1 << 20
MAX_ID = 100


class Source(NamedTuple):  # a tuple: made once per deck file, thousands at a time
    label: str  # where the deck came from, for messages: a path, "archive.zip!member"
    deck_id: str
    data: bytes
    kind: str = ""  # "ydke" or "code" for a pasted link or code; else decided by the content


def _deck_id_wrong(deck_id: str) -> str | None:
    """What is wrong with a deck id, as a catalog entry (``{most}``: the longest id), or
    None."""
    if not deck_id:
        return "the file name gives no deck id"
    if len(deck_id) > MAX_ID:
        return "a deck id longer than {most} characters"
    if "/" in deck_id or "\\" in deck_id or (not (deck_id.isascii() and deck_id.isprintable()) \
            and any(unicodedata.category(c)[0] == "C" for c in deck_id)):
        return "the deck id holds control characters or path separators"
    return None


def deck_id_problem(deck_id: str) -> str | None:
    """What is wrong with a deck id, or None."""
    wrong = _deck_id_wrong(deck_id)
    return None if wrong is None else wrong.replace("{most}", str(MAX_ID))


def _stem(name: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1] if "/" in name or "\\" in name else name
    dot = base.rfind(".")
    stem = base[:dot] if 0 < dot < len(base) - 1 else base
    return (stem if stem.isascii() else unicodedata.normalize("NFC", stem)).strip()


class _Collector:
    """Sources with one deck per id, and the problems met on the way."""

    def __init__(self, taken: Callable[[Source], None] | None = None) -> None:
        self.sources: list[Source] = []
        self.problems: list[Problem] = []
        self.seen: dict[str, str] = {}
        self.taken = taken

    def add(self, label: str, deck_id: str, data: bytes, kind: str = "",
            line: int | None = None) -> None:
        wrong = _deck_id_wrong(deck_id)
        if wrong:
            self.problems.append(Problem.of(label, line, None, wrong, code="BAD_DECK_ID",
                                            most=MAX_ID))
            return
        if deck_id in self.seen:
            self.problems.append(Problem.of(
                label, line, None, "a second deck for {deck} (also {other}); rename or "
                                   "remove one", code="DECK_TWICE", deck=repr(deck_id),
                other=self.seen[deck_id]))
            return
        if len(data) > MAX_DECK_BYTES:
            self.problems.append(Problem.of(label, line, None,
                                            "larger than any deck file (1 MiB); skipped",
                                            code="FILE_TOO_LARGE"))
            return
        self.seen[deck_id] = label
        self.sources.append(Source(label, deck_id, data, kind))
        if self.taken is not None:
            self.taken(self.sources[-1])

    def archive(self, data: bytes, label: str) -> None:
        try:
            members, problems = zip_members(data, label, DECK_SUFFIXES, MAX_DECK_BYTES)
        except InputError as exc:
            self.problems.extend(exc.problems)
            return
        self.problems.extend(problems)
        for member, content in members:
            self.add(f"{label}!{member}", _stem(member), content)


def _bare(name: str) -> bool:
    """A file name without an extension (and not hidden): perhaps a deck code."""
    return "." not in name


def _is_code(data: bytes | str) -> bool:
    """Whether ``data`` is a deck code (``codes.is_code``; its module imported when a file
    without an extension or a pasted line asks)."""
    from validator.inputs.decks.codes import is_code

    return is_code(data)


def _deck_files(folder: Path) -> list[tuple[str, str, int | None]]:
    """Deck files, zips and files without an extension under a folder, recursively, sorted
    by path: each one's path, name and, for a zip, size; a deck file's size is None: it is a
    regular file, whose size is found by reading it (one system call less per file)."""
    found: list[tuple[str, str, int | None]] = []
    pending = [str(folder)]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                lower = entry.name.lower()
                if (lower.endswith(DECK_SUFFIXES) or _bare(lower)) and entry.is_file():
                    found.append((entry.path, entry.name, None))
                elif lower.endswith(".zip") and entry.is_file():
                    found.append((entry.path, entry.name, entry.stat().st_size))
    found.sort(key=lambda item: item[0].replace(os.sep, "\0"))  # by path component
    return found


_BLOCK = 1 << 16


def _read_at_most(file: str, limit: int, regular: bool) -> bytes | None:
    """The file's bytes, or None when it holds more than ``limit`` (never read further).

    Of a ``regular`` file (found by the folder scan) a short read is the end; anything else
    (a path given as it is: perhaps a pipe) is read until the system says it ended.
    """
    descriptor = os.open(file, os.O_RDONLY)
    try:
        blocks = [os.read(descriptor, _BLOCK)]
        size = len(blocks[0])
        if regular and size < _BLOCK <= limit:  # nearly every deck file: read whole
            return blocks[0]
        while blocks[-1] and (len(blocks[-1]) == _BLOCK or not regular) and size <= limit:
            blocks.append(os.read(descriptor, _BLOCK))
            size += len(blocks[-1])
    finally:
        os.close(descriptor)
    return None if size > limit else b"".join(blocks) if len(blocks) > 1 else blocks[0]


#: ``progress(done, total)``: how many of the deck files have been read
Progress = Callable[[int, int], None]


def path_sources(paths: list[Path], progress: Progress | None = None,
                 taken: Callable[[Source], None] | None = None) -> tuple[
        list[Source], list[Problem]]:
    """Sources from deck files, folders (recursively, sorted) and zips; ``taken(source)``
    sees each source as soon as it is taken (its parsing can start while others are read)."""
    found = _Collector(taken)
    files: list[tuple[str, str, int | None]] = []
    for path in paths:
        if not path.exists():
            raise InputError.of(str(path), "no such deck file or folder", code="FILE_MISSING")
        try:
            files += _deck_files(path) if path.is_dir() else [
                (str(path), path.name, path.stat().st_size)]
        except OSError as exc:
            raise InputError.of(str(path), "cannot read: {reason}", code="FILE_UNREADABLE",
                                reason=exc.strerror) from exc
    for done, (file, name, size) in enumerate(files):
        if progress is not None and done % 200 == 0:
            progress(done, len(files))
        archive = file.lower().endswith(".zip")
        limit = MAX_UNPACKED if archive else MAX_DECK_BYTES
        try:
            data = None if size is not None and size > limit else _read_at_most(
                file, limit, regular=size is None)
        except OSError as exc:
            found.problems.append(Problem.of(file, None, None, "cannot read: {reason}",
                                             code="FILE_UNREADABLE", reason=exc.strerror))
            continue
        if data is None:
            found.problems.append(Problem.of(file, None, None,
                                             "larger than any deck file; skipped",
                                             code="FILE_TOO_LARGE"))
            continue
        if archive:
            found.archive(data, file)
        elif not _bare(name) or size is not None or _is_code(data):
            # a file without an extension found in a folder is taken when it holds a code
            found.add(file, _stem(name), data)
    if progress is not None:
        progress(len(files), len(files))
    return found.sources, found.problems


def upload_sources(files: list[tuple[str, bytes]], pasted: str = "") -> tuple[
        list[Source], list[Problem]]:
    """Sources from uploaded files (by their names, or their content when a name has no
    extension) and pasted ``ID ydke://`` (or ``ID CODE``) lines."""
    from validator.inputs.decks.ydk import is_ydke  # polars: not needed to read files

    found = _Collector()
    for name, data in files:
        label = PurePosixPath(name.replace("\\", "/")).name or "upload"
        suffix = PurePosixPath(label).suffix.lower()
        if suffix == ".zip":
            found.archive(data, label)
        elif suffix in DECK_SUFFIXES or (_bare(label) and _is_code(data)):
            found.add(label, _stem(label), data)
        else:
            found.problems.append(Problem.of(label, None, None, "not a deck file: expected "
                                             ".ydk, .ydke, .omega, .txt, .zip or a deck code",
                                             code="WRONG_FILE_TYPE"))
    for number, line in enumerate(pasted.splitlines(), start=1):
        text = line.strip()
        if not text:
            continue
        player, _, link = text.rpartition(" ")
        ydke = is_ydke(link)
        if not player.strip() or not (ydke or _is_code(link)):
            found.problems.append(Problem.of("pasted links", number, None,
                                             "expected 'PLAYER_ID ydke://...' (or another "
                                             "deck code) on each line", code="BAD_YDKE"))
            continue
        found.add("pasted links", player.strip(), link.encode(), kind="ydke" if ydke else "code",
                  line=number)
    return found.sources, found.problems
