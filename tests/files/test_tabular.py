"""CSV and XLSX files read as grids of text, with their real row numbers."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook

from validator.cards.db import CardDB
from validator.errors import InputError
from validator.files.safety import MAX_COLUMNS
from validator.files.tabular import (
    MAX_FIELD,
    Sheet,
    cell_name,
    decode_text,
    read_csv_grid,
    read_sheets,
)

ROOT = Path(__file__).resolve().parent.parent.parent

#: a registration of 20 rows, as a spreadsheet of that language saves it
LISTS = {
    "cp932": ("田中 太郎", "灰流うらら"),
    "cp949": ("김민준", "하루 우라라"),
    "cp874": ("สมชาย ใจดี", "Ash Blossom & Joyous Spring"),
    "shift_jis": ("佐藤 花子", "ブラック・マジシャン"),
}


@pytest.mark.parametrize(("row", "col", "name"), [
    (3, 0, "A3"), (1, 25, "Z1"), (1, 26, "AA1"), (10, 51, "AZ10"), (2, 701, "ZZ2"),
    (2, 702, "AAA2"),
])
def test_cell_name(row: int, col: int, name: str) -> None:
    assert cell_name(row, col) == name


@pytest.mark.parametrize(("data", "text"), [
    ("Raigeki,灰流うらら".encode(), "Raigeki,灰流うらら"),
    (b"\xef\xbb\xbfRaigeki", "Raigeki"),  # the BOM is not text
    ("Raigeki,하루 우라라".encode("utf-16"), "Raigeki,하루 우라라"),  # with its BOM
    (b"\xfe\xff" + "Raigeki".encode("utf-16-be"), "Raigeki"),
    ("ブラック・マジシャン".encode("cp932"), "ブラック・マジシャン"),
])
def test_decode_text(data: bytes, text: str) -> None:
    assert decode_text(data, "f.csv") == text


@pytest.mark.parametrize("encoding", list(LISTS))
def test_a_registration_in_its_languages_encoding_is_read_as_written(encoding: str) -> None:
    player, card = LISTS[encoding]
    text = "Player ID,Player Name,Section,Qty,Card Name\r\n" + "".join(
        f"{1000 + i},{player},Main,3,{card}\r\n" for i in range(20))
    assert decode_text(text.encode(encoding), "f.csv") == text


@pytest.mark.parametrize(("text", "encoding"), [
    ("1,김민준,Main,3,하루 우라라\n", "cp949"),
    ("1,สมชาย ใจดี,Main,3,Raigeki\n", "cp874"),
    ("1,พิมพ์ชนก แก้วมณี\n", "cp874"),
    ("1,田中 太郎,Main,3,灰流うらら\n", "cp932"),
])
def test_one_line_in_a_legacy_code_page_is_read_in_its_language(text: str,
                                                                encoding: str) -> None:
    """Thai and Korean bytes decode as Japanese too (half-width katakana and kanji)."""
    assert decode_text(text.encode(encoding), "f.csv") == text


def test_western_accents_are_not_read_as_thai() -> None:
    text = "Player,Card\n1,José Pérez\n2,Hélène Gauthier\n3,Raigeki\n"
    decoded = decode_text(text.encode("cp1252"), "f.csv")
    assert not any("\u0e00" <= c <= "\u0e7f" for c in decoded)


@pytest.mark.parametrize(("lang", "encoding"), [("ja", "cp932"), ("ko", "cp949")])
def test_every_real_card_name_is_read_back_from_its_languages_code_page(
        real_db: CardDB, lang: str, encoding: str) -> None:
    """Each real Japanese and Korean name, alone in a file of its language's code page (but
    for the bytes that are UTF-8 too: UTF-8 is read first)."""
    names = real_db.printings[f"name_{lang}"].drop_nulls().unique().sort().to_list()
    written = 0
    wrong = []
    for name in names:
        try:
            data = f"1,{name}\n".encode(encoding)
            data.decode("utf-8")
            continue  # "Sin 튠" in cp949 is "Sin ƪ" in UTF-8
        except UnicodeEncodeError:
            continue
        except UnicodeDecodeError:
            written += 1
        if decode_text(data, "f.csv") != f"1,{name}\n":
            wrong.append(name)
    assert written > 13_000
    assert wrong == []


@pytest.mark.parametrize("data", [
    b"\xef\xbb\xbfPlayer,Card\n1,Caf\xe9\n",  # a UTF-8 BOM, then text that is not UTF-8
    b"\xff\xfe\x00\xd8",  # UTF-16 with half a surrogate pair
])
def test_broken_text_behind_a_bom_is_an_input_error(data: bytes) -> None:
    with pytest.raises(InputError) as raised:
        decode_text(data, "f.csv")
    assert raised.value.file == "f.csv"


@pytest.mark.parametrize(("data", "rows"), [
    (b"a,b,c\r\n1,2,3\r\n", [["a", "b", "c"], ["1", "2", "3"]]),
    (b"a;b;c\n1;2;3\n", [["a", "b", "c"], ["1", "2", "3"]]),  # the delimiter is sniffed
    (b"a\tb\n 1 \t 2 \n", [["a", "b"], ["1", "2"]]),  # cells are stripped
    (b'a,"3 Raigeki\n1 Pot of Greed"\n', [["a", "3 Raigeki\n1 Pot of Greed"]]),
    (b'"Maxx ""C""",x\n', [['Maxx "C"', "x"]]),
    (b"a,b\n\n1,2\n", [["a", "b"], [], ["1", "2"]]),  # rows keep their numbers
])
@pytest.mark.parametrize("whole", [True, False], ids=["read whole", "read row by row"])
def test_read_csv_grid(data: bytes, rows: list[list[str]], whole: bool,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    if not whole:  # as a text of more cells than are read at once is
        monkeypatch.setattr("validator.files.tabular.WHOLE_CELLS", 0)
    assert read_csv_grid(Path("f.csv"), data) == Sheet("f.csv", "", rows)


@pytest.mark.parametrize(("data", "line"), [
    (b"a,b\n" + b"x," * MAX_COLUMNS + b"x\n", 2),
    (b"a,b\n1,2\nx," + b"y" * (MAX_FIELD + 1) + b"\n", 3),
    (b'a,"' + b"y" * (2 << 20) + b'"\n', 1),  # longer than the csv module reads
])
@pytest.mark.parametrize("whole", [True, False], ids=["read whole", "read row by row"])
def test_a_csv_beyond_what_a_deck_list_holds_is_an_input_error(
        data: bytes, line: int, whole: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not whole:
        monkeypatch.setattr("validator.files.tabular.WHOLE_CELLS", 0)
    with pytest.raises(InputError) as raised:
        read_csv_grid(Path("f.csv"), data)
    assert (raised.value.file, raised.value.line) == ("f.csv", line)


def test_a_csv_is_read_from_its_file(tmp_path: Path) -> None:
    path = tmp_path / "f.csv"
    path.write_bytes("Player,Card\n1,灰流うらら\n".encode("cp932"))
    assert read_sheets(path) == [Sheet(str(path), "", [["Player", "Card"], ["1", "灰流うらら"]])]


def _workbook(path: Path) -> Path:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Lists"
    sheet.append(["Player", 401357911, 3.0, 3.5, None, "  x  "])
    sheet.append([])
    sheet.append([dt.datetime(2026, 11, 29, 20, 1), True, None, "end"])
    for title, state in (("Hidden", "hidden"), ("Very hidden", "veryHidden")):
        other = workbook.create_sheet(title)
        other.append([title])
        other.sheet_state = state
    workbook.save(path)
    return path


def test_a_workbooks_cells_are_text(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "lists.xlsx")
    assert read_sheets(path) == [Sheet(str(path), "Lists", [
        ["Player", "401357911", "3", "3.5", "", "x"],
        ["", "", "", "", "", ""],
        ["2026-11-29 20:01:00", "True", "", "end", "", ""]])]


def test_hidden_sheets_are_read_only_when_asked_for(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "lists.xlsx")
    sheets = read_sheets(path, include_hidden=True)
    assert [(s.name, s.hidden, s.rows[0][0]) for s in sheets] == [
        ("Lists", False, "Player"), ("Hidden", True, "Hidden"),
        ("Very hidden", True, "Very hidden")]


def test_an_upload_is_read_from_its_bytes(tmp_path: Path) -> None:
    data = _workbook(tmp_path / "lists.xlsx").read_bytes()
    sheets = read_sheets(Path("upload.xlsx"), data=data)
    assert [(s.file, s.name) for s in sheets] == [("upload.xlsx", "Lists")]
    assert read_sheets(Path("upload.csv"), data=b"a,b\n") == [Sheet("upload.csv", "", [["a", "b"]])]


def test_the_sample_workbook_is_read_cell_by_cell() -> None:
    sheets = read_sheets(ROOT / "sample_decklists" / "regional-tcg.xlsx")
    assert len(sheets) == 64
    first = sheets[0]
    assert (first.name, len(first.rows), first.hidden) == ("0400001301", 47, False)
    assert first.rows[2:4] == [["Player Name", "Akira Tanaka", "", "KONAMI ID", "0400001301", ""],
                               ["Event", "deckcheck Sample Regional", "", "Date", "2026-12-05",
                                ""]]
    assert first.rows[7] == ["3", "Arianna the Labrynth Servant", "1", "Labrynth Labyrinth", "3",
                             "Welcome Labrynth"]


@pytest.mark.parametrize(("name", "data"), [
    ("lists.pdf", b"%PDF-1.7"),
    ("lists.xlsx", b"not a zip"),
])
def test_what_is_not_a_sheet_is_an_input_error(name: str, data: bytes) -> None:
    with pytest.raises(InputError) as raised:
        read_sheets(Path(name), data=data)
    assert raised.value.file == name


@pytest.mark.parametrize("whole", [True, False], ids=["read whole", "read row by row"])
def test_a_partial_read_reports_an_oversized_cell_and_reads_every_other_row(
        whole: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not whole:
        monkeypatch.setattr("validator.files.tabular.WHOLE_CELLS", 0)
    lines = [b"player,qty,card"] + [b"P%d,3,Raigeki" % i for i in range(1, 6)]
    lines[3] = b'P3,3,"' + b"y" * 200_000 + b'"'
    sheet = read_csv_grid(Path("f.csv"), b"\n".join(lines) + b"\n", partial=True)
    assert sheet.rows[3] == []  # the row keeps its number, its cells are not read
    assert [row[0] for row in sheet.rows if row] == ["player", "P1", "P2", "P4", "P5"]
    [problem] = sheet.problems
    assert (problem.code, problem.file, problem.line, problem.column) == (
        "SHEET_TOO_LARGE", "f.csv", 4, "C4")
    with pytest.raises(InputError) as raised:  # read whole or not at all, unless partial
        read_csv_grid(Path("f.csv"), b"\n".join(lines) + b"\n")
    assert [p.code for p in raised.value.problems] == ["SHEET_TOO_LARGE"]
