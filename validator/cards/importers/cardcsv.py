"""A plain card list as CSV or XLSX, one row per printing, columns named in a header.

Columns (case-insensitive; only ``passcode`` and ``name`` are required):

| column | meaning |
|---|---|
| passcode | the printing's passcode (digits) |
| name / name_en | English name; `name_ja`, `name_ko`, `name_zh`, `name_fr`, ... other languages |
| alias | passcode of the printing this one is an alternate artwork/reprint of |
| treated_as | passcode of the card whose name this card's name is always treated as |
| kind | monster, spell, trap, token or skill (default monster) |
| extra | yes/no: an Extra Deck monster |
| legend | yes/no: a Rush Duel Legend card |
| rush | yes/no: a Rush Duel card |
| subtypes | fusion, synchro, xyz, link, pendulum, ritual, ... separated by `|` |
| pools | regions the card is released in (tcg, ocg, ocg-kr, speed, rush), separated by `|` |
| points | Genesys points |
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from validator.cards.db import CARD_SCHEMA, KINDS, LINK_SCHEMA, NAME_LANGS, CardDB, finalize
from validator.errors import ProblemCollector
from validator.files.tabular import read_sheets

__all__ = ["COLUMNS", "read"]

COLUMNS = ("passcode", "alias", "treated_as", "kind", "extra", "legend", "rush", "subtypes",
           "pools", "points", *(f"name_{lang}" for lang in NAME_LANGS))
_TRUE = {"1", "yes", "y", "true", "x", "✓", "はい", "예"}
_FALSE = {"", "0", "no", "n", "false", "いいえ", "아니오"}


def read(path: Path) -> CardDB:
    problems = ProblemCollector(str(path))
    sheets = [s for s in read_sheets(path) if any(any(c for c in r) for r in s.rows)]
    if not sheets:
        problems.say("no rows; expected a header with passcode and name columns", line=1,
                     code="EMPTY_FILE")
        problems.raise_if_any()
    sheet = sheets[0]
    header = [h.strip().lower().replace(" ", "_") for h in sheet.rows[0]]
    header = ["name_en" if h == "name" else h for h in header]
    for needed in ("passcode", "name_en"):
        if needed not in header:
            problems.say("header lacks a {name} column (found: {found})", line=1,
                         code="MISSING_COLUMN", name=needed.removeprefix("name_") or needed,
                         found=", ".join(h for h in header if h))
    problems.raise_if_any()
    cols: dict[str, list[Any]] = {c: [] for c in (*CARD_SCHEMA, "alias", "treated_as")}
    for number, row in enumerate(sheet.rows[1:], start=2):
        cells = dict(zip(header, row, strict=False))
        if not any(cells.values()):
            continue
        passcode = cells.get("passcode", "")
        if not passcode.isdigit():
            problems.say("passcode {typed} is not a number", number, "passcode",
                         code="BAD_PASSCODE", typed=repr(passcode))
            continue
        alias = cells.get("alias", "") or "0"
        treated_as = cells.get("treated_as", "") or "0"
        if not alias.isdigit():
            problems.say("alias {typed} is not a passcode", number, "alias", code="BAD_PASSCODE",
                         typed=repr(alias))
            continue
        if not treated_as.isdigit():
            problems.say("treated_as {typed} is not a passcode", number, "treated_as",
                         code="BAD_PASSCODE", typed=repr(treated_as))
            continue
        kind = (cells.get("kind") or "monster").lower()
        if kind not in KINDS:
            problems.say("kind {typed} is not one of {kinds}", number, "kind", code="BAD_VALUE",
                         typed=repr(kind), kinds=", ".join(KINDS))
            continue
        flags: dict[str, bool] = {}
        for flag in ("extra", "legend", "rush"):
            word = (cells.get(flag) or "").strip().lower()
            if word not in _TRUE | _FALSE:
                problems.say("{field} {typed} is not yes/no", number, flag, code="BAD_VALUE",
                             field=flag, typed=repr(word))
            flags[flag] = word in _TRUE
        points_text = cells.get("points") or ""
        try:
            points = float(points_text) if points_text else None
        except ValueError:
            problems.say("points {typed} is not a number", number, "points", code="BAD_VALUE",
                         typed=repr(points_text))
            continue
        if not cells.get("name_en"):
            problems.say("the name is empty", number, "name", code="NO_CARD")
            continue
        cols["passcode"].append(int(passcode))
        cols["alias"].append(int(alias))
        cols["treated_as"].append(int(treated_as))
        cols["card_id"].append(int(passcode))
        cols["name_id"].append(int(passcode))
        cols["other_names"].append([])
        for lang in NAME_LANGS:
            cols[f"name_{lang}"].append(cells.get(f"name_{lang}") or None)
        cols["kind"].append(kind)
        for flag, value in flags.items():
            cols[flag].append(value)
        for listed in ("subtypes", "pools"):
            text = cells.get(listed) or ""
            cols[listed].append([p.strip().lower() for p in text.split("|") if p.strip()])
        cols["points"].append(points)
        cols["source"].append(str(path))
    problems.raise_if_any()
    frame = pl.DataFrame(cols, schema={**CARD_SCHEMA, "alias": pl.Int64(),
                                       "treated_as": pl.Int64()})
    duplicated = frame.filter(pl.col("passcode").is_duplicated())["passcode"].unique().sort()
    for code in duplicated.to_list():
        problems.say("passcode {passcode} is on more than one row", code="PASSCODE_TWICE",
                     passcode=code)
    problems.raise_if_any()
    links = pl.concat([
        frame.filter(pl.col(column) > 0).select(
            pl.col("passcode").alias("source"), pl.col(column).alias("target"),
            pl.lit(None, pl.Utf8).alias("target_name"), pl.lit(link, LINK_SCHEMA["link"])
            .alias("link"))
        for column, link in (("alias", "alias"), ("treated_as", "name"))
    ])
    frame, link_problems = finalize(frame.drop("alias", "treated_as"), links)
    return CardDB(frame, sources=[{"source": str(path), "kind": "csv", "cards": frame.height}],
                  warnings=link_problems, links=links)
