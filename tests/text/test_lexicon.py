"""The lexicon: every word readers recognise, and never a card or a player taken for one."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import shared_path
from validator.errors import InputError
from validator.files.tabular import Sheet
from validator.inputs.decks.textlist import parse_text_list, read_text_list
from validator.inputs.registrations._found import Found
from validator.inputs.registrations.konami import read_konami
from validator.inputs.registrations.read import read_registration_files
from validator.judging.decisions import read_decisions
from validator.text.datafile import data_file
from validator.text.lexicon import (
    MAX_HEADER_LENGTH,
    MAX_QUANTITY,
    column_of,
    entry_line,
    header_of,
    is_total_label,
    load_lexicon,
    quantity_in_range,
    quantity_of,
    total_of,
    whole_number,
)


def _real_names() -> list[str]:
    """Every English, Japanese and Korean name of the YGOJSON cards and every Rush name."""
    names: set[str] = set()
    for card in json.loads(shared_path("ygojson", "cards.json").read_text()):
        if card["cardType"] not in ("monster", "spell", "trap"):
            continue
        for lang in ("en", "ja", "ko"):
            name = (card["text"].get(lang) or {}).get("name")
            if name and name.strip():
                names.add(name.strip())
    with sqlite3.connect(shared_path("cdb", "cards-rush.cdb")) as conn:
        names.update(n.strip() for (n,) in conn.execute("SELECT name FROM texts") if n)
    return sorted(names)


@pytest.fixture(scope="module")
def real_names() -> list[str]:
    names = _real_names()
    assert len(names) > 30_000
    return names


def _read_back(names: list[str]) -> list[str]:
    """Names as a text list reads them: as printed (Unicode NFC), not folded further."""
    return [unicodedata.normalize("NFC", n).strip() for n in names]


def test_no_real_card_name_is_a_header_or_a_total(real_names: list[str]) -> None:
    taken = [n for n in real_names if header_of(n) is not None or total_of(n) is not None
             or is_total_label(n)]
    assert taken == []


def test_every_real_card_name_reads_back_from_a_text_list(real_names: list[str]) -> None:
    text = "\n".join(f"{i % 3 + 1} {name}" for i, name in enumerate(real_names))
    deck = parse_text_list(text, "all.txt", "d")
    assert deck["name"].to_list() == _read_back(real_names)
    assert deck["qty"].to_list() == [i % 3 + 1 for i in range(len(real_names))]


def test_every_real_card_name_reads_back_from_a_long_layout(real_names: list[str]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["Player ID", "Player Name", "Section", "Qty", "Card Name"])
    writer.writerows(["0400000001", "Summer Lee", "Main", "1", name] for name in real_names)
    reg = read_registration_files([Path("all.csv")], [buffer.getvalue().encode()])
    assert reg.problems == []
    assert reg.entries["name"].to_list() == real_names
    assert reg.rows_read == reg.rows_used + reg.rows_reported == len(real_names)
    assert reg.players.select("player_id", "player_name").rows() == [
        ("0400000001", "Summer Lee")]


def test_every_real_card_name_reads_back_from_a_konami_block(real_names: list[str]) -> None:
    rows = [["Player Name", "Summer Lee", "KONAMI ID", "0400000001"], ["Monster", ""],
            *[["1", name] for name in real_names], ["Total", str(len(real_names))]]
    out = Found()
    assert read_konami(Sheet("all.xlsx", "P1", rows), out, "P1")
    assert out.problems == []
    assert [r["name"] for r in out.rows] == real_names


@pytest.mark.parametrize(("header", "meaning"), [
    ("KONAMI ID (Card Game ID)", "player_id"), ("Konami ID #", "player_id"),
    ("Full name", "player_name"), ("Your name", "player_name"),
    ("First (Given) Name", "first_name"), ("Last (Family) Name", "last_name"),
    ("お名前", "player_name"), ("성명", "player_name"), ("ชื่อ-นามสกุล", "player_name"),
    ("Timestamp", "timestamp"), ("枚数", "qty"), ("Card Name", "card"),
])
def test_headers_are_matched_loosely(header: str, meaning: str) -> None:
    assert column_of(header) == meaning


@pytest.mark.parametrize(("text", "total"), [
    ("Total 40", 40), ("合計：40枚", 40), ("Total: 15", 15), ("합계 15", 15), ("รวม 40 ใบ", 40),
    ("Summoned Skull", None), ("Total Defense Shogun", None), ("Summer Lee", None),
    ("Sum", None),
])
def test_a_total_is_only_a_whole_total(text: str, total: int | None) -> None:
    assert total_of(text) == total


@pytest.mark.parametrize(("line", "entry"), [
    ("3 Ash Blossom", (3, "Ash Blossom")), ("3x Ash Blossom", (3, "Ash Blossom")),
    ("3 x Ash Blossom", (3, "Ash Blossom")), ("3枚 灰流うらら", (3, "灰流うらら")),
    ("Ash Blossom x3", (3, "Ash Blossom")), ("Ash Blossom ×2", (2, "Ash Blossom")),
    ("Ash Blossom * 3", (3, "Ash Blossom")), ("Ash Blossom (3)", (3, "Ash Blossom")),
    ("Ash Blossom ( 2 )", (2, "Ash Blossom")), ("灰流うらら ３枚", (3, "灰流うらら")),
    ("하루 우라라 3장", (3, "하루 우라라")), ("Dark Magician 2 ใบ", (2, "Dark Magician")),
    ("Ash Blossom\t3", (3, "Ash Blossom")), ("Ash Blossom, 2", (2, "Ash Blossom")),
    ("Ash Blossom;\t1", (1, "Ash Blossom")), ("Card x1234", (1, "Card x1234")),
    ("1234 Card", (1, "1234 Card")), ("3 xCard", (3, "xCard")), ("x3", (1, "x3")),
    ("(3)", (1, "(3)")), ("Ash Blossom x 12", (12, "Ash Blossom")),
])
def test_entry_lines_read_the_number_before_or_after_the_name(line: str,
                                                              entry: tuple[int, str]) -> None:
    assert entry_line(line) == entry


#: texts built to make a backtracking pattern take quadratic time or worse
ADVERSARIAL = [
    "a" + " " * 200_000 + "b", "a" + "\t" * 200_000 + "b", "1" * 200_000 + "x",
    "a" + " " * 200_000 + "x", "Total" + " " * 200_000 + "x", "(" * 200_000,
    '"' * 200_000, "3" + " " * 200_000 + "x" + " " * 200_000 + "\n",
    "a" + " ," * 100_000 + "b", "Konami" + " #" * 100_000 + "x",
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_every_matcher_takes_linear_time(text: str) -> None:
    import time

    started = time.perf_counter()
    entry_line(text)
    quantity_of(text)
    total_of(text)
    is_total_label(text)
    header_of(text)
    column_of(text)
    column_of(text[:MAX_HEADER_LENGTH])
    assert time.perf_counter() - started < 1.0  # quadratic: minutes


def test_entry_lines_keep_names_that_end_in_numbers() -> None:
    assert entry_line("Harpie Lady 1") == (1, "Harpie Lady 1")
    assert entry_line("2 Harpie Lady 1") == (2, "Harpie Lady 1")


@pytest.mark.parametrize(("text", "most", "number"), [
    ("0", 99, 0), ("7", 99, 7), (" 99 ", 99, 99), ("100", 99, None), ("150", 99, None),
    ("²", 99, None), ("٣", 99, None), ("３", 99, None), ("-1", 99, None), ("", 99, None),
    ("9" * 5000, 9999, None), ("9999", 9999, 9999), ("three", 99, None)])
def test_a_whole_number_is_ascii_digits_within_its_bound(text: str, most: int,
                                                         number: int | None) -> None:
    assert whole_number(text, most) == number


@pytest.mark.parametrize(("qty", "ok"), [(None, False), (0, False), (1, True),
                                         (MAX_QUANTITY, True), (MAX_QUANTITY + 1, False)])
def test_the_quantity_bound(qty: int | None, ok: bool) -> None:
    assert quantity_in_range(qty) is ok


def _reported_quantities(qty: str, tmp_path: Path) -> dict[str, bool]:
    """Whether each way a quantity is typed refuses ``qty``."""
    csv = f"player_id,player_name,section,qty,card\n0400000001,Ana,main,{qty},Raigeki\n"
    long = read_registration_files([Path("long.csv")], [csv.encode()])
    konami = Found()
    read_konami(Sheet("sheet.xlsx", "P1", [["Monster Cards", ""], [qty, "Raigeki"]]), konami,
                "P1")
    _, text_problems = read_text_list(f"{qty} Raigeki\n", "deck.txt", "0400000001")
    decisions = tmp_path / "decisions.csv"
    decisions.write_text("player_id,where,card,qty,decided_by,reason\n"
                         f"0400000001,A2,Raigeki,{qty},HJ,typo\n")
    try:
        read_decisions(decisions)
        decision_refused = False
    except InputError:
        decision_refused = True
    return {"long": bool(long.problems), "konami": bool(konami.problems),
            "text": bool(text_problems), "decision": decision_refused}


@pytest.mark.parametrize(("qty", "refused"), [("3", False), (str(MAX_QUANTITY), False),
                                              (str(MAX_QUANTITY + 1), True), ("150", True)])
def test_every_reader_and_decision_uses_the_one_quantity_bound(qty: str, refused: bool,
                                                               tmp_path: Path) -> None:
    assert _reported_quantities(qty, tmp_path) == dict.fromkeys(
        ("long", "konami", "text", "decision"), refused)
def test_the_shipped_lexicon_loads() -> None:
    lexicon = load_lexicon()
    assert lexicon.sections.monster.slot == "monster"
    assert lexicon.sections.side.section == "side"
    assert "qty" in lexicon.columns.qty


def _broken(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = data_file("lexicon.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "lexicon.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_malformed_lexicon_is_refused_naming_file_and_fields(tmp_path: Path) -> None:
    path = _broken(tmp_path,
                   ('words = ["main", "main deck"', 'words = [7, "main deck"'),
                   ('section = "side"', 'section = "sideboard"'),
                   ("[totals]\n", "[totals]\nsurprise = 1\n"),
                   ("[list_columns]\npasscode", "[list_columns]\npasscodes"))
    with pytest.raises(InputError) as info:
        load_lexicon(path)
    problems = info.value.problems
    assert {p.file for p in problems} == {str(path)}
    assert {p.column for p in problems} == {
        "sections.main.words.0", "sections.side.section", "totals.surprise",
        "list_columns.passcode", "list_columns.passcodes"}


def test_a_lexicon_that_is_not_toml_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = _broken(tmp_path, ("[columns]", "[columns"))
    with pytest.raises(InputError) as info:
        load_lexicon(path)
    assert [p.file for p in info.value.problems] == [str(path)]
