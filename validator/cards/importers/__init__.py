"""Card-data importers: each turns one source into a :class:`~validator.cards.CardDB`."""

from __future__ import annotations

from pathlib import Path

from validator.cards.db import CardDB
from validator.cards.importers import cardcsv, cdb, ygojson
from validator.errors import InputError

__all__ = ["cardcsv", "cdb", "import_source", "ygojson"]


def import_source(path: Path) -> CardDB:
    """Import one card source, choosing the importer by its shape."""
    if not path.exists():
        raise InputError.of(str(path), "no such file or folder", code="FILE_MISSING")
    suffix = path.suffix.lower()
    if path.is_dir() or suffix in (".json", ".zip"):
        return ygojson.read(path)
    if suffix in (".cdb", ".db", ".sqlite"):
        return cdb.read(path)
    if suffix in (".csv", ".xlsx", ".tsv"):
        return cardcsv.read(path)
    raise InputError.of(
        str(path),
        "unknown card source: expected a YGOJSON cards.json, cards/ folder or zip, "
        "an EDOPro .cdb, or a .csv/.xlsx card list", code="WRONG_FILE_TYPE"
    )
