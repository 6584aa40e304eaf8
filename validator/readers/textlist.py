"""Plain-text deck lists typed by people, in English, Japanese, Korean or Thai.

Entries: ``3 Ash Blossom & Joyous Spring``, ``3x Ash Blossom``, ``Ash Blossom x3``,
``Ash Blossom ×3``, ``Ash Blossom (3)``, ``灰流うらら ３枚``, ``하루 우라라 3장``, or a bare
name (one copy) or a bare passcode. Section headers (``Main``, ``Monster``, ``Spell``,
``Trap``, ``Extra``, ``Side`` and their ja/ko/th forms, with optional counts and punctuation)
switch sections; Monster/Spell/Trap are parts of the main deck. ``Total``/``合計``/``합계``
lines and ``#``/``//`` comments are skipped.
"""

from __future__ import annotations

import re
import unicodedata

import polars as pl

from ..entries import entries_frame
from ..errors import ProblemCollector
from ..tabular import decode_text

__all__ = ["SECTION_WORDS", "SLOT_WORDS", "header_of", "parse_quantity_line", "parse_text_list",
           "section_of"]

SECTION_WORDS: dict[str, str] = {
    "main": "main", "main deck": "main", "monster": "main", "monsters": "main",
    "spell": "main", "spells": "main", "trap": "main", "traps": "main",
    "monster cards": "main", "spell cards": "main", "trap cards": "main",
    "extra": "extra", "extra deck": "extra", "side": "side", "side deck": "side",
    "メイン": "main", "メインデッキ": "main", "モンスター": "main", "モンスターカード": "main",
    "魔法": "main", "魔法カード": "main", "罠": "main", "罠カード": "main",
    "エクストラ": "extra", "エクストラデッキ": "extra", "サイド": "side",
    "サイドデッキ": "side",
    "메인": "main", "메인 덱": "main", "메인덱": "main", "몬스터": "main", "마법": "main",
    "함정": "main", "엑스트라": "extra", "엑스트라 덱": "extra", "엑스트라덱": "extra",
    "사이드": "side", "사이드 덱": "side", "사이드덱": "side",
    "เมน": "main", "เมนเด็ค": "main", "มอนสเตอร์": "main", "เวทมนตร์": "main",
    "กับดัก": "main", "เอ็กซ์ตร้า": "extra", "เอ็กซ์ตร้าเด็ค": "extra", "ไซด์": "side",
    "ไซด์เด็ค": "side",
    "skill": "main", "skill card": "main", "スキル": "main", "スキルカード": "main",
    "스킬": "main", "스킬 카드": "main", "สกิล": "main",
}
#: headers that also tell the kind of the cards below them
SLOT_WORDS: dict[str, str] = {
    "monster": "monster", "monsters": "monster", "monster cards": "monster",
    "spell": "spell", "spells": "spell", "spell cards": "spell",
    "trap": "trap", "traps": "trap", "trap cards": "trap",
    "extra": "extra", "extra deck": "extra", "skill": "skill", "skill card": "skill",
    "モンスター": "monster", "モンスターカード": "monster", "魔法": "spell",
    "魔法カード": "spell", "罠": "trap", "罠カード": "trap", "エクストラ": "extra",
    "エクストラデッキ": "extra", "スキル": "skill", "スキルカード": "skill",
    "몬스터": "monster", "마법": "spell", "함정": "trap", "엑스트라": "extra",
    "엑스트라 덱": "extra", "엑스트라덱": "extra", "스킬": "skill", "스킬 카드": "skill",
    "มอนสเตอร์": "monster", "เวทมนตร์": "spell", "กับดัก": "trap", "เอ็กซ์ตร้า": "extra",
    "เอ็กซ์ตร้าเด็ค": "extra", "สกิล": "skill",
}
_TOTAL = re.compile(r"^(total|sum|合計|総数|합계|총|รวม)\b", re.IGNORECASE)
_UNITS = r"(?:枚|장|ใบ|x|×|copies|copy|cards?)?"
_LEADING = re.compile(rf"^(\d{{1,3}})\s*(?:x|×|\*)?\s*{_UNITS}\s+(.+)$", re.IGNORECASE)
_TRAILING = re.compile(r"^(.+?)\s*(?:[x×\*]\s*(\d{1,3})|\(\s*(\d{1,3})\s*\)|(\d{1,3})\s*"
                       r"(?:枚|장|ใบ))\s*$", re.IGNORECASE)
_TAB_QTY = re.compile(r"^(.+?)[\t,;]\s*(\d{1,3})\s*$")
_HEADER_NOISE = re.compile(r"[\s\-=:：\[\]【】()（）<>#*_~]+|\d+\s*(枚|장|ใบ|cards?)?",
                           re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def header_of(text: str) -> tuple[str, str | None] | None:
    """The section a header line names and the kind of card it announces (the slot), or
    None when it is not a header."""
    bare = _HEADER_NOISE.sub(" ", unicodedata.normalize("NFKC", text)).strip().lower()
    bare = re.sub(r"\s+", " ", bare)
    for word in (bare, bare.replace(" ", "")):
        if word in SECTION_WORDS:
            return SECTION_WORDS[word], SLOT_WORDS.get(word)
    return None


def section_of(text: str) -> str | None:
    """The section a header line names, or None when it is not a header."""
    header = header_of(text)
    return header[0] if header else None


def parse_quantity_line(text: str) -> tuple[int, str]:
    """``(quantity, name)`` of one entry line; a line without a number is one copy."""
    line = unicodedata.normalize("NFKC", text).strip()
    if m := _LEADING.match(line):
        return int(m.group(1)), m.group(2).strip()
    if m := _TRAILING.match(line):
        return int(next(g for g in m.groups()[1:] if g)), m.group(1).strip()
    if m := _TAB_QTY.match(line):
        return int(m.group(2)), m.group(1).strip()
    return 1, line


def parse_text_list(data: bytes | str, file: str, deck_id: str) -> pl.DataFrame:
    problems = ProblemCollector(file)
    text = decode_text(data, file) if isinstance(data, bytes) else data
    if _CONTROL.search(text):
        problems.add("contains control characters; expected a text deck list")
        problems.raise_if_any()
    section, slot = "main", None
    rows: list[dict[str, object]] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")) or _TOTAL.match(line):
            continue
        header = header_of(line)
        if header:
            section, slot = header
            continue
        qty, name = parse_quantity_line(line)
        if qty < 1:
            problems.add(f"quantity {qty} for {name!r}", number)
            continue
        if len(name) > 150:
            problems.add("a card name longer than any card's", number)
            continue
        entry: dict[str, object] = {"deck_id": deck_id, "section": section, "qty": qty,
                                    "file": file, "line": number, "slot": slot}
        if name.isascii() and name.isdigit() and len(name) <= 10:
            entry["passcode"] = int(name)
        else:
            entry["name"] = name
        rows.append(entry)
    problems.raise_if_any()
    return entries_frame(rows)
