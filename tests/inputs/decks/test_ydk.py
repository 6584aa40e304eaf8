from __future__ import annotations

import contextlib
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import shared_path
from validator.errors import InputError
from validator.inputs.decks.batch import read_deck_file
from validator.inputs.decks.ydk import (
    parse_ydk,
    parse_ydke,
    to_ydk,
    to_ydke,
    ydk_table,
)
from validator.inputs.entries import entries_frame
from validator.vocab import SECTIONS


def _copies(deck: pl.DataFrame) -> list[tuple[str, int]]:
    """Every copy in the deck, in order (a row of ``qty`` copies is that many)."""
    return [(section, code) for section, code, qty in deck.select(
        "section", "passcode", "qty").iter_rows() for _ in range(qty)]


def _windbot() -> list[Path]:
    return sorted(shared_path("decks", "windbot").glob("*.ydk"))


def test_all_69_windbot_decks_read_and_round_trip() -> None:
    decks = _windbot()
    assert len(decks) == 69
    for path in decks:
        deck = read_deck_file(path)
        assert deck["qty"].sum() >= 40, path.name
        link = to_ydke(deck)
        again = parse_ydke(link, "link", path.stem)
        assert _copies(again) == _copies(deck), path.name
        assert to_ydke(again) == link
        ydk_again = parse_ydk(to_ydk(deck), "x.ydk", path.stem)
        assert _copies(ydk_again) == _copies(deck)


def test_ydk_sections_comments_crlf_bom() -> None:
    text = ("\ufeff#created by someone\r\n#main\r\n123\r\n\r\n123\r\n#extra\r\n456\r\n"
            "!side\r\n789\r\n")
    deck = parse_ydk(text.encode(), "d.ydk", "d")
    assert deck.select("section", "passcode", "qty", "line").rows() == [
        ("main", 123, 2, 3), ("extra", 456, 1, 7), ("side", 789, 1, 9)]


def test_ydk_copies_on_consecutive_lines_are_one_entry_at_the_first_line() -> None:
    text = "#main\n1\n1\n\n# note\n1\n2\n1\n#extra\n2\n2\n!side\n2\n"
    deck = parse_ydk(text, "d.ydk", "d")
    assert deck.select("section", "passcode", "qty", "line").rows() == [
        ("main", 1, 3, 2), ("main", 2, 1, 7), ("main", 1, 1, 8), ("extra", 2, 2, 10),
        ("side", 2, 1, 13)]


def test_ydk_many_files_in_one_table_keep_their_own_sections_and_lines() -> None:
    texts: list[bytes | str] = [b"!side\n1\n", b"2\r3\r#EXTRA\r4\r", b"", b"#created\n5\n",
                                "\ufeff  #Main  \n\n6\nx\n"]
    entries, problems = ydk_table([f"f{i}" for i in range(5)], [f"d{i}" for i in range(5)],
                                  texts)
    assert entries.select("deck_id", "section", "passcode", "line").rows() == [
        ("d0", "side", 1, 2), ("d1", "main", 2, 1), ("d1", "main", 3, 2),
        ("d1", "extra", 4, 4), ("d3", "main", 5, 2), ("d4", "main", 6, 3)]
    assert [(p.file, p.line, p.section) for p in problems] == [("f4", 4, "main")]


def test_ydk_bad_lines_are_reported_with_line_numbers() -> None:
    with pytest.raises(InputError) as info:
        parse_ydk("#main\n123\nDark Magician\n12a\n", "d.ydk", "d")
    assert [p.line for p in info.value.problems] == [3, 4]


def test_ydke_known_link() -> None:
    # 14558127 little-endian is af 24 de 00 -> base64 "rx7eAA==" ... built, not pasted
    deck = entries_frame([{"deck_id": "d", "section": "main", "passcode": 14558127, "qty": 3},
                          {"deck_id": "d", "section": "side", "passcode": 1, "qty": 1}])
    link = to_ydke(deck)
    assert link.startswith("ydke://")
    assert link.endswith("!")
    parsed = parse_ydke(link, "f", "d")
    assert parsed["passcode"].to_list() == [14558127] * 3 + [1]
    assert parsed["section"].to_list() == ["main"] * 3 + ["side"]


@pytest.mark.parametrize("link", ["ydke://", "ydke://AAAA!", "ydke://@@@@!!!", "ydke://AAA!!!",
                                  "http://x", "ydke://!!!extra"])
def test_bad_ydke_links(link: str) -> None:
    with pytest.raises(InputError):
        parse_ydke(link, "f", "d")


@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash_ydk(data: bytes) -> None:
    with contextlib.suppress(InputError):
        parse_ydk(data, "f.ydk", "d")


@given(st.text(max_size=200))
def test_arbitrary_text_never_crash_ydke(text: str) -> None:
    with contextlib.suppress(InputError):
        parse_ydke("ydke://" + text, "f", "d")


_sections = st.sampled_from(SECTIONS)
_cards = st.lists(st.tuples(_sections, st.integers(min_value=0, max_value=2**32 - 1)),
                  max_size=80)


@given(_cards)
def test_write_then_read_is_identity(cards: list[tuple[str, int]]) -> None:
    rows = [{"deck_id": "d", "section": s, "passcode": c, "qty": 1} for s, c in cards]
    deck = entries_frame(rows).sort(pl.col("section").to_physical(), maintain_order=True)
    expected = deck.select("section", "passcode").rows()
    assert parse_ydke(to_ydke(deck), "f", "d").select("section", "passcode").rows() == expected
    assert _copies(parse_ydk(to_ydk(deck), "f", "d")) == expected


def test_a_file_that_is_not_utf8_is_reported_and_the_others_are_read() -> None:
    texts: list[bytes | str] = [b"#main\n1\n", b"#main\n2\n\xff\n3\n", "\ufeff#main\n4\n",
                                b"\xef\xbb\xbf#main\n5\n"]
    entries, problems = ydk_table(["a", "b", "c", "d"], ["a", "b", "c", "d"], texts)
    assert entries.select("deck_id", "passcode").rows() == [("a", 1), ("c", 4), ("d", 5)]
    assert [(p.file, p.line, p.code) for p in problems] == [("b", None, "NOT_UTF8")]


def test_a_passcode_is_one_to_ten_digits_below_two_to_the_32() -> None:
    text = "#main\n+5\n4294967296\n00000000001\n 12 \n-3\n4294967295\n0000000001\n"
    with pytest.raises(InputError) as info:
        parse_ydk(text, "d.ydk", "d")
    assert [(p.line, p.code) for p in info.value.problems] == [
        (2, "BAD_PASSCODE"), (3, "BAD_PASSCODE"), (4, "BAD_PASSCODE"), (6, "BAD_PASSCODE")]
    entries, _ = ydk_table(["d.ydk"], ["d"], [text])
    assert entries.select("passcode", "line").rows() == [(12, 5), (4294967295, 7), (1, 8)]


def test_a_batch_parsed_in_parts_side_by_side_equals_one_part(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from validator.inputs.decks import ydk

    paths = _windbot()[:10]
    datas: list[bytes | str] = [p.read_bytes() for p in paths]
    datas[4] = b"#main\n1\nnot a passcode\n\xff\n"  # a file that is not UTF-8
    datas[7] = "#main\n2\nbad line\n"
    labels = [p.name for p in paths]
    ids = [p.stem for p in paths]
    whole, whole_problems = ydk_table(labels, ids, datas)
    monkeypatch.setattr(ydk, "PART_FILES", 3)
    parts, part_problems = ydk_table(labels, ids, datas)
    assert parts.equals(whole)
    assert parts.n_chunks() == 1
    assert part_problems == whole_problems
    assert [(p.file, p.line, p.code) for p in part_problems] == [
        (labels[4], None, "NOT_UTF8"), (labels[7], 3, "BAD_PASSCODE")]


def test_text_with_a_lone_surrogate_is_reported_not_crashed_on() -> None:
    entries, problems = ydk_table(["a", "b"], ["a", "b"], ["#main\n1\n", "#main\n\ud800\n2\n"])
    assert entries.select("deck_id", "passcode").rows() == [("a", 1)]
    assert [(p.file, p.code) for p in problems] == [("b", "NOT_UTF8")]


#: pieces of lines: passcodes bare and with spaces or a CR around them, a "+", too many
#: digits, headers, comments, blank and bad lines
_PIECES = ["1", "22", "4294967295", "4294967296", "00000000001", "+5", " 7 ", "\t8", "7\u3000",
           "#main", "#EXTRA", "!side", "#created by x", "#", "", " ", "x", "１２", "-3", "\ufeff"]
_BREAKS = ["\n", "\r\n", "\r"]
_FILE = st.lists(st.tuples(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=2)
                           .map("".join), st.sampled_from(_BREAKS)), max_size=12)


#: one entry read: section, passcode, copies, line
_Entry = tuple[str, int, int, int]


def _read_as_plain_python(text: str, file: str) -> tuple[list[_Entry],
                                                         list[tuple[str, int, str]]]:
    """A YDK file read line by line: its entries, and its bad lines (file, line, code)."""
    headers = {"#main": "main", "#extra": "extra", "!side": "side"}
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    section = "main"
    entries: list[_Entry] = []
    bad: list[tuple[str, int, str]] = []
    for number, line in enumerate(lines, start=1):
        typed = line.strip()
        if typed.isascii() and typed.isdigit() and len(typed) <= 10 and int(typed) < 2**32:
            last = entries[-1] if entries else None
            if last is not None and last[:2] == (section, int(typed)):
                entries[-1] = (section, int(typed), last[2] + 1, last[3])
            else:
                entries.append((section, int(typed), 1, number))
        elif typed.startswith(("#", "!")):
            section = headers.get(typed.lower(), section)
        elif typed:
            bad.append((file, number, "BAD_PASSCODE"))
    return entries, bad


@given(st.lists(_FILE, min_size=1, max_size=6))
def test_many_files_read_together_are_each_file_read_line_by_line(
        files: list[list[tuple[str, str]]]) -> None:
    texts = ["".join(line + end for line, end in lines) for lines in files]
    names = [f"d{i}.ydk" for i in range(len(texts))]
    entries, problems = ydk_table(names, [n[:-4] for n in names], list(texts))
    expected: list[tuple[object, ...]] = []
    bad: list[tuple[str, int, str]] = []
    for name, text in zip(names, texts, strict=True):
        found, wrong = _read_as_plain_python(text, name)
        expected += [(name, *entry) for entry in found]
        bad += wrong
    assert entries.select("file", "section", "passcode", "qty", "line").rows() == expected
    assert [(p.file, p.line, p.code) for p in problems] == bad
