"""The library API behind ``deckcheck check``: gather inputs, run the engine."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import polars as pl

from .decisions import Decision, apply_decisions, unreadable_rows
from .engine import CheckResult, check, combine
from .entries import entries_frame
from .errors import InputError, Problem, capped
from .readers.registrations import Registrations
from .readers.ydk import is_ydke, parse_ydke, read_deck_bytes, read_deck_file
from .safety import check_archive
from .setup import Setup

__all__ = ["DECK_SUFFIXES", "DeckCheck", "check_decks", "deck_files", "read_deck_uploads",
           "read_decks"]

DECK_SUFFIXES = (".ydk", ".ydke", ".txt")


def deck_files(paths: Iterable[Path]) -> list[Path]:
    """Deck files named directly or found in folders (sorted, recursively)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*")
                                if p.is_file() and p.suffix.lower() in DECK_SUFFIXES))
        elif path.exists():
            found.append(path)
        else:
            raise InputError.at(str(path), "no such deck file or folder")
    return found


MAX_DECK_BYTES = 1 << 20
MAX_ARCHIVE_BYTES = 256 << 20
MAX_ARCHIVE_MEMBERS = 50_000


def _zip_decks(path: Path, problems: list[Problem],
               data: bytes | None = None) -> list[tuple[str, bytes]]:
    """Deck files inside a zip, with guards against zip bombs and path tricks."""
    found: list[tuple[str, bytes]] = []
    raw = path.read_bytes() if data is None else data
    check_archive(raw, str(path))
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) > MAX_ARCHIVE_MEMBERS:
                raise InputError.at(str(path), f"more than {MAX_ARCHIVE_MEMBERS} files in the zip")
            total = 0
            for member in members:
                name = PurePosixPath(member.filename)
                if name.suffix.lower() not in DECK_SUFFIXES:
                    continue
                if member.file_size > MAX_DECK_BYTES:
                    problems.append(Problem(f"{path}!{member.filename}", None, None,
                                            "larger than any deck file (1 MiB); skipped"))
                    continue
                total += member.file_size
                if total > MAX_ARCHIVE_BYTES:
                    raise InputError.at(str(path), "the zip unpacks to more than 256 MiB")
                data = archive.read(member)
                if len(data) > MAX_DECK_BYTES:
                    raise InputError.at(str(path), f"{member.filename} unpacks larger than "
                                                   "its stated size")
                found.append((name.name, data))
    except zipfile.BadZipFile as exc:
        raise InputError.at(str(path), f"not a readable zip file ({exc})") from exc
    return found


def read_decks(paths: Iterable[Path]) -> tuple[pl.DataFrame, list[Problem]]:
    """All decks as one entry table; files that cannot be read are reported, not dropped.

    A path may be a deck file, a folder (searched recursively) or a zip of deck files.
    """
    frames: list[pl.DataFrame] = []
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    named: list[tuple[str, str, bytes | None, Path | None]] = []
    for path in paths:
        if path.is_file() and path.suffix.lower() == ".zip":
            named.extend((f"{path}!{n}", Path(n).stem, data, None)
                         for n, data in _zip_decks(path, problems))
        else:
            named.extend((str(p), p.stem, None, p) for p in deck_files([path]))
    for label, stem, data, file in named:
        if stem in seen:
            problems.append(Problem(label, None, None, f"deck id {stem!r} is also {seen[stem]}; "
                                                       "rename one of the files"))
            continue
        seen[stem] = label
        try:
            if file is not None:
                if file.stat().st_size > MAX_DECK_BYTES:
                    problems.append(Problem(label, None, None,
                                            "larger than any deck file (1 MiB); skipped"))
                    continue
                frames.append(read_deck_file(file))
            else:
                frames.append(read_deck_bytes(data or b"", label, stem))
        except InputError as exc:
            problems.extend(exc.problems)
        except OSError as exc:
            problems.append(Problem(label, None, None, f"cannot read: {exc.strerror}"))
    return (pl.concat(frames) if frames else entries_frame()), capped(problems)


_DECK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def read_deck_uploads(files: list[tuple[str, bytes]], pasted: str = "") -> tuple[
        pl.DataFrame, list[Problem]]:
    """Decks from uploaded files (deck files or zips, by name) and pasted lines of
    ``PLAYER_ID ydke://...``; nothing is written to disk."""
    frames: list[pl.DataFrame] = []
    problems: list[Problem] = []
    named: list[tuple[str, bytes]] = []
    for name, data in files:
        label = PurePosixPath(name.replace("\\", "/")).name or "upload"
        if label.lower().endswith(".zip"):
            try:
                named.extend((f"{label}!{n}", d) for n, d in _zip_decks(Path(label), problems,
                                                                         data))
            except InputError as exc:
                problems.extend(exc.problems)
        elif PurePosixPath(label).suffix.lower() in DECK_SUFFIXES:
            named.append((label, data))
        else:
            problems.append(Problem(label, None, None,
                                    "not a deck file: expected .ydk, .ydke, .txt or .zip"))
    seen: set[str] = set()
    for label, data in named:
        stem = PurePosixPath(label.split("!")[-1]).stem
        if not _DECK_ID.match(stem):
            problems.append(Problem(label, None, None, "the file name must be the player id "
                                    "(letters, digits, '-', '_' or '.')"))
            continue
        if stem in seen:
            problems.append(Problem(label, None, None, f"a second deck for {stem!r}"))
            continue
        seen.add(stem)
        if len(data) > MAX_DECK_BYTES:
            problems.append(Problem(label, None, None, "larger than any deck file (1 MiB)"))
            continue
        try:
            frames.append(read_deck_bytes(data, label, stem))
        except InputError as exc:
            problems.extend(exc.problems)
    for number, line in enumerate(pasted.splitlines(), start=1):
        parts = line.strip().split()
        if not parts:
            continue
        if len(parts) != 2 or not is_ydke(parts[1]) or not _DECK_ID.match(parts[0]):
            problems.append(Problem("pasted links", number, None,
                                    "expected 'PLAYER_ID ydke://...' on each line"))
            continue
        if parts[0] in seen:
            problems.append(Problem("pasted links", number, None,
                                    f"a second deck for {parts[0]!r}"))
            continue
        try:
            frames.append(parse_ydke(parts[1], "pasted links", parts[0], line=number))
            seen.add(parts[0])
        except InputError as exc:
            problems.extend(exc.problems)
    return (pl.concat(frames) if frames else entries_frame()), capped(problems)


@dataclass
class DeckCheck:
    """Decks checked, and compared with their registered lists when given."""

    result: CheckResult
    lists: CheckResult | None  # the registered lists' own check
    problems: list[Problem]  # rows of the lists that could not be used, unmatched decisions
    decisions: list[Decision]  # the head judge's decisions applied
    duel: int | None

    @property
    def compared(self) -> bool:
        return self.lists is not None


def check_decks(entries: pl.DataFrame, setup: Setup, *,
                registrations: Registrations | None = None,
                decisions: list[Decision] | None = None, duel: int | None = None,
                decisions_label: str = "decisions") -> DeckCheck:
    """Check decks; with registrations, check the lists too and compare each deck with its
    player's list (deck id = player id), from duel 2 on allowing side deck exchanges."""
    if registrations is None:
        result = check(entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist)
        return DeckCheck(result, None, [], [], duel)
    applied = apply_decisions(registrations.entries, registrations.problems, decisions or [],
                              decisions_label)
    players = registrations.players["player_id"].to_list()
    unmatched = sorted(set(entries["deck_id"].unique().to_list()) - set(players))
    sources = dict(entries.group_by("deck_id").agg(pl.col("file").first()).iter_rows())
    strays = [Problem(str(sources[d]), None, None, f"deck {d!r} matches no registered player: "
                      "checked without a list") for d in unmatched]
    lists = check(applied.entries, cards=setup.cards, fmt=setup.fmt, banlist=setup.banlist,
                  deck_ids=players, unreadable=unreadable_rows(applied.problems, False))
    registered = pl.col("deck_id").is_in(players)
    present = entries["deck_id"].unique().implode()
    result = check(entries.filter(registered), cards=setup.cards, fmt=setup.fmt,
                   banlist=setup.banlist,
                   registered=applied.entries.filter(pl.col("deck_id").is_in(present)),
                   list_problems=False, siding=duel is not None and duel > 1,
                   unreadable=unreadable_rows(applied.problems, True))
    if unmatched:
        alone = check(entries.filter(~registered), cards=setup.cards, fmt=setup.fmt,
                      banlist=setup.banlist)
        result = combine([result, alone])
    return DeckCheck(result, lists, applied.problems + applied.unmatched + strays,
                     applied.decisions, duel)
