"""Forbidden/Limited lists: EDOPro ``lflist.conf``, CSV/XLSX lists, and YGOJSON legality.

``lflist.conf`` is read as EDOPro reads it: lines starting with ``#`` are comments, ``!name``
starts a list (a file may hold several), ``$whitelist`` makes the current list a whitelist
(every card it does not name is illegal), ``$genesys`` makes its numbers Genesys points
rather than copy limits; an entry is ``PASSCODE COUNT [--comment]``, with a signed count
(a negative count forbids the card, as 0 does). CRLF and a UTF-8 BOM are accepted. Unlike
EDOPro, which skips a malformed line silently, every malformed line is reported.

A limit on any printing applies to the whole card name: entries are bound to ``card_id``
and the strictest limit of a name wins. An entry naming a passcode the card data does not know
(EDOPro's own entries such as GOAT's pre-errata 504700xxx and 511xxxxxx) is placed by the card
name in its comment; what stays unplaced is kept unused, and one warning per list counts both.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import polars as pl

from validator.cards.db import VERSION_SUFFIX, CardDB
from validator.errors import InputError, Problem, ProblemCollector
from validator.text.normalize import name_key_expr

__all__ = [
    "LIST_ENTRY_SCHEMA",
    "Banlist",
    "Bound",
    "effective_date",
    "from_ygojson",
    "in_force",
    "list_date",
    "list_line",
    "looks_like_table_list",
    "parse_lflist",
    "read_banlist",
    "read_list_file",
    "read_table_list",
    "stale_hint",
]

LIST_ENTRY_SCHEMA: dict[str, pl.DataType] = {
    "passcode": pl.Int64(),
    "name": pl.Utf8(),
    "limit": pl.Int64(),
    "points": pl.Float64(),
    "line": pl.Int64(),
}

#: what ends the card name of an entry's comment: a label after a tab or a run of spaces
#: ("--Imperial Order      TRAPS CARDS")
_COMMENT_LABEL = re.compile(r"\t| {2,}")
_ENTRY = re.compile(r"^([+-]?\d+)\s+([+-]?\d+(?:\.\d+)?)(?:\s|$)")


_LIST_DATE = re.compile(r"(?<!\d)(\d{4})[.\-/](\d{1,2})(?:[.\-/](\d{1,2}))?(?!\d)")


def list_date(name: str) -> str | None:
    """The date a list's own name carries ("2026.05 TCG" → "2026-05"), if any."""
    match = _LIST_DATE.search(name)
    if not match:
        return None
    year, month, day = match.groups()
    return f"{year}-{int(month):02d}" + (f"-{int(day):02d}" if day else "")


def effective_date(name: str) -> str | None:
    """The day a list takes effect, read from its name: "2025.04 TCG" → "2025-04-01",
    "2005.4 GOAT" → "2005-04-01", "2026.07.01 Rush Duel" → "2026-07-01"."""
    date = list_date(name)
    if date is None:
        return None
    full = date if date.count("-") == 2 else f"{date}-01"
    try:
        return dt.date.fromisoformat(full).isoformat()
    except ValueError:
        return None


def list_line(name: str, effective: str | None, reason: str) -> str:
    """A list as reports name it: "2025.04 TCG (effective 2025-04-01; in force on
    2025-06-15)"."""
    facts = [f"effective {effective}"] if effective else []
    facts += [reason] if reason else []
    return f"{name} ({'; '.join(facts)})" if facts else name


_Item = TypeVar("_Item")


def in_force(dated: Sequence[tuple[str, _Item]], on: str, what: str) -> _Item:
    """The item whose effective date (the pair's first part, YYYY-MM-DD) is the newest on or
    before ``on``; a date before every one is an error naming the earliest (``what``: the
    lists' description in it)."""
    due = [pair for pair in dated if pair[0] <= on]
    if not due:
        earliest = min((pair[0] for pair in dated), default="—")
        raise InputError.at("--date", f"{on} is before every stored {what} (the earliest "
                                      f"takes effect on {earliest})", code="NO_LIST_IN_FORCE")
    return max(due, key=lambda pair: pair[0])[1]


@dataclass(frozen=True)
class Bound:
    """A list bound to card data: per card, the name's ``limit`` (the strictest entry of any
    printing of any card of that name), the card's ``points`` and whether the list names the
    card (``listed``, in any printing); the list's warnings; how many entries were placed by
    the card name in their comment (``by_comment``), and the entries placed nowhere
    (``unplaced``: the list's entry columns)."""

    cards: pl.DataFrame
    warnings: list[Problem]
    by_comment: int = 0
    unplaced: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(
        schema=LIST_ENTRY_SCHEMA))


@dataclass
class Banlist:
    """One list: entries by passcode (or by name, for lists typed by hand)."""

    name: str
    source: str
    entries: pl.DataFrame
    whitelist: bool = False
    genesys: bool = False
    warnings: list[Problem] = field(default_factory=list)  # problems reading the list
    effective: str | None = None  # the day it takes effect (YYYY-MM-DD)
    effective_from: str = ""  # where that date comes from ("its name", "given at import"...)
    reason: str = ""  # why this list was chosen ("in force on 2025-06-15", "given by file")

    @property
    def line(self) -> str:
        """The list, its effective date and why it was chosen (see :func:`list_line`)."""
        return list_line(self.name, self.effective, self.reason)

    @property
    def date(self) -> str | None:
        return list_date(self.name)

    def bind(self, cards: CardDB) -> Bound:
        """Limits per card name, points and listing per card (pure: nothing is kept).

        A limit on any printing applies to the card's name, and so to every card whose name
        is always treated as that name; a whitelist admits the cards it names, in any
        printing, never through such a name link. An entry whose passcode the card data
        lacks is placed by the card name in its comment (``504700178 1 --Sangan``) when that
        name names one card; what cannot be placed is kept unused. One warning per list
        counts both.
        """
        warnings: list[Problem] = []
        entries = self.entries.with_row_index("entry")
        by_code = entries.filter(pl.col("passcode").is_not_null()).join(
            cards.printings.select("passcode", "card_id"), on="passcode", how="left")
        lacking = by_code.filter(pl.col("card_id").is_null())["entry"]
        typed = entries.filter(pl.col("passcode").is_null())
        games = cards.by_card.join(by_code.select("card_id"), on="card_id", how="semi")["rush"]
        game = None if games.is_empty() else games.sum() * 2 >= games.len()  # the list's game
        named = _by_name(cards, pl.concat([
            entries.filter(pl.col("entry").is_in(lacking.implode()) & pl.col("name")
                           .is_not_null()), typed]), game)
        for row in typed.join(named.filter(pl.col("cards") > 1), on="entry").sort(
                "line").iter_rows(named=True):  # a name typed on a table list
            warnings.append(Problem(self.source, row["line"], None,
                                    f"{row['name']!r} names more than one card; ignored",
                                    code="AMBIGUOUS_NAME"))
        placed = named.filter(pl.col("cards") == 1).select("entry", "card_id")
        bound = pl.concat([
            by_code.drop_nulls("card_id"),
            entries.join(placed, on="entry"),
        ])
        ambiguous = named.filter(pl.col("cards") > 1).join(typed, on="entry", how="semi")
        unplaced = entries.join(bound, on="entry", how="anti").join(
            ambiguous, on="entry", how="anti")  # an ambiguous typed name has its own warning
        by_comment = placed.join(typed, on="entry", how="anti").height
        if by_comment or not unplaced.is_empty():
            warnings.append(self._unplaced_warning(by_comment, unplaced, stale_hint(cards, self)))
        names = cards.by_card.select("card_id", "name_id")
        bound = bound.join(names, on="card_id", how="left")
        limits = bound.group_by("name_id").agg(pl.col("limit").min())
        per_card = bound.group_by("card_id").agg(pl.col("points").max()).with_columns(
            pl.lit(True).alias("listed"))
        out = (
            names.join(limits, on="name_id", how="left")
            .join(per_card, on="card_id", how="left")
            .filter(pl.col("listed").is_not_null() | pl.col("limit").is_not_null())
            .with_columns(pl.col("listed").fill_null(False))
            .select("card_id", "limit", "points", "listed")
        )
        return Bound(out, warnings, by_comment, unplaced.drop("entry"))

    def _unplaced_warning(self, by_comment: int, unplaced: pl.DataFrame, stale: str) -> Problem:
        """The one warning of a list about entries the card data lacks."""
        parts = []
        if by_comment:
            parts.append(f"{by_comment} {_entries_word(by_comment)} whose passcode the card "
                         "data lacks placed by the card name in their comment")
        if not unplaced.is_empty():
            what = [_entry_text(row) for row in
                    unplaced.sort("line").head(_SHOWN_UNPLACED).iter_rows(named=True)]
            more = unplaced.height - len(what)
            parts.append(f"{unplaced.height} {_entries_word(unplaced.height)} kept unused, "
                         "the card data holding neither the passcode nor one card of the "
                         "name ("
                         + ", ".join(what) + (f", … {more} more" if more else "") + ")")
        return Problem(self.source, None, None, f"list {self.name}: " + "; ".join(parts) + stale,
                       code="UNKNOWN_LIST_ENTRY" if unplaced.height else "LIST_ENTRY_BY_NAME")


_SHOWN_UNPLACED = 10


def _entry_text(row: dict[str, object]) -> str:
    """An entry as a warning names it: "line 5 passcode 511000819 (Imperial Order)"."""
    where = f"line {row['line']} " if row["line"] is not None else ""
    if row["passcode"] is None:
        return f"{where}{row['name']!r}"
    return f"{where}passcode {row['passcode']}" + (f" ({row['name']})" if row["name"] else "")


def _entries_word(count: int) -> str:
    return "entry" if count == 1 else "entries"


def _by_name(cards: CardDB, entries: pl.DataFrame, rush: bool | None) -> pl.DataFrame:
    """Per entry (``entry``), the card its ``name`` names and how many cards it names
    (``cards``: 0 for none). The name as written first, else without a version suffix
    ("Night Assailant (Pre-Errata)"); among several cards, those of the list's own game
    (``rush``, when known)."""
    if entries.is_empty():
        return pl.DataFrame(schema={"entry": pl.UInt32, "card_id": pl.Int64,
                                    "cards": pl.UInt32})
    keys = cards.names.select("card_id", "key").unique().join(
        cards.by_card.select("card_id", "rush"), on="card_id", how="left")
    name = pl.col("name")
    tried = pl.concat([
        entries.select("entry", name_key_expr(name).alias("key"), pl.lit(0).alias("try")),
        entries.select("entry", name_key_expr(name.str.replace(VERSION_SUFFIX, "")).alias("key"),
                       pl.lit(1).alias("try")),
    ])
    found = tried.join(keys, on="key").filter(pl.col("try") == pl.col("try").min().over("entry"))
    if rush is not None:
        found = found.filter((pl.col("rush") == rush).any().over("entry").not_()
                             | (pl.col("rush") == rush))
    counted = found.group_by("entry").agg(
        pl.col("card_id").first(), pl.col("card_id").n_unique().cast(pl.UInt32).alias("cards"))
    return entries.select("entry").join(counted, on="entry", how="left").with_columns(
        pl.col("cards").fill_null(0))


def stale_hint(cards: CardDB, banlist: Banlist) -> str:
    """"; card data dated D is older than list L: run `deckcheck data update`" when the
    list is newer than the card data, else nothing."""
    listed, data = banlist.date, cards.data_date
    if listed is None or data is None or data[:len(listed)] >= listed:
        return ""
    return (f"; card data dated {data} is older than list {banlist.name}: run "
            "`deckcheck data update`")


def _entries(rows: list[tuple[int | None, str | None, int | None, float | None, int]]) -> (
        pl.DataFrame):
    return pl.DataFrame(rows, schema=LIST_ENTRY_SCHEMA, orient="row")


def parse_lflist(text: str, source: str) -> list[Banlist]:
    """Every ``!name`` list of one lflist.conf text."""
    problems = ProblemCollector(source)
    lists: list[tuple[str, bool, bool, list[tuple[int | None, str | None, int | None,
                                                   float | None, int]]]] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r")
        if not line.strip() or line.startswith("#") or line.lstrip().startswith("--"):
            continue
        if line.startswith("!"):
            lists.append((line[1:].strip(), False, False, []))
            continue
        if line.startswith("$"):
            word = line[1:].strip().lower()
            if not lists:
                problems.add(f"{line.strip()!r} before any '!name' list line", number,
                             code="BAD_LFLIST_LINE")
            elif word in ("whitelist", "genesys"):
                name, white, genesys, rows = lists[-1]
                lists[-1] = (name, white or word == "whitelist", genesys or word == "genesys",
                             rows)
            else:
                problems.add(f"unknown directive {line.strip()!r} "
                             "(expected $whitelist or $genesys)", number, code="BAD_LFLIST_LINE")
            continue
        match = _ENTRY.match(line.strip())
        if not match:
            problems.add(f"expected 'PASSCODE COUNT --comment', got {line.strip()[:60]!r}",
                         number, code="BAD_LFLIST_LINE")
            continue
        if not lists:
            problems.add("an entry before any '!name' list line", number, code="BAD_LFLIST_LINE")
            continue
        passcode, count = int(match.group(1)), float(match.group(2))
        _, _, genesys, rows = lists[-1]
        comment = _COMMENT_LABEL.split(line.split("--", 1)[1])[0].strip() if (
            "--" in line) else None
        if genesys:
            rows.append((passcode, comment, None, count, number))
        elif not count.is_integer():
            problems.add(f"count {match.group(2)} is not a whole number", number,
                         code="BAD_LFLIST_LINE")
        else:
            rows.append((passcode, comment, max(int(count), 0), None, number))
    if not lists and not problems.problems:
        problems.add("no '!name' list line: not an lflist.conf", code="BAD_LFLIST_LINE")
    problems.raise_if_any()
    return [Banlist(name, source, _entries(rows), white, genesys)
            for name, white, genesys, rows in lists]


def read_table_list(path: Path) -> Banlist:
    """A list as CSV/XLSX: passcode or name (any language), status word or number, points."""
    from validator.text.lexicon import column_of, status_of  # table lists only

    problems = ProblemCollector(str(path))
    from validator.files.tabular import read_sheets  # a spreadsheet reader only where one is read

    sheets = [s for s in read_sheets(path) if s.rows]
    if not sheets:
        problems.add("the file is empty", 1, code="EMPTY_FILE")
        problems.raise_if_any()
    sheet = sheets[0]
    index: dict[str, int] = {}
    for i, text in enumerate(sheet.rows[0]):
        column = column_of(text, "list_columns")
        if column is not None and column not in index:
            index[column] = i
    if "passcode" not in index and "name" not in index:
        problems.add("header needs a passcode or a name column", 1, code="MISSING_COLUMN")
    if "status" not in index and "points" not in index:
        problems.add("header needs a status (Forbidden/Limited/...) or points column", 1,
                     code="MISSING_COLUMN")
    problems.raise_if_any()
    rows: list[tuple[int | None, str | None, int | None, float | None, int]] = []

    def cell(row: list[str], column: str) -> str:
        i = index.get(column)
        return row[i].strip() if i is not None and i < len(row) else ""

    for number, row in enumerate(sheet.rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        code, name = cell(row, "passcode"), cell(row, "name")
        status, points_text = cell(row, "status"), cell(row, "points")
        if code and not code.isdigit():
            problems.add(f"passcode {code!r} is not a number", number, "passcode",
                         code="BAD_PASSCODE")
            continue
        if not code and not name:
            problems.add("neither a passcode nor a card name", number, code="NO_CARD")
            continue
        limit: int | None = None
        if status:
            if status.lstrip("+-").isdigit():
                limit = max(int(status), 0)
            elif status_of(status) is not None:
                limit = status_of(status)
            else:
                problems.add(f"status {status!r} is not Forbidden/Limited/Semi-Limited/"
                             "Unlimited (or 禁止/制限/準制限/無制限, 금지/제한/준제한/무제한)",
                             number, "status", code="BAD_VALUE")
                continue
        points: float | None = None
        if points_text:
            try:
                points = float(points_text)
            except ValueError:
                problems.add(f"points {points_text!r} is not a number", number, "points",
                             code="BAD_VALUE")
                continue
        rows.append((int(code) if code else None, name or None, limit, points, number))
    problems.raise_if_any()
    return Banlist(path.stem, str(path), _entries(rows), genesys="status" not in index)


def from_ygojson(cards: CardDB, region: str) -> Banlist:
    """The list a YGOJSON source states for a region (tcg, ocg, ocg-kr, genesys...)."""
    from validator.text.lexicon import status_of  # the status words of a source

    legal = cards.legality.filter(pl.col("region") == region)
    if legal.is_empty():
        raise InputError.at(f"ygojson:{region}",
                            "the card data holds no legality for this region", code="NO_LIST")
    genesys = region == "genesys"
    entries = (
        legal.with_columns(
            pl.col("status").replace_strict(  # each distinct status word read once
                {word: status_of(word) for word in legal["status"].drop_nulls().unique()},
                default=None, return_dtype=pl.Int64).alias("limit"),
            pl.lit(None, pl.Utf8).alias("name"),
            pl.lit(None, pl.Int64).alias("line"),
        )
        .filter(pl.col("passcode").is_not_null())
        .filter(pl.col("limit").is_not_null() | pl.lit(genesys))
        .select(list(LIST_ENTRY_SCHEMA))
    )
    if genesys:
        entries = entries.with_columns(pl.lit(None, pl.Int64).alias("limit"))
    return Banlist(f"ygojson:{region}", f"ygojson:{region}", entries, genesys=genesys)


def read_list_file(path: Path) -> list[Banlist]:
    """Every list of a file: each ``!name`` list of an lflist.conf, or the one list of a
    CSV/XLSX (named after the file)."""
    if not path.exists():
        raise InputError.at(str(path), "no such list file", code="FILE_MISSING")
    if path.suffix.lower() in (".csv", ".xlsx", ".tsv"):
        return [read_table_list(path)]
    data = path.read_bytes()
    try:  # nearly every lflist.conf: UTF-8 without a BOM, as decode_text reads it too
        text = None if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) \
            else data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None:
        from validator.files.tabular import decode_text

        text = decode_text(data, str(path))
    return parse_lflist(text, str(path))


def read_banlist(path: Path, list_name: str | None = None) -> Banlist:
    """One list from a file: lflist.conf (picking ``list_name`` or the first), CSV or XLSX."""
    lists = read_list_file(path)
    if list_name is None:
        return lists[0]
    for candidate in lists:
        if candidate.name == list_name:
            return candidate
    names = ", ".join(repr(b.name) for b in lists)
    raise InputError.at(str(path), f"no list named {list_name!r} (the file has {names})",
                        code="NO_LIST")


def looks_like_table_list(path: Path) -> bool:
    """A CSV/XLSX whose header has a status or points column (a list, not a card table)."""
    from validator.text.lexicon import column_of  # table lists only

    try:
        from validator.files.tabular import read_sheets

        sheets = [s for s in read_sheets(path) if s.rows]
    except InputError:
        return False
    if not sheets:
        return False
    named = {column_of(h, "list_columns") for h in sheets[0].rows[0]}
    cards = {h.strip().lower() for h in sheets[0].rows[0]} & {"kind", "pools", "extra"}
    return bool(named & {"status", "points"}) and not cards
