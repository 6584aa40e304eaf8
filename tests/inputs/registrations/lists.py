"""Two players' lists, written in each registration layout, and what reading them must give."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import polars as pl

from validator.inputs.registrations.read import Registrations, read_registrations

LISTS = {
    "1001": {"main": [(3, "Ash Blossom & Joyous Spring"), (2, "灰流うらら"), (1, "Pot of Greed")],
             "extra": [(1, "Accesscode Talker")], "side": [(2, "Effect Veiler")]},
    "1002": {"main": [(3, "하루 우라라"), (3, "Dark Magician")],
             "extra": [], "side": [(1, "Raigeki")]},
}

Table = list[tuple[str, str, str, int]]


def expected() -> Table:
    """``LISTS`` as sorted (player, section, name, qty) rows."""
    return sorted((player, section, name, qty) for player, sections in LISTS.items()
                  for section, cards in sections.items() for qty, name in cards)


def table(path: Path) -> Table:
    """A registration file read without a problem, as sorted (player, section, name, qty)."""
    reg = read_registrations(path)
    assert reg.problems == []
    return sorted(reg.entries.select("deck_id", pl.col("section").cast(pl.Utf8), "name", "qty")
                  .rows())


def long_rows(header: list[str]) -> list[list[str]]:
    """``LISTS`` in the long layout under ``header``."""
    rows = [header]
    for player, sections in LISTS.items():
        for section, cards in sections.items():
            rows.extend([player, section.title(), str(qty), name] for qty, name in cards)
    return rows


def csv_text(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def rows_add_up(reg: Registrations) -> None:
    """Every row read is used or reported."""
    assert reg.rows_read == reg.rows_used + reg.rows_reported
