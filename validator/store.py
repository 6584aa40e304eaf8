"""The local card store: imported sources saved as Parquet and reused.

``deckcheck data import SOURCE...`` writes ``cards.parquet``, ``legality.parquet`` and
``sources.json`` to the data folder (``--data-dir``, else ``$DECKCHECK_DATA``, else
``$XDG_DATA_HOME/deckcheck``). A card source named directly with ``--cards`` is parsed once
and cached in the same folder, keyed by its path, size and modification time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
from importlib import resources
from pathlib import Path

import polars as pl

from .cards import CARD_SCHEMA, LEGALITY_SCHEMA, CardDB, unique_printings
from .errors import InputError
from .importers import cardcsv, import_source

__all__ = [
    "DEMO",
    "data_dir",
    "demo_cards",
    "import_into_store",
    "load_cards",
    "load_store",
    "merge",
    "save_store",
]

DEMO = "demo"


def data_dir(explicit: Path | None = None) -> Path:
    if explicit is not None:
        return explicit
    if env := os.environ.get("DECKCHECK_DATA"):
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deckcheck"


def merge(dbs: list[CardDB]) -> CardDB:
    """Several sources as one; the first source that knows a passcode wins."""
    cards = unique_printings(pl.concat([db.cards for db in dbs]))
    legality = pl.concat([db.legality for db in dbs]).unique(maintain_order=True)
    return CardDB(
        cards,
        legality,
        [s for db in dbs for s in db.sources],
        [w for db in dbs for w in db.warnings],
    )


def _snapshot(path: Path) -> str:
    stamp = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
    return stamp.date().isoformat()


def save_store(db: CardDB, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    tmp_cards, tmp_legal = folder / "cards.parquet.tmp", folder / "legality.parquet.tmp"
    db.cards.write_parquet(tmp_cards)
    db.legality.write_parquet(tmp_legal)
    (folder / "sources.json.tmp").write_text(json.dumps(db.sources, indent=2, default=str))
    for name in ("cards.parquet", "legality.parquet", "sources.json"):
        (folder / f"{name}.tmp").replace(folder / name)


def load_store(folder: Path) -> CardDB | None:
    cards_file = folder / "cards.parquet"
    if not cards_file.exists():
        return None
    try:
        cards = pl.read_parquet(cards_file)
        legality = pl.read_parquet(folder / "legality.parquet")
        sources = json.loads((folder / "sources.json").read_text())
    except (OSError, pl.exceptions.PolarsError, json.JSONDecodeError) as exc:
        raise InputError.at(
            str(folder), f"the card store is damaged ({exc}); run 'deckcheck data import' again"
        ) from exc
    if dict(cards.schema) != CARD_SCHEMA or dict(legality.schema) != LEGALITY_SCHEMA:
        raise InputError.at(
            str(folder), "the card store was written by another version; import again"
        )
    return CardDB(cards, legality, sources)


def demo_cards() -> CardDB:
    """The demo card pool shipped in the package."""
    resource = resources.files("validator") / "data" / "demo_cards.csv"
    with resources.as_file(resource) as path:
        db = cardcsv.read(path)
    for source in db.sources:
        source["source"] = DEMO
    return db


def _import_with_snapshot(path: Path) -> CardDB:
    db = import_source(path)
    for source in db.sources:
        source["snapshot"] = _snapshot(path)
        source["imported"] = dt.date.today().isoformat()
    return db


def load_cards(spec: str | None, folder: Path | None = None) -> CardDB:
    """Card data for a check: a source path (cached), the store, or the demo pool."""
    root = data_dir(folder)
    if spec is None or spec == "store":
        stored = load_store(root)
        if stored is not None:
            return stored
        if spec == "store":
            raise InputError.at(str(root), "no card store here; run 'deckcheck data import'")
        return demo_cards()
    if spec == DEMO:
        return demo_cards()
    path = Path(spec)
    if not path.exists():
        raise InputError.at(spec, "no such card source (a file, folder, 'demo' or 'store')")
    stat = path.stat()
    key = hashlib.sha1(f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()
    cache = root / "cache" / key[:16]
    try:
        cached = load_store(cache)
    except InputError:
        cached = None
    if cached is not None:
        return cached
    db = _import_with_snapshot(path)
    with contextlib.suppress(OSError):  # a read-only data folder only costs speed
        save_store(db, cache)
    return db


def import_into_store(paths: list[Path], folder: Path | None = None) -> CardDB:
    db = merge([_import_with_snapshot(p) for p in paths])
    save_store(db, data_dir(folder))
    return db
