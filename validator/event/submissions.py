"""Lists players submit on the registration page: every submission kept, the newest per
KONAMI ID current, each with its receipt hash.

A submission holds its number, the UTC time, its source (``typed``, ``ydke``, ``code``,
``ydk``, ``pdf``), the page language, the player's name and KONAMI ID, the list as
passcode rows per section and the SHA-256 of the list's canonical form:

    one line per (section, passcode): ``section<TAB>passcode<TAB>count\\n``, sections
    ``main``, ``extra``, ``side`` in that order, passcodes in numeric order within a section,
    UTF-8 without BOM; the hash is the SHA-256 hex digest of those bytes.

So anyone can recompute a receipt's hash from the exported rows. The current submissions
are the event's registrations like an uploaded list (:func:`page_registrations`); a player
who is also on an uploaded list is a conflict the organizer resolves (:func:`merged`).
After the deadline, only a player the organizer unlocked (with a reason, logged) may submit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from validator.cards.db import CardDB
from validator.cards.formats import Format
from validator.engine.resolve import resolve
from validator.errors import InputError, Problem, capped
from validator.event.store import EventDB
from validator.inputs.decks.batch import parse_sources
from validator.inputs.decks.codes import is_code
from validator.inputs.decks.sources import Source
from validator.inputs.decks.ydk import is_ydke
from validator.inputs.entries import entries_frame
from validator.inputs.ids import KONAMI_DIGITS, player_id_of
from validator.inputs.registrations.read import (
    PLAYER_SCHEMA,
    Registrations,
    read_registration_files,
)
from validator.vocab import SECTIONS

__all__ = ["PAGE_FILE", "PIN_HEADING", "SOURCES", "Row", "Stored", "Unlock", "add", "canonical",
           "check_id", "choices", "choose", "conflict_ids", "count_since", "current", "deadline",
           "event_code", "history", "list_hash", "locked_for", "merged", "new_code",
           "open_unlock", "page_registrations", "passcode_rows", "pin", "pins_from",
           "read_deck", "receipt", "rows_of", "set_deadline", "set_event_code", "set_pins",
           "unlock", "unlocks"]

#: how a list came to the page
SOURCES = ("typed", "ydke", "code", "ydk", "pdf")
#: the name the event's registrations give the lists of the registration page
PAGE_FILE = "registration page"
#: (section, passcode, count)
Row = tuple[str, int, int]
_CODE_KEY = "register:code"
_DEADLINE_KEY = "register:deadline"
#: letters of event and receipt codes: no 0/O, 1/I/L to misread
_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def canonical(rows: Iterable[Row]) -> bytes:
    """The canonical form of a list (see the module's docstring); rows of one section and
    passcode are added together, rows of no copies left out."""
    counted: dict[tuple[str, int], int] = {}
    for section, passcode, count in rows:
        if section not in SECTIONS:
            raise ValueError(f"not a section: {section!r}")
        counted[section, int(passcode)] = counted.get((section, int(passcode)), 0) + int(count)
    order: dict[str, int] = {s: i for i, s in enumerate(SECTIONS)}
    lines = [f"{s}\t{p}\t{n}\n" for (s, p), n in
             sorted(counted.items(), key=lambda item: (order[item[0][0]], item[0][1])) if n > 0]
    return "".join(lines).encode()


def list_hash(rows: Iterable[Row]) -> str:
    """The SHA-256 hex digest of the list's canonical form."""
    return hashlib.sha256(canonical(rows)).hexdigest()


def rows_of(data: bytes) -> list[Row]:
    """The rows of a canonical form, in its order."""
    out: list[Row] = []
    for line in data.decode().splitlines():
        section, passcode, count = line.split("\t")
        out.append((section, int(passcode), int(count)))
    return out


def check_id(typed: str) -> str:
    """A KONAMI ID as typed (spaces and dashes dropped, full-width digits read), or a
    problem of the form."""
    player_id, lost = player_id_of(typed[:40])
    if lost is not None or not (player_id.isdigit() and len(player_id) == KONAMI_DIGITS):
        raise InputError.of("player_id", "a KONAMI ID is {digits} digits (0401234567), not "
                                         "{typed}", code="BAD_OPTION", digits=KONAMI_DIGITS,
                            typed=repr(typed[:20]))
    return player_id


def read_deck(text: str, files: list[tuple[str, bytes]], player_id: str) -> tuple[
        pl.DataFrame, str, list[Problem]]:
    """A deck pasted (ydke link, any deck code, a YDK or a text list) or uploaded (a YDK
    file or a filled Konami PDF sheet) as entries, with its source and what could not be
    read; the uploaded file when both are given."""
    for name, data in files:
        if Path(name).suffix.lower() == ".pdf":
            read = read_registration_files([Path(name)], [data])
            entries = read.entries.with_columns(pl.lit(player_id).alias("deck_id"))
            problems = list(read.problems)
            if read.players.is_empty() and not problems:
                problems.append(Problem.of(name, None, None, "no deck list could be read from "
                                           "this PDF", code="NOTHING_READ"))
            return entries, "pdf", problems
        found = parse_sources([Source(name, player_id, data)], [])
        return found.entries, "ydk", list(found.problems)
    pasted = text.strip()
    source = "ydke" if is_ydke(pasted) else "code" if is_code(pasted) else \
        "ydk" if "#main" in pasted.lower() else "typed"
    found = parse_sources([Source("pasted", player_id, pasted.encode())], [])
    return found.entries, source, list(found.problems)


def passcode_rows(entries: pl.DataFrame, cards: CardDB, fmt: Format) -> tuple[
        list[Row], dict[str, list[str]]]:
    """The list as passcode rows, and each typed name that names no single card with the
    nearest names (such a list cannot be stored: the player fixes the names)."""
    if entries.is_empty():
        return [], {}
    read = resolve(entries, cards, fmt)
    rows: list[Row] = []
    unknown: dict[str, list[str]] = {}
    for row in read.iter_rows(named=True):
        card = row["card_id"] if row["status"] == "ok" else None
        if card is None and row["passcode"] is not None and row["status"] == "unknown":
            card = row["passcode"]  # a passcode newer than the card data: a violation
        if card is None or int(card) < 0:
            unknown[str(row["name"] or row["passcode"])] = list(row["suggestions"] or [])
            continue
        rows.append((str(row["section"]), int(card), int(row["qty"] or 0)))
    return rows_of(canonical(rows)), unknown


@dataclass(frozen=True)
class Stored:
    """One submission as kept."""

    number: int
    player_id: str
    player_name: str
    source: str
    lang: str
    submitted_at: str
    rows: list[Row]
    sha256: str
    late: bool


_COLUMNS = ("id, player_id, player_name, source, lang, submitted_at, rows, sha256, late")


def _stored(row: tuple[object, ...]) -> Stored:
    number, pid, name, source, lang, at, rows, digest, late = row
    return Stored(int(str(number)), str(pid), str(name), str(source), str(lang), str(at),
                  [(str(s), int(p), int(n)) for s, p, n in json.loads(str(rows))],
                  str(digest), bool(late))


def add(db: EventDB, *, player_id: str, player_name: str, source: str, lang: str,
        rows: list[Row], limit: int, window: float, late: bool = False,
        unlock_id: int | None = None) -> Stored | None:
    """Store a submission, unless the player already made ``limit`` within the last
    ``window`` seconds (then None: nothing is stored). ``unlock_id``: the organizer's unlock
    this late submission uses up. The same list and name as the player's newest submission
    is that submission, not a new one."""
    if source not in SOURCES:
        raise ValueError(f"not a source: {source!r}")
    ordered = rows_of(canonical(rows))
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=window)).isoformat(
        timespec="seconds")
    now = _now()
    digest = list_hash(ordered)
    with db.transaction() as conn:
        newest = conn.execute(f"SELECT {_COLUMNS} FROM register_submissions WHERE player_id = ? "
                              "ORDER BY id DESC LIMIT 1", (player_id,)).fetchone()
        if (newest is not None and unlock_id is None and str(newest[7]) == digest
                and str(newest[2]) == player_name and bool(newest[8]) == late):
            return _stored(newest)  # the same list sent again (Back, a double tap): kept once
        made = conn.execute("SELECT count(*) FROM register_submissions WHERE player_id = ? "
                            "AND submitted_at > ?", (player_id, since)).fetchone()[0]
        if int(made) >= limit:
            return None
        cursor = conn.execute(
            "INSERT INTO register_submissions (player_id, player_name, source, lang, "
            "submitted_at, rows, sha256, late) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (player_id, player_name, source, lang, now, json.dumps(ordered),
             list_hash(ordered), int(late)))
        number = int(cursor.lastrowid or 0)
        if unlock_id is not None:
            conn.execute("UPDATE register_unlocks SET used_by = ? WHERE id = ?",
                         (number, unlock_id))
    return Stored(number, player_id, player_name, source, lang, now, ordered,
                  list_hash(ordered), late)


def count_since(db: EventDB, player_id: str, seconds: float) -> int:
    """How many submissions the player made within the last ``seconds``."""
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)).isoformat(
        timespec="seconds")
    return int(db.select("SELECT count(*) FROM register_submissions WHERE player_id = ? AND "
                         "submitted_at > ?", (player_id, since))[0][0])


def current(db: EventDB) -> list[Stored]:
    """Each player's newest submission, by KONAMI ID."""
    return [_stored(r) for r in db.select(
        f"SELECT {_COLUMNS} FROM register_submissions WHERE id IN (SELECT max(id) FROM "
        "register_submissions GROUP BY player_id) ORDER BY player_id")]


def history(db: EventDB, player_id: str) -> list[Stored]:
    """A player's submissions, newest first."""
    return [_stored(r) for r in db.select(
        f"SELECT {_COLUMNS} FROM register_submissions WHERE player_id = ? ORDER BY id DESC",
        (player_id,))]


def new_code(length: int = 6) -> str:
    """A random code of easily read letters and digits."""
    return "".join(secrets.choice(_LETTERS) for _ in range(length))


def event_code(db: EventDB) -> str | None:
    """The code in the registration page's address; None: the page is not open."""
    return db.meta(_CODE_KEY)


def set_event_code(db: EventDB, code: str | None) -> None:
    db.set_meta(_CODE_KEY, code)


def deadline(db: EventDB) -> dt.datetime | None:
    """When the lists lock (UTC), None: no deadline set."""
    stored = db.meta(_DEADLINE_KEY)
    return dt.datetime.fromisoformat(stored) if stored else None


def set_deadline(db: EventDB, when: dt.datetime | None) -> None:
    db.set_meta(_DEADLINE_KEY, when.astimezone(dt.UTC).isoformat(timespec="seconds")
                if when is not None else None)


def receipt(db: EventDB, player_id: str, *, make: bool = False) -> str | None:
    """The player's receipt code (made on the first submission when ``make``)."""
    rows = db.select("SELECT receipt FROM register_access WHERE player_id = ?", (player_id,))
    if rows and rows[0][0]:
        return str(rows[0][0])
    if not make:
        return None
    code = new_code(8)
    with db.transaction() as conn:
        conn.execute("INSERT INTO register_access (player_id, receipt) VALUES (?, ?) "
                     "ON CONFLICT(player_id) DO UPDATE SET receipt = coalesce(receipt, "
                     "excluded.receipt)", (player_id, code))
    return receipt(db, player_id)


def pin(db: EventDB, player_id: str) -> str | None:
    """The PIN the organizer gave the player, None when none."""
    rows = db.select("SELECT pin FROM register_access WHERE player_id = ?", (player_id,))
    return str(rows[0][0]) if rows and rows[0][0] else None


def set_pins(db: EventDB, pins: dict[str, str]) -> None:
    """Give players PINs (KONAMI ID → PIN); an empty PIN removes one."""
    with db.transaction() as conn:
        for player_id, code in pins.items():
            conn.execute("INSERT INTO register_access (player_id, pin) VALUES (?, ?) "
                         "ON CONFLICT(player_id) DO UPDATE SET pin = excluded.pin",
                         (player_id, code or None))


#: the heading of a registration list's PIN column (case and spacing folded)
PIN_HEADING = "pin"


def pins_from(files: list[tuple[str, bytes]]) -> tuple[dict[str, str], list[Problem]]:
    """Players' PINs from registration lists (CSV or XLSX) with a ``PIN`` column beside the
    player id column: KONAMI ID → PIN, and each row whose PIN or id could not be used."""
    from validator.files.tabular import read_sheets
    from validator.inputs.registrations.layout import header_map

    pins: dict[str, str] = {}
    problems: list[Problem] = []
    for name, data in files:
        if Path(name).suffix.lower() not in (".csv", ".xlsx"):
            continue
        try:
            sheets = read_sheets(Path(name), data=data, partial=True)
        except InputError as exc:
            problems += exc.problems
            continue
        for sheet in sheets:
            for r, cells in enumerate(sheet.rows[:10]):
                where = [i for i, c in enumerate(cells) if "".join(c.split()).casefold()
                         == PIN_HEADING]
                found = header_map(cells).get("player_id")
                if not where or found is None:
                    continue
                for number, row in enumerate(sheet.rows[r + 1:], r + 2):
                    typed = row[where[0]].strip() if where[0] < len(row) else ""
                    raw = row[found] if found < len(row) else ""
                    if not typed and not raw.strip():
                        continue
                    player_id, lost = player_id_of(raw)
                    if lost or not (player_id.isdigit() and len(player_id) == KONAMI_DIGITS) \
                            or not typed.isalnum() or len(typed) > 20:
                        problems.append(Problem.of(name, number, sheet.name or None,
                                                   "expected a KONAMI ID and a PIN of up to 20 "
                                                   "letters or digits", code="BAD_OPTION"))
                        continue
                    pins.setdefault(player_id, typed)
                break
    return pins, problems


@dataclass(frozen=True)
class Unlock:
    """The organizer let one player submit after the deadline: who, when, why, and the
    submission that used it (None while unused)."""

    id: int
    player_id: str
    reason: str
    made_by: str
    made_at: str
    used_by: int | None


def unlock(db: EventDB, player_id: str, reason: str, made_by: str) -> int:
    """Let one player submit once more after the deadline (logged)."""
    with db.transaction() as conn:
        cursor = conn.execute("INSERT INTO register_unlocks (player_id, reason, made_by, "
                              "made_at) VALUES (?, ?, ?, ?)",
                              (player_id, reason, made_by, _now()))
        return int(cursor.lastrowid or 0)


def unlocks(db: EventDB) -> list[Unlock]:
    """Every unlock, oldest first."""
    return [Unlock(int(i), str(p), str(r), str(b), str(a), None if u is None else int(u))
            for i, p, r, b, a, u in db.select(
                "SELECT id, player_id, reason, made_by, made_at, used_by FROM "
                "register_unlocks ORDER BY id")]


def open_unlock(db: EventDB, player_id: str) -> int | None:
    """The player's unused unlock, when the organizer gave one."""
    rows = db.select("SELECT min(id) FROM register_unlocks WHERE player_id = ? AND used_by "
                     "IS NULL", (player_id,))
    return None if rows[0][0] is None else int(rows[0][0])


def locked_for(db: EventDB, player_id: str | None,
               now: dt.datetime | None = None) -> tuple[bool, int | None]:
    """Whether the deadline has passed, and the unlock a submission of this player would
    use (the lists are locked for them when the first is True and the second None)."""
    when = deadline(db)
    past = when is not None and (now or dt.datetime.now(dt.UTC)) >= when
    return past, open_unlock(db, player_id) if past and player_id else None


def page_registrations(db: EventDB, event: str = "", date: str = "") -> Registrations:
    """The current submissions as the event's registrations (one source, like an upload)."""
    stored = current(db)
    rows = [{"deck_id": s.player_id, "section": section, "passcode": passcode, "qty": count,
             "file": PAGE_FILE, "line": s.number} for s in stored
            for section, passcode, count in s.rows]
    players = pl.DataFrame(
        {"player_id": [s.player_id for s in stored],
         "player_name": [s.player_name for s in stored],
         "event": [event] * len(stored), "date": [date] * len(stored),
         "file": [PAGE_FILE] * len(stored), "sheet": [f"#{s.number}" for s in stored]},
        schema=PLAYER_SCHEMA)
    return Registrations(entries_frame(rows), players, [], len(rows), len(rows), 0)


def choose(db: EventDB, player_id: str, choice: str, made_by: str) -> None:
    """The organizer's choice for a player whose list is both on the page and uploaded:
    ``page`` or ``upload``."""
    if choice not in ("page", "upload"):
        raise ValueError(f"not a choice: {choice!r}")
    with db.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO register_choices VALUES (?, ?, ?, ?)",
                     (player_id, choice, made_by, _now()))


def choices(db: EventDB) -> dict[str, str]:
    return {str(p): str(c) for p, c in db.select(
        "SELECT player_id, choice FROM register_choices")}


def conflict_ids(uploaded: Registrations | None, page: Registrations) -> list[str]:
    """Players with a list both uploaded and on the registration page."""
    if uploaded is None:
        return []
    theirs = set(uploaded.players["player_id"].to_list())
    return [p for p in page.players["player_id"].to_list() if p in theirs]


def merged(uploaded: Registrations | None, page: Registrations,
           chosen: dict[str, str]) -> Registrations | None:
    """The uploaded registrations with the page's lists added. A player on both keeps the
    organizer's choice; until one is made, the uploaded list, and an open entry for the
    head judge (``LIST_CONFLICT``) that names both."""
    if page.players.is_empty():
        return uploaded
    if uploaded is None:
        return page
    both = conflict_ids(uploaded, page)
    from_page = [p for p in page.players["player_id"].to_list()
                 if p not in both or chosen.get(p) == "page"]
    dropped = pl.Series([p for p in both if chosen.get(p) == "page"], dtype=pl.Utf8)
    keep = pl.Series(from_page, dtype=pl.Utf8)
    open_ = [p for p in both if p not in chosen]
    problems = [Problem.of(PAGE_FILE, None, None,
                           "player {player} submitted a list on the registration page and is "
                           "on an uploaded list too: the uploaded one is checked until the "
                           "organizer chooses one (Registrations page)", code="LIST_CONFLICT",
                           deck_id=p, section="main", player=p) for p in open_]
    entries = pl.concat([uploaded.entries.filter(~pl.col("deck_id").is_in(dropped.implode())),
                         page.entries.filter(pl.col("deck_id").is_in(keep.implode()))])
    players = pl.concat([uploaded.players.filter(~pl.col("player_id").is_in(
        dropped.implode())), page.players.filter(pl.col("player_id").is_in(keep.implode()))])
    return Registrations(entries, players,
                         capped([p for p in uploaded.problems
                                 if p.deck_id is None or p.deck_id not in set(from_page)]
                                + problems),
                         uploaded.rows_read + page.rows_read,
                         uploaded.rows_used + page.rows_used, uploaded.rows_reported,
                         uploaded.notes)
