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
from pathlib import Path

import polars as pl

from ..entries import SECTIONS, entries_frame
from ..errors import ProblemCollector

__all__ = ["is_ydke", "parse_ydk", "parse_ydke", "read_deck_file", "to_ydk", "to_ydke"]

_HEADERS = {"#main": "main", "#extra": "extra", "!side": "side"}


def parse_ydk(data: bytes | str, file: str, deck_id: str) -> pl.DataFrame:
    problems = ProblemCollector(file)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            problems.add(f"not UTF-8 text (byte {exc.start}); expected a YDK deck file")
            problems.raise_if_any()
            raise AssertionError from exc  # unreachable: raise_if_any raised
    else:
        text = data.removeprefix("\ufeff")
    section = "main"
    rows: list[dict[str, object]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        header = _HEADERS.get(line.lower())
        if header:
            section = header
            continue
        if line.startswith(("#", "!")):
            continue
        if not line.isascii() or not line.isdigit() or len(line) > 10:
            problems.add(f"expected a passcode (digits) or a #main/#extra/!side line, "
                         f"got {line[:40]!r}", number)
            continue
        code = int(line)
        if code >= 2**32:
            problems.add(f"passcode {line} is larger than any card's", number)
            continue
        rows.append({"deck_id": deck_id, "section": section, "passcode": code, "qty": 1,
                     "file": file, "line": number})
    problems.raise_if_any()
    return entries_frame(rows)


def is_ydke(text: str) -> bool:
    return text.strip().lower().startswith("ydke://")


def parse_ydke(url: str, file: str, deck_id: str, line: int | None = None,
               cell: str | None = None) -> pl.DataFrame:
    problems = ProblemCollector(file)
    body = url.strip()
    if not body.lower().startswith("ydke://"):
        problems.add("expected a link starting with ydke://", line, cell)
        problems.raise_if_any()
    parts = body[len("ydke://"):].split("!")
    if len(parts) < 3 or any(p for p in parts[3:]):
        problems.add("a ydke link has three parts (main!extra!side!)", line, cell)
        problems.raise_if_any()
    rows: list[dict[str, object]] = []
    for section, part in zip(SECTIONS, parts[:3], strict=True):
        try:
            raw = base64.b64decode(part, validate=True)
        except (binascii.Error, ValueError):
            problems.add(f"the {section} part is not base64", line, cell)
            continue
        if len(raw) % 4:
            problems.add(f"the {section} part is not whole 4-byte passcodes", line, cell)
            continue
        for (code,) in struct.iter_unpack("<I", raw):
            rows.append({"deck_id": deck_id, "section": section, "passcode": code, "qty": 1,
                         "file": file, "line": line, "cell": cell})
    problems.raise_if_any()
    return entries_frame(rows)


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


def read_deck_file(path: Path, deck_id: str | None = None) -> pl.DataFrame:
    """A deck file by its content: YDK, a ydke link, or a text list (resolved later)."""
    return read_deck_bytes(path.read_bytes(), str(path), deck_id or path.stem)


def read_deck_bytes(data: bytes, label: str, deck_id: str) -> pl.DataFrame:
    from .textlist import parse_text_list

    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith(b"ydke://"):
        text = data.decode("utf-8-sig", errors="replace").strip()
        return parse_ydke(text.splitlines()[0], label, deck_id, line=1)
    if label.lower().endswith(".ydk") or head.startswith((b"#created", b"#main", b"#extra",
                                                         b"!side")):
        return parse_ydk(data, label, deck_id)
    return parse_text_list(data, label, deck_id)
