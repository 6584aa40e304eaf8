"""Deck codes: vectors written by the public implementations, detection by content, broken
codes as one problem each."""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import shared_path
from validator.cards.banlist import Banlist
from validator.cards.db import CardDB
from validator.cards.formats import load_format
from validator.engine.check import check
from validator.engine.resolve import resolve
from validator.engine.rules import unknown
from validator.errors import InputError, Problem
from validator.inputs.decks.batch import parse_sources, read_deck_file, read_deck_paths
from validator.inputs.decks.codes import (
    Code,
    is_code,
    parse_code,
    read_code,
    to_mycard,
    to_omega,
    to_ygomobile,
    ygomobile_link,
)
from validator.inputs.decks.sources import Source, upload_sources
from validator.inputs.decks.ydk import to_ydke
from validator.vocab import SECTIONS

VECTORS = json.loads((Path(__file__).parent / "vectors" / "code_vectors.json").read_text())
#: the one real Omega code of man-netcat/yugitoolbox's tests (tests/test.py, test_deck),
#: and what it holds, read by hand: 55 main and extra deck cards, 15 side, a cover card
OMEGA = ("M+ffLv2SpUJvAQMMO9oKsYDwLo1vjDB8NmIdy6HbV5hcbn5jgeHPrZdYYXiD8j0GGF4++wujxvadTDAcWZ3M"
         "MjFpHysM2y0pZBRbdIsJhFukVFlg+IygBxzf4drLBMNhunysOxo5mSUXdTGaH7Vn8Jq4lAmExeuPsYBwYLYx"
         "8wGp/ywgvFsrCY4/HX7HZLExmQWGnffdZYDh/LL3cHz8oi4zDJs8PsQIwyC7AQ==")
OMEGA_MAIN_AND_EXTRA = [
    82385847, 10497656, 10497656, 10497656, 68304193, 68304193, 32909498, 32909498, 32909498,
    78534861, 47504322, 83286340, 83286340, 83286340, 97682931, 97682931, 97682931, 14558128,
    14558128, 14558128, 32807847, 45725480, 45725480, 45725480, 73628505, 96363153, 96363153,
    96363153, 24224830, 47882774, 47882774, 69540484, 69540484, 69540484, 71832012, 71832012,
    71832012, 45943516, 45943516, 45943516, 84815190, 50954680, 25862681, 4179255, 44405066,
    44405066, 80117527, 80117527, 53701457, 83827392, 83827392, 73542331, 73542331, 73542331,
    49202162]
OMEGA_SIDE = [73642296] * 3 + [14532163] * 3 + [15693423] * 3 + [53334471] * 3 + [29549364] * 3
OMEGA_COVER = 45943516  # War Rock Mountain
#: the alternate artwork in it that neither YGOJSON nor EDOPro's cdb holds
OMEGA_UNKNOWN = 10497656
#: its Extra Deck monsters (Ancient Pixie Dragon … Baronne de Fleur)
OMEGA_EXTRA = [84815190, 50954680, 25862681, 4179255, 44405066, 44405066, 80117527, 80117527,
               53701457, 83827392, 83827392, 73542331, 73542331, 73542331, 49202162]
FMT = load_format("advanced-tcg")


def _windbot(name: str) -> dict[str, list[int]]:
    deck = read_deck_file(shared_path("decks", "windbot", f"{name}.ydk"))
    return {s: sorted(c for c, q in deck.filter(pl.col("section") == s).select(
        "passcode", "qty").iter_rows() for _ in range(q)) for s in SECTIONS}


def _sorted(code: Code) -> dict[str, list[int]]:
    return {s: sorted(cards) for s, cards in code.cards().items()}


def _in_file_order(name: str) -> dict[str, list[int]]:
    deck = read_deck_file(shared_path("decks", "windbot", f"{name}.ydk"))
    return {s: [c for c, q in deck.filter(pl.col("section") == s).select(
        "passcode", "qty").iter_rows() for _ in range(q)] for s in SECTIONS}


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["deck"])
def test_vectors_of_the_npm_package_decode_to_the_deck_they_were_made_from(
        vector: dict[str, object]) -> None:
    deck = _windbot(str(vector["deck"]))
    assert {s: vector[s] for s in SECTIONS} == deck  # as the package read the YDK
    for text in (str(vector["mycard"]), str(vector["ygomobile"])):
        code = read_code(text)
        assert isinstance(code, Code)
        assert {s: _sorted(code).get(s, []) for s in SECTIONS} == deck


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["deck"])
def test_the_writers_write_what_the_npm_package_writes(vector: dict[str, object]) -> None:
    """mycard codes byte for byte; a YGOMobile link too where the deck's copies of a card
    are on consecutive lines (the package writes runs of copies, this writer one entry per
    card: the same cards)."""
    deck = _in_file_order(str(vector["deck"]))
    assert to_mycard(deck["main"], deck["extra"], deck["side"]) == vector["mycard"]
    link = ygomobile_link(deck["main"], deck["extra"], deck["side"])
    runs = all(cards == sorted(cards, key=cards.index) for cards in deck.values())
    if runs:
        assert link == vector["ygomobile"]
    again = read_code(link)
    assert isinstance(again, Code)
    assert {s: _sorted(again).get(s, []) for s in SECTIONS} == _windbot(str(vector["deck"]))


def test_some_vector_deck_has_copies_apart() -> None:
    """The YGOMobile comparison above is skipped for such decks: at least one exists, so
    the package's runs and this writer's entries are both exercised."""
    decks = [_in_file_order(str(v["deck"])) for v in VECTORS["vectors"]]
    assert any(cards != sorted(cards, key=cards.index) for d in decks for cards in d.values())


def test_yugitoolboxs_omega_code_decodes_to_the_passcodes_it_holds() -> None:
    code = read_code(OMEGA)
    assert isinstance(code, Code)
    assert code.format == "omega"
    assert code.cards() == {"main_or_extra": OMEGA_MAIN_AND_EXTRA, "side": OMEGA_SIDE}
    assert code.cover == OMEGA_COVER
    # and the writer writes it back byte for byte, as YGO Omega and yugitoolbox do
    assert to_omega(OMEGA_MAIN_AND_EXTRA, [], OMEGA_SIDE, cover=OMEGA_COVER) == OMEGA


def test_omega_code_split_by_the_card_data_unknown_kept_in_main(
        real_db: CardDB, tcg_list: Banlist) -> None:
    entries = parse_code(OMEGA, "warrock.omega", "p1", line=1)
    assert set(entries["section"]) == {"main", "side"}
    resolved = resolve(entries, real_db, FMT)
    copies = {s: sorted(c for c, q in resolved.filter(pl.col("section") == s).select(
        "passcode", "qty").iter_rows() for _ in range(q)) for s in SECTIONS}
    assert copies["extra"] == sorted(OMEGA_EXTRA)
    assert copies["side"] == sorted(OMEGA_SIDE)
    assert len(copies["main"]) == 55 - len(OMEGA_EXTRA)
    assert resolved.filter(pl.col("status") == "unknown")["passcode"].unique().to_list() == [
        OMEGA_UNKNOWN]
    result = check(entries, cards=real_db, fmt=FMT, banlist=tcg_list)
    found = result.violations.filter(pl.col("code") == "UNKNOWN_CARD")
    assert found.select(pl.col("section").cast(pl.Utf8), "passcode", "count").rows() == [
        ("main", OMEGA_UNKNOWN, 3)]
    assert unknown._KEPT in found["message"][0]
    # an unknown passcode read from a YDK gets no such note
    plain = check(entries.with_columns(pl.lit(None, entries.schema["slot"]).alias("slot")),
                  cards=real_db, fmt=FMT, banlist=tcg_list)
    message = plain.violations.filter(pl.col("code") == "UNKNOWN_CARD")["message"][0]
    assert unknown._KEPT not in message


def test_every_card_name_is_read_as_a_name_not_a_code(real_db: CardDB) -> None:
    """A one-line text list naming one card (German names are often one word of letters)
    is never taken for a deck code."""
    names = real_db.names["name"].unique().to_list()
    words = [n for n in names if re.fullmatch(r"[A-Za-z0-9+/=_-]{16,}", n.strip())]
    assert len(words) > 1000  # many one-word names of code-like length
    assert [n for n in names if read_code(n) is not None] == []
    read = parse_sources([Source(f"{i}.txt", str(i), n.encode()) for i, n in
                          enumerate(words)], [])
    assert read.problems == []
    assert read.entries["name"].to_list() == words


def _read(data: bytes, label: str = "deck.txt") -> tuple[list[str], list[Problem]]:
    read = parse_sources([Source(label, "p1", data)], [])
    return read.ids, read.problems


def _one_problem(data: bytes, *formats: str) -> Problem:
    ids, problems = _read(data)
    assert ids == []
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.file, problem.code, problem.deck_id) == ("deck.txt", "BAD_DECK_CODE", None)
    for name in formats:
        assert name in problem.message
    return problem


def _omega(payload: bytes) -> bytes:
    deflate = zlib.compressobj(-1, zlib.DEFLATED, -15)
    return base64.b64encode(deflate.compress(payload) + deflate.flush())


def test_broken_codes_are_one_problem_each_naming_the_formats_tried() -> None:
    cards = struct.pack("<42I", *range(14558100, 14558142))
    good = _omega(bytes([42, 0]) + cards)
    assert len(good) >= 40
    assert _read(good)[0] == ["p1"]
    # bad base64: a character of neither alphabet in a code-length token, a length that
    # no base64 text has
    _one_problem(good[:30] + b"*" + good[30:], "Omega code", "mycard deck code")
    _one_problem(good.rstrip(b"=") + b"AB", "Omega code", "mycard deck code")
    # truncated DEFLATE
    whole = zlib.compressobj(-1, zlib.DEFLATED, -15)
    raw = whole.compress(bytes([42, 0]) + cards) + whole.flush()
    _one_problem(base64.b64encode(raw[:-3]), "Omega code", "mycard deck code")
    # counts past the end of the data
    _one_problem(_omega(bytes([40, 15]) + cards), "Omega code")
    # the unused section value 3 in a mycard code
    values = [14558127 | 0 << 28] * 12 + [14558127 | 3 << 28]
    text = base64.urlsafe_b64encode(struct.pack(f"<{len(values)}I", *values)).rstrip(b"=")
    _one_problem(text, "mycard deck code")
    # a YGOMobile link whose counts pass the end of its data
    link = ygomobile_link([14558127] * 3, [], []).replace("d=A", "d=_").encode()
    _one_problem(link, "YGOMobile link")
    # a ydke link in a message whose main part is not whole passcodes
    _one_problem(b"here is my deck: ydke://AAAAAA!!!", "ydke link")


def test_omega_code_with_trailing_bytes_or_a_wrong_cover_is_a_problem() -> None:
    cards = struct.pack("<12I", *range(14558120, 14558132))
    assert _read(_omega(bytes([12, 0]) + cards + struct.pack("<I", 7)))[0] == ["p1"]
    _one_problem(_omega(bytes([12, 0]) + cards + b"\x01\x02"), "Omega code")


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=30, max_size=400))
def test_any_bytes_as_an_omega_code_give_a_deck_or_one_problem(raw: bytes) -> None:
    ids, problems = _read(base64.b64encode(raw))
    assert (ids == ["p1"]) != (len(problems) == 1)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=2, max_size=300))
def test_any_inflated_payload_gives_a_deck_or_one_problem(payload: bytes) -> None:
    ids, problems = _read(_omega(payload).ljust(40, b"="))
    assert (ids == ["p1"]) != (len(problems) == 1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=10, max_size=80))
def test_any_mycard_values_give_a_deck_or_one_problem(values: list[int]) -> None:
    text = base64.urlsafe_b64encode(struct.pack(f"<{len(values)}I", *values)).rstrip(b"=")
    ids, problems = _read(text)
    assert (ids == ["p1"]) != (len(problems) == 1)
    assert (ids == ["p1"]) == all((v >> 28) & 3 != 3 for v in values)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_ygomobile_data_gives_a_deck_or_one_problem(raw: bytes) -> None:
    data = base64.urlsafe_b64encode(raw).rstrip(b"=")
    ids, problems = _read(b"http://deck.ourygo.top?ygotype=deck&v=1&d=" + data)
    assert (ids == ["p1"]) != (len(problems) == 1)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.sampled_from(["deck.txt", "deck.omega", "deck"]))
def test_any_bytes_in_any_deck_file_never_raise(data: bytes, label: str) -> None:
    read = parse_sources([Source(label, "p1", data)], [])
    assert read.ids == ["p1"] or read.problems


def test_a_folder_mixing_every_format_is_checked_in_one_batch(
        tmp_path: Path, real_db: CardDB, tcg_list: Banlist) -> None:
    vector = VECTORS["vectors"][0]
    deck = _in_file_order(str(vector["deck"]))
    ydk = shared_path("decks", "windbot", f"{vector['deck']}.ydk").read_bytes()
    entries = read_deck_file(shared_path("decks", "windbot", f"{vector['deck']}.ydk"))
    files = {
        "a.ydk": ydk,
        "b.ydke": to_ydke(entries).encode(),
        "c.omega": to_omega(deck["main"], deck["extra"], deck["side"]).encode() + b"\n",
        "d.txt": str(vector["mycard"]).encode(),
        "e.txt": f"my deck for saturday: {vector['ygomobile']}".encode(),
        "f": str(vector["mycard"]).encode(),  # no extension: a code, taken
        "g.txt": ("https://example.org/builder?deck=" + to_ydke(entries)[7:]).encode(),
        "README": b"not a deck",  # no extension, no code: skipped
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    read = read_deck_paths([tmp_path])
    assert read.problems == []
    assert read.ids == ["a", "b", "c", "d", "e", "f", "g"]
    result = check(read.entries, cards=real_db, fmt=FMT, banlist=tcg_list)
    per_deck = result.decks.select("deck_id", "status", "main", "extra", "side").rows()
    assert {row[1:] for row in per_deck} == {per_deck[0][1:]}  # every deck the same verdict
    assert per_deck[0][2:] == (40, 15, 15)


def test_pasted_lines_take_any_deck_code() -> None:
    vector = VECTORS["vectors"][1]
    pasted = "\n".join([f"1001 {OMEGA}", f"1002 {vector['mycard']}",
                        f"Ana Lee {vector['ygomobile']}", "1004 ydke://!!!", "1005 hello"])
    sources, problems = upload_sources([], pasted)
    assert [(s.deck_id, s.kind) for s in sources] == [
        ("1001", "code"), ("1002", "code"), ("Ana Lee", "code"), ("1004", "ydke")]
    assert [(p.file, p.line) for p in problems] == [("pasted links", 5)]
    read = parse_sources(sources, problems)
    assert read.ids == ["1001", "1002", "Ana Lee", "1004"]


def test_uploads_without_an_extension_are_taken_by_content() -> None:
    sources, problems = upload_sources([("deck", OMEGA.encode()), ("x.omega", OMEGA.encode()),
                                        ("notes", b"hello")], "")
    assert [s.deck_id for s in sources] == ["deck", "x"]
    assert [p.file for p in problems] == ["notes"]


def test_is_code_tells_codes_from_text() -> None:
    assert is_code(OMEGA)
    assert is_code(OMEGA.encode())
    assert is_code(str(VECTORS["vectors"][0]["ygomobile"]))
    assert not is_code("3 Ash Blossom & Joyous Spring\n3 Maxx \"C\"")
    assert not is_code("Naturkatastrophe")
    with pytest.raises(InputError):
        parse_code("Naturkatastrophe", "cell", "p1")


def test_to_ygomobile_writes_runs_of_at_most_three() -> None:
    code = read_code("http://deck.ourygo.top?ygotype=deck&v=1&d="
                     + to_ygomobile([5] * 7, [], []))
    assert isinstance(code, Code)
    assert code.counts.tolist() == [3, 3, 1]
    assert code.cards() == {"main": [5] * 7}


@pytest.mark.parametrize("text", [
    "?" * 60_000 + "!!", "?a" + "a" * 60_000 + "!", "x" * 60_000 + " ygotype=deck",
    "#" + "A" * 60_000 + "!!x", "ydke://" + "A" * 60_000, "&=" * 30_000 + "!",
], ids=range(6))
def test_a_text_built_to_be_slow_is_no_code_at_once(text: str) -> None:
    import time

    started = time.perf_counter()
    read_code(text)
    is_code(text.encode())
    assert time.perf_counter() - started < 1.0


def test_a_ydke_value_of_a_share_address_is_read_whole() -> None:
    main = base64.b64encode(struct.pack("<3I", *[89631139] * 3)).decode()
    link = f"https://example.com/deck#{main}!!!"
    decoded = read_code(link)
    assert isinstance(decoded, Code)
    assert decoded.cards()["main"] == [89631139] * 3
