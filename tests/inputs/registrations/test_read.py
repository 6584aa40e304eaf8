"""Registrations read from files: each sheet to the reader of its layout, one registration
per player, zips and folders, and every row used or reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest
from openpyxl import load_workbook

from tests.archives import zip_bytes
from tests.inputs.registrations.lists import csv_text, rows_add_up
from validator.errors import InputError, Problem
from validator.inputs.registrations.read import read_registration_files, read_registrations
from validator.sheets.pdf import write_form
from validator.sheets.workbook import KonamiSheet, write_konami_workbook

ROOT = Path(__file__).resolve().parent.parent.parent.parent
LONG = "Player,Qty,Card\n1,3,Raigeki\n"




def _where(problems: list[Problem]) -> list[tuple[str, int | None, str | None]]:
    return [(p.file, p.line, p.column) for p in problems]


def test_each_sheet_is_read_in_its_own_layout(tmp_path: Path) -> None:
    """A workbook whose sheets are a Konami sheet, a long table, a forms export and an empty
    sheet: three players, nothing reported."""
    path = tmp_path / "mixed.xlsx"
    write_konami_workbook(path, [KonamiSheet("Ana", "1", blocks={"monster": [(3, "Raigeki")]})])
    workbook = load_workbook(path)
    for title, rows in (("long", [["Player", "Qty", "Card"], ["2", "2", "Dark Hole"]]),
                        ("forms", [["Player", "Main Deck"], ["3", "1 Pot of Greed"]]),
                        ("empty", [])):
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    workbook.save(path)
    reg = read_registrations(path)
    assert reg.problems == []
    assert sorted(reg.entries.select("deck_id", "name", "qty", "cell").rows()) == [
        ("1", "Raigeki", 3, "1!B8"), ("2", "Dark Hole", 2, "long!C2"),
        ("3", "Pot of Greed", 1, "forms!B2")]
    assert reg.players.select("player_id", "sheet").rows() == [
        ("1", "1"), ("2", "long"), ("3", "forms")]
    assert (reg.rows_read, reg.rows_used, reg.rows_reported) == (3, 3, 0)


def test_blocks_are_read_before_a_header_without_players() -> None:
    """"Qty" and "Card Name" head a Konami block too: the sheet is a Konami sheet."""
    text = "Monster Cards,\nQty,Card Name\n3,Raigeki\n"
    reg = read_registration_files([Path("0400000001.csv")], [text.encode()])
    assert reg.problems == []
    assert reg.entries.select("deck_id", "name", "qty").rows() == [("0400000001", "Raigeki", 3)]


def test_hidden_sheet_is_reported_not_read(tmp_path: Path) -> None:
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, [KonamiSheet("A", "1", blocks={"monster": [(3, "Raigeki")]}),
                                 KonamiSheet("B", "2", blocks={"monster": [(3, "Raigeki")]})])
    wb = load_workbook(path)
    wb["2"].sheet_state = "hidden"
    wb.save(path)
    reg = read_registrations(path)
    assert reg.entries["deck_id"].unique().to_list() == ["1"]
    assert [(p.column, p.code) for p in reg.problems] == [("2", "HIDDEN_SHEET")]


def test_unrecognised_sheet_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text("hello,world\n1,2\n", encoding="utf-8")
    reg = read_registrations(path)
    assert reg.entries.is_empty()
    assert [p.code for p in reg.problems] == ["NO_HEADER"]
    assert _where(reg.problems) == [(str(path), None, None)]


def test_forms_export_resubmission_keeps_the_later_list(tmp_path: Path) -> None:
    rows = [["Timestamp", "KONAMI ID (Card Game ID)", "Full name", "Main Deck", "Extra Deck",
             "Side Deck"],
            ["11/29/2026 20:01:00", "0400000001", "Jordan Lee", "3 Raigeki", "", ""],
            ["11/29/2026 20:05:00", "0400000002", "Kim Min", "3 Pot of Greed", "", ""],
            ["11/30/2026 08:15:30", "0400000001", "Jordan Lee", "2 Raigeki\n1 Dark Hole", "",
             "1 Effect Veiler"]]
    path = tmp_path / "forms.csv"
    path.write_text(csv_text(rows), encoding="utf-8")
    reg = read_registrations(path)
    assert reg.players.select("player_id", "player_name").rows() == [
        ("0400000001", "Jordan Lee"), ("0400000002", "Kim Min")]
    jordan = reg.entries.filter(pl.col("deck_id") == "0400000001")
    assert sorted(jordan.select("name", "qty").rows()) == [("Dark Hole", 1), ("Effect Veiler", 1),
                                                            ("Raigeki", 2)]
    superseded = [p for p in reg.problems if p.code == "SUPERSEDED"]
    assert [p.line for p in superseded] == [2]
    assert "row 4" in superseded[0].message  # names the submission that replaces it
    rows_add_up(reg)
    assert reg.rows_read == 3


@pytest.mark.parametrize(("rows", "superseded"), [
    # the later stamp wins, not the later row
    ([["11/30/2026 08:15", "1", "3 Dark Hole"], ["11/29/2026 20:01", "1", "3 Raigeki"]], 3),
    ([["", "1", "3 Raigeki"], ["", "1", "3 Dark Hole"]], 2),  # no stamps: the later row
])
def test_the_latest_submission_is_kept(rows: list[list[str]], superseded: int) -> None:
    text = csv_text([["Timestamp", "Player", "Main Deck"], *rows])
    reg = read_registration_files([Path("f.csv")], [text.encode()])
    assert reg.entries.select("name", "line").rows() == [("Dark Hole", 5 - superseded)]
    assert _where(reg.problems) == [("f.csv", superseded, None)]
    assert (reg.rows_read, reg.rows_used, reg.rows_reported) == (2, 1, 1)


def test_the_same_player_in_two_places_is_reported_not_merged(tmp_path: Path) -> None:
    path = tmp_path / "konami.xlsx"
    write_konami_workbook(path, [
        KonamiSheet("Ana", "0400000009", blocks={"monster": [(3, "Raigeki")]}, sheet_name="A"),
        KonamiSheet("Ana", "0400000009", blocks={"monster": [(2, "Dark Hole")]},
                    sheet_name="B")])
    reg = read_registrations(path)
    assert reg.entries.select("name", "qty").rows() == [("Raigeki", 3)]
    assert [(p.code, p.column) for p in reg.problems] == [("REGISTERED_TWICE", "B")]
    assert "!A" in reg.problems[0].message  # names the place that is checked
    rows_add_up(reg)


def test_the_same_player_in_two_files_keeps_the_first() -> None:
    reg = read_registration_files(
        [Path("a.csv"), Path("b.csv")],
        [LONG.encode(), b"Player,Qty,Card\n1,2,Pot of Greed\n2,1,Raigeki\n"])
    assert reg.entries.select("deck_id", "file", "name").rows() == [
        ("1", "a.csv", "Raigeki"), ("2", "b.csv", "Raigeki")]
    assert reg.players.select("player_id", "file").rows() == [("1", "a.csv"), ("2", "b.csv")]
    assert _where(reg.problems) == [("b.csv", None, None)]
    assert (reg.rows_read, reg.rows_used, reg.rows_reported) == (3, 2, 1)


def test_a_zip_is_read_member_by_member_in_name_order() -> None:
    data = zip_bytes({"b/two.csv": b"Player,Qty,Card\n2,3,Dark Hole\n", "a.csv": LONG.encode(),
                 "notes.txt": b"not a registration",
                 "c.pdf": write_form(KonamiSheet("Kim", "3", blocks={"spell": [(1, "Raigeki")]}))})
    reg = read_registration_files([Path("lists.zip")], [data])
    assert reg.problems == []
    assert reg.players.select("player_id", "file").rows() == [
        ("1", "lists.zip!a.csv"), ("2", "lists.zip!b/two.csv"), ("3", "lists.zip!c.pdf")]
    assert sorted(reg.entries.select("deck_id", "file", "cell").rows()) == [
        ("1", "lists.zip!a.csv", "C2"), ("2", "lists.zip!b/two.csv", "C2"),
        ("3", "lists.zip!c.pdf", "Spell 1")]


def test_a_zip_without_registrations_is_a_problem() -> None:
    reg = read_registration_files([Path("x.zip")], [zip_bytes({"notes.txt": b"hi"})])
    assert _where(reg.problems) == [("x.zip", None, None)]
    assert reg.entries.is_empty()


def test_a_folder_is_read_file_by_file_in_path_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "two.csv").write_text("Player,Qty,Card\n2,3,Dark Hole\n")
    (tmp_path / "a.CSV").write_text(LONG)
    (tmp_path / "notes.md").write_text("not read")
    (tmp_path / "c.zip").write_bytes(
        zip_bytes({"three.csv": b"Player,Qty,Card\n3,1,Pot of Greed\n"}))
    reg = read_registrations(tmp_path)
    assert reg.problems == []
    assert reg.players.select("player_id", "file").rows() == [
        ("1", str(tmp_path / "a.CSV")), ("2", str(tmp_path / "b" / "two.csv")),
        ("3", f"{tmp_path / 'c.zip'}!three.csv")]


def test_pdf_sheets_and_konami_workbooks_keep_the_order_of_their_files(tmp_path: Path) -> None:
    """Entries of PDF sheets (read as columns) and of workbook sheets (read as rows) come
    out in the order their files were read."""
    def pdf(player: str, card: str) -> bytes:
        return write_form(KonamiSheet("", player, blocks={"monster": [(1, card)],
                                                          "spell": [(2, "Dark Hole")]}))

    (tmp_path / "1.pdf").write_bytes(pdf("1", "Raigeki"))
    write_konami_workbook(tmp_path / "2.xlsx", [
        KonamiSheet("Bo", "2", blocks={"monster": [(3, "Dark Magician")]}),
        KonamiSheet("Cy", "3", blocks={"trap": [(1, "Mirror Force")]})])
    (tmp_path / "4.pdf").write_bytes(pdf("4", "Pot of Greed"))
    reg = read_registrations(tmp_path)
    assert reg.problems == []
    assert reg.entries.select("deck_id", "name", "qty", "slot").rows() == [
        ("1", "Raigeki", 1, "monster"), ("1", "Dark Hole", 2, "spell"),
        ("2", "Dark Magician", 3, "monster"), ("3", "Mirror Force", 1, "trap"),
        ("4", "Pot of Greed", 1, "monster"), ("4", "Dark Hole", 2, "spell")]
    assert reg.players["player_id"].to_list() == ["1", "2", "3", "4"]


@pytest.mark.parametrize("make", ["empty folder", "missing file"])
def test_nothing_to_read_is_an_input_error(tmp_path: Path, make: str) -> None:
    path = tmp_path if make == "empty folder" else tmp_path / "lists.csv"
    with pytest.raises(InputError) as raised:
        read_registrations(path)
    assert _where(raised.value.problems) == [(str(path), None, None)]


def test_an_unreadable_file_is_a_problem_and_the_others_are_read() -> None:
    reg = read_registration_files([Path("bad.xlsx"), Path("good.csv")], [b"garbage", LONG.encode()])
    assert _where(reg.problems) == [("bad.xlsx", None, None)]
    assert reg.entries["deck_id"].to_list() == ["1"]


@pytest.mark.parametrize(("name", "players", "counts"), [
    ("regional-tcg.xlsx", 64, (2393, 2392, 1)),
    ("rush-cup.csv", 16, (258, 258, 0)),
    ("pdf", 4, (157, 156, 1)),
])
def test_every_registration_fixture_reads_every_row(name: str, players: int,
                                                    counts: tuple[int, int, int]) -> None:
    reg = read_registrations(ROOT / "sample_decklists" / name)
    rows_add_up(reg)
    assert (reg.rows_read, reg.rows_used, reg.rows_reported) == counts
    assert reg.players.height == players
    assert reg.entries.height == counts[1]
    assert len(reg.problems) == counts[2]  # the one "three" in a quantity cell


def test_a_csv_with_a_utf8_bom_and_broken_text_is_a_problem_and_the_others_are_read() -> None:
    reg = read_registration_files([Path("bad.csv"), Path("good.csv")],
                                  [b"\xef\xbb\xbfPlayer,Qty,Card\n1,3,Caf\xe9\n", LONG.encode()])
    assert _where(reg.problems) == [("bad.csv", None, None)]
    assert reg.entries["file"].to_list() == ["good.csv"]


def test_a_csv_with_one_huge_cell_reads_every_other_row() -> None:
    rows = ["Player ID,Player Name,Section,Qty,Card Name"]
    rows += [f"04000000{i:02d},Player {i},Main,3,Raigeki" for i in range(1, 21)]
    rows[7] = "0400000007,Player 7,Main,3,\"" + "x" * 200_000 + "\""
    reg = read_registration_files([Path("lists.csv")], ["\n".join(rows).encode() + b"\n"])
    read = reg.players["player_id"].to_list()
    assert read == [f"04000000{i:02d}" for i in range(1, 21) if i != 7]
    assert reg.entries.height == 19
    assert [(p.code, p.line) for p in reg.problems] == [("SHEET_TOO_LARGE", 8)]


def test_many_pdf_sheets_read_across_processes_as_in_one(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of PDF sheets (and a zip of more, a damaged one, a CSV between them) reads
    the same rows, players and problems, in the same order, on one process or several."""
    from concurrent.futures import ProcessPoolExecutor

    from validator.inputs.registrations import read
    from validator.inputs.registrations.read import MIN_PARALLEL

    pools: list[int | None] = []

    class Counted(ProcessPoolExecutor):
        def __init__(self, workers: int | None = None, **kwargs: Any) -> None:
            pools.append(workers)
            super().__init__(workers, **kwargs)

    monkeypatch.setattr(read, "ProcessPoolExecutor", Counted)

    sheet = write_form(KonamiSheet("", "", blocks={"monster": [(3, "Raigeki")],
                                                   "spell": [(1, "Dark Hole")]}))
    for n in range(MIN_PARALLEL):
        (tmp_path / f"04000{n:05d}.pdf").write_bytes(sheet)
    (tmp_path / "0400000007a.csv").write_text(LONG)
    (tmp_path / "0400000020b.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    (tmp_path / "0400000030c.zip").write_bytes(zip_bytes(
        {f"05000{n:05d}.pdf": sheet for n in range(3)} | {"bad.pdf": b"not a pdf"}))
    files = sorted(tmp_path.iterdir())
    one = read_registration_files(files, workers=1)
    several = read_registration_files(files, workers=2)
    assert pools == [2]
    assert several.entries.equals(one.entries)
    assert several.players.equals(one.players)
    assert several.problems == one.problems
    assert one.players.height == MIN_PARALLEL + 3 + 1
    assert sorted(p.code for p in one.problems) == ["BAD_PDF", "BAD_PDF"]
    assert (several.rows_read, several.rows_used) == (one.rows_read, one.rows_used)
