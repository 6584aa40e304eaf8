"""YDK deck files and ydke:// links, read as EDOPro reads them, and written back out.

YDK: ``#main``, ``#extra`` and ``!side`` start sections (cards before any header are main);
other ``#`` lines are comments; blank lines, CRLF and a UTF-8 BOM are accepted. Every other
line must be a passcode; unlike EDOPro, which skips such a line, it is reported.

ydke: ``ydke://MAIN!EXTRA!SIDE!``, each part the base64 of little-endian uint32 passcodes.
"""

from __future__ import annotations

import base64
import binascii
import struct
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import polars as pl

from validator.errors import MORE, PER_FILE, InputError, Problem
from validator.inputs.entries import ENTRY_SCHEMA, conform
from validator.vocab import SECTIONS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["PART_FILES", "Parsed", "YdkParts", "is_ydke", "parse_ydk", "parse_ydke",
           "to_ydk", "to_ydke", "ydk_table", "ydke_codes", "ydke_frame",
           "ydke_table"]



_SECTION_OF = {"#main": "main", "#extra": "extra", "!side": "side"}


def _texts(labels: list[str], datas: list[bytes | str], problems: list[Problem]) -> tuple[
        pl.Series, pl.Series]:
    """The files as text, BOM removed and lone CRs made line breaks, with their places in
    ``datas``; a file that is not UTF-8 is reported (and left out)."""
    blobs = [d.encode(errors="surrogatepass") if isinstance(d, str) else d for d in datas]
    raw = pl.Series(blobs, dtype=pl.Binary)
    keep = pl.int_range(len(datas), dtype=pl.UInt32, eager=True)
    try:  # all files at once, as nearly always: one validation in polars
        texts = raw.cast(pl.Utf8)
    except pl.exceptions.ComputeError:  # which files, and where: the few that fail
        good: list[int] = []
        for i, blob in enumerate(blobs):
            try:
                blob.decode()
            except UnicodeDecodeError as exc:
                problems.append(Problem.of(labels[i], None, None,
                                           "not UTF-8 text (byte {byte}); expected a YDK deck "
                                           "file", code="NOT_UTF8", byte=exc.start))
                continue
            good.append(i)
        keep = pl.Series(good, dtype=pl.UInt32)
        texts = raw.gather(keep).cast(pl.Utf8)
    if texts.str.starts_with("\ufeff").any():
        texts = texts.str.strip_prefix("\ufeff")
    lone_cr = texts.str.contains("\r([^\n]|$)").arg_true()
    if lone_cr.len():  # old Mac line breaks: each CR ends a line
        texts = texts.scatter(lone_cr, texts.gather(lone_cr).str.replace_all(
            "\r\n", "\n", literal=True).str.replace_all("\r", "\n", literal=True))
    return texts, keep


#: YDK files parsed together by one thread: the parts of a larger batch are parsed side by
#: side (polars runs most steps of one part on one thread)
PART_FILES = 2500

Parsed = tuple[pl.DataFrame, list[Problem]]


class YdkParts:
    """YDK files parsed in parts of ``PART_FILES`` as they are added: each full part is
    parsed by a worker thread while the caller goes on (reading the next files), the last
    one by the caller; ``finish`` gives the entries and problems of the parts in order."""

    def __init__(self) -> None:
        self._labels: list[str] = []
        self._ids: list[str] = []
        self._datas: list[bytes | str] = []
        self._pool: ThreadPoolExecutor | None = None
        self._parts: list[Future[Parsed]] = []
        self.kinds: list[str] = []  # what kind each source given to ``ydk_parts`` was

    def add(self, label: str, deck_id: str, data: bytes | str) -> None:
        self._labels.append(label)
        self._ids.append(deck_id)
        self._datas.append(data)
        if len(self._datas) == PART_FILES:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max(1, pl.thread_pool_size()))
            self._parts.append(self._pool.submit(_ydk_part, self._labels, self._ids,
                                                 self._datas))
            self._labels, self._ids, self._datas = [], [], []

    def finish(self) -> Parsed:
        last = [_ydk_part(self._labels, self._ids, self._datas)] \
            if self._datas or not self._parts else []
        try:
            done = [part.result() for part in self._parts] + last
        finally:
            if self._pool is not None:
                self._pool.shutdown()
        if len(done) == 1:
            return done[0]
        return (pl.concat([entries for entries, _ in done], rechunk=True),
                [problem for _, found in done for problem in found])


def ydk_table(labels: list[str], deck_ids: list[str], datas: list[bytes | str]) -> Parsed:
    """Many YDK files parsed in one pass: every file's lines in one column, sections filled
    down per file, passcodes cast at once. A line that is neither a header, a comment nor a
    passcode is reported with its file and line (and its deck: the head judge decides).

    A batch of more than ``PART_FILES`` files is parsed in parts of that many, side by side
    (``YdkParts``); the entries and problems are those of the parts one after another."""
    parts = YdkParts()
    for label, deck_id, data in zip(labels, deck_ids, datas, strict=True):
        parts.add(label, deck_id, data)
    return parts.finish()


def _ydk_part(labels: list[str], deck_ids: list[str], datas: list[bytes | str]) -> Parsed:
    problems: list[Problem] = []
    texts, keep = _texts(labels, datas, problems)
    # one row per line of every file (a CRLF's CR goes with the stripping)
    split = pl.DataFrame({"src": keep, "text": texts}).select(
        "src", pl.col("text").str.split("\n"))
    per_file = split["text"].list.len()
    first_row = per_file.cum_sum() - per_file
    exploded = split.explode("text")
    # the line number is the row's place less its file's first row
    places = pl.Int32 if exploded.height < 2**31 else pl.Int64
    firsts = first_row.gather(exploded["src"].rle_id()).cast(places)
    text = exploded["text"].str.strip_chars()
    numbers = (pl.int_range(1, exploded.height + 1, dtype=places, eager=True) - firsts) \
        .cast(pl.Int32)
    # a passcode is 1 to 10 digits below 2^32 (the cast alone takes a "+" and more digits);
    # the other lines (headers, comments, blank and bad lines: few) are read apart
    code = text.cast(pl.UInt32, strict=False)
    valid = code.is_not_null() & ~text.str.starts_with("+") & (text.str.len_bytes() <= 10)
    other = (~valid).arg_true()
    others = text.gather(other)
    note = others.str.starts_with("#") | others.str.starts_with("!")
    # sections: each file starts in main; a header row sets it from there on (one fill
    # down over all files)
    headers = others.filter(note).str.to_lowercase().replace_strict(
        _SECTION_OF, default=None, return_dtype=pl.Utf8)
    at = other.filter(note).filter(headers.is_not_null())
    section_enum = ENTRY_SCHEMA["section"]
    marks = pl.repeat(None, text.len(), dtype=section_enum, eager=True).alias(
        "section").scatter(first_row.filter(per_file > 0), "main")
    if at.len():
        marks = marks.scatter(at, headers.drop_nulls().cast(section_enum))
    src = exploded["src"]
    rows = pl.DataFrame([src, marks.forward_fill(), code.alias("passcode"),
                         numbers.alias("line")])
    good = rows.filter(valid)
    wrong = other.filter(~note & (others != ""))
    if wrong.len():
        bad = rows[wrong].with_columns(text.gather(wrong).alias("t"))
        shown = bad.filter(pl.int_range(pl.len()).over("src") < PER_FILE)
        for src, line, text_, section in shown.select(
                "src", "line", "t", "section").iter_rows():
            digits = text_.isascii() and text_.isdigit() and len(text_) <= 10
            msgid = ("passcode {typed} is larger than any card's" if digits else
                     "expected a passcode (digits) or a #main/#extra/!side line, got {typed}")
            problems.append(Problem.of(labels[src], line, None, msgid, deck_id=deck_ids[src],
                                       section=section, code="BAD_PASSCODE",
                                       typed=text_ if digits else repr(text_[:40])))
        more = bad.group_by("src").len().filter(pl.col("len") > PER_FILE)
        for src, count in more.iter_rows():
            problems.append(Problem.of(labels[src], None, None,
                                       "… and {n} more lines that are not passcodes",
                                       code=MORE, n=count - PER_FILE))
    # copies on consecutive lines (as EDOPro writes a card's copies) are one entry of as
    # many, at its first line (44% fewer rows in real decks)
    same = pl.all_horizontal(pl.col(c) == pl.col(c).shift() for c in ("src", "section",
                                                                       "passcode"))
    starts = good.select(same.fill_null(False).not_().arg_true())["src"]
    ends = pl.concat([starts.slice(1), pl.Series([good.height], dtype=starts.dtype)])
    good = good[starts].with_columns((ends - starts).cast(pl.Int32).alias("qty"))
    entries = good.select(
        pl.Series("deck_id", deck_ids, dtype=pl.Utf8).gather(good["src"]),
        "section", pl.col("passcode").cast(pl.Int64), "qty",
        pl.Series("file", labels, dtype=pl.Utf8).gather(good["src"]), "line")
    return conform(entries), problems


def parse_ydk(data: bytes | str, file: str, deck_id: str) -> pl.DataFrame:
    """One YDK deck, read as EDOPro reads it, every bad line reported (raised)."""
    entries, problems = ydk_table([file], [deck_id], [data])
    if problems:
        raise InputError(problems)
    return entries


def is_ydke(text: str) -> bool:
    return text.strip().lower().startswith("ydke://")


#: what is wrong with a ydke link: a catalog entry and its values
YdkeWrong = tuple[str, dict[str, str]]


def ydke_codes(url: str) -> tuple[list[tuple[str, np.ndarray]], list[YdkeWrong]]:
    """The passcodes of each section of a ydke link, and what is wrong with it."""
    body = url.strip()
    if not body.lower().startswith("ydke://"):
        return [], [("expected a link starting with ydke://", {})]
    parts = body[len("ydke://"):].split("!")
    if len(parts) < 3 or any(p for p in parts[3:]):
        return [], [("a ydke link has three parts (main!extra!side!)", {})]
    import numpy as np  # ydke links only

    found: list[tuple[str, np.ndarray]] = []
    wrong: list[YdkeWrong] = []
    for section, part in zip(SECTIONS, parts[:3], strict=True):
        try:
            raw = base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            wrong.append(("the {part} part is not base64", {"part": section}))
            continue
        if len(raw) % 4:
            wrong.append(("the {part} part is not whole 4-byte passcodes",
                          {"part": section}))
            continue
        found.append((section, np.frombuffer(raw, dtype="<u4").astype(np.int64)))
    return found, wrong


#: one decoded ydke link: its sections' passcodes, file, deck id, line and cell
YdkeDeck = tuple[list[tuple[str, "np.ndarray"]], str, str, int | None, str | None]


def where_read(decks: Sequence[tuple[Any, str, str, int | None, str | None]]
               ) -> pl.DataFrame:
    """One row per deck of (what, file, deck id, line, cell): where it was read."""
    return pl.DataFrame(
        {"deck_id": [d[2] for d in decks], "file": [d[1] for d in decks],
         "line": pl.Series([d[3] for d in decks], dtype=pl.Int32),
         "cell": pl.Series([d[4] for d in decks], dtype=pl.Utf8)},
        schema={"deck_id": pl.Utf8, "file": pl.Utf8, "line": pl.Int32, "cell": pl.Utf8})


def ydke_table(decks: Sequence[YdkeDeck]) -> pl.DataFrame:
    """Many decoded ydke links as one entry table: the passcode arrays concatenated, each
    row's deck gathered by number (no frame per deck)."""
    import numpy as np

    codes, sections, owners = [np.zeros(0, np.int64)], [np.zeros(0, np.uint8)], \
        [np.zeros(0, np.int64)]
    for number, (found, *_) in enumerate(decks):
        for section, part in found:
            codes.append(part)
            sections.append(np.full(len(part), SECTIONS.index(section), np.uint8))
            owners.append(np.full(len(part), number, np.int64))
    owner = pl.Series(np.concatenate(owners))
    decks_of = where_read(decks)
    names = pl.Series(list(SECTIONS), dtype=ENTRY_SCHEMA["section"])
    return conform(pl.DataFrame({
        "section": names.gather(pl.Series(np.concatenate(sections))),
        "passcode": pl.Series(np.concatenate(codes), dtype=pl.Int64),
        "qty": pl.Series(np.ones(len(owner), np.int32))}).with_columns(
        decks_of.select(pl.all().gather(owner)).get_columns()))


def ydke_frame(found: list[tuple[str, np.ndarray]], file: str, deck_id: str,
               line: int | None = None, cell: str | None = None) -> pl.DataFrame:
    """One decoded ydke link as entries."""
    return ydke_table([(found, file, deck_id, line, cell)])


def parse_ydke(url: str, file: str, deck_id: str, line: int | None = None,
               cell: str | None = None) -> pl.DataFrame:
    found, wrong = ydke_codes(url)
    if wrong:
        raise InputError([Problem.of(file, line, cell, msgid, code="BAD_YDKE", **values)
                          for msgid, values in wrong])
    return ydke_frame(found, file, deck_id, line, cell)


def _expanded(entries: pl.DataFrame, section: str) -> list[int]:
    part = entries.filter(pl.col("section") == section).select("passcode", "qty")
    codes: list[int] = []
    for code, qty in part.iter_rows():
        codes.extend([int(code)] * int(qty))
    return codes


def to_ydk(entries: pl.DataFrame, created_by: str = "deckcheck") -> str:
    lines = [f"#created by {created_by}"]
    for section, header in (("main", "#main"), ("extra", "#extra"), ("side", "!side")):
        lines.append(header)
        lines.extend(str(code) for code in _expanded(entries, section))
    return "\n".join(lines) + "\n"


def to_ydke(entries: pl.DataFrame) -> str:
    parts: Sequence[str] = [
        base64.b64encode(b"".join(struct.pack("<I", c) for c in _expanded(entries, s))).decode()
        for s in SECTIONS
    ]
    return "ydke://" + "!".join(parts) + "!"
