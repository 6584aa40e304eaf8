"""The local data store: imported card sources and Forbidden/Limited lists, kept and reused.

``deckcheck data import SOURCE...`` adds sources to the data folder (``--data-dir``, else
``$DECKCHECK_DATA``, else ``$XDG_DATA_HOME/deckcheck``); imports accumulate, and importing a
source of the same file name again replaces only it (``deckcheck data remove NAME`` drops
one). Card sources are kept one folder each under ``sources/`` and merged into
``cards.parquet`` and ``legality.parquet``; lists are kept as files under ``lists/``;
``store.json`` describes both, with each one's file date and the data's own date (the newest
date inside it). A card source named directly with ``--cards`` is parsed once and cached in
``cache/``, keyed by its path, size and modification time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import polars as pl

from validator.cards.banlist import (
    Banlist,
    effective_date,
    list_date,
    read_banlist,
    read_list_file,
)
from validator.cards.db import (
    CARD_SCHEMA,
    LEGALITY_SCHEMA,
    LINK_SCHEMA,
    CardDB,
    finalize,
    merged_list,
)
from validator.errors import InputError

__all__ = [
    "DEMO",
    "EFFECTIVE_FROM",
    "LIST_SUFFIXES",
    "StoredList",
    "data_dir",
    "demo_cards",
    "import_into_store",
    "load_cards",
    "load_store",
    "merge",
    "remove_from_store",
    "stored_lists",
]

DEMO = "demo"
VERSION = 2
MANIFEST = "store.json"
#: the file a save of card data writes last, new every time (see ``_save_db``)
GENERATION = "generation"
#: files `data import` treats as Forbidden/Limited lists rather than card sources
LIST_SUFFIXES = (".conf", ".lflist")
_KIND_ORDER = {"ygojson": 0, "cdb": 1, "csv": 2}


def data_dir(explicit: Path | None = None) -> Path:
    if explicit is not None:
        return explicit
    if env := os.environ.get("DECKCHECK_DATA"):
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deckcheck"


def merge(dbs: list[CardDB]) -> CardDB:
    """Several sources as one. A printing known to several sources takes its names and
    attributes from the richest (YGOJSON, then cdb, then CSV), its release regions from all
    of them; links from every source decide cards and names together."""
    ordered = sorted(dbs, key=lambda db: min(
        (_KIND_ORDER.get(str(s.get("kind")), 9) for s in db.sources), default=9))
    cards = pl.concat([db.printings for db in ordered])
    with_code = cards.filter(pl.col("passcode").is_not_null())
    union = with_code.group_by("passcode").agg(
        merged_list("pools").alias("all_pools"), merged_list("other_names").alias("all_names"),
        pl.col("source").unique(maintain_order=True).str.join("; ").alias("all_sources"))
    first = (
        with_code.unique("passcode", keep="first", maintain_order=True)
        .join(union, on="passcode", how="left", maintain_order="left")
        .with_columns(pl.col("all_pools").alias("pools"), pl.col("all_names").alias(
            "other_names"), pl.col("all_sources").alias("source"))
        .select(list(CARD_SCHEMA))
    )
    links = pl.concat([db.links for db in ordered]).unique(maintain_order=True)
    merged, problems = finalize(
        pl.concat([first, cards.filter(pl.col("passcode").is_null())]), links)
    legality = pl.concat([db.legality for db in ordered]).unique(["passcode", "region"],
                                                                  keep="first",
                                                                  maintain_order=True)
    return CardDB(merged, legality, [s for db in ordered for s in db.sources],
                  [w for db in ordered for w in db.warnings] + problems, links)


def _file_date(path: Path) -> str:
    stamp = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.UTC)
    return stamp.date().isoformat()


def _write_parquet(frame: pl.DataFrame, target: Path) -> None:
    partial = target.with_name(target.name + ".tmp")
    frame.write_parquet(partial)
    partial.replace(target)


def _write_text(text: str, target: Path) -> None:
    """``text`` written whole under another name, then renamed: a reader sees the old file
    or the new one, never half of one."""
    partial = target.with_name(target.name + ".tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(target)


def _save_db(db: CardDB, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    _write_parquet(db.printings, folder / "cards.parquet")
    _write_parquet(db.legality, folder / "legality.parquet")
    _write_parquet(db.links, folder / "links.parquet")
    _write_text(json.dumps(db.sources, indent=2, default=str), folder / "sources.json")
    # written last, new at every save: two saves never look alike to ``_fingerprint``
    _write_text(os.urandom(16).hex(), folder / GENERATION)


def _load_db(folder: Path) -> CardDB | None:
    cards_file = folder / "cards.parquet"
    if not cards_file.exists():
        return None
    before = _fingerprint(folder)
    try:
        cards = pl.read_parquet(cards_file)
        legality = pl.read_parquet(folder / "legality.parquet")
        links = pl.read_parquet(folder / "links.parquet")
        sources = json.loads((folder / "sources.json").read_bytes())
    except (OSError, pl.exceptions.PolarsError, ValueError) as exc:  # JSON, UTF-8 too
        raise InputError.at(
            str(folder), f"the card store is damaged ({exc}); run 'deckcheck data import' again",
            code="STORE_DAMAGED"
        ) from exc
    if (dict(cards.schema) != CARD_SCHEMA or dict(legality.schema) != LEGALITY_SCHEMA
            or dict(links.schema) != LINK_SCHEMA):
        raise InputError.at(
            str(folder), "the card store was written by another version of deckcheck; "
                         "run 'deckcheck data import' again", code="STORE_VERSION")
    # named only when no file changed while it was read (an import meanwhile: the files
    # read may be of two imports)
    stored_as = before if before and _fingerprint(folder) == before else ""
    return CardDB(cards, legality, sources, links=links, stored_as=stored_as)


def _fingerprint(folder: Path) -> str:
    """The stored card data's files as one string: their sizes, modification times and
    inodes, and the import's own generation (a store saved before it had one: the files
    alone); "" when a file cannot be read."""
    stamps = [str(folder.resolve())]
    for name in ("cards.parquet", "legality.parquet", "links.parquet", "sources.json"):
        try:
            stat = (folder / name).stat()
        except OSError:  # gone since it was read: nothing to name the data by
            return ""
        stamps.append(f"{name}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ino}")
    try:
        stamps.append((folder / GENERATION).read_text(encoding="ascii"))
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError):
        return ""
    return "|".join(stamps)


@dataclass(frozen=True)
class StoredList:
    """One ``!name`` list inside a list file of the store."""

    file: Path
    name: str  # the list's own name, e.g. "2026.05 TCG"
    date: str | None  # the list's own date (from its name), e.g. "2026-05"
    source: str  # the file's name in the store
    snapshot: str  # the file's date
    effective: str = ""  # the day the list takes effect (YYYY-MM-DD)
    effective_from: str = ""  # where that day comes from (see EFFECTIVE_FROM)

    def load(self, reason: str = "") -> Banlist:
        """The list itself, with its effective date and why it was chosen."""
        banlist = read_banlist(self.file, self.name)
        banlist.effective, banlist.effective_from = self.effective, self.effective_from
        banlist.reason = reason
        return banlist


#: where a stored list's effective date comes from, as `data info` and reports say it
EFFECTIVE_FROM = {"given": "import", "name": "its name", "imported": "import day"}


def _effective(name: str, given: dict[str, str], imported: str) -> tuple[str, str]:
    """A list's effective date and where it comes from: given at import (for this list by
    name, or for every list of the file under ""), else its name, else the import day."""
    if name in given:
        return given[name], EFFECTIVE_FROM["given"]
    if "" in given:
        return given[""], EFFECTIVE_FROM["given"]
    if (named := effective_date(name)) is not None:
        return named, EFFECTIVE_FROM["name"]
    return imported, EFFECTIVE_FROM["imported"]


def _manifest(root: Path) -> dict[str, Any]:
    path = root / MANIFEST
    if not path.exists():
        if (root / "cards.parquet").exists():
            raise InputError.at(str(root), "the card store was written by another version of "
                                           "deckcheck; run 'deckcheck data import' again",
                                code="STORE_VERSION")
        return {"version": VERSION, "cards": [], "lists": []}
    try:
        manifest: dict[str, Any] = json.loads(path.read_bytes())
    except (OSError, ValueError) as exc:  # not JSON, not UTF-8
        raise InputError.at(str(path), f"the data store is damaged ({exc}); run "
                                       "'deckcheck data import' again",
                            code="STORE_DAMAGED") from exc
    if manifest.get("version") != VERSION:
        raise InputError.at(str(root), "the card store was written by another version of "
                                       "deckcheck; run 'deckcheck data import' again",
                            code="STORE_VERSION")
    return manifest


def _save_manifest(root: Path, manifest: dict[str, Any]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    _write_text(json.dumps(manifest, indent=2, ensure_ascii=False), root / MANIFEST)


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)[:100] or "source"


def _rebuild(root: Path, manifest: dict[str, Any]) -> CardDB | None:
    """Merge the stored card sources into the store's cards (or remove them: none left)."""
    dbs = [db for entry in manifest["cards"]
           if (db := _load_db(root / "sources" / _slug(entry["name"]))) is not None]
    for name in ("cards.parquet", "legality.parquet", "links.parquet", "sources.json"):
        (root / name).unlink(missing_ok=True)
    if not dbs:
        return None
    merged = merge(dbs)
    merged.sources = list(manifest["cards"])
    _save_db(merged, root)
    return merged


def is_list_file(path: Path) -> bool:
    """A Forbidden/Limited list rather than a card source (by name; CSV/XLSX by header)."""
    name = path.name.lower()
    if name.endswith(LIST_SUFFIXES):
        return True
    if path.suffix.lower() in (".csv", ".xlsx", ".tsv") and path.is_file():
        from validator.cards.banlist import looks_like_table_list

        return looks_like_table_list(path)
    return False


def import_into_store(paths: list[Path], folder: Path | None = None,
                      effective: dict[str, str] | None = None) -> CardDB | None:
    """Add card sources and lists to the store (a source of the same name is replaced).

    ``effective`` gives lists their effective date (YYYY-MM-DD): by list name, or under ""
    for every list imported; a list without one takes it from its name, else from today.
    """
    root = data_dir(folder)
    manifest = _manifest(root)
    today = dt.date.today().isoformat()
    given = dict(effective or {})
    card_paths = [p for p in paths if not is_list_file(p)]
    list_files = [(p, read_list_file(p)) for p in paths if p not in card_paths]
    named = {b.name for _, lists in list_files for b in lists}
    unknown = sorted(set(given) - named - {""})
    if unknown:
        raise InputError.at("--effective", f"no list named {unknown[0]!r} among the lists "
                                           f"imported ({', '.join(sorted(named)) or 'none'})",
                            code="NO_LIST")
    for path, lists in list_files:
        target = root / "lists" / _slug(path.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.resolve() != target.resolve():
            shutil.copyfile(path, target)
        listed: dict[str, object] = {
            "name": path.name, "file": str(target.relative_to(root)),
            "lists": [{"name": b.name, "date": list_date(b.name),
                       **dict(zip(("effective", "effective_from"),
                                  _effective(b.name, given, today), strict=True))}
                      for b in lists],
            "snapshot": _file_date(path), "imported": today}
        manifest["lists"] = [e for e in manifest["lists"] if e["name"] != path.name] + [listed]
    from validator.cards.importers import (
        import_source,  # the readers of every source format, when importing
    )

    for path in card_paths:
        db = import_source(path)
        source = db.sources[0]
        entry: dict[str, object] = {**source, "name": path.name, "snapshot": _file_date(path),
                                    "imported": today}
        db.sources = [entry]
        _save_db(db, root / "sources" / _slug(path.name))
        manifest["cards"] = [e for e in manifest["cards"] if e["name"] != path.name] + [entry]
    _save_manifest(root, manifest)
    return _rebuild(root, manifest) if card_paths else load_store(root)


def remove_from_store(name: str, folder: Path | None = None) -> None:
    """Drop one imported card source or list by its name (as `data info` shows it)."""
    root = data_dir(folder)
    manifest = _manifest(root)
    cards = [e for e in manifest["cards"] if e["name"] != name]
    lists = [e for e in manifest["lists"] if e["name"] != name]
    if len(cards) == len(manifest["cards"]) and len(lists) == len(manifest["lists"]):
        known = ", ".join(e["name"] for e in manifest["cards"] + manifest["lists"]) or "none"
        raise InputError.at(name, f"not in the store (it holds: {known})", code="NOT_IN_STORE")
    for entry in manifest["lists"]:
        if entry["name"] == name:
            (root / entry["file"]).unlink(missing_ok=True)
    removed_cards = len(cards) != len(manifest["cards"])
    manifest["cards"], manifest["lists"] = cards, lists
    _save_manifest(root, manifest)
    if removed_cards:
        shutil.rmtree(root / "sources" / _slug(name), ignore_errors=True)
        _rebuild(root, manifest)


def load_store(folder: Path) -> CardDB | None:
    """The store's merged cards, or None when no card source was imported."""
    manifest = _manifest(folder)
    if not manifest["cards"]:
        return None
    db = _load_db(folder)
    if db is None:
        db = _rebuild(folder, manifest)
    return db


def stored_lists(folder: Path | None = None) -> list[StoredList]:
    """Every list of every list file in the store, newest effective date first."""
    root = data_dir(folder)
    out = []
    for entry in _manifest(root)["lists"]:
        for item in entry["lists"]:
            day, where = (item["effective"], item["effective_from"]) if item.get(
                "effective") else _effective(item["name"], {}, str(entry.get(
                    "imported", entry["snapshot"])))
            out.append(StoredList(root / entry["file"], item["name"], item.get("date"),
                                  entry["name"], entry["snapshot"], day, where))
    return sorted(out, key=lambda s: s.effective, reverse=True)


def demo_cards() -> CardDB:
    """The demo card pool shipped in the package."""
    from validator.cards.importers import cardcsv

    resource = resources.files("validator") / "data" / "demo_cards.csv"
    with resources.as_file(resource) as path:
        db = cardcsv.read(path)
    for source in db.sources:
        source["source"] = DEMO
    return db


def _import_with_snapshot(path: Path) -> CardDB:
    from validator.cards.importers import import_source

    db = import_source(path)
    for source in db.sources:
        source["snapshot"] = _file_date(path)
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
            raise InputError.at(str(root), "no card store here; run 'deckcheck data import'",
                                code="NO_STORE")
        return demo_cards()
    if spec == DEMO:
        return demo_cards()
    path = Path(spec)
    if not path.exists():
        raise InputError.at(spec, "no such card source (a file, folder, 'demo' or 'store')",
                            code="FILE_MISSING")
    stat = path.stat()
    key = hashlib.sha1(f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}".encode()).hexdigest()
    cache = root / "cache" / key[:16]
    try:
        cached = _load_db(cache)
    except InputError:
        cached = None
    if cached is not None:
        return cached
    db = _import_with_snapshot(path)
    with contextlib.suppress(OSError):  # a read-only data folder only costs speed
        _save_db(db, cache)
    return db
