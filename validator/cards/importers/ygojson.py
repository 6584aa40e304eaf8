"""YGOJSON v1 cards: the aggregate ``cards.json``, a ``cards/`` folder, or the release zip.

Every password of one YGOJSON card is a printing of the same card. Legality fields (tcg, ocg,
ocg-kr, speed, genesys with ``currentPoints``) are kept as a legality table; a card's English
text saying its name "is always treated as" another card's becomes a name link.
"""

from __future__ import annotations

import json
import re
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import polars as pl

from validator.cards.db import (
    CARD_SCHEMA,
    LEGALITY_SCHEMA,
    LINK_SCHEMA,
    NAME_LANGS,
    CardDB,
    finalize,
    stable_negative_id,
)
from validator.errors import InputError, Problem

__all__ = ["TREATED_AS", "cards_from_objects", "read"]

_EXTRA_TYPES = {"fusion", "synchro", "xyz", "link"}
_LEADING_DIGITS = re.compile(r"\s*(\d+)")
_LANG_KEYS = {lang: lang for lang in NAME_LANGS} | {"zh": "zh-CN", "zh_tw": "zh-TW"}


def _load_json(data: bytes, name: str) -> Any:
    try:
        return json.loads(data)
    except UnicodeDecodeError as exc:
        raise InputError.of(name, "not UTF-8 text ({reason})", code="NOT_UTF8",
                            reason=exc.reason) from exc
    except json.JSONDecodeError as exc:
        raise InputError.of(
            name, "invalid JSON at column {at}: {reason}", line=exc.lineno,
            code="BAD_CARD_DATA", at=exc.colno, reason=exc.msg
        ) from exc


def _documents(path: Path) -> Iterator[tuple[str, Any]]:
    if path.is_dir():
        files = sorted(path.rglob("*.json"))
        if not files:
            raise InputError.of(str(path), "folder holds no YGOJSON .json card files",
                                code="NO_CARDS")
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
                    raise InputError.of(str(path), "zip holds no YGOJSON cards (cards/*.json)",
                                        code="NO_CARDS")
                for member in members:
                    label = f"{path}!{member}"
                    yield label, _load_json(archive.read(member), label)
        except zipfile.BadZipFile as exc:
            raise InputError.of(str(path), "not a readable zip file ({reason})",
                                code="ZIP_DAMAGED", reason=exc) from exc
    else:
        yield str(path), _load_json(path.read_bytes(), str(path))


def _objects(path: Path) -> Iterator[tuple[str, int, dict[str, Any]]]:
    for label, doc in _documents(path):
        items: Iterable[Any] = doc if isinstance(doc, list) else [doc]
        for index, item in enumerate(items):
            if not isinstance(item, dict) or "cardType" not in item or "text" not in item:
                raise InputError.of(
                    label, "card #{number} is not a YGOJSON card (needs cardType and text)",
                    code="BAD_CARD_DATA", number=index + 1
                )
            yield label, index, item


def read(path: Path) -> CardDB:
    """Read YGOJSON cards from a file, folder or zip."""
    db = cards_from_objects(_objects(path), source=str(path))
    if db.printings.is_empty():
        raise InputError.of(str(path), "no cards found", code="NO_CARDS")
    return db


#: "This card's name is always treated as "X"" / "This card is always treated as "X"";
#: never "always treated as a "X" card" (an archetype) nor "is also always treated as"
#: (a second name beside its own)
TREATED_AS = re.compile(r'\bis always treated as ["\u201c]([^"\u201d]+)["\u201d]')
#: what YGOJSON appends to tell a card from an archetype, skill or other version of the same
#: name; never printed on the card
_DISAMBIGUATION = (" (card)", " (Normal)")


def _passwords(card: dict[str, Any], label: str, index: int,
               warnings: list[Problem]) -> list[int]:
    passwords: list[int] = []
    for raw in card.get("passwords") or []:
        digits = _LEADING_DIGITS.match(str(raw))
        if digits:
            passwords.append(int(digits.group(1)))
        else:
            warnings.append(Problem(label, None, None,
                                    f"card #{index + 1}: password {raw!r} is not a number; "
                                    "that printing was skipped", code="BAD_PASSCODE"))
    if not passwords and card.get("cardType") == "skill":
        # Skills have no printed passcode; EDOPro and YGOPRODeck number them (300xxxxxx), and
        # Speed Duel lists name them by that number
        external = (card.get("externalIDs") or {}).get("ygoprodeck") or {}
        if isinstance(external.get("id"), int) and external["id"] > 0:
            passwords.append(external["id"])
    return sorted(set(passwords))


def _fullness(card: dict[str, Any]) -> tuple[int, int]:
    return len(card.get("text") or {}), len(card.get("legality") or {})


def _owners(items: list[tuple[str, int, dict[str, Any], list[int]]]) -> dict[int, int]:
    """Which entry owns each passcode that several entries list: the fullest (most
    languages, then most legality), else the one YGOPRODeck files under that passcode."""
    claims: dict[int, list[int]] = {}
    for position, (_, _, _, passwords) in enumerate(items):
        for code in passwords:
            claims.setdefault(code, []).append(position)
    owners: dict[int, int] = {}
    for code, positions in claims.items():
        if len(positions) == 1:
            continue
        def score(position: int, code: int = code) -> tuple[tuple[int, int], bool]:
            card = items[position][2]
            external = ((card.get("externalIDs") or {}).get("ygoprodeck") or {}).get("id")
            return _fullness(card), external == code
        owners[code] = max(positions, key=score)
    return owners


def cards_from_objects(objects: Iterable[tuple[str, int, dict[str, Any]]],
                       source: str) -> CardDB:
    """Cards from YGOJSON objects.

    Entries that share a passcode are one card: the passcode belongs to the fullest entry
    (else the one YGOPRODeck files under it), the other entry's names become other spellings of
    it, and an entry left without passcodes is dropped. A trailing " (card)", which YGOJSON
    adds to tell a card from an archetype or skill of the same name, is not printed on the
    card and is dropped from the name (kept as another spelling); so is " (Normal)".
    """
    warnings: list[Problem] = []
    items = [(label, index, card, _passwords(card, label, index, warnings))
             for label, index, card in objects]
    owners = _owners(items)
    other_names: dict[int, list[str]] = {}
    kept: list[tuple[str, int, dict[str, Any], list[int]]] = []
    for position, (label, index, card, passwords) in enumerate(items):
        own = [c for c in passwords if owners.get(c, position) == position]
        if passwords and not own:
            for code in passwords:
                name = ((card.get("text") or {}).get("en") or {}).get("name")
                if name:
                    other_names.setdefault(code, []).append(str(name))
            continue
        kept.append((label, index, card, own))
    cols: dict[str, list[Any]] = {name: [] for name in CARD_SCHEMA}
    legal: dict[str, list[Any]] = {name: [] for name in LEGALITY_SCHEMA}
    links: dict[str, list[Any]] = {name: [] for name in LINK_SCHEMA}
    for label, _, card, passwords in kept:
        card_id = passwords[0] if passwords else stable_negative_id(str(card.get("id", label)))
        text = card.get("text") or {}
        names = {
            lang: (text.get(key) or {}).get("name") for lang, key in _LANG_KEYS.items()
        }
        others = sorted({n for code in passwords for n in other_names.get(code, [])})
        english = names["en"]
        if isinstance(english, str) and english.endswith(_DISAMBIGUATION):
            others.append(english)
            names["en"] = english.rsplit(" (", 1)[0]
        effect = str((text.get("en") or {}).get("effect") or "")
        for target in TREATED_AS.findall(effect):
            if target != names["en"]:
                links["source"].append(card_id)
                links["target"].append(None)
                links["target_name"].append(target)
                links["link"].append("name")
        for code in passwords[1:]:
            links["source"].append(code)
            links["target"].append(card_id)
            links["target_name"].append(None)
            links["link"].append("card")
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
        if passwords:
            for region, entry in legality.items():
                if isinstance(entry, dict) and entry.get("current"):
                    legal["passcode"].append(card_id)
                    legal["region"].append(region)
                    legal["status"].append(str(entry["current"]))
                    legal["points"].append(entry.get("currentPoints"))
        printings: list[int | None] = list(passwords) or [None]
        for passcode in printings:
            cols["passcode"].append(passcode)
            cols["card_id"].append(card_id)
            cols["name_id"].append(card_id)
            for lang in NAME_LANGS:
                cols[f"name_{lang}"].append(names[lang])
            cols["other_names"].append(others)
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
        raise InputError.at(source, f"unexpected card field value ({exc})",
                            code="BAD_CARD_DATA") from exc
    link_frame = pl.DataFrame(links, schema=LINK_SCHEMA)
    frame, problems = finalize(frame, link_frame)
    return CardDB(
        frame,
        pl.DataFrame(legal, schema=LEGALITY_SCHEMA),
        [{"source": source, "kind": "ygojson", "cards": len(items),
          "data_date": _newest_date(items)}],
        warnings + problems,
        link_frame,
    )


def _newest_date(items: list[tuple[str, int, dict[str, Any], list[int]]]) -> str | None:
    """The newest date the cards state (legality history): the data's own date."""
    newest = ""
    for _, _, card, _ in items:
        for entry in (card.get("legality") or {}).values():
            if isinstance(entry, dict):
                for change in entry.get("history") or []:
                    date = str(change.get("date") or "") if isinstance(change, dict) else ""
                    if _DATE.match(date) and date > newest:
                        newest = date
    return newest or None


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
