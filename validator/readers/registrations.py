"""Registered deck lists from spreadsheets and CSV exports, in any of four layouts.

* **long**: a header row (names matched loosely in en/ja/ko/th) and one row per
  (player, section, quantity, card); a passcode column is used when present;
* **Konami sheet**: player name, KONAMI ID / CARD GAME ID, event and date labels, then
  Monster/Spell/Trap/Side/Extra blocks of quantity + name with their written totals (a
  written total that disagrees with its rows is reported);
* **one worksheet per player**: each sheet in the Konami layout (the sheet name is the
  player id when the sheet has none);
* **forms export**: one row per player with Main/Extra/Side columns holding multi-line
  text lists, or a column of ydke:// links.

Every row is either used or reported: a row that cannot be read becomes a problem with its
file, sheet and cell. Hidden sheets are not read and are reported.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from ..entries import ENTRY_SCHEMA, SECTIONS, entries_frame
from ..errors import InputError, Problem, capped
from ..tabular import Sheet, cell_name, read_sheets
from .textlist import header_of, parse_quantity_line, parse_text_list, section_of
from .ydk import is_ydke, parse_ydke

__all__ = ["PLAYER_SCHEMA", "Registrations", "read_registration_files", "read_registrations"]

PLAYER_SCHEMA: dict[str, pl.DataType] = {
    "player_id": pl.Utf8(), "player_name": pl.Utf8(), "event": pl.Utf8(), "date": pl.Utf8(),
    "file": pl.Utf8(), "sheet": pl.Utf8(),
}

_COLUMNS: dict[str, tuple[str, ...]] = {
    "player_id": ("player id", "playerid", "konami id", "card game id", "cossy id", "id",
                  "プレイヤーid", "コナミid", "会員id", "플레이어 id", "코나미 id", "ไอดี"),
    "player_name": ("player", "player name", "name", "participant", "プレイヤー",
                    "プレイヤー名", "参加者", "氏名", "名前", "플레이어", "선수", "이름",
                    "참가자", "ผู้เล่น", "ชื่อผู้เล่น"),
    "section": ("section", "deck", "part", "区分", "デッキ", "구분", "덱", "ส่วน", "เด็ค"),
    "qty": ("qty", "quantity", "count", "copies", "amount", "#", "枚数", "数", "매수", "수량",
            "장수", "จำนวน"),
    "card": ("card", "card name", "cardname", "カード名", "カード", "카드명", "카드 이름",
             "카드", "ชื่อการ์ด", "การ์ด"),
    "passcode": ("passcode", "password", "card id", "code", "パスコード", "카드 번호",
                 "รหัสการ์ด"),
}
_LABELS: dict[str, tuple[str, ...]] = {
    "player_name": ("player name", "name", "duelist name", "氏名", "名前", "プレイヤー名",
                    "이름", "플레이어 이름", "ชื่อ", "ชื่อผู้เล่น"),
    "player_id": ("konami id", "card game id", "cossy id", "player id", "コナミid",
                  "カードゲームid", "코나미 id", "카드 게임 id", "ไอดี"),
    "event": ("event", "event name", "tournament", "大会名", "イベント", "대회명", "이벤트",
              "รายการ", "ชื่องาน"),
    "date": ("date", "event date", "日付", "開催日", "날짜", "일자", "วันที่"),
}
_QTY = re.compile(r"^[x×]?\s*(\d{1,3})\s*[x×枚장ใบ]?$", re.IGNORECASE)
_TOTAL = re.compile(r"^(total|sum|合計|総数|합계|총|รวม)", re.IGNORECASE)


def _norm(text: str) -> str:
    return re.sub(r"[\s_:：]+", " ", unicodedata.normalize("NFKC", text)).strip().lower()


def _quantity(text: str) -> int | None:
    m = _QTY.match(unicodedata.normalize("NFKC", text).strip())
    return int(m.group(1)) if m else None


@dataclass
class Registrations:
    """Registered lists as entries (``deck_id`` = player id), players, and problems."""

    entries: pl.DataFrame
    players: pl.DataFrame
    problems: list[Problem] = field(default_factory=list)
    rows_read: int = 0


@dataclass
class _Out:
    rows: list[dict[str, Any]] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)
    frames: list[pl.DataFrame] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rows_read: int = 0

    def problem(self, sheet: Sheet, row: int, col: int | None, message: str,
                deck_id: str | None = None, section: str | None = None) -> None:
        """A problem at a cell; with ``deck_id`` the row could hold a card of that player's
        list, so it is also a decision for the head judge."""
        where = _where(sheet, row, col) if col is not None else (sheet.name or None)
        self.problems.append(Problem(sheet.file, row, where, message, deck_id=deck_id,
                                     section=section))


def _where(sheet: Sheet, row: int, col: int) -> str:
    """``Sheet!B12`` in a workbook, ``B12`` in a CSV."""
    return f"{sheet.name}!{cell_name(row, col)}" if sheet.name else cell_name(row, col)


def _header_map(cells: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    normed = [_norm(c) for c in cells]
    for column, words in _COLUMNS.items():
        for i, text in enumerate(normed):
            if text in words and column not in found and i not in found.values():
                found[column] = i
    return found


def _find_long_header(sheet: Sheet) -> tuple[int, dict[str, int]] | None:
    for r, cells in enumerate(sheet.rows[:10]):
        found = _header_map(cells)
        has_player = "player_id" in found or "player_name" in found
        if has_player and "qty" in found and ("card" in found or "passcode" in found):
            return r, found
    return None


def _read_long(sheet: Sheet, header_row: int, cols: dict[str, int], out: _Out) -> None:
    """The long layout, checked column-wise with polars (no Python work per row but for
    the rows that are reported)."""
    body = sheet.rows[header_row + 1:]
    first_line = header_row + 2
    frame = pl.DataFrame(
        {key: [row[i].strip() if i < len(row) else "" for row in body]
         for key, i in cols.items()} | {"line": list(range(first_line, first_line + len(body)))},
        schema={**dict.fromkeys(cols, pl.Utf8), "line": pl.Int32},
    )
    text = [pl.col(k) for k in cols]
    frame = frame.filter(pl.any_horizontal([t != "" for t in text]))
    out.rows_read += frame.height

    def column(key: str) -> pl.Expr:
        return pl.col(key) if key in cols else pl.lit("")

    player = pl.when(column("player_id") != "").then(column("player_id")).otherwise(
        column("player_name"))
    totals = r"(?i)^(total|sum|合計|総数|합계|총|รวม)"
    frame = frame.with_columns(player.alias("player")).filter(
        ~pl.when(pl.col("player") != "").then(pl.col("player")).otherwise(column("card"))
        .str.contains(totals))
    named = {value: header_of(value) for value in frame.select(column("section"))
             .to_series().unique().to_list() if value}
    section = column("section").replace_strict(
        {k: v[0] for k, v in named.items() if v}, default=None, return_dtype=pl.Utf8)
    slot = column("section").replace_strict(
        {k: v[1] for k, v in named.items() if v and v[1]}, default=None, return_dtype=pl.Utf8)
    quantity = (column("qty").str.normalize("NFKC").str.strip_chars()
                .str.extract(r"(?i)^[x×]?\s*(\d{1,3})\s*[x×枚장ใบ]?$").cast(pl.Int32))
    bad_section = (column("section") != "") & section.is_null()
    code = column("passcode")
    problem = (
        pl.when(pl.col("player") == "").then(pl.lit("player|no player on this row"))
        .when(bad_section).then(pl.format("section|section '{}' is not Main/Monster/Spell/"
                                          "Trap/Extra/Side", column("section")))
        .when(quantity.is_null() | (quantity < 1)).then(
            pl.format("qty|quantity '{}' is not a number 1-99", column("qty")))
        .when((column("card") == "") & (code == "")).then(pl.lit("card|no card name or passcode"))
        .when((code != "") & ~code.str.contains(r"^\d+$")).then(
            pl.format("passcode|passcode '{}' is not a number", code))
    )
    frame = frame.with_columns(problem.alias("problem"), quantity.alias("quantity"),
                               pl.when(bad_section).then(None).otherwise(section)
                               .alias("named"), slot.alias("slot"))
    # a row without a section of its own is in the section of the rows above it
    frame = frame.with_columns(pl.col("named").forward_fill().fill_null("main"))
    for line, message, player_of, section_of_row in frame.filter(
            pl.col("problem").is_not_null()).select("line", "problem", "player",
                                                     "named").iter_rows():
        key, text_ = message.split("|", 1)
        column_index = cols.get(key, cols.get("player_name", cols.get("player_id")))
        out.problem(sheet, line, column_index, text_, deck_id=player_of or None,
                    section=section_of_row)
    good = frame.filter(pl.col("problem").is_null())
    by_code = code != ""
    letter = {k: cell_name(1, i)[:-1] for k, i in cols.items()}
    prefix = f"{sheet.name}!" if sheet.name else ""
    where = pl.format(prefix + "{}{}",
                      pl.when(by_code).then(pl.lit(letter.get("passcode", "A")))
                      .otherwise(pl.lit(letter.get("card", "A"))), pl.col("line"))
    out.frames.append(good.select(
        pl.col("player").alias("deck_id"),
        pl.col("named").cast(pl.Enum(["main", "extra", "side"])).alias("section"),
        pl.when(by_code).then(code.cast(pl.Int64, strict=False)).alias("passcode"),
        pl.when(by_code).then(None).otherwise(column("card")).alias("name"),
        pl.col("quantity").alias("qty"),
        pl.lit(sheet.file).alias("file"),
        pl.col("line"),
        where.alias("cell"),
        pl.col("slot").cast(ENTRY_SCHEMA["slot"]),
    ))
    names = good.group_by("player", maintain_order=True).agg(
        pl.when(column("player_name") != "").then(column("player_name"))
        .otherwise(pl.col("player")).first().alias("player_name"))
    out.players.extend({"player_id": p, "player_name": n, "file": sheet.file,
                        "sheet": sheet.name} for p, n in names.iter_rows())


_ALL_LABELS = {word for words in _LABELS.values() for word in words}


def _label_value(sheet: Sheet, words: tuple[str, ...]) -> str:
    """The value right of a label cell (empty when the next filled cell is another label)."""
    for row in sheet.rows[:12]:
        for i, text in enumerate(row):
            if _norm(text) in words:
                for value in row[i + 1:]:
                    if _norm(value) in _ALL_LABELS:
                        return ""
                    if value.strip():
                        return value.strip()
    return ""


def _blocks(sheet: Sheet) -> list[tuple[int, int, str, str | None]]:
    found = []
    for r, row in enumerate(sheet.rows):
        for c, text in enumerate(row):
            if text and len(text) < 40 and _quantity(text) is None:
                named = header_of(text)
                if named is not None:
                    found.append((r, c, *named))
    return found


def _read_konami(sheet: Sheet, out: _Out, fallback_id: str) -> bool:
    blocks = _blocks(sheet)
    if not blocks:
        return False
    player_id = _label_value(sheet, _LABELS["player_id"]) or fallback_id
    name = _label_value(sheet, _LABELS["player_name"])
    out.players.append({"player_id": player_id, "player_name": name or player_id,
                        "event": _label_value(sheet, _LABELS["event"]),
                        "date": _label_value(sheet, _LABELS["date"]),
                        "file": sheet.file, "sheet": sheet.name})
    starts = {(r, c) for r, c, _, _ in blocks}
    for r0, c, section, slot in blocks:
        total = 0
        for r in range(r0 + 1, len(sheet.rows)):
            row = sheet.rows[r]
            if (r, c) in starts:
                break
            qty_text = row[c].strip() if c < len(row) else ""
            name_text = row[c + 1].strip() if c + 1 < len(row) else ""
            if not qty_text and not name_text:
                continue
            if _norm(qty_text) in ("qty", "quantity", "枚数", "매수", "수량", "จำนวน"):
                continue
            if _TOTAL.match(qty_text) or _TOTAL.match(name_text):
                written = _quantity(name_text if _TOTAL.match(qty_text) else qty_text)
                if written is not None and written != total:
                    out.problem(sheet, r + 1, c, f"written {section} block total {written} "
                                f"but its rows add up to {total}")
                break
            out.rows_read += 1
            qty = _quantity(qty_text)
            if qty is None:
                lead_qty, lead_name = parse_quantity_line(qty_text)
                if not name_text and lead_name != qty_text:
                    qty, name_text = lead_qty, lead_name
            if qty is None or qty < 1:
                out.problem(sheet, r + 1, c, f"quantity {qty_text!r} is not a number 1-99",
                            deck_id=player_id, section=section)
                continue
            if not name_text:
                out.problem(sheet, r + 1, c + 1, f"quantity {qty} without a card name",
                            deck_id=player_id, section=section)
                continue
            total += qty
            out.rows.append({"deck_id": player_id, "section": section,
                             "passcode": int(name_text) if name_text.isdigit() else None,
                             "name": None if name_text.isdigit() else name_text, "qty": qty,
                             "file": sheet.file, "line": r + 1,
                             "cell": _where(sheet, r + 1, c + 1), "slot": slot})
    return True


def _find_forms_header(sheet: Sheet) -> tuple[int, dict[str, int]] | None:
    for r, cells in enumerate(sheet.rows[:5]):
        found = _header_map(cells)
        sections = {}
        for i, text in enumerate(cells):
            named = section_of(text)
            if named and named not in sections:
                sections[named] = i
            if _norm(text) in ("ydke", "ydke link", "deck link", "デッキコード", "덱 코드"):
                sections["ydke"] = i
        if ("player_id" in found or "player_name" in found) and sections:
            return r, {**found, **{f"sec_{k}": v for k, v in sections.items()}}
    return None


def _read_forms(sheet: Sheet, header_row: int, cols: dict[str, int], out: _Out) -> None:
    for r, row in enumerate(sheet.rows[header_row + 1:], start=header_row + 2):
        if not any(c.strip() for c in row):
            continue
        out.rows_read += 1
        pid_col = cols.get("player_id", cols.get("player_name", 0))
        player = row[pid_col].strip() if pid_col < len(row) else ""
        if not player:
            out.problem(sheet, r, pid_col, "no player on this row")
            continue
        name_col = cols.get("player_name")
        out.players.append({"player_id": player,
                            "player_name": row[name_col].strip() if name_col is not None
                            and name_col < len(row) else player,
                            "file": sheet.file, "sheet": sheet.name})
        for key, col in cols.items():
            if not key.startswith("sec_") or col >= len(row) or not row[col].strip():
                continue
            text = row[col].strip()
            where = _where(sheet, r, col)
            try:
                if is_ydke(text):
                    frame = parse_ydke(text, sheet.file, player, line=r, cell=where)
                else:
                    frame = parse_text_list(text, sheet.file, player).with_columns(
                        pl.lit(key[4:]).cast(pl.Enum(["main", "extra", "side"]))
                        .alias("section"),
                        pl.lit(r, pl.Int32).alias("line"), pl.lit(where).alias("cell"))
            except InputError as exc:
                out.problems.extend(Problem(sheet.file, r, where, p.message, deck_id=player,
                                            section=key[4:] if key[4:] in SECTIONS else None)
                                    for p in exc.problems)
                continue
            out.frames.append(frame)


def _read_sheet(sheet: Sheet, out: _Out) -> None:
    if not any(any(c.strip() for c in row) for row in sheet.rows):
        return
    long = _find_long_header(sheet)
    if long is not None:
        _read_long(sheet, *long, out)
        return
    forms = _find_forms_header(sheet)
    if forms is not None:
        _read_forms(sheet, *forms, out)
        return
    fallback = sheet.name or Path(sheet.file).stem
    if not _read_konami(sheet, out, fallback):
        out.problems.append(Problem(sheet.file, None, sheet.name or None,
                                    "no deck list found: expected a header with player, "
                                    "quantity and card columns, Main/Extra/Side columns, or "
                                    "Monster/Spell/Trap/Extra/Side blocks"))


def read_registration_files(paths: list[Path],
                            contents: list[bytes] | None = None) -> Registrations:
    """Registrations from files, or from uploaded ``contents`` that ``paths`` only name."""
    out = _Out()
    for number, path in enumerate(paths):
        try:
            sheets = read_sheets(path, include_hidden=True,
                                 data=None if contents is None else contents[number])
        except InputError as exc:
            out.problems.extend(exc.problems)
            continue
        for sheet in sheets:
            if sheet.hidden:
                out.problems.append(Problem(sheet.file, None, sheet.name,
                                            "hidden sheet not read; unhide it to include it"))
                continue
            _read_sheet(sheet, out)
    entries = pl.concat([entries_frame(out.rows), *out.frames])
    players = pl.DataFrame(
        {k: [p.get(k) for p in out.players] for k in PLAYER_SCHEMA}, schema=PLAYER_SCHEMA
    ).unique("player_id", keep="first", maintain_order=True)
    return Registrations(entries, players, capped(out.problems), out.rows_read)


def read_registrations(path: Path) -> Registrations:
    """One workbook, CSV, or a folder of them."""
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix.lower() in (".xlsx", ".csv"))
        if not files:
            raise InputError.at(str(path), "folder holds no .xlsx or .csv registrations")
        return read_registration_files(files)
    if not path.exists():
        raise InputError.at(str(path), "no such registrations file")
    return read_registration_files([path])
