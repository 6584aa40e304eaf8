"""Every deck source parsed in one batch: YDK files together, ydke links, text lists."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.archives import zip_bytes
from validator.errors import InputError
from validator.inputs.decks.batch import (
    _kind,
    parse_sources,
    read_deck_file,
    read_deck_paths,
    read_deck_uploads,
    ydk_parts,
)
from validator.inputs.decks.sources import Source
from validator.inputs.decks.ydk import to_ydke
from validator.inputs.entries import entries_frame

ROOT = Path(__file__).resolve().parent.parent.parent.parent
LINK = to_ydke(entries_frame([{"deck_id": "x", "section": "main", "passcode": 14558127, "qty": 2},
                              {"deck_id": "x", "section": "side", "passcode": 55144522, "qty": 1}]))
#: one source of each kind, a deck without cards, and sources that cannot be read
SOURCES = [
    Source("a.ydk", "a", b"#main\n55144522\n55144522\n!side\n12580477\n"),
    Source("b.txt", "b", b"3 Raigeki\nSide\n1 Pot of Greed\n"),
    Source("c.ydke", "c", LINK.encode()),
    Source("d.ydk", "d", b"#main\n"),
    Source("e.txt", "e", b"ydke://%%%!!!"),
    Source("f.ydk", "f", b"#main\nnope\n55144522\n"),
    Source("pasted links", "g", LINK.encode(), kind="ydke"),
]


@pytest.mark.parametrize(("source", "kind"), [
    (Source("a.ydk", "a", b"#created by ..."), "ydk"),
    (Source("a.YDK", "a", b"55144522\n"), "ydk"),  # by its name
    (Source("a.txt", "a", b"\xef\xbb\xbf #main\n1\n"), "ydk"),  # by its first line
    (Source("a.txt", "a", b"!side\n1\n"), "ydk"),
    (Source("a.txt", "a", b"\n  YDKE://AQAAAA==!!!"), "ydke"),
    (Source("a.ydk", "a", b"ydke://AQAAAA==!!!"), "ydke"),
    (Source("a.txt", "a", b"3 Raigeki"), "text"),
    (Source("a.txt", "a", b"3 Raigeki", kind="ydke"), "ydke"),  # as the source says
])
def test_a_source_is_parsed_by_its_content(source: Source, kind: str) -> None:
    assert _kind(source) == kind


def test_each_kind_is_parsed_and_every_readable_deck_is_listed_in_source_order() -> None:
    read = parse_sources(SOURCES, [])
    assert read.ids == ["a", "b", "c", "d", "f", "g"]  # d has no card; e cannot be read
    assert sorted(read.entries.select("deck_id", pl.col("section").cast(pl.Utf8), "passcode",
                                      "name", "qty", "file", "line").rows(),
                  key=str) == sorted([
        ("a", "main", 55144522, None, 2, "a.ydk", 2),
        ("a", "side", 12580477, None, 1, "a.ydk", 5),
        ("b", "main", None, "Raigeki", 3, "b.txt", 1),
        ("b", "side", None, "Pot of Greed", 1, "b.txt", 3),
        *[("c", "main", 14558127, None, 1, "c.ydke", 1)] * 2,
        ("c", "side", 55144522, None, 1, "c.ydke", 1),
        ("f", "main", 55144522, None, 1, "f.ydk", 3),
        *[("g", "main", 14558127, None, 1, "pasted links", None)] * 2,
        ("g", "side", 55144522, None, 1, "pasted links", None)], key=str)
    assert read.labels == {s.deck_id: s.label for s in SOURCES}


@pytest.mark.parametrize("sources", [SOURCES, [s for s in SOURCES if _kind(s) == "ydk"],
                                     SOURCES[::-1]])
def test_sources_parsed_as_they_are_taken_are_read_as_parsed_after(
        sources: list[Source]) -> None:
    parts, take = ydk_parts()
    for source in sources:
        take(source)
    assert parts.kinds == [_kind(s) for s in sources]
    taken, after = parse_sources(sources, [], parts), parse_sources(sources, [])
    assert taken.ids == after.ids == [s.deck_id for s in sources if s.deck_id != "e"]
    assert taken.entries.equals(after.entries)
    assert taken.problems == after.problems
    assert taken.entries.height > 0


def test_a_line_that_cannot_be_read_is_a_problem_of_its_deck() -> None:
    read = parse_sources(SOURCES, [])
    assert [(p.file, p.line, p.deck_id) for p in read.problems] == [
        ("f.ydk", 2, "f"), ("e.txt", 1, None)]
    assert [(p.file, p.line) for p in read.unreadable()] == [("f.ydk", 2)]  # a decision


def test_problems_found_before_parsing_are_kept() -> None:
    earlier = read_deck_uploads([("notes.md", b"")]).problems
    read = parse_sources(SOURCES[:1], earlier)
    assert [p.file for p in read.problems] == ["notes.md"]
    assert read.ids == ["a"]


def test_no_sources_is_no_deck() -> None:
    read = parse_sources([], [])
    assert (read.ids, read.problems, read.labels, read.entries.height) == ([], [], {}, 0)


@pytest.mark.parametrize(("folder", "decks", "entries", "cards"), [
    ("tcg", 64, 2398, 4480),
    ("rush", 16, 258, 737),
])
def test_the_sample_decks_are_read_whole(folder: str, decks: int, entries: int,
                                         cards: int) -> None:
    read = read_deck_paths([ROOT / "decks" / folder])
    assert read.problems == []
    assert (len(read.ids), read.entries.height, int(read.entries["qty"].sum())) == (
        decks, entries, cards)
    assert read.ids == sorted(p.stem for p in (ROOT / "decks" / folder).glob("*.ydk"))
    assert read.labels[read.ids[0]] == str(ROOT / "decks" / folder / f"{read.ids[0]}.ydk")


def test_progress_follows_the_files_as_they_are_read(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.ydk").write_text("#main\n55144522\n")
    seen: list[tuple[int, int]] = []
    read = read_deck_paths([tmp_path], progress=lambda done, total: seen.append((done, total)))
    assert read.ids == ["a", "b", "c"]
    assert seen[-1] == (3, 3)




def test_uploads_and_pasted_links_are_read_without_a_file() -> None:
    read = read_deck_uploads(
        [("C:\\decks\\a.ydk", b"#main\n55144522\n"),
         ("more.zip", zip_bytes({"b.txt": b"1 Raigeki\n"})), ("notes.md", b"")],
        pasted=f"0400000001 {LINK}\n\nnot a link\n")
    assert read.ids == ["a", "b", "0400000001"]
    assert dict(read.entries.group_by("deck_id").agg(pl.col("qty").sum()).iter_rows()) == {
        "a": 1, "b": 1, "0400000001": 3}
    assert [(p.file, p.line) for p in read.problems] == [("notes.md", None),
                                                         ("pasted links", 3)]


@pytest.mark.parametrize(("content", "rows"), [
    (b"#main\n55144522\n!side\n12580477\n", [(55144522, None, "main"), (12580477, None, "side")]),
    (LINK.encode(), [(14558127, None, "main")] * 2 + [(55144522, None, "side")]),
    (b"3 Raigeki\n", [(None, "Raigeki", "main")]),
])
def test_a_deck_file_is_read_by_its_content(tmp_path: Path, content: bytes,
                                            rows: list[tuple[int | None, str | None, str]]
                                            ) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(content)
    entries = read_deck_file(path, "p1")
    assert entries.select("passcode", "name", pl.col("section").cast(pl.Utf8)).rows() == rows
    assert set(entries["deck_id"]) == {"p1"}
    assert set(read_deck_file(path)["deck_id"]) == {"deck"}  # by default, the file's stem


def test_a_deck_file_with_an_unreadable_line_raises_it(tmp_path: Path) -> None:
    path = tmp_path / "deck.ydk"
    path.write_text("#main\nnope\n")
    with pytest.raises(InputError) as raised:
        read_deck_file(path)
    assert [(p.file, p.line) for p in raised.value.problems] == [(str(path), 2)]


def test_a_text_list_with_a_utf8_bom_and_broken_text_is_a_problem_of_its_file() -> None:
    read = parse_sources([Source("t.txt", "t", b"\xef\xbb\xbf3 Caf\xe9\n"), SOURCES[0]], [])
    assert [(p.file, p.line) for p in read.problems] == [("t.txt", None)]
    assert read.ids == ["a"]
    assert set(read.entries["file"]) == {"a.ydk"}
