"""The Konami deck-list workbook, written: its cells, and sheets that the registration
reader reads back as the cards they were written with."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from openpyxl import load_workbook
from polars.testing import assert_frame_equal

from bench.sample_event import tcg_sheets
from validator.cards.db import CardDB
from validator.inputs.registrations.read import read_registrations
from validator.sheets.workbook import BLOCKS, KonamiSheet, write_konami_workbook

ROOT = Path(__file__).resolve().parent.parent.parent
#: the section and slot each block's cards are read into
READ_AS = {"monster": ("main", "monster"), "spell": ("main", "spell"), "trap": ("main", "trap"),
           "extra": ("extra", "extra"), "side": ("side", None)}


def test_written_sheets_read_back_as_their_cards(demo_db: CardDB, tmp_path: Path) -> None:
    """The sample regional's 64 lists: every card in its section and slot, and the one
    quantity written as a word reported at its cell."""
    sheets = tcg_sheets(demo_db)
    path = tmp_path / "lists.xlsx"
    write_konami_workbook(path, sheets)
    read = read_registrations(path)
    written = Counter((s.player_id, *READ_AS[key], name, qty) for s in sheets
                      for key, rows in s.blocks.items() for qty, name in rows
                      if isinstance(qty, int))
    assert Counter(read.entries.select(
        "deck_id", pl.col("section").cast(pl.Utf8), pl.col("slot").cast(pl.Utf8), "name",
        "qty").iter_rows()) == written
    assert [(p.line, p.column) for p in read.problems] == [(17, "0400381413!A17")]
    assert read.players.select("player_id", "player_name", "event", "date").rows() == [
        (s.player_id, s.player_name, s.event, s.date) for s in sheets]


def test_the_shipped_regional_workbook_is_what_the_writer_writes(demo_db: CardDB,
                                                                 tmp_path: Path) -> None:
    path = tmp_path / "regional-tcg.xlsx"
    write_konami_workbook(path, tcg_sheets(demo_db))
    written = read_registrations(path)
    shipped = read_registrations(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    assert_frame_equal(written.entries.drop("file"), shipped.entries.drop("file"))
    assert_frame_equal(written.players.drop("file"), shipped.players.drop("file"))


def _sheet(tmp_path: Path, sheet: KonamiSheet) -> dict[str, object]:
    path = tmp_path / "one.xlsx"
    write_konami_workbook(path, [sheet])
    ws = load_workbook(path).worksheets[0]
    return {cell.coordinate: cell.value for row in ws.iter_rows() for cell in row
            if cell.value is not None}


def test_the_labels_and_the_player_are_in_rows_3_and_4(tmp_path: Path) -> None:
    cells = _sheet(tmp_path, KonamiSheet("Ana Lee", "0400000001", "Regional", "2026-11-29"))
    assert {k: cells[k] for k in ("A1", "A3", "B3", "D3", "E3", "A4", "B4", "D4", "E4")} == {
        "A1": "Yu-Gi-Oh! Deck List", "A3": "Player Name", "B3": "Ana Lee", "D3": "KONAMI ID",
        "E3": "0400000001", "A4": "Event", "B4": "Regional", "D4": "Date", "E4": "2026-11-29"}


def test_the_id_is_text_so_its_leading_zero_stays(tmp_path: Path) -> None:
    path = tmp_path / "one.xlsx"
    write_konami_workbook(path, [KonamiSheet("Ana", "0400000001")])
    cell = load_workbook(path).worksheets[0]["E3"]
    assert (cell.value, cell.number_format) == ("0400000001", "@")


@pytest.mark.parametrize("key", list(BLOCKS))
def test_each_block_is_where_the_layout_puts_it(tmp_path: Path, key: str) -> None:
    title, top, col, rows = BLOCKS[key]
    letter, name_letter = "ABCDEF"[col - 1], "ABCDEF"[col]
    cells = _sheet(tmp_path, KonamiSheet(blocks={key: [(3, "Raigeki"), ("three", "Dark Hole")]}))
    assert {k: v for k, v in cells.items() if k[0] in (letter, name_letter)
            and top <= int(k[1:]) <= top + 2 + rows} == {
        f"{letter}{top}": title,
        f"{letter}{top + 1}": "Qty", f"{name_letter}{top + 1}": "Card Name",
        f"{letter}{top + 2}": 3, f"{name_letter}{top + 2}": "Raigeki",
        f"{letter}{top + 3}": "three", f"{name_letter}{top + 3}": "Dark Hole",
        f"{letter}{top + 2 + rows}": "Total", f"{name_letter}{top + 2 + rows}": 3}
    # the other blocks are empty: a title, headings and a total label, no number
    assert sum(1 for v in cells.values() if isinstance(v, int)) == 2


@pytest.mark.parametrize(("key", "rows"), [(k, r) for k, (_, _, _, r) in BLOCKS.items()])
def test_a_block_holds_its_rows_and_no_more(tmp_path: Path, key: str, rows: int) -> None:
    full: list[tuple[int | str, str]] = [(1, f"Card {n}") for n in range(rows)]
    write_konami_workbook(tmp_path / "full.xlsx", [KonamiSheet(blocks={key: full})])
    with pytest.raises(ValueError, match=f"at most {rows} rows"):
        write_konami_workbook(tmp_path / "over.xlsx",
                              [KonamiSheet(blocks={key: [*full, (1, "One more")]})])


def test_sheets_are_named_by_sheet_name_then_id_then_number(tmp_path: Path) -> None:
    path = tmp_path / "lists.xlsx"
    write_konami_workbook(path, [KonamiSheet(sheet_name="Ana"), KonamiSheet(player_id="7"),
                                 KonamiSheet(), KonamiSheet(player_id="x" * 40)])
    assert load_workbook(path).sheetnames == ["Ana", "7", "Deck List 3", "x" * 31]


def test_no_sheets_is_one_blank_template(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "template.xlsx"  # its folder is made
    write_konami_workbook(path, [])
    assert load_workbook(path).sheetnames == ["Deck List 1"]
    read = read_registrations(path)
    assert read.entries.is_empty()
    assert [(p.line, p.column) for p in read.problems] == [(None, "Deck List 1")]
    assert "blank deck list" in read.problems[0].message


def test_a_control_character_is_written_replaced(tmp_path: Path) -> None:
    path = tmp_path / "one.xlsx"
    write_konami_workbook(path, [KonamiSheet("Ana\x0bLee", "04\x0b01", "Cup\x00", "2026-11-29",
                                             {"monster": [(3, "Rai\x0bgeki")]},
                                             sheet_name="a[b]\x0b")])
    sheet = load_workbook(path).worksheets[0]
    values = {str(c.value) for row in sheet.iter_rows() for c in row if c.value is not None}
    assert {"Ana\ufffdLee", "04\ufffd01", "Cup\ufffd", "Rai\ufffdgeki"} <= values
    assert sheet.title == "a_b_\ufffd"
