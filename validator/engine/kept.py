"""Card tables kept in the data store between runs.

Making the card table of a (card data, list, format) (:func:`tables.card_attributes`) takes
a few tens of milliseconds, more than a one-deck ``deckcheck check`` spends checking. The
table made is kept under ``cache/tables/`` in the data folder, named by a digest of all it
is made from:

- the card data's files, as the store read them (sizes, modification times, inodes, and
  the generation every import writes anew), so card data made in memory (a merge, the demo
  pool), or read while an import changed it, is never kept;
- the list: its name, file, flags (whitelist, Genesys) and every entry;
- the format's rules (every field of the format file);
- the code that makes it: the polars version and the size and modification time of every
  source file and catalog of the packages it is made with.

Whatever differs, the digest differs and the table is made anew. A kept table that cannot
be read (damaged, removed meanwhile) is made anew too, and a folder that cannot be written
only costs the time: the table is then made on every run. At most ``KEPT`` tables are kept,
the ones used least recently removed first.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import polars as pl

import validator
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.cards.store import data_dir
from validator.engine.tables import CardTable, card_attributes
from validator.errors import Problem

__all__ = ["KEPT", "kept_card_attributes", "table_key"]

#: how many card tables a data folder keeps (one per card data, list and format used)
KEPT = 8
#: bumped when what a kept file holds changes shape
_LAYOUT = 1
#: the packages whose code makes the card table (their files' stamps are in every key)
_MADE_BY = ("cards", "engine", "text", "locale")


def _code_stamps() -> list[str]:
    """The size and modification time of each source file and catalog of ``_MADE_BY`` and
    of the package's own modules."""
    root = Path(validator.__file__).parent
    stamps = []
    folders = [root, *(root / name for name in _MADE_BY)]
    while folders:
        folder = folders.pop()
        with os.scandir(folder) as found:
            for entry in sorted(found, key=lambda e: e.name):
                if entry.is_dir() and folder != root and entry.name != "__pycache__":
                    folders.append(Path(entry.path))
                elif entry.name.endswith((".py", ".po", ".mo", ".toml")):
                    stat = entry.stat()
                    stamps.append(f"{entry.path}:{stat.st_size}:{stat.st_mtime_ns}")
    return stamps


def table_key(cards: CardDB, banlist: Banlist, fmt: Format) -> str | None:
    """The digest naming the card table of these card data, list and format, or None when
    the card data was not read from files (nothing to name it by)."""
    if not cards.stored_as:
        return None
    entries = io.BytesIO()
    banlist.entries.write_ipc(entries)
    digest = hashlib.sha256()
    for part in (str(_LAYOUT), pl.__version__, *_code_stamps(), cards.stored_as,
                 banlist.name, banlist.source, str(banlist.whitelist), str(banlist.genesys),
                 repr(tuple(fmt))):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(entries.getvalue())
    return digest.hexdigest()[:32]


def _problem(fields: dict[str, Any]) -> Problem:
    values = tuple((str(name), str(value)) for name, value in fields.pop("values"))
    return Problem(**fields, values=values)


def _read(frame_file: Path, warnings_file: Path) -> tuple[pl.DataFrame,
                                                          tuple[Problem, ...]] | None:
    try:
        warnings = tuple(_problem(fields) for fields in json.loads(warnings_file.read_bytes()))
        frame = pl.read_parquet(frame_file)
    except Exception:  # noqa: BLE001 (damaged or half removed: made anew)
        return None
    with contextlib.suppress(OSError):  # used now: the last to be removed
        os.utime(frame_file)
    return frame, warnings


#: a temporary file or a lone warnings file this old was left by a run that stopped
#: while writing (a run's own are seconds old): removed with the oldest tables
_LEFT_AFTER_S = 3600


def _write(table: CardTable, frame_file: Path, warnings_file: Path) -> None:
    """The table's two files, both written whole under other names, then renamed (the
    warnings first: a frame file is only ever beside its warnings; a write that fails
    leaves neither); the oldest tables beyond ``KEPT`` removed."""
    folder = frame_file.parent
    folder.mkdir(parents=True, exist_ok=True)
    suffix = f".{os.getpid()}-{threading.get_ident()}.tmp"
    partials = [warnings_file.with_name(warnings_file.name + suffix),
                frame_file.with_name(frame_file.name + suffix)]
    try:
        partials[0].write_text(json.dumps([dataclasses.asdict(w) for w in table.warnings]))
        table.frame.write_parquet(partials[1], statistics=False)
        partials[0].replace(warnings_file)
        partials[1].replace(frame_file)
    finally:
        for partial in partials:
            with contextlib.suppress(OSError):
                partial.unlink(missing_ok=True)
    _prune(folder)


def _prune(folder: Path) -> None:
    """The tables beyond the ``KEPT`` used most recently removed, and what runs that
    stopped while writing left (``_LEFT_AFTER_S``)."""
    kept = sorted(folder.glob("*.parquet"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
    for old in kept[KEPT:]:
        old.unlink(missing_ok=True)
        old.with_suffix(".warnings").unlink(missing_ok=True)
    left = time.time() - _LEFT_AFTER_S
    for other in folder.iterdir():
        lone = other.suffix == ".warnings" and not other.with_suffix(".parquet").exists()
        if (other.suffix == ".tmp" or lone) and other.stat().st_mtime < left:
            other.unlink(missing_ok=True)


def kept_card_attributes(cards: CardDB, banlist: Banlist, fmt: Format,
                         folder: Path | None = None) -> CardTable:
    """:func:`tables.card_attributes`, read from the data folder (``folder``, else the
    default one) when made before for exactly these card data, list and format and code,
    else made and kept there."""
    key = table_key(cards, banlist, fmt)
    if key is None:
        return card_attributes(cards, banlist, fmt)
    tables = data_dir(folder) / "cache" / "tables"
    frame_file, warnings_file = tables / f"{key}.parquet", tables / f"{key}.warnings"
    found = _read(frame_file, warnings_file) if frame_file.exists() else None
    if found is not None:
        return CardTable(cards, banlist, fmt, *found)
    table = card_attributes(cards, banlist, fmt)
    # a folder that cannot be written (read-only, full) only costs the time
    with contextlib.suppress(OSError, pl.exceptions.PolarsError):
        _write(table, frame_file, warnings_file)
    return table
