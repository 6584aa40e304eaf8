"""The library API behind ``deckcheck check``: gather inputs, run the engine."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import polars as pl

from .banlist import Banlist, from_ygojson, read_banlist
from .cards import CardDB
from .engine import CheckResult, check
from .entries import entries_frame
from .errors import InputError, Problem
from .formats import Format, banlists_dir
from .readers.ydk import read_deck_file

__all__ = ["DECK_SUFFIXES", "deck_files", "load_banlist", "read_decks", "run_check"]

DECK_SUFFIXES = (".ydk", ".ydke", ".txt")


def load_banlist(spec: str | None, list_name: str | None, fmt: Format,
                 cards: CardDB) -> Banlist:
    """The list to check against: a file, ``ygojson:REGION``, or the format's default."""
    if spec is None:
        spec = fmt.default_list
        list_name = list_name or fmt.default_list_name
        if not spec.startswith("ygojson:"):
            spec = str(banlists_dir() / spec)
    if spec.startswith("ygojson:"):
        return from_ygojson(cards, spec.split(":", 1)[1])
    return read_banlist(Path(spec), list_name)


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


def read_decks(paths: Iterable[Path]) -> tuple[pl.DataFrame, list[Problem]]:
    """All decks as one entry table; files that cannot be read are reported, not dropped."""
    frames: list[pl.DataFrame] = []
    problems: list[Problem] = []
    seen: dict[str, Path] = {}
    for path in deck_files(paths):
        if path.stem in seen:
            problems.append(Problem(str(path), None, None,
                                    f"deck id {path.stem!r} is also {seen[path.stem]}; "
                                    "rename one of the files"))
            continue
        seen[path.stem] = path
        try:
            frames.append(read_deck_file(path))
        except InputError as exc:
            problems.extend(exc.problems)
        except OSError as exc:
            problems.append(Problem(str(path), None, None, f"cannot read: {exc.strerror}"))
    return (pl.concat(frames) if frames else entries_frame()), problems


def run_check(entries: pl.DataFrame, *, cards: CardDB, fmt: Format, banlist: Banlist,
              registered: pl.DataFrame | None = None) -> CheckResult:
    return check(entries, cards=cards, fmt=fmt, banlist=banlist, registered=registered)
