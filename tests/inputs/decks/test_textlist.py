from __future__ import annotations

import contextlib

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.resolve import resolve
from validator.errors import InputError
from validator.inputs.decks.textlist import parse_text_list
from validator.text.lexicon import entry_line, header_of


@pytest.mark.parametrize(
    ("line", "qty", "name"),
    [
        ("3 Ash Blossom & Joyous Spring", 3, "Ash Blossom & Joyous Spring"),
        ("3x Ash Blossom", 3, "Ash Blossom"),
        ("Ash Blossom x3", 3, "Ash Blossom"),
        ("Ash Blossom ×3", 3, "Ash Blossom"),
        ("Ash Blossom (2)", 2, "Ash Blossom"),
        ("灰流うらら ３枚", 3, "灰流うらら"),
        ("하루 우라라 3장", 3, "하루 우라라"),
        ("Harpie Lady 1", 1, "Harpie Lady 1"),
        ("Number 39: Utopia", 1, "Number 39: Utopia"),
        ("Effect Veiler\t2", 2, "Effect Veiler"),
        ("２ Maxx \"C\"", 2, 'Maxx "C"'),
    ],
)
def test_quantity_forms(line: str, qty: int, name: str) -> None:
    assert entry_line(line) == (qty, name)


@pytest.mark.parametrize(
    ("header", "section"),
    [("Main Deck (40)", "main"), ("Monsters:", "main"), ("--- Extra Deck ---", "extra"),
     ("【サイドデッキ】", "side"), ("엑스트라 덱", "extra"), ("ไซด์เด็ค", "side"),
     ("魔法 (12枚)", "main"), ("Side", "side"), ("Ash Blossom", None)],
)
def test_section_headers(header: str, section: str | None) -> None:
    found = header_of(header)
    assert (found.section if found else None) == section


def test_text_list_sections_and_totals() -> None:
    deck = parse_text_list("Monster\n3 A\nTotal: 3\nExtra\nB x2\n// note\nSide\n14558127\n",
                           "l.txt", "p1")
    # a number is read as a passcode, and kept as typed: a card may be named so ("7")
    assert deck.select("section", "name", "passcode", "qty", "line").rows() == [
        ("main", "A", None, 3, 2), ("extra", "B", None, 2, 5),
        ("side", "14558127", 14558127, 1, 8)]


def test_zero_quantity_is_reported() -> None:
    with pytest.raises(InputError) as info:
        parse_text_list("0 Ash Blossom\n", "l.txt", "p1")
    assert info.value.line == 1


@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    with contextlib.suppress(InputError):
        parse_text_list(data, "l.txt", "d")


def test_a_name_keeps_its_printed_characters() -> None:
    # the line is read in NFKC for its quantity; the name keeps the full-width hyphen
    entries = parse_text_list("3 파괴검－드래곤버스터블레이드\n２ Maxx \"C\"\n", "d.txt", "d")
    assert entries["name"].to_list() == ["파괴검－드래곤버스터블레이드", 'Maxx "C"']
    assert entries["qty"].to_list() == [3, 2]


def test_the_exact_printed_name_reads_as_its_card(ygojson_db: CardDB) -> None:
    # YGOJSON prints Dragon Buster Destruction Sword's Korean name with "－" and gives
    # Wizard Buster Destruction Sword the same name with " - " (one key for both)
    entries = parse_text_list("1 파괴검－드래곤버스터블레이드\n", "d.txt", "d")
    out = resolve(entries, ygojson_db, load_format("advanced-tcg"))
    row = out.row(0, named=True)
    assert (row["status"], row["ambiguous"]) == ("ok", False)
    card = ygojson_db.by_card.filter(pl.col("card_id") == row["card_id"])
    assert card["name_en"].to_list() == ["Dragon Buster Destruction Sword"]


@pytest.mark.parametrize("line", [
    "a" + " " * (1 << 20) + "b", "3" + "\t" * (1 << 20) + "x", "Raigeki" + " x" * (1 << 19),
    "(" * (1 << 20), "Total" + " " * (1 << 20) + "1x",
], ids=["spaces", "tabs", "xs", "brackets", "total"])
def test_a_line_built_to_be_slow_is_reported_at_once(line: str) -> None:
    import time

    from validator.inputs.decks.textlist import read_text_list

    started = time.perf_counter()
    entries, problems = read_text_list(f"3 Raigeki\n{line}\n1 Pot of Greed\n", "d.txt", "p")
    assert time.perf_counter() - started < 2.0
    assert entries["name"].to_list() == ["Raigeki", "Pot of Greed"]
    assert [(p.code, p.line) for p in problems] == [("LINE_TOO_LONG", 2)]
