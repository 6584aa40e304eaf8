"""YGOJSON v1 cards: the aggregate ``cards.json``, a ``cards/`` folder, or the release zip.

Every password of one YGOJSON card is a printing of the same card name. Legality fields
(tcg, ocg, ocg-kr, speed, genesys with ``currentPoints``) are kept as a legality table.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import polars as pl

from ..cards import (
    CARD_SCHEMA,
    LANGS,
    LEGALITY_SCHEMA,
    CardDB,
    stable_negative_id,
    unique_printings,
)
from ..errors import InputError, Problem

__all__ = ["cards_from_objects", "read"]

_EXTRA_TYPES = {"fusion", "synchro", "xyz", "link"}
_LEADING_DIGITS = re.compile(r"\s*(\d+)")
_LANG_KEYS = {lang: lang for lang in LANGS} | {"zh": "zh-CN"}


def _load_json(data: bytes, name: str) -> Any:
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise InputError.at(name, f"not UTF-8 text ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise InputError.at(
            name, f"invalid JSON at column {exc.colno}: {exc.msg}", line=exc.lineno
        ) from exc


def _documents(path: Path) -> Iterator[tuple[str, Any]]:
    if path.is_dir():
        files = sorted(path.rglob("*.json"))
        if not files:
            raise InputError.at(str(path), "folder holds no YGOJSON .json card files")
        for file in files:
            yield str(file), _load_json(file.read_bytes(), str(file))
    elif path.suffix.lower() == ".zip":
        try:
            with zipfile.ZipFile(path) as archive:
                members = sorted(
                    n
                    for n in archive.namelist()
                    if n.endswith(".json") and ("cards/" in n or n.endswith("cards.json"))
                )
                if not members:
                    raise InputError.at(str(path), "zip holds no YGOJSON cards (cards/*.json)")
                for member in members:
                    label = f"{path}!{member}"
                    yield label, _load_json(archive.read(member), label)
        except zipfile.BadZipFile as exc:
            raise InputError.at(str(path), f"not a readable zip file ({exc})") from exc
    else:
        yield str(path), _load_json(path.read_bytes(), str(path))


def _objects(path: Path) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for label, doc in _documents(path):
        items: Iterable[Any] = doc if isinstance(doc, list) else [doc]
        for index, item in enumerate(items):
            if not isinstance(item, dict) or "cardType" not in item or "text" not in item:
                raise InputError.at(
                    label, f"card #{index + 1} is not a YGOJSON card (needs cardType and text)"
                )
            yield label, index, item


def read(path: Path) -> CardDB:
    """Read YGOJSON cards from a file, folder or zip."""
    db = cards_from_objects(_objects(path), source=str(path))
    if db.cards.is_empty():
        raise InputError.at(str(path), "no cards found")
    return db


def cards_from_objects(items: Iterable[tuple[str, int, dict[str, Any]]], source: str) -> CardDB:
    cols: dict[str, list[Any]] = {name: [] for name in CARD_SCHEMA}
    legal: dict[str, list[Any]] = {name: [] for name in LEGALITY_SCHEMA}
    cards = 0
    warnings: list[Problem] = []
    for label, index, card in items:
        cards += 1
        passwords: list[int] = []
        for raw in card.get("passwords") or []:
            digits = _LEADING_DIGITS.match(str(raw))
            if digits:
                passwords.append(int(digits.group(1)))
            else:
                warnings.append(Problem(label, None, None,
                                        f"card #{index + 1}: password {raw!r} is not a number; "
                                        "that printing was skipped"))
        passwords = sorted(set(passwords))
        card_id = passwords[0] if passwords else stable_negative_id(str(card.get("id", label)))
        text = card.get("text") or {}
        names = {
            lang: (text.get(key) or {}).get("name") for lang, key in _LANG_KEYS.items()
        }
        if not names["zh"]:
            names["zh"] = (text.get("zh-TW") or {}).get("name")
        monster_types = [str(t) for t in card.get("monsterCardTypes") or []]
        subtypes = monster_types + [
            str(c) for c in card.get("classifications") or [] if c not in monster_types
        ]
        legality = card.get("legality") or {}
        pools = sorted(
            region
            for region, entry in legality.items()
            if isinstance(entry, dict) and entry.get("current") != "unreleased"
        )
        points = (legality.get("genesys") or {}).get("currentPoints")
        for region, entry in legality.items():
            if isinstance(entry, dict) and entry.get("current"):
                legal["card_id"].append(card_id)
                legal["region"].append(region)
                legal["status"].append(str(entry["current"]))
                legal["points"].append(entry.get("currentPoints"))
        printings: list[int | None] = list(passwords) or [None]
        for passcode in printings:
            cols["passcode"].append(passcode)
            cols["card_id"].append(card_id)
            for lang in LANGS:
                cols[f"name_{lang}"].append(names[lang])
            cols["kind"].append(card["cardType"])
            cols["extra"].append(bool(_EXTRA_TYPES & set(monster_types)))
            cols["rush"].append(False)
            cols["legend"].append(False)
            cols["subtypes"].append(subtypes)
            cols["pools"].append(pools)
            cols["points"].append(float(points) if points is not None else None)
            cols["source"].append(source)
    try:
        frame = pl.DataFrame(cols, schema=CARD_SCHEMA)
    except (pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError) as exc:
        raise InputError.at(source, f"unexpected card field value ({exc})") from exc
    legality_frame = pl.DataFrame(legal, schema=LEGALITY_SCHEMA)
    return CardDB(
        unique_printings(frame),
        legality_frame,
        [{"source": source, "kind": "ygojson", "cards": cards}],
        warnings,
    )
